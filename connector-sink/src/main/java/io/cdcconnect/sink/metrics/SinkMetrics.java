package io.cdcconnect.sink.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

/**
 * The sink's meters, tagged by connector and task. Registered in a Micrometer {@link JmxMeterRegistry} under the JMX
 * domain {@value #JMX_DOMAIN}, so that any JMX client (jconsole, a Prometheus JMX exporter) sees them.
 */
public final class SinkMetrics implements AutoCloseable {

    public static final String JMX_DOMAIN = "cdc-connect";

    public static final String ROWS_APPLIED = "cdc.sink.rows.applied";
    public static final String TXN_FLUSH = "cdc.sink.txn.flush.duration";
    public static final String STATEMENTS_PREPARED = "cdc.sink.statements.prepared";
    public static final String STATEMENTS_EXECUTED = "cdc.sink.statements.executed";
    public static final String STATEMENTS_TEXT_FALLBACK = "cdc.sink.statements.text.fallback";
    public static final String CACHE_HITS = "cdc.sink.stmtcache.hits";
    public static final String CACHE_MISSES = "cdc.sink.stmtcache.misses";
    public static final String CACHE_EVICTIONS = "cdc.sink.stmtcache.evictions";
    public static final String CACHE_SIZE = "cdc.sink.stmtcache.size";
    public static final String CHECKPOINT_LAG = "cdc.sink.checkpoint.lag.ms";
    public static final String BUFFER_BYTES = "cdc.sink.buffer.bytes";
    public static final String TXN_IN_FLIGHT = "cdc.sink.txn.in.flight";
    public static final String RETRIES = "cdc.sink.retries";
    public static final String REPLAYS_REPLANNED = "cdc.sink.replays.replanned";
    public static final String REPLAYS_SKIPPED = "cdc.sink.replays.skipped";
    public static final String DDL_APPLIED = "cdc.sink.ddl.applied";
    public static final String DDL_SKIPPED = "cdc.sink.ddl.skipped";
    public static final String DDL_UNSUPPORTED = "cdc.sink.ddl.unsupported";
    public static final String ERRANT_RECORDS = "cdc.sink.records.errant";

    private final MeterRegistry registry;
    private final Counter rowsApplied;
    private final Timer txnFlush;
    private final Counter prepared;
    private final Counter executed;
    private final Counter textFallback;
    private final Counter hits;
    private final Counter misses;
    private final Counter evictions;
    private final Counter retries;
    private final Counter replaysReplanned;
    private final Counter replaysSkipped;
    private final Counter ddl;
    private final Counter ddlSkipped;
    private final Counter ddlUnsupported;
    private final Counter errant;
    private final AtomicLong lastAppliedMillis = new AtomicLong();
    private final Tags tags;

    private SinkMetrics(MeterRegistry registry, String connector, String task) {
        this.registry = registry;
        this.tags = Tags.of("connector", connector, "task", task);
        rowsApplied = Counter.builder(ROWS_APPLIED).description("rows written to the target").baseUnit("rows")
                .tags(tags).register(registry);
        replaysSkipped = Counter.builder(REPLAYS_SKIPPED)
                .description("records re-delivered from before a DDL statement the sink already ran (skipped)")
                .tags(tags).register(registry);
        txnFlush = Timer.builder(TXN_FLUSH).description("time to apply and commit one transaction")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(60)).tags(tags).register(registry);
        prepared = Counter.builder(STATEMENTS_PREPARED).description("server-side statements prepared").tags(tags)
                .register(registry);
        executed = Counter.builder(STATEMENTS_EXECUTED).description("statements executed").tags(tags)
                .register(registry);
        textFallback = Counter.builder(STATEMENTS_TEXT_FALLBACK)
                .description("statements sent as text because a prepare failed or the cache had no room").tags(tags)
                .register(registry);
        hits = Counter.builder(CACHE_HITS).tags(tags).register(registry);
        misses = Counter.builder(CACHE_MISSES).tags(tags).register(registry);
        evictions = Counter.builder(CACHE_EVICTIONS).tags(tags).register(registry);
        retries = Counter.builder(RETRIES).description("transactions retried after a transient error").tags(tags)
                .register(registry);
        replaysReplanned = Counter.builder(REPLAYS_REPLANNED)
                .description("transactions found to be replays (duplicate key) and applied again in safe mode")
                .tags(tags).register(registry);
        ddl = Counter.builder(DDL_APPLIED).tags(tags).register(registry);
        ddlSkipped = Counter.builder(DDL_SKIPPED).description("DDL statements of a kind ddl.apply leaves out")
                .tags(tags).register(registry);
        ddlUnsupported = Counter.builder(DDL_UNSUPPORTED).description("DDL statements the target has no translation "
                + "for, skipped under ddl.unsupported=skip").tags(tags).register(registry);
        errant = Counter.builder(ERRANT_RECORDS).description("records sent to the errant-record reporter").tags(tags)
                .register(registry);
        Gauge.builder(CHECKPOINT_LAG, lastAppliedMillis,
                        v -> v.get() == 0 ? 0 : Math.max(0, System.currentTimeMillis() - v.get()))
                .description("now minus the commit time of the last applied row").baseUnit("milliseconds").tags(tags)
                .register(registry);
    }

    /** Meters visible over JMX in the {@value #JMX_DOMAIN} domain. */
    public static SinkMetrics jmx(String connector, String task) {
        JmxConfig config = new JmxConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public String domain() {
                return JMX_DOMAIN;
            }
        };
        return new SinkMetrics(new JmxMeterRegistry(config, Clock.SYSTEM), connector, task);
    }

    /** Meters kept in memory only (tests, tools). */
    public static SinkMetrics inMemory(String connector, String task) {
        return new SinkMetrics(new SimpleMeterRegistry(), connector, task);
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void rowsApplied(int rows, long commitTs) {
        rowsApplied.increment(rows);
        long millis = commitTs >>> 18;
        lastAppliedMillis.accumulateAndGet(millis, Math::max);
    }

    public void txnFlushed(long nanos) {
        txnFlush.record(nanos, TimeUnit.NANOSECONDS);
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

    public void ddlSkipped() {
        ddlSkipped.increment();
    }

    public void ddlUnsupported() {
        ddlUnsupported.increment();
    }

    public void ddlApplied() {
        ddl.increment();
    }

    public void errantRecord() {
        errant.increment();
    }

    /** Registers a gauge on a value owned elsewhere (the statement cache's size). */
    public void gauge(String name, DoubleSupplier value) {
        Gauge.builder(name, value, DoubleSupplier::getAsDouble).tags(tags).strongReference(true).register(registry);
    }

    @Override
    public void close() {
        registry.close();
    }
}
