package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.ddl.DdlCoordinator;
import io.cdcconnect.sink.ddl.DdlPolicy;
import io.cdcconnect.sink.dialect.Dialects;
import io.cdcconnect.sink.apply.RejectedRows;
import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.apply.SchemaAllowList;
import io.cdcconnect.codec.UnavailableException;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.decode.RecordDecoder;
import io.cdcconnect.sink.decode.DecodeStage;
import io.cdcconnect.sink.decode.RecordDecoders;
import io.cdcconnect.codec.metrics.MetricsJmx;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.PartitionControl;
import io.cdcconnect.sink.txn.SourcePartition;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;

/**
 * Connect's side of the sink: decodes records, hands them to the {@link SinkPipeline}, reports applied offsets.
 *
 * <p>Offsets: {@link #preCommit} returns, per partition, the next offset after the longest prefix of records whose
 * rows are all committed downstream; Connect commits nothing beyond it. Undecodable records go to the errant-record
 * reporter (dead-letter queue) when Connect provides one, else fail the task naming topic, partition and offset.
 *
 * <p>Rows the target rejects for their data (value too long, out of range, NOT NULL, ...) go to the same reporter
 * with {@code errors.tolerance=all}, while the rest of their transaction is applied ({@link RejectedRows}); to send
 * the original record, the task keeps each record that carries rows until its offset is applied. Otherwise such a
 * row fails the task naming where it came from.
 *
 * <p>An outage of what decoding needs (schema registry, claim-check store: {@link UnavailableException}) is not a bad
 * record: the record is decoded again with backoff under {@code retry.max.attempts}/{@code retry.backoff.ms}, then
 * the task fails saying what is down; nothing goes to the dead-letter queue and no offset past it is committed.
 */
public final class CdcSinkTask extends SinkTask {

    private static final Logger LOG = LoggerFactory.getLogger(CdcSinkTask.class);
    /** Connect's setting (ConnectorConfig.ERRORS_TOLERANCE_CONFIG): none (default) or all. */
    static final String ERRORS_TOLERANCE = "errors.tolerance";
    /** How soon Connect calls put() again while something waits that only a re-check can release. */
    static final long RECHECK_MS = 200;

    private CdcSinkConfig config;
    private RecordDecoder decoder;
    /** Decodes a put()'s records ahead of the task thread ({@code decode.threads}). */
    private DecodeStage decodeStage;
    private SinkPipeline pipeline;
    private SinkMetrics metrics;
    private ErrantRecordReporter reporter;
    private DdlPolicy ddlPolicy;
    /** The schemas a message may change ({@code schema.map}'s targets, {@code schema.include}). */
    private SchemaAllowList allowList;
    private RetryPolicy decodeRetry;
    /** errors.tolerance=all with a reporter: rows the target rejects go to the dead-letter queue. */
    private boolean rowsTolerated;
    /** Records that carry rows, per partition and offset, until applied: a rejected row's record is reported whole. */
    private final Map<SourcePartition, ConcurrentSkipListMap<Long, SinkRecord>> retained = new ConcurrentHashMap<>();
    /**
     * Records a {@code put()} did not reach because the buffer stayed full past {@code buffer.max.wait.ms}: kept as
     * they arrived, undecoded, and taken in order before the next {@code put()}'s records (the partitions are paused
     * meanwhile, so Connect hands over nothing more for them).
     */
    private final List<SinkRecord> deferred = new java.util.ArrayList<>();

    /** Where a task's pipeline comes from: the target over JDBC, or a model of it (the simulation of the core). */
    interface PipelineFactory {
        SinkPipeline start(CdcSinkConfig config, SinkMetrics metrics, String poolName, String connector);
    }

    private final PipelineFactory pipelines;
    private final boolean jmx;

    public CdcSinkTask() {
        this(SinkPipeline::start, true);
    }

    /** A task on another pipeline, with metrics in memory only when {@code jmx} is false. */
    CdcSinkTask(PipelineFactory pipelines, boolean jmx) {
        this.pipelines = pipelines;
        this.jmx = jmx;
    }

    @Override
    public String version() {
        return Version.get();
    }

    /**
     * The worker's plugin metrics (KIP-877, Kafka 4.1+), or null where there are none: an older worker's context has
     * no such method (and its Kafka no such class), a stand-in context throws. A plain call, never a lambda or a
     * method reference, whose linking would load {@code PluginMetrics} outside this {@code try} (see
     * {@link io.cdcconnect.codec.metrics.WorkerMetrics}).
     */
    static org.apache.kafka.common.metrics.PluginMetrics pluginMetrics(
            org.apache.kafka.connect.sink.SinkTaskContext context) {
        if (context == null) return null;
        try {
            return context.pluginMetrics();
        } catch (LinkageError | UnsupportedOperationException e) {
            return null;
        }
    }

    @Override
    public void start(Map<String, String> props) {
        config = new CdcSinkConfig(props);
        TransportWarnings.log(config);
        String transformWarning = io.cdcconnect.codec.ConverterRules.transformWarning(
                "sink " + props.getOrDefault("name", "cdc-sink"), config.inputWireFormat(), props);
        if (transformWarning != null) LOG.warn(transformWarning);
        ddlPolicy = DdlPolicy.parse(config.ddlApply(), config.ddlCheckpointDatabase(),
                Dialects.forUrl(config.connectionUrl()).systemSchemas());
        allowList = SchemaAllowList.forConfig(config);
        String connector = props.getOrDefault("name", "cdc-sink");
        // the worker's own metrics (Kafka 4.1+), which also tell the task its number
        org.apache.kafka.common.metrics.PluginMetrics pluginMetrics = pluginMetrics(context);
        String taskId = MetricsJmx.taskId(props, connector, pluginMetrics);

        // the schedule only: what is retried there is an outage of what decoding needs, not a SQL error
        decodeRetry = RetryPolicy.fromSettings(config.retryMaxAttempts(), config.retryBackoffMs(), e -> false);
        metrics = jmx ? SinkMetrics.jmx(connector, taskId, pluginMetrics) : SinkMetrics.inMemory(connector, taskId);
        // records a decoder skips on purpose count in this task's metrics
        io.cdcconnect.sink.decode.SkippedRecords skipped = io.cdcconnect.sink.decode.SkippedRecords.counted(metrics);
        decoder = RecordDecoders.forConfig(config, skipped);
        decodeStage = new DecodeStage(() -> RecordDecoders.forConfig(config, skipped), config.decodeThreads(),
                config.decodeAheadMaxBytes(), "cdc-sink-" + connector + "-" + taskId);
        try {
            reporter = context != null ? context.errantRecordReporter() : null;
        } catch (NoSuchMethodError | NoClassDefFoundError e) {
            reporter = null; // a worker older than Kafka 2.6
        }
        // Connect passes the connector's own settings, errors.* included, to each task
        rowsTolerated = reporter != null && "all".equalsIgnoreCase(props.get(ERRORS_TOLERANCE));
        try {
            pipeline = pipelines.start(config, metrics, "cdc-sink-" + connector + "-" + taskId, connector);
        } catch (RuntimeException e) {
            metrics.close();
            decodeStage.close();
            throw new ConnectException(e.getMessage(), e);
        }
        pipeline.setRejectedRows(new RejectedRows() {
            @Override
            public boolean tolerated() {
                return rowsTolerated;
            }

            @Override
            public void report(SourcePartition partition, long offset, String reason, Throwable cause) {
                reportRejectedRow(partition, offset, reason, cause);
            }
        });
        if (context != null) {
            pipeline.setPartitionControl(new PartitionControl() {
                @Override
                public void pause(SourcePartition p) {
                    context.pause(new TopicPartition(p.topic(), p.partition()));
                }

                @Override
                public void resume(SourcePartition p) {
                    context.resume(new TopicPartition(p.topic(), p.partition()));
                }
            });
        }
        LOG.info("Started cdc-connect sink task {} of {} (input.format={}, dead-letter reporting {}, rows the target "
                        + "rejects {})", taskId, connector, config.inputFormat(),
                reporter != null ? "available" : "unavailable",
                rowsTolerated ? "go to the dead-letter queue" : "fail the task");
    }


    @Override
    public void open(Collection<TopicPartition> partitions) {
        if (pipeline == null) return;
        // rows of newly assigned partitions may have been applied by a previous owner: replay them safely
        pipeline.openWindow();
        pipeline.assign(partitions.stream().map(tp -> new SourcePartition(tp.topic(), tp.partition())).toList());
        // a newly assigned partition holds nothing here. Connect keeps the partitions a task paused across a
        // rebalance and pauses them again when they come back: one this task paused behind a DDL or a full buffer
        // before it was revoked would stay paused for good (docs/ordering.md, "assign")
        resume(partitions);
    }

    /** Resumes partitions Connect may still have paused for this task; one no longer assigned is left alone. */
    private void resume(Collection<TopicPartition> partitions) {
        if (context == null || partitions.isEmpty()) return;
        try {
            context.resume(partitions.toArray(new TopicPartition[0]));
        } catch (RuntimeException e) {
            // revoked under a cooperative rebalance: the consumer no longer knows it, and it is no longer paused
            for (TopicPartition tp : partitions) {
                try {
                    context.resume(tp);
                } catch (RuntimeException gone) {
                    LOG.debug("{} not resumed: {}", tp, gone.getMessage());
                }
            }
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        Set<SourcePartition> active = new HashSet<>();
        if (rowsTolerated) releaseApplied();
        List<SinkRecord> all = records instanceof List<SinkRecord> l ? l : List.copyOf(records);
        if (!deferred.isEmpty()) {
            // what the last put() did not reach goes first: every partition keeps its order
            List<SinkRecord> before = new java.util.ArrayList<>(deferred.size() + all.size());
            before.addAll(deferred);
            before.addAll(all);
            deferred.clear();
            all = before;
        }
        DecodeStage.Batch batch = decodeStage.decode(all);
        boolean done = false;
        try {
            pipeline.beginBatch();
            SourcePartition p = null;
            for (int i = 0; i < batch.size(); i++) {
                SinkRecord record = batch.record(i);
                // where the record is in Kafka, whatever a transform renamed (KIP-793): Connect commits and pauses
                // by these, and the checkpoint and the order are kept by them
                String topic = Coordinates.topic(record);
                int partitionNumber = Coordinates.partition(record);
                // Connect hands records over partition by partition: one SourcePartition per run of them
                if (p == null || partitionNumber != p.partition() || !topic.equals(p.topic())) {
                    p = new SourcePartition(topic, partitionNumber);
                    active.add(p);
                }
                long offset = Coordinates.offset(record);
                DecodeStage.Decoded decoded = batch.get(i);
                List<ChangeEvent> events = decoded.events();
                long bytes = decoded.bytes();
                RuntimeException error = decoded.error();
                if (error instanceof UnavailableException) {
                    // what decoding needs is down: wait it out here, in order, with the retry schedule
                    try {
                        events = decode(record);
                        bytes = decoder.sizeOf(record, events);
                        error = null;
                    } catch (OutageException e) {
                        throw e;
                    } catch (RuntimeException e) {
                        error = e; // back, and the record itself is bad
                    }
                }
                if (error != null) {
                    reportErrant(record, error, "cannot decode the record at %s as " + config.inputFormat());
                    events = List.of();
                    bytes = 0;
                }
                try {
                    events = screenDdl(events, record);
                } catch (DdlRefusedException e) {
                    reportErrant(record, e, "refused the DDL statement of the record at %s");
                    events = List.of();
                }
                String refused = refusedSchema(events);
                if (refused != null) {
                    reportErrant(record, new SchemaRefusedException(refused),
                            "refused the rows of the record at %s");
                    events = List.of();
                }
                if (rowsTolerated && mayBeRejected(events)) {
                    retained.computeIfAbsent(p, k -> new ConcurrentSkipListMap<>()).put(offset, record);
                }
                pipeline.accept(p, offset, events, bytes, ddlCopies(record, events));
                if (pipeline.waitingForRoom() && i + 1 < batch.size()) {
                    // the buffer stayed full past buffer.max.wait.ms and the partitions are paused: the records not
                    // reached wait as they arrived, not decoded, for a later put()
                    deferred.addAll(all.subList(i + 1, all.size()));
                    for (SinkRecord r : deferred) {
                        active.add(new SourcePartition(Coordinates.topic(r), Coordinates.partition(r)));
                    }
                    break;
                }
            }
            if ((pipeline.endBatch(active) || !deferred.isEmpty()) && context != null) {
                // a statement waits on other tasks, or partitions are held: come back soon even if every partition
                // is paused (Connect's poll would otherwise block until its next offset commit)
                context.timeout(RECHECK_MS);
            }
            done = true;
        } catch (ApplyException e) {
            throw new ConnectException(e.getMessage(), e);
        } finally {
            // abandoned (the put() failed), or records deferred: what was decoded ahead is dropped
            if (!done || !deferred.isEmpty()) batch.cancel();
        }
    }

    /** The stage that decodes each put()'s records ahead of the task thread (for tests). */
    DecodeStage decodeStage() {
        return decodeStage;
    }

    /** Records waiting, undecoded, for a later put() (for tests). */
    int deferredRecords() {
        return deferred.size();
    }

    /**
     * Decodes a record, waiting out an outage of what decoding needs (schema registry, claim-check store) with the
     * backoff of {@code retry.max.attempts}/{@code retry.backoff.ms}; a malformed record throws at once.
     *
     * @throws ConnectException when the outage outlasts the retries: the task fails, nothing reported as errant
     */
    private List<ChangeEvent> decode(SinkRecord record) {
        long start = System.currentTimeMillis();
        for (int attempt = 0; ; attempt++) {
            try {
                return decoder.decode(record);
            } catch (UnavailableException e) {
                String where = where(record);
                if (attempt >= decodeRetry.maxRetries()) {
                    throw new OutageException(e.resource() + " is unavailable: the record at " + where
                            + " could not be decoded after " + (attempt + 1) + " attempts over "
                            + (System.currentTimeMillis() - start) / 1000 + " s (" + CdcSinkConfig.RETRY_MAX_ATTEMPTS
                            + ", " + CdcSinkConfig.RETRY_BACKOFF_MS + "); last: " + e.getMessage() + ". The record was"
                            + " not sent to the dead-letter queue and no offset from it on is committed: restarting "
                            + "the task once the " + e.resource() + " is back resumes from there without loss", e);
                }
                long backoff = decodeRetry.backoffMillis(attempt);
                LOG.warn("{} is unavailable while decoding the record at {}; retry {} of {} in {} ms: {}", e.resource(),
                        where, attempt + 1, decodeRetry.maxRetries(), backoff, e.getMessage());
                metrics.retry();
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new OutageException("interrupted while waiting for " + e.resource() + " to decode the "
                            + "record at " + where + "; a restart resumes from it without loss", e);
                }
            }
        }
    }

    /** What decoding needs stayed unavailable through every retry: the task fails; the record is not errant. */
    static final class OutageException extends ConnectException {
        OutageException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Whether the target may reject something of the record: a row, or a DDL statement (its record is kept). */
    private static boolean mayBeRejected(List<ChangeEvent> events) {
        for (ChangeEvent e : events) {
            if (e instanceof RowChange || e instanceof DdlChange) return true;
        }
        return false;
    }

    /** Forgets the records whose rows are applied: they can no longer be rejected. */
    private void releaseApplied() {
        if (retained.isEmpty()) return;
        for (Map.Entry<SourcePartition, Long> e : pipeline.appliedOffsets().entrySet()) {
            ConcurrentSkipListMap<Long, SinkRecord> held = retained.get(e.getKey());
            if (held != null) held.headMap(e.getValue(), true).clear();
        }
    }

    /** A row the target rejected, from an apply worker: its record goes to the errant-record reporter. */
    private void reportRejectedRow(SourcePartition partition, long offset, String reason, Throwable cause) {
        ConcurrentSkipListMap<Long, SinkRecord> held = retained.get(partition);
        SinkRecord record = held == null ? null : held.get(offset);
        if (record == null) {
            // revoked meanwhile, or not kept: fail rather than lose the row; the new owner or a restart replays it
            throw new ApplyException(reason + "; its record is no longer held, so it cannot be sent to the "
                    + "dead-letter queue", cause);
        }
        sendToReporter(record, reason, cause);
    }

    /**
     * To how many partitions the producer sent the record's DDL statement ({@link DdlCoordinator#COPIES_HEADER}), or 0
     * when it does not say (TiCDC) or the record carries none. Whatever the header converter made of it: a number, or
     * its text.
     */
    static int ddlCopies(SinkRecord record, List<ChangeEvent> events) {
        // the header first: most records carry none, and this runs for every record
        org.apache.kafka.connect.header.Header h = record.headers().lastWithName(DdlCoordinator.COPIES_HEADER);
        if (h == null || h.value() == null) return 0;
        boolean ddl = false;
        for (ChangeEvent e : events) ddl |= e instanceof DdlChange;
        if (!ddl) return 0;
        Object v = h.value();
        String text = v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : v.toString();
        try {
            int n = Integer.parseInt(text.trim());
            return n >= 1 && n <= 100_000 ? n : 0;
        } catch (NumberFormatException e) {
            return 0; // not ours to trust: the statement is then run as if no other task had a copy
        }
    }

    /** A record with a row change in a schema no message may change ({@link SchemaAllowList}): the record is errant. */
    static final class SchemaRefusedException extends RuntimeException {
        SchemaRefusedException(String message) {
            super(message);
        }
    }

    /**
     * Why the record's rows may not be applied: the refusal of the first row change whose target schema (after
     * {@code schema.map}) the allow-list does not permit, or null. Checked before anything of the record reaches the
     * pipeline, so no SQL runs for it; the whole record is refused.
     */
    private String refusedSchema(List<ChangeEvent> events) {
        io.cdcconnect.codec.model.TableInfo checked = null;
        for (ChangeEvent e : events) {
            if (!(e instanceof RowChange row)) continue;
            // the rows of one table version share its TableInfo: one look-up per run of them
            if (row.table() == checked) continue;
            String target = pipeline.targetSchema(row.table().schema());
            if (!allowList.permits(target)) {
                return "row change of " + row.table().schema() + "." + row.table().table() + ": "
                        + allowList.refusal(target);
            }
            checked = row.table();
        }
        return null;
    }

    /** Thrown for a DDL statement the sink will not run whatever the policy: the record is errant. */
    static final class DdlRefusedException extends RuntimeException {
        DdlRefusedException(String message) {
            super(message);
        }
    }

    /**
     * The record's events with DDL checked against {@code ddl.apply} and the rules no message may break: statements of
     * a kind left out are dropped (logged, counted); anything else that is not one allowed schema change refuses the
     * whole record (its rows are not applied either).
     */
    private List<ChangeEvent> screenDdl(List<ChangeEvent> events, SinkRecord record) {
        List<ChangeEvent> out = null;
        for (int i = 0; i < events.size(); i++) {
            if (!(events.get(i) instanceof DdlChange ddl)) {
                if (out != null) out.add(events.get(i));
                continue;
            }
            String target = ddl.schema().isEmpty() ? "" : pipeline.targetSchema(ddl.schema());
            if (!target.isEmpty() && !allowList.permits(target)) {
                throw new DdlRefusedException("the DDL text is not run: " + allowList.refusal(target));
            }
            DdlPolicy.Decision d = ddlPolicy.decide(ddl.query(), target, pipeline::targetSchema, allowList::permits);
            switch (d.verdict()) {
                case APPLY -> {
                    // onwards the stream carries the statement as the sink writes it, not the message's text
                    String canonical = d.statement().canonical();
                    if (!canonical.equals(ddl.query())) {
                        if (out == null) out = new java.util.ArrayList<>(events.subList(0, i));
                        out.add(new DdlChange(ddl.schema(), ddl.table(), canonical, ddl.kind(), ddl.commitTs()));
                    } else if (out != null) {
                        out.add(ddl);
                    }
                }
                case SKIP -> {
                    LOG.warn("Skipped a {} statement at topic {}, partition {}, offset {}: {}", d.kind().settingName(),
                            record.topic(), record.kafkaPartition(), record.kafkaOffset(), d.reason());
                    metrics.ddlSkipped();
                    if (out == null) out = new java.util.ArrayList<>(events.subList(0, i));
                }
                case REFUSE -> throw new DdlRefusedException("the DDL text is not run: " + d.reason()
                        + " (ddl.apply and docs/security.md say what the sink runs)");
            }
        }
        return out == null ? events : out;
    }

    private static String where(SinkRecord record) {
        return new SourcePartition(Coordinates.topic(record), Coordinates.partition(record))
                .where(Coordinates.offset(record));
    }

    private void reportErrant(SinkRecord record, RuntimeException cause, String what) {
        String where = where(record);
        String message = String.format(what, where) + ": " + cause.getMessage();
        if (reporter == null) {
            throw new ConnectException(message, cause);
        }
        metrics.errantRecord();
        sendToReporter(record, message, cause);
    }

    /** Hands a record to Connect's errant-record reporter and waits until it is written (the DLQ's producer acked). */
    private void sendToReporter(SinkRecord record, String message, Throwable cause) {
        String where = where(record);
        try {
            reporter.report(record, new ConnectException(message, cause)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while reporting the errant record at " + where, e);
        } catch (ExecutionException e) {
            throw new ConnectException("cannot report the errant record at " + where + " (" + message + "): "
                    + e.getCause(), e.getCause());
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
        if (pipeline == null) return result;
        if (rowsTolerated) releaseApplied();
        for (Map.Entry<SourcePartition, Long> e : pipeline.appliedOffsets().entrySet()) {
            TopicPartition tp = new TopicPartition(e.getKey().topic(), e.getKey().partition());
            // Connect commits the offset of the next record to read
            if (currentOffsets.containsKey(tp)) result.put(tp, new OffsetAndMetadata(e.getValue() + 1));
        }
        return result;
    }

    @Override
    public void flush(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        // preCommit reports only applied offsets; nothing to force here
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        if (pipeline == null) return;
        // what this task held back for them is dropped with them: so is its pause (see open)
        resume(partitions);
        Set<TopicPartition> revoked = new HashSet<>(partitions);
        deferred.removeIf(r -> revoked.contains(new TopicPartition(Coordinates.topic(r), Coordinates.partition(r))));
        pipeline.forget(partitions.stream().map(tp -> new SourcePartition(tp.topic(), tp.partition())).toList());
        // after forget: it lets the workers finish what they apply for these partitions, rejected rows reported
        for (TopicPartition tp : partitions) retained.remove(new SourcePartition(tp.topic(), tp.partition()));
    }

    @Override
    public void stop() {
        deferred.clear();
        if (decodeStage != null) {
            decodeStage.close();
            decodeStage = null;
        }
        if (pipeline != null) {
            pipeline.close();
            pipeline = null;
        }
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
        LOG.info("Stopped cdc-connect sink task");
    }
}
