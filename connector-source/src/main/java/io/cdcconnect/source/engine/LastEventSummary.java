package io.cdcconnect.source.engine;

import io.debezium.connector.common.BaseSourceTask;
import io.debezium.pipeline.ChangeEventSourceCoordinator;
import io.debezium.pipeline.meters.CommonEventMeter;
import io.debezium.pipeline.metrics.PipelineMetrics;
import io.debezium.pipeline.source.spi.EventMetadataProvider;
import io.debezium.pipeline.spi.OffsetContext;
import io.debezium.pipeline.txmetadata.TransactionInfo;
import io.debezium.spi.schema.DataCollectionId;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.time.Instant;
import java.util.Map;

/**
 * Stops Debezium's task from printing every change event into a string that nothing reads.
 *
 * <p>Debezium's snapshot and streaming metrics keep a {@code LastEvent} attribute: on every event its
 * {@link CommonEventMeter} asks the task's {@link EventMetadataProvider} for a summary, and the provider's default
 * formats the event's whole key and value (every column) into a new string. Profiled, that took 15% of a cold
 * snapshot's reading thread, on the thread that bounds the snapshot. Debezium offers no setting for it and builds the
 * provider inside its task's {@code start}, so after the start this class gives each meter a provider that answers
 * everything as Debezium's does but summarises an event by its table alone ({@code LastEvent} then reads
 * {@code db.table}). Debezium's other metrics (counts, lag, positions) are unchanged.
 *
 * <p>It reaches into fields of Debezium 3.3 ({@code BaseSourceTask.coordinator}, the coordinator's metrics, the
 * meters' provider) by reflection. When a Debezium version differs there, nothing changes: the task runs as Debezium
 * built it, at Debezium's cost, and the mismatch is logged once at debug level. {@code LastEventSummaryTest} checks it
 * against the version the plugin ships. Debezium builds a new coordinator when it restarts its task after a
 * retriable error; {@link #refresh} notices and applies it again.
 */
public final class LastEventSummary {

    private static final Logger LOG = LoggerFactory.getLogger(LastEventSummary.class);
    private static final Field COORDINATOR;
    private static final Field SNAPSHOT_METRICS;
    private static final Field STREAMING_METRICS;
    private static final Field COMMON_METER;
    private static final Field PROVIDER;

    static {
        Field[] f = new Field[5];
        try {
            f[0] = accessible(BaseSourceTask.class.getDeclaredField("coordinator"));
            f[1] = accessible(ChangeEventSourceCoordinator.class.getDeclaredField("snapshotMetrics"));
            f[2] = accessible(ChangeEventSourceCoordinator.class.getDeclaredField("streamingMetrics"));
            f[3] = accessible(PipelineMetrics.class.getDeclaredField("commonEventMeter"));
            f[4] = accessible(CommonEventMeter.class.getDeclaredField("metadataProvider"));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("Debezium's metrics are not those of 3.3: its LastEvent summaries stay as they are ({})",
                    e.toString());
            f = new Field[5];
        }
        COORDINATOR = f[0];
        SNAPSHOT_METRICS = f[1];
        STREAMING_METRICS = f[2];
        COMMON_METER = f[3];
        PROVIDER = f[4];
    }

    private final SourceTask task;
    private Object coordinator;

    public LastEventSummary(SourceTask debeziumTask) {
        this.task = debeziumTask;
    }

    private static Field accessible(Field f) {
        f.setAccessible(true);
        return f;
    }

    /**
     * Applies the table-only summary to the meters of the task's current coordinator, if that coordinator is new since
     * the last call. Returns the number of meters changed by this call.
     */
    public int refresh() {
        if (PROVIDER == null || !(task instanceof BaseSourceTask)) return 0;
        try {
            Object current = COORDINATOR.get(task);
            if (current == null || current == coordinator) return 0;
            int changed = summariseByTable(SNAPSHOT_METRICS.get(current))
                    + summariseByTable(STREAMING_METRICS.get(current));
            coordinator = current;
            return changed;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("Debezium's LastEvent summaries stay as they are ({})", e.toString());
            coordinator = null;
            return 0;
        }
    }

    private static int summariseByTable(Object metrics) throws ReflectiveOperationException {
        if (!(metrics instanceof PipelineMetrics)) return 0;
        Object meter = COMMON_METER.get(metrics);
        if (meter == null) return 0;
        Object provider = PROVIDER.get(meter);
        if (!(provider instanceof EventMetadataProvider p) || provider instanceof TableOnly) return 0;
        PROVIDER.set(meter, new TableOnly(p));
        return 1;
    }

    /** Debezium's provider, but an event's summary is its table's identifier. */
    record TableOnly(EventMetadataProvider debezium) implements EventMetadataProvider {

        @Override
        public Instant getEventTimestamp(DataCollectionId source, OffsetContext offset, Object key, Struct value) {
            return debezium.getEventTimestamp(source, offset, key, value);
        }

        @Override
        public Map<String, String> getEventSourcePosition(DataCollectionId source, OffsetContext offset, Object key,
                                                          Struct value) {
            return debezium.getEventSourcePosition(source, offset, key, value);
        }

        @Override
        public String getTransactionId(DataCollectionId source, OffsetContext offset, Object key, Struct value) {
            return debezium.getTransactionId(source, offset, key, value);
        }

        @Override
        public TransactionInfo getTransactionInfo(DataCollectionId source, OffsetContext offset, Object key,
                                                  Struct value) {
            return debezium.getTransactionInfo(source, offset, key, value);
        }

        @Override
        public String toSummaryString(DataCollectionId source, OffsetContext offset, Object key, Struct value) {
            return source == null ? null : source.identifier();
        }
    }
}
