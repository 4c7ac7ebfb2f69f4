package io.cdcconnect.bench.latency;

import io.cdcconnect.bench.e2e.SysbenchWorkload;
import io.cdcconnect.it.ConnectorConfigFiles;
import io.cdcconnect.it.Pipeline;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * End-to-end latency (issue 14): how long a row change committed in the source takes to become visible in the target,
 * at steady input rates, deployed as users run it: MariaDB 11.4, and the Kafka broker and the Connect worker each in
 * a child JVM of its own; our source (Canal-JSON, defaults) reads the source database and our sink (defaults) writes
 * a second database on the same server. One pipeline: source → Kafka → sink.
 *
 * <p>No connector's clock is trusted. Every transaction of the {@link LoadGenerator} also inserts one probe row; the
 * generator notes when its COMMIT returned, a {@link TargetPoller} notes when the probe first shows in the target,
 * and an {@link AppendTimeReader} reads the broker's append time of the probe's message (topics are created
 * beforehand with LogAppendTime), which splits the lag into source side and sink side. The sink's own meters (mean
 * apply + commit time per downstream transaction) and the source's {@code lag-ms} are read over the worker's JMX.
 * Each rate's first seconds are left out; the pipeline is drained between rates. Run it with
 * {@code bench/run-latency-benchmark.sh}; it is never part of the test suite. Options: {@link LatencyOptions#USAGE}.
 */
public final class LatencyBenchmark {
    static final String SOURCE_DB = "sbtest";
    static final String TARGET_DB = "sbtest_latency";
    static final String TOPIC_PREFIX = "lat";
    private static final String SOURCE = "latency-source";
    private static final String SINK = "latency-sink";
    private static final long SEED = 20261125L;
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(180);

    private LatencyBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        LatencyOptions o;
        try {
            o = LatencyOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        int exit = run(o);
        // the child JVMs are gone; leftover non-daemon threads of Kafka's clients must not hold the JVM
        System.exit(exit);
    }

    static int run(LatencyOptions o) throws Exception {
        long start = System.nanoTime();
        String command = System.getProperty("bench.command", "LatencyBenchmark " + o.commandLine()).trim();
        Path work = Path.of(System.getProperty("cdc.work.dir", "bench/target/bench-work")).resolve("latency");
        say("[1/5] starting MariaDB 11.4 (binlog), creating and preloading " + o.tables() + " tables x "
                + o.rowsPerTable() + " rows...");
        EmbeddedMariaDb db = EmbeddedMariaDb.start(work.resolve("mariadb"), 1);
        ConnectCluster connect = null;
        try {
            String version = prepareDatabases(db, o);
            say("[2/5] starting a Kafka broker and a Connect worker, each in a child JVM; creating the topics "
                    + "(LogAppendTime)...");
            connect = ConnectCluster.startSeparateProcesses(Pipeline.pluginDir(), work.resolve("connect"), 1, Map.of());
            createTopics(connect.bootstrapServers(), o.tables());

            say("[3/5] registering our source and our sink; waiting for the snapshot of the preload to reach the target...");
            long s0 = System.nanoTime();
            Map<String, String> sourceConfig = sourceConfig(db, connect, o);
            Map<String, String> sinkConfig = sinkConfig(db, o);
            connect.putConnector(SOURCE, sourceConfig);
            connect.awaitRunning(SOURCE, 1, Duration.ofSeconds(180));
            connect.putConnector(SINK, sinkConfig);
            connect.awaitRunning(SINK, 1, Duration.ofSeconds(180));
            awaitSnapshot(db, connect, o);
            say(String.format("      snapshot of %d rows applied in %.1f s", (long) o.tables() * o.rowsPerTable(),
                    (System.nanoTime() - s0) / 1e9));

            say("[4/5] steady loads: " + o.rates() + " row changes/s, " + o.seconds() + " s each (first "
                    + o.skipSeconds() + " s not counted), drained in between...");
            List<RateResult> results = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            notes.add("Source config as registered: " + shown(sourceConfig) + ".");
            notes.add("Sink config as registered: " + shown(sinkConfig) + ".");
            long capacity = 0;
            for (int rate : o.rates()) capacity += (long) rate * o.seconds();
            ProbeLedger ledger = new ProbeLedger((int) Math.min(Integer.MAX_VALUE - 16, capacity / 2 + 10_000));
            try (LoadGenerator generator = new LoadGenerator(() -> db.connect(SOURCE_DB), ledger, o.tables(),
                    o.rowsPerTable(), o.connections(), o.maxTxnRows(), SEED);
                 AppendTimeReader appends = new AppendTimeReader(connect.bootstrapServers(), probeTopic(), ledger);
                 TargetPoller poller = new TargetPoller(db.connect(TARGET_DB), ledger)) {
                for (int rate : o.rates()) {
                    RateResult r = runRate(o, rate, generator, ledger, appends, poller, connect);
                    results.add(r);
                    say(String.format("      %,d rows/s: written %,.0f rows/s; lag p50 %s, p99 %s, max %s ms (source side"
                                    + " p99 %s, sink side p99 %s); mean sink flush %.2f ms", rate, r.steadyRate(),
                            LatencyReport.ms(r.lags().total().p50()), LatencyReport.ms(r.lags().total().p99()),
                            LatencyReport.ms(r.lags().total().max()), LatencyReport.ms(r.lags().source().p99()),
                            LatencyReport.ms(r.lags().sink().p99()), r.meanFlushMs()));
                    if (r.failed()) break;
                }
                if (appends.otherTimestampType() > 0) {
                    notes.add(appends.otherTimestampType() + " probe messages did not carry LogAppendTime: the topic was"
                            + " not created as intended, their source/sink split is missing.");
                }
                notes.add("Target poller: " + poller.polls() + " polls of the probe table over the run, every 5 ms"
                        + " (each probe is dated at the start of the first poll that saw it).");
            }

            say("[5/5] checking the target against the source...");
            String check = compareTables(db, o);
            if (check != null) notes.add("Target check: **" + check + "**");
            else notes.add("Target check: every table and the probe table hold the same row count and CHECKSUM TABLE in"
                    + " the target as in the source after the run.");

            String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
            LatencyReport.Setup setup = new LatencyReport.Setup(command, date,
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), version,
                    (System.nanoTime() - start) / 1_000_000_000L);
            String md = LatencyReport.render(setup, o, results, notes);
            System.out.println();
            System.out.println(md);
            if (o.report() != null) {
                Files.writeString(o.report(), md);
                say("written to " + o.report().toAbsolutePath());
            }
            boolean ok = check == null && results.size() == o.rates().size()
                    && results.stream().noneMatch(RateResult::failed);
            return ok ? 0 : 1;
        } finally {
            if (connect != null) connect.close();
            db.close();
        }
    }

    /** What one rate gave. */
    record RateResult(int rate, int connections, double achievedRate, double steadyRate, long transactions,
                      double rowsPerTransaction, double meanTransactionMs, long failures,
                      String lastFailure, ProbeLedger.Lags lags, long unsettled, double drainSeconds,
                      double meanFlushMs, double sinkTxnPerSecond, double rowsPerSinkTxn, double sourceLagMeanMs,
                      double sourceLagMaxMs) {
        /** Probes that never showed in the target, or transactions that failed: later rates would mean nothing. */
        boolean failed() {
            return unsettled > 0 || failures > 0;
        }
    }

    private static RateResult runRate(LatencyOptions o, int rate, LoadGenerator generator, ProbeLedger ledger,
                                      AppendTimeReader appends, TargetPoller poller, ConnectCluster connect)
            throws Exception {
        LoadGenerator.Phase p = generator.start(rate);
        long end = p.startNanos + o.seconds() * 1_000_000_000L;
        long steadyFrom = p.startNanos + o.skipSeconds() * 1_000_000_000L;
        Map<String, Double> sinkAtSteady = null;
        long rowsAtSteady = 0;
        long nanosAtSteady = 0;
        double lagSum = 0;
        double lagMax = 0;
        int lagSamples = 0;
        long nextReport = p.startNanos + 10_000_000_000L;
        while (System.nanoTime() < end && !p.failed() && !p.stopping) {
            ConnectCluster.sleep(1_000);
            poller.check();
            appends.check();
            long now = System.nanoTime();
            if (sinkAtSteady == null && now >= steadyFrom) {
                sinkAtSteady = sinkMetrics(connect);
                rowsAtSteady = p.rows.sum();
                nanosAtSteady = now;
            }
            if (sinkAtSteady != null) {
                Double lag = connect.workerMetrics("cdc-connect:type=source-task-metrics,*").get("lag-ms");
                if (lag != null) {
                    lagSum += lag;
                    lagMax = Math.max(lagMax, lag);
                    lagSamples++;
                }
            }
            if (now >= nextReport) {
                nextReport += 10_000_000_000L;
                long nowUs = ProbeLedger.nowMicros();
                ProbeLedger.Lags recent = ledger.lags(p.firstSeq, ledger.lastSeq(), nowUs - 10_000_000L, nowUs);
                say(String.format("      %,d rows/s, %3d s: written %,.0f rows/s, %,d probes seen in the target (%,d read"
                                + " from Kafka); last 10 s: %,d of %,d probes seen, p99 %s ms", rate,
                        (now - p.startNanos) / 1_000_000_000L, p.achievedRate(), poller.seen(), appends.read(),
                        recent.total().count(), recent.probes(), LatencyReport.ms(recent.total().p99())));
            }
        }
        p.stop();
        Map<String, Double> sinkAtEnd = sinkMetrics(connect);
        long steadyRows = p.rows.sum() - rowsAtSteady;
        double steadySeconds = (p.stopNanos - nanosAtSteady) / 1e9;
        // drain: every probe of this rate visible (or abandoned) before the next rate starts
        long d0 = System.nanoTime();
        long deadline = d0 + DRAIN_TIMEOUT.toNanos();
        long unsettled;
        while ((unsettled = unsettled(ledger, p.firstSeq, p.lastSeq)) > 0 && System.nanoTime() < deadline) {
            poller.check();
            connect.assertNotFailed(SINK);
            connect.assertNotFailed(SOURCE);
            ConnectCluster.sleep(100);
        }
        double drain = (System.nanoTime() - d0) / 1e9;
        ConnectCluster.sleep(1_000); // the append-time reader runs ahead of the sink; give it its last fetch
        long since = p.startMicros + o.skipSeconds() * 1_000_000L;
        ProbeLedger.Lags lags = ledger.lags(p.firstSeq, p.lastSeq, since, Long.MAX_VALUE);
        double flushes = delta(sinkAtSteady, sinkAtEnd, "txn-flush-total");
        double flushNs = delta(sinkAtSteady, sinkAtEnd, "txn-flush-time-ns-total");
        double rowsApplied = delta(sinkAtSteady, sinkAtEnd, "rows-applied-total");
        SQLException failure = p.lastFailure.get();
        long txns = p.transactions.sum();
        return new RateResult(rate, o.connections(), p.achievedRate(),
                steadySeconds > 0 ? steadyRows / steadySeconds : Double.NaN, txns,
                txns > 0 ? (double) p.rows.sum() / txns : Double.NaN, p.meanTransactionMs(), p.failures.sum(), failure == null ? null : failure.getMessage(), lags, unsettled,
                drain, flushes > 0 ? flushNs / flushes / 1e6 : Double.NaN,
                steadySeconds > 0 ? flushes / steadySeconds : Double.NaN,
                flushes > 0 ? rowsApplied / flushes : Double.NaN,
                lagSamples > 0 ? lagSum / lagSamples : Double.NaN, lagSamples > 0 ? lagMax : Double.NaN);
    }

    /** A connector config for the report: every setting but passwords and addresses, which differ per run. */
    private static String shown(Map<String, String> config) {
        StringBuilder out = new StringBuilder();
        config.forEach((k, v) -> {
            if (k.contains("password") || k.contains("url") || k.contains("hostname") || k.contains("port")
                    || k.contains("bootstrap")) return;
            out.append(out.length() == 0 ? "" : ", ").append('`').append(k).append('=').append(v).append('`');
        });
        return out.toString();
    }

    private static long unsettled(ProbeLedger ledger, long from, long to) {
        long n = 0;
        for (long s = from; s <= to; s++) if (!ledger.settled(s)) n++;
        return n;
    }

    private static Map<String, Double> sinkMetrics(ConnectCluster connect) {
        return connect.workerMetrics("cdc-connect:type=sink-task-metrics,*");
    }

    private static double delta(Map<String, Double> from, Map<String, Double> to, String metric) {
        if (from == null) return Double.NaN;
        return to.getOrDefault(metric, Double.NaN) - from.getOrDefault(metric, Double.NaN);
    }

    /** Creates and preloads the source tables, creates the empty target ones; returns the server's version. */
    private static String prepareDatabases(EmbeddedMariaDb db, LatencyOptions o) throws Exception {
        String version;
        try (Connection c = db.connect(null); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT VERSION()")) {
                rs.next();
                version = "MariaDB " + rs.getString(1);
            }
            s.execute("CREATE DATABASE " + SOURCE_DB);
            s.execute("CREATE DATABASE " + TARGET_DB);
        }
        SysbenchWorkload preload = SysbenchWorkload.generate(o.tables(), o.rowsPerTable(), 0, SEED);
        for (String database : List.of(SOURCE_DB, TARGET_DB)) {
            try (Connection c = db.connect(database); Statement s = c.createStatement()) {
                preload.createTables(c);
                s.execute(LoadGenerator.probeDdl());
            }
        }
        execute(db, "SET GLOBAL innodb_flush_log_at_trx_commit = 2");
        try {
            preload.write(preload.preload(), () -> db.connect(SOURCE_DB), 2);
        } finally {
            // --durable: the measured runs commit with the server's durable default
            if (o.durable()) execute(db, "SET GLOBAL innodb_flush_log_at_trx_commit = 1");
        }
        return version;
    }

    private static void execute(EmbeddedMariaDb db, String sql) throws SQLException {
        try (Connection c = db.connect(null); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    static String probeTopic() {
        return TOPIC_PREFIX + "." + SOURCE_DB + "." + LoadGenerator.PROBE_TABLE;
    }

    /**
     * The source's topics, created before it starts (one partition, as its {@code topic.partitions} default) with the
     * broker stamping each message's append time; the source finds them existing, as when an operator creates them.
     */
    private static void createTopics(String bootstrap, int tables) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        Map<String, String> config = Map.of("message.timestamp.type", "LogAppendTime");
        for (int t = 1; t <= tables; t++) {
            topics.add(new NewTopic(TOPIC_PREFIX + "." + SOURCE_DB + "." + SysbenchWorkload.table(t), 1, (short) 1)
                    .configs(config));
        }
        topics.add(new NewTopic(probeTopic(), 1, (short) 1).configs(config));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(topics).all().get();
        }
    }

    /** Our source as {@code config/source-mariadb.json} has it (Canal-JSON, defaults), plus {@code --source-config}. */
    private static Map<String, String> sourceConfig(EmbeddedMariaDb db, ConnectCluster connect, LatencyOptions o) {
        Map<String, String> c = io.cdcconnect.bench.e2e.SourcePhase.ourConfig(db, SOURCE_DB, 5501, TOPIC_PREFIX,
                connect.bootstrapServers());
        c.putAll(o.sourceConfig());
        return c;
    }

    /**
     * Our sink as {@code config/sink-mariadb.json} has it (defaults; {@code schema.map} sends sbtest to the target),
     * plus {@code --sink-config}.
     */
    private static Map<String, String> sinkConfig(EmbeddedMariaDb db, LatencyOptions o) {
        Map<String, String> values = new HashMap<>();
        values.put("TOPIC_PREFIX", TOPIC_PREFIX);
        values.put("SOURCE_DATABASE", SOURCE_DB);
        values.put("TARGET_HOST", db.host());
        values.put("TARGET_PORT", Integer.toString(db.port()));
        values.put("TARGET_USER", EmbeddedMariaDb.USER);
        values.put("TARGET_PASSWORD", EmbeddedMariaDb.PASSWORD);
        values.put("TARGET_DATABASE", TARGET_DB);
        Map<String, String> c = new LinkedHashMap<>(ConnectorConfigFiles.load("sink-mariadb.json", values));
        c.putAll(o.sinkConfig());
        return c;
    }

    /** Waits until every target table holds the preload's rows. */
    private static void awaitSnapshot(EmbeddedMariaDb db, ConnectCluster connect, LatencyOptions o) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        try (Connection c = db.connect(TARGET_DB); Statement s = c.createStatement()) {
            for (int t = 1; t <= o.tables(); t++) {
                while (true) {
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + SysbenchWorkload.table(t))) {
                        rs.next();
                        if (rs.getLong(1) >= o.rowsPerTable()) break;
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the snapshot did not reach " + TARGET_DB + "."
                                + SysbenchWorkload.table(t) + " within 10 minutes");
                    }
                    connect.assertNotFailed(SOURCE);
                    connect.assertNotFailed(SINK);
                    ConnectCluster.sleep(500);
                }
            }
        }
    }

    /**
     * Row counts and CHECKSUM TABLE of every table, source against target; null when they match. The probes are all
     * applied once a rate ends, but other tables' last rows may still be on their way: retried for up to a minute.
     */
    private static String compareTables(EmbeddedMariaDb db, LatencyOptions o) throws SQLException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        String diff;
        while ((diff = difference(db, o)) != null && System.nanoTime() < deadline) ConnectCluster.sleep(1_000);
        return diff;
    }

    private static String difference(EmbeddedMariaDb db, LatencyOptions o) throws SQLException {
        List<String> tables = new ArrayList<>();
        for (int t = 1; t <= o.tables(); t++) tables.add(SysbenchWorkload.table(t));
        tables.add(LoadGenerator.PROBE_TABLE);
        StringBuilder diff = new StringBuilder();
        try (Connection c = db.connect(null); Statement s = c.createStatement()) {
            for (String t : tables) {
                String src = summary(s, SOURCE_DB + "." + t);
                String dst = summary(s, TARGET_DB + "." + t);
                if (!src.equals(dst)) diff.append(diff.length() == 0 ? "" : "; ").append(t).append(": source ")
                        .append(src).append(", target ").append(dst);
            }
        }
        return diff.length() == 0 ? null : diff.toString();
    }

    private static String summary(Statement s, String table) throws SQLException {
        long rows;
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            rows = rs.getLong(1);
        }
        try (ResultSet rs = s.executeQuery("CHECKSUM TABLE " + table)) {
            rs.next();
            return rows + " rows, checksum " + rs.getLong(2);
        }
    }

    static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
