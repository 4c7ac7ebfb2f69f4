package io.cdcconnect.sink.metrics;

import io.cdcconnect.codec.metrics.Metric;
import io.cdcconnect.codec.metrics.MetricSet;
import io.cdcconnect.codec.metrics.MetricsJmx;
import io.cdcconnect.codec.metrics.WorkerMetrics;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.metrics.PoolStats;
import org.apache.kafka.common.metrics.PluginMetrics;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

/**
 * A sink task's metrics: one MBean {@code cdc-connect:type=sink-task-metrics,connector=<name>,task=<n>}
 * ({@link MetricsJmx}) with one attribute per metric of {@link #METRICS}, the list docs/monitoring.md is checked
 * against; on a Kafka 4.1+ worker the same values are registered through the worker's plugin metrics too
 * ({@link WorkerMetrics}). Counters are {@link LongAdder}s: no lock and no allocation on the apply path.
 */
public final class SinkMetrics implements AutoCloseable {

    public static final String ROWS_APPLIED = "rows-applied-total";
    public static final String TXN_FLUSH_COUNT = "txn-flush-total";
    public static final String TXN_FLUSH_TIME = "txn-flush-time-ns-total";
    public static final String STATEMENTS_PREPARED = "statements-prepared-total";
    public static final String STATEMENTS_EXECUTED = "statements-executed-total";
    public static final String STATEMENTS_TEXT_FALLBACK = "statements-text-fallback-total";
    public static final String CACHE_HITS = "stmtcache-hits-total";
    public static final String CACHE_MISSES = "stmtcache-misses-total";
    public static final String CACHE_EVICTIONS = "stmtcache-evictions-total";
    public static final String CACHE_SIZE = "stmtcache-size";
    public static final String CACHE_LIMIT = "stmtcache-limit";
    public static final String LAG = "lag-ms";
    public static final String BUFFER_BYTES = "buffer-bytes";
    public static final String TXN_IN_FLIGHT = "txn-in-flight";
    public static final String RETRIES = "retries-total";
    public static final String REPLAYS_REPLANNED = "replays-replanned-total";
    public static final String REPLAYS_SKIPPED = "replays-skipped-total";
    public static final String DDL_APPLIED = "ddl-applied-total";
    public static final String DDL_SKIPPED = "ddl-skipped-total";
    public static final String DDL_UNSUPPORTED = "ddl-unsupported-total";
    public static final String DDL_NO_EFFECT = "ddl-no-effect-total";
    public static final String DDL_CLAUSES_DROPPED = "ddl-clauses-dropped-total";
    public static final String DDL_WAIT_TIMEOUTS = "ddl-wait-timeouts-total";
    public static final String ERRANT_RECORDS = "records-errant-total";
    public static final String TABLES_CREATED = "tables-created-total";
    public static final String COLUMNS_ADDED = "columns-added-total";
    public static final String RECORDS_SKIPPED = "records-skipped-total";
    public static final String POOL_ACTIVE = "pool-connections-active";
    public static final String POOL_IDLE = "pool-connections-idle";
    public static final String POOL_PENDING = "pool-threads-waiting";
    public static final String POOL_ACQUIRED = "pool-connections-acquired-total";
    public static final String POOL_WAIT_TIME = "pool-wait-time-ns-total";
    public static final String POOL_TIMEOUTS = "pool-timeouts-total";

    /** Every metric of a sink task, in the order docs/monitoring.md lists them. */
    public static final List<Metric> METRICS = List.of(
            Metric.gauge(LAG, "ms", "now minus the commit time of the newest applied row (grows while nothing "
                    + "arrives)"),
            Metric.counter(ROWS_APPLIED, "rows", "rows committed to the target"),
            Metric.counter(TXN_FLUSH_COUNT, "transactions", "downstream transactions committed"),
            Metric.counter(TXN_FLUSH_TIME, "ns", "time spent writing and committing them"),
            Metric.counter(STATEMENTS_EXECUTED, "statements", "DML statements executed"),
            Metric.counter(STATEMENTS_PREPARED, "statements", "server-side statements prepared"),
            Metric.counter(STATEMENTS_TEXT_FALLBACK, "statements",
                    "statements sent as text because a prepare failed or the cache had no room"),
            Metric.counter(CACHE_HITS, "lookups", "statement-cache lookups that found a prepared statement"),
            Metric.counter(CACHE_MISSES, "lookups", "statement-cache lookups that prepared one"),
            Metric.counter(CACHE_EVICTIONS, "statements", "prepared statements closed to make room"),
            Metric.gauge(CACHE_SIZE, "statements", "prepared statements open now on all the task's connections"),
            Metric.gauge(CACHE_LIMIT, "statements", "prepared statements the task may keep open on all its "
                    + "connections: statement.cache.size per connection, within the task's share of the server's "
                    + "max_prepared_stmt_count (0: every statement is text)"),
            Metric.gauge(BUFFER_BYTES, "bytes",
                    "bytes of records held between Kafka and the target (bounded by buffer.max.bytes)"),
            Metric.gauge(TXN_IN_FLIGHT, "transactions",
                    "transactions dispatched and not yet committed (waiting for a dependency or a worker, or applying)"),
            Metric.gauge(POOL_ACTIVE, "connections", "connections of the task's pool in use now (HikariCP)"),
            Metric.gauge(POOL_IDLE, "connections", "connections of the task's pool open and unused now"),
            Metric.gauge(POOL_PENDING, "threads", "threads waiting for a connection from the pool now"),
            Metric.counter(POOL_ACQUIRED, "connections", "connections taken from the pool"),
            Metric.counter(POOL_WAIT_TIME, "ns", "time spent waiting for them (divide by "
                    + POOL_ACQUIRED + " for the mean wait)"),
            Metric.counter(POOL_TIMEOUTS, "requests", "requests for a connection that gave up after 30 s "
                    + "(the pool had none to give)"),
            Metric.counter(RETRIES, "attempts", "retries after a transient error (a transaction, or decoding that waits for an outage to end)"),
            Metric.counter(ERRANT_RECORDS, "records", "records sent to the errant-record reporter (dead-letter queue)"),
            Metric.counter(RECORDS_SKIPPED, "records", "records with nothing to apply, skipped on purpose and logged "
                    + "(tombstones without a key, Debezium heartbeats and transaction markers, the DROP statements of "
                    + "Debezium's snapshot)"),
            Metric.counter(REPLAYS_SKIPPED, "records",
                    "records re-delivered from before a DDL statement the sink already ran, skipped"),
            Metric.counter(REPLAYS_REPLANNED, "transactions",
                    "transactions that hit a duplicate key without safe mode (a replay), applied again in safe mode"),
            Metric.counter(DDL_APPLIED, "statements", "DDL statements executed"),
            Metric.counter(DDL_SKIPPED, "statements", "DDL statements of a kind ddl.apply leaves out"),
            Metric.counter(DDL_UNSUPPORTED, "statements",
                    "DDL statements the target has no translation for, skipped under ddl.unsupported=skip"),
            Metric.counter(DDL_NO_EFFECT, "statements", "DDL statements that changed nothing, logged at WARN: the "
                    + "target skipped them (IF EXISTS of an absent object, IF NOT EXISTS of an existing one), their "
                    + "error was proved a replay (the result already in the target), or the sink skipped them (CREATE/"
                    + "DROP/ALTER DATABASE of a database schema.map renames)"),
            Metric.counter(DDL_CLAUSES_DROPPED, "clauses", "parts of DDL statements the target's translation left out "
                    + "on purpose (PostgreSQL: MySQL-only options, FULLTEXT indexes ...; MySQL before 8.0.16: "
                    + "`DROP CONSTRAINT` of a CHECK it never kept), each logged at WARN"),
            Metric.counter(DDL_WAIT_TIMEOUTS, "warnings", "times a DDL statement waited past ddl.barrier.timeout.ms "
                    + "for its partitions (it keeps waiting; docs/ordering.md)"),
            Metric.counter(TABLES_CREATED, "tables", "target tables created from a row's columns (auto.create)"),
            Metric.counter(COLUMNS_ADDED, "columns", "columns added to a target table from a row's columns "
                    + "(auto.evolve)"));

    private final MetricSet set;
    private final MetricsJmx.Registration registration;
    private final LongAdder rowsApplied;
    private final LongAdder txnFlushes;
    private final LongAdder txnFlushNanos;
    private final LongAdder prepared;
    private final LongAdder executed;
    private final LongAdder textFallback;
    private final LongAdder hits;
    private final LongAdder misses;
    private final LongAdder evictions;
    private final LongAdder retries;
    private final LongAdder replaysReplanned;
    private final LongAdder replaysSkipped;
    private final LongAdder ddl;
    private final LongAdder ddlSkipped;
    private final LongAdder ddlUnsupported;
    private final LongAdder ddlWaitTimeouts;
    private final LongAdder ddlNoEffect;
    private final LongAdder ddlClausesDropped;
    private final LongAdder errant;
    private final LongAdder tablesCreated;
    private final LongAdder columnsAdded;
    private final LongAdder recordsSkipped;
    private final LongAdder poolAcquired;
    private final LongAdder poolWaitNanos;
    private final LongAdder poolTimeouts;
    /** The pool's counts, refreshed by HikariCP at most once a second when read; null until a pool reports. */
    private volatile PoolStats poolStats;
    private final WorkerMetrics.Registration workerRegistration;
    /** Why records were skipped so far: each reason is logged once per task (see {@link #recordSkipped}). */
    private final Set<String> skipReasons = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastAppliedMillis = new AtomicLong();

    private SinkMetrics(String connector, String task, boolean jmx, PluginMetrics pluginMetrics) {
        set = new MetricSet("cdc-connect sink task " + task + " of " + connector, METRICS);
        rowsApplied = set.counter(ROWS_APPLIED);
        txnFlushes = set.counter(TXN_FLUSH_COUNT);
        txnFlushNanos = set.counter(TXN_FLUSH_TIME);
        prepared = set.counter(STATEMENTS_PREPARED);
        executed = set.counter(STATEMENTS_EXECUTED);
        textFallback = set.counter(STATEMENTS_TEXT_FALLBACK);
        hits = set.counter(CACHE_HITS);
        misses = set.counter(CACHE_MISSES);
        evictions = set.counter(CACHE_EVICTIONS);
        retries = set.counter(RETRIES);
        replaysReplanned = set.counter(REPLAYS_REPLANNED);
        replaysSkipped = set.counter(REPLAYS_SKIPPED);
        ddl = set.counter(DDL_APPLIED);
        ddlSkipped = set.counter(DDL_SKIPPED);
        ddlUnsupported = set.counter(DDL_UNSUPPORTED);
        ddlWaitTimeouts = set.counter(DDL_WAIT_TIMEOUTS);
        ddlNoEffect = set.counter(DDL_NO_EFFECT);
        ddlClausesDropped = set.counter(DDL_CLAUSES_DROPPED);
        errant = set.counter(ERRANT_RECORDS);
        tablesCreated = set.counter(TABLES_CREATED);
        columnsAdded = set.counter(COLUMNS_ADDED);
        recordsSkipped = set.counter(RECORDS_SKIPPED);
        poolAcquired = set.counter(POOL_ACQUIRED);
        poolWaitNanos = set.counter(POOL_WAIT_TIME);
        poolTimeouts = set.counter(POOL_TIMEOUTS);
        set.gauge(POOL_ACTIVE, () -> poolStats == null ? 0 : poolStats.getActiveConnections());
        set.gauge(POOL_IDLE, () -> poolStats == null ? 0 : poolStats.getIdleConnections());
        set.gauge(POOL_PENDING, () -> poolStats == null ? 0 : poolStats.getPendingThreads());
        set.gauge(LAG, () -> {
            long last = lastAppliedMillis.get();
            return last == 0 ? 0 : Math.max(0, System.currentTimeMillis() - last);
        });
        registration = jmx ? MetricsJmx.register(MetricsJmx.taskName(MetricsJmx.SINK_TASK, connector, task), set)
                : null;
        WorkerMetrics.Registration worker = null;
        if (pluginMetrics != null) {
            try {
                worker = WorkerMetrics.register(pluginMetrics, set, new java.util.LinkedHashMap<>());
            } catch (RuntimeException e) {
                if (registration != null) registration.close();
                throw e;
            }
        }
        workerRegistration = worker;
    }

    /** The task's metrics, visible over JMX until {@link #close()}. */
    public static SinkMetrics jmx(String connector, String task) {
        return jmx(connector, task, null);
    }

    /**
     * The task's metrics, visible over JMX until {@link #close()}, and also registered through the worker's plugin
     * metrics when it offers them ({@code pluginMetrics} not null; Kafka 4.1+).
     */
    public static SinkMetrics jmx(String connector, String task, PluginMetrics pluginMetrics) {
        return new SinkMetrics(connector, task, true, pluginMetrics);
    }

    /** Metrics kept in memory only (tests, tools). */
    public static SinkMetrics inMemory(String connector, String task) {
        return new SinkMetrics(connector, task, false, null);
    }

    /**
     * What the task's HikariCP pool reports to ({@link com.zaxxer.hikari.HikariDataSource#setMetricsTrackerFactory}):
     * its connections in use, idle and waited for, and the time spent waiting for them.
     */
    public MetricsTrackerFactory poolTracker() {
        return (poolName, stats) -> {
            poolStats = stats;
            return new IMetricsTracker() {
                @Override
                public void recordConnectionAcquiredNanos(long nanos) {
                    poolAcquired.increment();
                    poolWaitNanos.add(nanos);
                }

                @Override
                public void recordConnectionTimeout() {
                    poolTimeouts.increment();
                }
            };
        };
    }

    /** The current value of metric {@code name} (one of {@link #METRICS}). */
    public double value(String name) {
        return set.value(name);
    }

    public void rowsApplied(int rows, long commitTs) {
        rowsApplied.add(rows);
        long millis = commitTs >>> 18;
        if (millis > lastAppliedMillis.get()) lastAppliedMillis.accumulateAndGet(millis, Math::max);
    }

    public void txnFlushed(long nanos) {
        txnFlushes.increment();
        txnFlushNanos.add(nanos);
    }

    public void prepared() {
        prepared.increment();
    }

    public void executed() {
        executed.increment();
    }

    public void textFallback() {
        textFallback.increment();
    }

    public void cacheHit() {
        hits.increment();
    }

    public void cacheMiss() {
        misses.increment();
    }

    public void cacheEviction() {
        evictions.increment();
    }

    public void retry() {
        retries.increment();
    }

    public void replayReplanned() {
        replaysReplanned.increment();
    }

    public void replaySkipped() {
        replaysSkipped.increment();
    }

    public void ddlWaitTimeout() {
        ddlWaitTimeouts.increment();
    }

    public void ddlSkipped() {
        ddlSkipped.increment();
    }

    public void ddlNoEffect() {
        ddlNoEffect.increment();
    }

    public void ddlClauseDropped() {
        ddlClausesDropped.increment();
    }

    public void ddlUnsupported() {
        ddlUnsupported.increment();
    }

    public void ddlApplied() {
        ddl.increment();
    }

    public void tableCreated() {
        tablesCreated.increment();
    }

    public void columnAdded() {
        columnsAdded.increment();
    }

    public void errantRecord() {
        errant.increment();
    }

    /**
     * Counts a record skipped on purpose because it carries nothing to apply.
     *
     * @param reason why, from a small fixed set (not the record's content)
     * @return true for the first record skipped for {@code reason} since the task started: the caller logs that one
     */
    public boolean recordSkipped(String reason) {
        recordsSkipped.increment();
        return skipReasons.add(reason);
    }

    /** Makes gauge {@code name} (one of {@link #METRICS}) read a value owned elsewhere (e.g. the buffer's bytes). */
    public void gauge(String name, DoubleSupplier value) {
        set.gauge(name, value);
    }

    @Override
    public void close() {
        if (workerRegistration != null) workerRegistration.close();
        if (registration != null) registration.close();
    }
}
