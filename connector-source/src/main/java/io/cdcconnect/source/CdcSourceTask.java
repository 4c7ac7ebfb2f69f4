package io.cdcconnect.source;

import io.cdcconnect.codec.metrics.MetricsJmx;
import io.cdcconnect.source.check.JdbcKeyCatalog;
import io.cdcconnect.source.dispatch.Dispatcher;
import io.cdcconnect.source.emit.Encoders;
import io.cdcconnect.source.emit.Message;
import io.cdcconnect.source.emit.MessageEncoder;
import io.cdcconnect.source.emit.Outgoing;
import io.cdcconnect.source.engine.LastEventSummary;
import io.cdcconnect.source.metrics.SourceMetrics;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Runs Debezium's binlog task inside, converts its records into TiCDC-format messages and hands Connect records that
 * carry Debezium's own source partition and offset, so Connect's offset storage resumes Debezium after a restart.
 * Commits are forwarded to Debezium (it acknowledges binlog positions and GTIDs with them).
 */
public class CdcSourceTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(CdcSourceTask.class);

    private SourceTask debezium;
    private ChangeCapture capture;
    private MessageEncoder encoder;
    private SourceMetrics metrics;
    private JdbcKeyCatalog keyCatalog;
    private long watermarkIntervalMs;
    private long lastWatermarkAt;
    private String name;
    private LongSupplier clock = System::currentTimeMillis;
    /** Set by stop(), which Connect calls from another thread while poll() may be running. */
    private volatile boolean stopping;

    /**
     * The running instance of each source task of this worker, by connector name (Debezium's binlog reader is one
     * task per connector), and when it has stopped. Debezium 3.3 keeps per-connector state in static maps (its
     * OpenLineage emitter, DBZ-9504) that its stop() removes: an instance that Connect gave up on after a broker
     * outage and that stops late would remove what its successor's start has just set up, and the successor fails.
     * A new instance therefore waits, boundedly, for its predecessor's stop.
     */
    private static final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.CountDownLatch> RUNNING =
            new java.util.concurrent.ConcurrentHashMap<>();
    static final long PREDECESSOR_STOP_WAIT_MS = 30_000;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    /** Keeps Debezium's metrics from formatting every event (set once Debezium's task has started). */
    private LastEventSummary lastEventSummary;
    /** Debezium's offset last handed to Connect; a record that claims nothing repeats it (a null offset would delete it). */
    private Map<String, ?> lastOffset;
    /** Converts batches ahead of Connect (convert.ahead.batches); null when poll() converts on Connect's thread. */
    private ConvertAhead ahead;
    /** Connect's, when transaction.boundary=connector (exactly-once): each poll's last record ends a transaction. */
    private org.apache.kafka.connect.source.TransactionContext transactions;

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
            org.apache.kafka.connect.source.SourceTaskContext context) {
        if (context == null) return null;
        try {
            return context.pluginMetrics();
        } catch (LinkageError | UnsupportedOperationException e) {
            return null;
        }
    }

    @Override
    public void start(Map<String, String> props) {
        CdcSourceConfig config = new CdcSourceConfig(props);
        name = props.getOrDefault("name", config.topicPrefix());
        for (String w : config.transportWarnings()) LOG.warn("Source task {}: {}", name, w);
        String transformWarning = io.cdcconnect.codec.ConverterRules.transformWarning("source task " + name,
                config.outputFormat(), props);
        if (transformWarning != null) LOG.warn(transformWarning);
        if (config.startupChecks()) {
            CdcSourceConnector.checkServer(config);
        }
        Dispatcher dispatcher = config.dispatcher();
        encoder = Encoders.create(config);
        // the worker's own metrics (Kafka 4.1+), which also tell the task its number
        org.apache.kafka.common.metrics.PluginMetrics pluginMetrics = pluginMetrics(context);
        metrics = SourceMetrics.jmx(name, MetricsJmx.taskId(props, name, pluginMetrics), encoder, pluginMetrics);
        Map<String, String> debeziumProps = DebeziumSettings.forDebezium(props, config.flavor());
        keyCatalog = new JdbcKeyCatalog(config.flavor(), config.hostname(), config.port(),
                config.jdbcProperties());
        capture = new ChangeCapture(dispatcher, encoder.carriesDdl(), encoder.ddlOnEveryPartition(),
                config.topicPattern(), CapturedTables.of(debeziumProps, config.flavor()), keyCatalog);
        watermarkIntervalMs = encoder.carriesWatermarks() ? config.watermarkIntervalMs() : 0;
        lastWatermarkAt = clock.getAsLong();
        debezium = newDebeziumTask(config.flavor());
        if (context != null && context.offsetStorageReader() != null) {
            lastOffset = context.offsetStorageReader().offset(Map.of("server", config.topicPrefix()));
        }
        transactions = context != null ? context.transactionContext() : null;
        awaitPredecessor();
        debezium.initialize(context);
        try {
            debezium.start(debeziumProps);
        } catch (RuntimeException e) {
            // Connect may stop a task while it is still starting (a rebalance after the broker came back): Debezium's
            // start then fails on what its stop tore down; the task is going away, not failing
            if (!stopping) throw withoutSecrets(e, io.cdcconnect.codec.util.Redaction.secretValues(props));
            // (the exception's message is not logged: Debezium's may list its whole configuration, passwords too)
            LOG.info("Source task {} was stopped while Debezium was starting ({}): not an error", name,
                    e.getClass().getSimpleName());
            return;
        }
        // Debezium's LastEvent metric would print every event's columns into a string nothing reads (LastEventSummary)
        lastEventSummary = new LastEventSummary(debezium);
        lastEventSummary.refresh();
        if (config.convertAheadBatches() > 0) {
            ahead = new ConvertAhead(this::convertNext, config.convertAheadBatches(), "cdc-source-" + name);
        }
        LOG.info("Source task {} started: {} flavour, {} on {}:{}, output {} to '{}', partition rule {} over {} "
                        + "partitions", name, config.flavor().configName(), config.user(), config.hostname(),
                config.port(), config.outputFormat().configName(), config.topicPattern(),
                config.partitionRule().configName(), config.topicPartitions());
    }

    /** As {@link #withoutSecrets(RuntimeException, java.util.Collection)} knowing no secret by value. */
    static RuntimeException withoutSecrets(RuntimeException e) {
        return withoutSecrets(e, java.util.List.of());
    }

    /**
     * Debezium's exception with every {@code ...password...=value} in its message masked, and every one of
     * {@code secrets} (the task's secret settings), raw or percent-encoded ({@link io.cdcconnect.codec.util.Redaction}),
     * and without its causes (whose messages may list the whole configuration again): Connect shows a task's trace
     * over REST.
     */
    static RuntimeException withoutSecrets(RuntimeException e, java.util.Collection<String> secrets) {
        String message = e.getMessage() == null ? ""
                : io.cdcconnect.codec.util.Redaction.scrub(e.getMessage(), null, secrets);
        ConnectException clean = new ConnectException(e.getClass().getName() + ": " + message);
        clean.setStackTrace(e.getStackTrace());
        return clean;
    }

    private void awaitPredecessor() {
        java.util.concurrent.CountDownLatch previous = RUNNING.put(name, stopped);
        if (previous == null || previous == stopped) return;
        try {
            if (!previous.await(PREDECESSOR_STOP_WAIT_MS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                LOG.warn("Source task {}: the previous instance of this task has not stopped after {} ms; starting "
                        + "anyway", name, PREDECESSOR_STOP_WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static SourceTask newDebeziumTask(SourceFlavor flavor) {
        try {
            return (SourceTask) Class.forName(flavor.debeziumTaskClass()).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new ConnectException("cannot load Debezium's " + flavor.configName() + " task "
                    + flavor.debeziumTaskClass() + ": is debezium-connector-" + flavor.configName()
                    + " in the plugin folder?", e);
        }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        if (stopping) return null;
        List<SourceRecord> records = ahead != null ? ahead.take() : convertNext();
        return records == null ? null : endOfPoll(records);
    }

    /**
     * Debezium's next batch as our records, or null when it had none (or the task is stopping). Runs on one thread at
     * a time: Connect's task thread, or the {@link ConvertAhead} thread.
     */
    private List<SourceRecord> convertNext() throws InterruptedException {
        if (stopping) return null;
        List<SourceRecord> in = debezium.poll();
        lastEventSummary.refresh();
        if (in != null) metrics.polled(in.size());
        List<Outgoing> events = new ArrayList<>();
        if (in != null) {
            for (SourceRecord r : in) {
                try {
                    capture.accept(r, events);
                } catch (RuntimeException e) {
                    throw new ConnectException("source task " + name + ": " + e.getMessage()
                            + " (Debezium offset " + r.sourceOffset() + ")", e);
                }
            }
        }
        long now = clock.getAsLong();
        if (watermarkIntervalMs > 0 && now - lastWatermarkAt >= watermarkIntervalMs) {
            lastWatermarkAt = now;
            capture.watermarks(in == null || in.isEmpty(), now, events);
        }
        SourceRecord heartbeat = capture.takeHeartbeat();
        if (events.isEmpty()) {
            if (heartbeat == null) return null;
            if (heartbeat.sourceOffset() != null) lastOffset = heartbeat.sourceOffset();
            long at = heartbeatMillis(heartbeat);
            if (at > 0) metrics.heartbeat(at);
            return List.of(heartbeatRecord(heartbeat));
        }
        List<Message> messages;
        try {
            messages = encoder.encode(events);
        } catch (RuntimeException e) {
            if (stopping) return null; // the encoder was closed under us; nothing of this poll was handed over
            throw new ConnectException("source task " + name + " cannot encode: " + e.getMessage(), e);
        }
        metrics.emitted(events, messages);
        List<SourceRecord> records = toRecords(events, messages, lastOffset);
        if (!records.isEmpty() && records.get(records.size() - 1).sourceOffset() != null) {
            lastOffset = records.get(records.size() - 1).sourceOffset();
        }
        return records;
    }

    /**
     * With connector-defined transaction boundaries, the poll's last record ends the transaction: only there does a
     * record's offset claim exactly what was sent ({@link ExactlyOnce}).
     */
    private List<SourceRecord> endOfPoll(List<SourceRecord> records) {
        if (transactions != null && !records.isEmpty()) {
            transactions.commitTransaction(records.get(records.size() - 1));
        }
        return records;
    }

    /**
     * Connect records in message order. A message claims a source offset only when every event up to it has been
     * handed over in it or in an earlier message: Connect commits the offset of the last acknowledged record whose
     * predecessors are all acknowledged, so a claim further ahead could skip rows of a batch still in flight. A
     * message that cannot claim anything repeats the latest claim (of this poll or an earlier one): Connect commits
     * the offset of the last acknowledged record as it is, and a null there would delete the stored position (a
     * restart would then snapshot afresh and skip binlog). Without batching across partitions, each message carries
     * the offset of its last row; the events of one Debezium record are claimed together, with the last of them.
     */
    static List<SourceRecord> toRecords(List<Outgoing> events, List<Message> messages) {
        return toRecords(events, messages, null);
    }

    /** As {@link #toRecords(List, List)}; {@code previous} is the offset handed to Connect last (null if none yet). */
    static List<SourceRecord> toRecords(List<Outgoing> events, List<Message> messages, Map<String, ?> previous) {
        List<SourceRecord> out = new ArrayList<>(messages.size());
        java.util.BitSet done = new java.util.BitSet(events.size());
        int complete = -1;
        int claimed = -1;
        Map<String, ?> offset = previous;
        for (Message m : messages) {
            for (int i : m.events()) done.set(i);
            complete = done.nextClearBit(complete + 1) - 1;
            // One Debezium record can yield several events (an update split over two partitions, a DDL copy per
            // partition): its offset covers them all, so it is claimed only once its last event is sent.
            int claim = complete;
            while (claim > claimed && claim + 1 < events.size()
                    && events.get(claim + 1).origin() == events.get(claim).origin()) {
                claim--;
            }
            // Before anything was ever claimed (a new connector's first poll: its snapshot, which a restart repeats
            // anyway) there is no offset to repeat, and a record without one would write a null: claim as far as sent.
            if (claim <= claimed && offset == null) claim = complete;
            SourceRecord origin = null;
            if (claim > claimed) {
                origin = (SourceRecord) events.get(claim).origin();
                claimed = claim;
                if (origin.sourceOffset() != null) offset = origin.sourceOffset();
            }
            long ms = io.cdcconnect.codec.model.ChangeEvent.physicalMillis(m.commitTs());
            out.add(new SourceRecord(origin != null ? origin.sourcePartition() : partitionOf(events, m),
                    offset, m.topic(), m.partition(),
                    Schema.OPTIONAL_BYTES_SCHEMA, m.key(), Schema.OPTIONAL_BYTES_SCHEMA, m.value(),
                    ms > 0 ? ms : null, headers(events, m)));
        }
        return out;
    }

    /**
     * A message with a DDL statement says to how many partitions of its topic the statement went
     * ({@link io.cdcconnect.codec.KafkaHeaders#DDL_PARTITIONS}): the sink runs one that went to one partition (its
     * table's, which holds all its rows) at once, and one that went to several once, after all of them; null for
     * other messages.
     */
    private static org.apache.kafka.connect.header.ConnectHeaders headers(List<Outgoing> events, Message m) {
        for (int i : m.events()) {
            if (!(events.get(i).event() instanceof io.cdcconnect.codec.model.DdlChange ddl)) continue;
            int copies = 0;
            for (Outgoing o : events) {
                if (o.event() == ddl && o.topic().equals(m.topic())) copies++;
            }
            if (copies < 1) return null;
            org.apache.kafka.connect.header.ConnectHeaders h = new org.apache.kafka.connect.header.ConnectHeaders();
            h.addString(io.cdcconnect.codec.KafkaHeaders.DDL_PARTITIONS, Integer.toString(copies));
            return h;
        }
        return null;
    }

    /**
     * Debezium's heartbeat (enabled with heartbeat.interval.ms) on Debezium's heartbeat topic, as bytes: the JSON
     * {"ts_ms":…}. It carries Debezium's offset so that the stored position advances through binlog stretches that
     * hold no captured change.
     */
    static SourceRecord heartbeatRecord(SourceRecord hb) {
        Object ts = ((org.apache.kafka.connect.data.Struct) hb.value()).get("ts_ms");
        byte[] value = ("{\"ts_ms\":" + ts + "}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return new SourceRecord(hb.sourcePartition(), hb.sourceOffset(), hb.topic(), null,
                Schema.OPTIONAL_BYTES_SCHEMA, null, Schema.OPTIONAL_BYTES_SCHEMA, value, hb.timestamp());
    }

    /** When Debezium generated the heartbeat (its {@code ts_ms}), or 0 when it carries none. */
    static long heartbeatMillis(SourceRecord hb) {
        if (!(hb.value() instanceof org.apache.kafka.connect.data.Struct s) || s.schema().field("ts_ms") == null) return 0;
        Object ts = s.get("ts_ms");
        return ts instanceof Number n ? n.longValue() : 0;
    }

    private static Map<String, ?> partitionOf(List<Outgoing> events, Message m) {
        int i = m.events().length > 0 ? m.events()[0] : 0;
        return ((SourceRecord) events.get(i).origin()).sourcePartition();
    }

    /** Our records carry Debezium's partition and offset, which is all Debezium's commitRecord reads. */
    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) throws InterruptedException {
        if (debezium != null) debezium.commitRecord(record, metadata);
    }

    @Override
    public void commit() throws InterruptedException {
        if (debezium != null) debezium.commit();
    }

    @Override
    public void stop() {
        stopping = true;
        try {
            // the thread converting ahead leaves Debezium's poll before Debezium stops
            if (ahead != null) ahead.close();
            if (debezium != null) debezium.stop();
            if (encoder != null) encoder.close();
            if (keyCatalog != null) keyCatalog.close();
            if (metrics != null) metrics.close();
        } finally {
            stopped.countDown();
            if (name != null) RUNNING.remove(name, stopped);
        }
        LOG.info("Source task {} stopped", name);
    }

    /** For tests: a controllable clock for watermark timing. */
    void clock(LongSupplier clock) {
        this.clock = clock;
    }
}
