package io.cdcconnect.source.metrics;

import io.cdcconnect.codec.metrics.Metric;
import io.cdcconnect.codec.metrics.MetricSet;
import io.cdcconnect.codec.metrics.MetricsJmx;
import io.cdcconnect.codec.metrics.WorkerMetrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.source.emit.Message;
import io.cdcconnect.source.emit.MessageEncoder;
import io.cdcconnect.source.emit.Outgoing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A source task's metrics: {@code cdc-connect:type=source-task-metrics,connector=<name>,task=<n>} ({@link #TASK}),
 * and one {@code cdc-connect:type=source-table-metrics,connector=<name>,task=<n>,table=<schema.table>} per table it
 * has emitted ({@link #TABLE}), registered when the table is first seen. The lists are what docs/monitoring.md is
 * checked against. Recorded once per poll by the polling thread; a row costs an identity-map lookup and two adds.
 */
public final class SourceMetrics implements AutoCloseable {

    public static final String LAG = "lag-ms";
    public static final String RECORDS_POLLED = "records-polled-total";
    public static final String DDL_EMITTED = "ddl-emitted-total";
    public static final String RESOLVED_TS = "resolved-ts-ms";
    public static final String ENCODER_QUEUE_BYTES = "encoder-queue-bytes";
    public static final String ENCODER_THREADS_BUSY = "encoder-threads-busy";
    public static final String TABLE_EVENTS = "events-total";
    public static final String TABLE_BYTES = "bytes-total";

    /** Every metric of a source task, in the order docs/monitoring.md lists them. */
    public static final List<Metric> TASK = List.of(
            Metric.gauge(LAG, "ms", "now minus the source commit time of the last event emitted (a watermark "
                    + "counts, and so does a Debezium heartbeat forwarded while the binlog brings nothing: with "
                    + "heartbeat.interval.ms set it stays near 0 on an idle source; without, it grows)"),
            Metric.counter(RECORDS_POLLED, "records", "records polled from Debezium's binlog reader (rows, DDL, "
                    + "heartbeats, transaction markers)"),
            Metric.counter(DDL_EMITTED, "statements", "DDL statements emitted (once each, however many partitions "
                    + "they went to)"),
            Metric.gauge(RESOLVED_TS, "ms", "physical time of the last watermark (resolved ts) emitted; 0 when the "
                    + "format carries none"),
            Metric.gauge(ENCODER_QUEUE_BYTES, "bytes", "bytes submitted to the encoder group and not yet taken "
                    + "back (bounded by encoder.max.inflight.bytes)"),
            Metric.gauge(ENCODER_THREADS_BUSY, "threads", "encoder-group threads encoding now (of encoder.threads)"));

    /** Every metric of one table of a source task. */
    public static final List<Metric> TABLE = List.of(
            Metric.counter(TABLE_EVENTS, "events", "row changes and DDL statements of the table emitted"),
            Metric.counter(TABLE_BYTES, "bytes", "key and value bytes of the messages that carry them"));

    private final String connector;
    private final String task;
    private final boolean jmx;
    /** The worker's plugin metrics (Kafka 4.1+), or null. */
    private final PluginMetrics pluginMetrics;
    private final WorkerMetrics.Registration workerRegistration;
    private final MetricSet set;
    private final MetricsJmx.Registration registration;
    private final LongAdder polled;
    private final LongAdder ddl;
    private volatile long lastCommitMillis;
    private volatile long resolvedMillis;
    /**
     * By table version (TableInfo instances are shared by a table's rows; the latest of each), then by name. Poll
     * thread only.
     */
    private final Map<TableInfo, TableMetrics> byTableInfo = new IdentityHashMap<>();
    private final Map<String, TableMetrics> byName = new HashMap<>();
    /** Every table's metrics, for close(); guarded by itself (a table is added on the poll thread, stop() closes). */
    private final List<TableMetrics> tables = new ArrayList<>();
    private boolean closed;

    private SourceMetrics(String connector, String task, MessageEncoder encoder, boolean jmx,
                          PluginMetrics pluginMetrics) {
        this.connector = connector;
        this.task = task;
        this.jmx = jmx;
        this.pluginMetrics = pluginMetrics;
        set = new MetricSet("cdc-connect source task " + task + " of " + connector, TASK);
        polled = set.counter(RECORDS_POLLED);
        ddl = set.counter(DDL_EMITTED);
        set.gauge(LAG, () -> {
            long last = lastCommitMillis;
            return last == 0 ? 0 : Math.max(0, System.currentTimeMillis() - last);
        });
        set.gauge(RESOLVED_TS, () -> resolvedMillis);
        if (encoder != null) {
            set.gauge(ENCODER_QUEUE_BYTES, encoder::queuedBytes);
            set.gauge(ENCODER_THREADS_BUSY, encoder::busyThreads);
        }
        registration = jmx ? MetricsJmx.register(MetricsJmx.taskName(MetricsJmx.SOURCE_TASK, connector, task), set)
                : null;
        workerRegistration = pluginMetrics == null ? null
                : WorkerMetrics.register(pluginMetrics, set, new java.util.LinkedHashMap<>());
    }

    /** The task's metrics, visible over JMX until {@link #close()}. */
    public static SourceMetrics jmx(String connector, String task, MessageEncoder encoder) {
        return jmx(connector, task, encoder, null);
    }

    /**
     * The task's metrics, visible over JMX until {@link #close()}, and also registered through the worker's plugin
     * metrics when it offers them ({@code pluginMetrics} not null; Kafka 4.1+), a table's under the tag
     * {@code table}.
     */
    public static SourceMetrics jmx(String connector, String task, MessageEncoder encoder,
                                    PluginMetrics pluginMetrics) {
        return new SourceMetrics(connector, task, encoder, true, pluginMetrics);
    }

    /** Metrics kept in memory only (tests). */
    public static SourceMetrics inMemory(String connector, String task, MessageEncoder encoder) {
        return new SourceMetrics(connector, task, encoder, false, null);
    }

    /** Debezium handed over {@code records} records. */
    public void polled(int records) {
        polled.add(records);
    }

    /** One poll's events went out as {@code messages}. */
    public void emitted(List<Outgoing> events, List<Message> messages) {
        long lastCommit = 0;
        java.util.Set<DdlChange> ddlSeen = null;
        for (Message m : messages) {
            int[] idx = m.events();
            long bytes = (m.key() == null ? 0 : m.key().length) + (m.value() == null ? 0 : m.value().length);
            int n = idx.length;
            for (int j = 0; j < n; j++) {
                ChangeEvent e = events.get(idx[j]).event();
                // a batch's bytes are shared among its events; the remainder goes to the last
                long share = bytes / n + (j == n - 1 ? bytes % n : 0);
                if (e instanceof RowChange r) {
                    table(r.table()).add(share);
                } else if (e instanceof DdlChange d) {
                    TableMetrics t = table(d.table() == null || d.table().isEmpty() ? d.schema()
                            : d.schema() + "." + d.table());
                    // a statement copied to several partitions is one statement; its copies' bytes all count
                    if (ddlSeen == null) ddlSeen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                    if (ddlSeen.add(d)) {
                        ddl.increment();
                        t.events.increment();
                    }
                    t.bytes.add(share);
                } else if (e instanceof Watermark w) {
                    resolvedMillis = Math.max(resolvedMillis, ChangeEvent.physicalMillis(w.ts()));
                }
            }
            long ms = ChangeEvent.physicalMillis(m.commitTs());
            if (ms > lastCommit) lastCommit = ms;
        }
        if (lastCommit > 0) lastCommitMillis = lastCommit;
    }

    /**
     * A Debezium heartbeat generated at {@code millis} was forwarded because the poll brought no change: the binlog
     * reader had nothing to hand over, so the source is read up to then, and the lag counts from it (as an idle
     * watermark's does). Poll thread only.
     */
    public void heartbeat(long millis) {
        if (millis > lastCommitMillis) lastCommitMillis = millis;
    }

    private TableMetrics table(TableInfo t) {
        TableMetrics m = byTableInfo.get(t);
        if (m == null) {
            m = table(t.schema() + "." + t.table());
            // one version per table is kept: a DDL's new TableInfo replaces the old one, which is then forgotten
            if (m.info != null) byTableInfo.remove(m.info);
            m.info = t;
            byTableInfo.put(t, m);
        }
        return m;
    }

    private TableMetrics table(String name) {
        TableMetrics m = byName.get(name);
        if (m == null) {
            synchronized (tables) {
                // after close() (a poll still running while the task stops) nothing is registered any more
                m = new TableMetrics(name, jmx && !closed);
                tables.add(m);
            }
            byName.put(name, m);
        }
        return m;
    }

    /** The current value of task metric {@code name} (one of {@link #TASK}). */
    public double value(String name) {
        return set.value(name);
    }

    /** The current value of table metric {@code name} of {@code schema.table}; 0 for a table not seen. */
    public double tableValue(String table, String name) {
        TableMetrics m = byName.get(table);
        return m == null ? 0 : m.set.value(name);
    }

    @Override
    public void close() {
        if (workerRegistration != null) workerRegistration.close();
        if (registration != null) registration.close();
        synchronized (tables) {
            closed = true;
            for (TableMetrics t : tables) t.close();
        }
    }

    private final class TableMetrics {
        final MetricSet set = new MetricSet("cdc-connect source task table", TABLE);
        final LongAdder events = set.counter(TABLE_EVENTS);
        final LongAdder bytes = set.counter(TABLE_BYTES);
        final MetricsJmx.Registration registration;
        final WorkerMetrics.Registration workerRegistration;
        /** The version of the table last looked up by, the key of this in byTableInfo (poll thread only). */
        TableInfo info;

        TableMetrics(String table, boolean jmx) {
            registration = jmx ? MetricsJmx.register(
                    MetricsJmx.tableName(MetricsJmx.SOURCE_TABLE, connector, task, table), set) : null;
            java.util.LinkedHashMap<String, String> tags = new java.util.LinkedHashMap<>();
            tags.put("table", table);
            workerRegistration = jmx && pluginMetrics != null ? WorkerMetrics.register(pluginMetrics, set, tags) : null;
        }

        void add(long messageBytes) {
            events.increment();
            bytes.add(messageBytes);
        }

        void close() {
            if (workerRegistration != null) workerRegistration.close();
            if (registration != null) registration.close();
        }
    }
}
