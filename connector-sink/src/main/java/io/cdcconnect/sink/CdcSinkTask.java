package io.cdcconnect.sink;

import io.cdcconnect.codec.metrics.MetricsJmx;
import io.cdcconnect.sink.apply.SchemaAllowList;
import io.cdcconnect.sink.ddl.DdlPolicy;
import io.cdcconnect.sink.decode.DecodeStage;
import io.cdcconnect.sink.decode.RecordDecoders;
import io.cdcconnect.sink.decode.SkippedRecords;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.PartitionControl;
import io.cdcconnect.sink.txn.SourcePartition;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Connect's side of the sink: the task's lifecycle, around three parts that do the work: {@link RecordIntake} (each
 * put()'s records decoded, screened and handed to the pipeline), {@link SinkPipeline} (rows committed downstream, DDL
 * in its place) and {@link ErrantRecords} (the dead-letter queue).
 *
 * <p>Offsets: {@link #preCommit} returns, per partition, the next offset after the longest prefix of records whose
 * rows are all committed downstream; Connect commits nothing beyond it.
 */
public final class CdcSinkTask extends SinkTask {

    private static final Logger LOG = LoggerFactory.getLogger(CdcSinkTask.class);
    /** How soon Connect calls put() again while something waits that only a re-check can release. */
    static final long RECHECK_MS = 200;
    /**
     * The first re-check while a DDL statement runs beside the task thread, or when records wait behind one that
     * just ran: doubled at each re-check to {@link #RECHECK_MS}. A CREATE or ALTER of a small table is done in a few
     * milliseconds, and every partition may be paused behind it (a snapshot's CREATE statements at a stream's
     * start): re-checked only every 200 ms, each statement cost the task about 150 ms of nothing (16 statements
     * 2.3 s of a cold 12 s run, 2026-12-07). When put() comes is not an ordering decision: it only looks sooner.
     */
    static final long QUICK_RECHECK_MS = 2;
    /** Re-checks in a row while a statement runs (or records wait behind one that ran). */
    private int quickRechecks;

    private CdcSinkConfig config;
    private SinkPipeline pipeline;
    private SinkMetrics metrics;
    private ErrantRecords errant;
    private RecordIntake intake;
    /** Compiles the hot paths until the first partitions are assigned (null: not running). */
    private io.cdcconnect.codec.util.StartupWarmup warmup;

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
        DdlPolicy ddlPolicy = DdlPolicy.parse(config.ddlApply(), config.ddlCheckpointDatabase(),
                Dialects.forUrl(config.connectionUrl()).systemSchemas());
        String connector = props.getOrDefault("name", "cdc-sink");
        // the worker's own metrics (Kafka 4.1+), which also tell the task its number
        org.apache.kafka.common.metrics.PluginMetrics pluginMetrics = pluginMetrics(context);
        String taskId = MetricsJmx.taskId(props, connector, pluginMetrics);
        metrics = jmx ? SinkMetrics.jmx(connector, taskId, pluginMetrics) : SinkMetrics.inMemory(connector, taskId);
        // records a decoder skips on purpose count in this task's metrics
        SkippedRecords skipped = SkippedRecords.counted(metrics);
        DecodeStage decodeStage = new DecodeStage(() -> RecordDecoders.forConfig(config, skipped),
                config.decodeThreads(), config.decodeAheadMaxBytes(), "cdc-sink-" + connector + "-" + taskId);
        errant = new ErrantRecords(context, props, metrics);
        try {
            pipeline = pipelines.start(config, metrics, "cdc-sink-" + connector + "-" + taskId, connector);
        } catch (RuntimeException e) {
            metrics.close();
            decodeStage.close();
            throw new ConnectException(e.getMessage(), e);
        }
        pipeline.setRejectedRows(errant);
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
            // to read a checkpoint's record, or a recreated topic again from where Connect started it
            pipeline.setSeeker((p, offset) -> context.offset(new TopicPartition(p.topic(), p.partition()), offset));
        }
        // a database that holds a sink's control tables (this one's or another connector's) takes no message
        java.util.Set<String> controlHolding = pipeline.controlHolding(SchemaAllowList.configured(config));
        if (!controlHolding.isEmpty()) {
            LOG.warn("Databases {} are named by {}/{} but hold a sink's control tables (ddl_checkpoint, ddl_run, ...): "
                    + "no record is applied to them; every record for them goes to the dead-letter queue, or fails the "
                    + "task", controlHolding, CdcSinkConfig.SCHEMA_MAP, CdcSinkConfig.SCHEMA_INCLUDE);
        }
        RecordScreen screen = new RecordScreen(ddlPolicy, SchemaAllowList.forConfig(config, controlHolding),
                pipeline::targetSchema, metrics);
        intake = new RecordIntake(config, RecordDecoders.forConfig(config, skipped), decodeStage, pipeline, screen,
                errant, metrics);
        // the real task only (jmx): a model of the target has no TLS, and the simulation starts thousands of tasks
        if (jmx && config.warmupEnabled()) {
            warmup = io.cdcconnect.codec.util.StartupWarmup.start(config.inputWireFormat(), pipeline.tlsCipher(),
                    "cdc-sink-" + connector + "-" + taskId + "-warmup",
                    DdlPolicy::warmUp);
        }
        LOG.info("Started cdc-connect sink task {} of {} (input.format={}, {})", taskId, connector,
                config.inputFormat(), errant.describe());
    }

    /** Real work begins: the warm-up gives the cores back. */
    private void stopWarmup() {
        if (warmup != null) {
            warmup.stop();
            warmup = null;
        }
    }

    @Override
    public void open(Collection<TopicPartition> partitions) {
        stopWarmup();
        if (pipeline == null) return;
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
        if (!records.isEmpty()) stopWarmup();
        if (intake.put(records) && context != null) {
            // a statement waits on other tasks, or partitions are held: come back soon even if every partition
            // is paused (Connect's poll would otherwise block until its next offset commit); sooner while a statement
            // runs or records wait behind one that ran
            if (pipeline != null && pipeline.statementDueSoon()) {
                context.timeout(Math.min(RECHECK_MS, QUICK_RECHECK_MS << Math.min(quickRechecks++, 7)));
            } else {
                quickRechecks = 0;
                context.timeout(RECHECK_MS);
            }
        } else {
            quickRechecks = 0;
        }
    }

    /** The stage that decodes each put()'s records ahead of the task thread (for tests). */
    DecodeStage decodeStage() {
        return intake.decodeStage();
    }

    /** Records waiting, undecoded, for a later put() (for tests). */
    int deferredRecords() {
        return intake.deferredRecords();
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
        if (pipeline == null) return result;
        Map<SourcePartition, Long> applied = pipeline.appliedOffsets();
        if (errant.tolerated()) errant.releaseApplied(applied);
        for (Map.Entry<SourcePartition, Long> e : applied.entrySet()) {
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
        intake.forget(partitions);
        List<SourcePartition> revoked = partitions.stream().map(tp -> new SourcePartition(tp.topic(), tp.partition()))
                .toList();
        pipeline.forget(revoked);
        // after forget: it lets the workers finish what they apply for these partitions, rejected rows reported
        errant.forget(revoked);
    }

    @Override
    public void stop() {
        stopWarmup();
        if (intake != null) {
            intake.close();
            intake = null;
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
