package io.cdcconnect.bench.e2e;

import io.cdcconnect.bench.e2e.SinkPhase.Kind;
import io.cdcconnect.bench.e2e.SinkPhase.Variant;
import io.cdcconnect.it.ConnectorConfigFiles;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.cdcconnect.bench.e2e.BenchContext.SOURCE_DB;
import static io.cdcconnect.bench.e2e.BenchContext.say;

/**
 * Kafka to PostgreSQL: our sink against the Debezium JDBC sink (upsert) on the same topics as the MariaDB sink phase
 * (Canal-JSON from our source, Debezium envelopes from Debezium's), and a plain-JDBC ceiling, each alone into a fresh
 * schema of one PostgreSQL database, with the sysbench tables created beforehand (the same DDL for every variant, no
 * schema evolution). Timed like the MariaDB phase: from the task running until its consumer group has committed
 * every message and every table matches the source ({@link CrossEngineCheck}).
 *
 * <p>What the server did: {@code pg_stat_database} of the database (after every session of the variant ended, so
 * that its counters were flushed), and for our sink the statements it executed, from the server's log
 * ({@link PostgresTarget#statements}); PostgreSQL has no server-wide counter of prepares, and
 * {@code pg_prepared_statements} shows a session only its own.
 */
public final class PostgresSinkPhase {

    /** What one variant did. */
    public record Result(Variant variant, long rows, double seconds, Map<String, Long> counters,
                         PostgresTarget.LogWindow log, Map<String, Double> jmx, Map<String, Double> jmxSecondHalf,
                         String error, List<Double> rounds) {
        Result withRounds(List<Double> all) {
            return new Result(variant, rows, seconds, counters, log, jmx, jmxSecondHalf, error, all);
        }

        public double rowsPerSecond() {
            return seconds > 0 ? rows / seconds : Double.NaN;
        }

        public boolean ok() {
            return error == null;
        }

        static Result failed(Variant v, long rows, String error) {
            return new Result(v, rows, Double.NaN, null, null, Map.of(), Map.of(), error, List.of());
        }

        /** The sum of our sink's JMX meters whose name starts with {@code prefix} (all tasks). */
        public double jmx(String prefix, boolean secondHalf) {
            Map<String, Double> m = secondHalf ? jmxSecondHalf : jmx;
            return m.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                    .mapToDouble(Map.Entry::getValue).sum();
        }
    }

    /** The phase's results and its circumstances, for the report. */
    public record Report(String version, String provenance, List<Result> results, String warmUpNote) {
    }

    private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";
    /** Run once: too slow to repeat. */
    private static final Set<String> SLOW = Set.of("pg-dbz-jdbc");
    /** Transactions of one check of the benchmark's own (one connection, one transaction). */
    private static final int OWN_COMMITS_PER_CHECK = 1;

    private final BenchContext ctx;
    private final PostgresTarget pg;
    private CrossEngineCheck check;
    private Connection maintenance;
    private int checksInWindow;

    public PostgresSinkPhase(BenchContext ctx, PostgresTarget pg) {
        this.ctx = ctx;
        this.pg = pg;
    }

    /** The variants in the order they run; their schemas are {@code bt_<id>}. */
    public List<Variant> variants() {
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("pg-ceiling", "plain JDBC ceiling: " + ctx.options.ceilingConnections()
                + " connections, per table windows of " + ctx.options.ceilingBatch() + " changes, each one transaction"
                + " of its net effect per key (multi-row DELETE + multi-row INSERT ... ON CONFLICT DO UPDATE)",
                Kind.CEILING, "", Map.of("mode", "folded")));
        Map<String, String> ours = new LinkedHashMap<>();
        if (ctx.options.sinkWorkers() > 0) ours.put("worker.count", Integer.toString(ctx.options.sinkWorkers()));
        v.add(new Variant("pg-ours", "ours, canal-json, defaults" + (ours.isEmpty() ? "" : " but " + ours),
                Kind.OURS, "occ", ours));
        Map<String, String> nocache = new LinkedHashMap<>(ours);
        nocache.put("statement.cache.size", "0");
        v.add(new Variant("pg-ours-nocache", "ours, statement cache off (statement.cache.size=0)", Kind.OURS, "occ",
                nocache));
        v.add(new Variant("pg-dbz-jdbc", "Debezium JDBC sink, insert.mode=upsert, defaults", Kind.DEBEZIUM_JDBC, "dbz",
                Map.of()));
        v.removeIf(x -> !ctx.options.runs(x.id()));
        return v;
    }

    /** Runs every variant whose input topics were filled; {@code filledPrefixes} says which were. */
    public Report run(Set<String> filledPrefixes) throws Exception {
        long rows = ctx.workload.rowChanges();
        List<Result> results = new ArrayList<>();
        String warmUpNote;
        try (Connection m = pg.connectMaintenance(); Connection src = ctx.connect(SOURCE_DB)) {
            maintenance = m;
            check = new CrossEngineCheck(src, SOURCE_DB, ctx.workload.tables());
            warmUpNote = warmUp(filledPrefixes);
            Map<String, List<Result>> byId = new LinkedHashMap<>();
            List<Variant> all = variants();
            for (int round = 1; round <= ctx.options.sinkRounds(); round++) {
                List<Variant> order = new ArrayList<>(all);
                if (round % 2 == 0) Collections.reverse(order);
                if (round > 1) {
                    say("      PostgreSQL round " + round + " of " + ctx.options.sinkRounds() + " (Debezium's ran once)");
                    order.removeIf(x -> SLOW.contains(x.id()));
                }
                for (Variant base : order) {
                    Variant v = base.inRound(round);
                    Result r = runLogged(v, rows, filledPrefixes);
                    byId.computeIfAbsent(v.id(), k -> new ArrayList<>()).add(r);
                }
            }
            for (List<Result> runs : byId.values()) results.add(median(runs));
        }
        return new Report(pg.version(), pg.provenance(), results, warmUpNote);
    }

    private static Result median(List<Result> runs) {
        List<Result> ok = new ArrayList<>(runs.stream().filter(Result::ok).toList());
        if (ok.isEmpty()) return runs.get(0);
        ok.sort(Comparator.comparingDouble(Result::rowsPerSecond));
        List<Double> rates = runs.stream().filter(Result::ok).map(Result::rowsPerSecond).toList();
        Result m = ok.get((ok.size() - 1) / 2);
        if (ok.size() < runs.size()) {
            String failed = runs.stream().filter(r -> !r.ok()).map(Result::error).findFirst().orElse("");
            return new Result(m.variant(), m.rows(), m.seconds(), m.counters(), m.log(), m.jmx(), m.jmxSecondHalf(),
                    "failed in " + (runs.size() - ok.size()) + " of " + runs.size() + " rounds: " + failed, rates);
        }
        return m.withRounds(rates);
    }

    /** Warms PgJDBC and both sinks' PostgreSQL code up on the warm-up table's topics (never measured). */
    private String warmUp(Set<String> filledPrefixes) {
        StringBuilder note = new StringBuilder();
        for (Variant w : List.of(
                new Variant("warm-pg-ours", "PostgreSQL warm-up, ours", Kind.OURS, "occ", Map.of(), SourcePhase.WARMUP_TABLE),
                new Variant("warm-pg-dbz", "PostgreSQL warm-up, Debezium JDBC", Kind.DEBEZIUM_JDBC, "dbz", Map.of(),
                        SourcePhase.WARMUP_TABLE))) {
            if (!filledPrefixes.contains(w.topicPrefix())) continue;
            if (w.kind() == Kind.DEBEZIUM_JDBC && !ctx.options.runs("pg-dbz-jdbc")) continue;
            try {
                pg.freshSchema(w.targetDb(), List.of(SourcePhase.WARMUP_TABLE));
                long t0 = System.nanoTime();
                ctx.connect.putConnector(w.connector(), config(w));
                ctx.connect.awaitRunning(w.connector(), 1, Duration.ofSeconds(120));
                long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
                while (ctx.meter.lag("connect-" + w.connector(), w.topics()) > 0 && System.nanoTime() < deadline) {
                    ctx.connect.assertNotFailed(w.connector());
                    ConnectorControl.sleep(250);
                }
                say(String.format("      %s: %.1f s", w.label(), (System.nanoTime() - t0) / 1e9));
            } catch (Exception e) {
                note.append(w.label()).append(" failed: ").append(BenchReport.oneLine(e)).append(". ");
            } finally {
                ctx.control.delete(w.connector());
                try {
                    pg.dropSchema(w.targetDb());
                } catch (Exception ignored) {
                    // a leftover scratch schema does not change the figures
                }
            }
        }
        return note.length() == 0 ? null : note.toString().trim();
    }

    private Result runLogged(Variant v, long rows, Set<String> filledPrefixes) throws Exception {
        if (v.kind() != Kind.CEILING && !filledPrefixes.contains(v.topicPrefix())) {
            return Result.failed(v, rows, "its input topics (" + v.topicPrefix() + ".*) were not filled by the source phase");
        }
        say("      " + v.id() + (v.round() > 1 ? " (round " + v.round() + ")" : "") + ": " + v.label() + " ...");
        Result r;
        try {
            r = runOne(v, rows);
        } catch (Exception e) {
            r = Result.failed(v, rows, BenchReport.oneLine(e));
        } finally {
            if (v.kind() != Kind.CEILING) ctx.control.delete(v.connector());
            try {
                pg.statementLog(false);
            } catch (Exception ignored) {
                // logging left on costs the next variant a little; it does not change what it does
            }
        }
        if (r.ok()) {
            PostgresTarget.StatementLog l = r.log() == null ? null : r.log().whole();
            say(String.format("      %s: %.1f s, %.0f rows/s; xact_commit %d%s", v.id(), r.seconds(), r.rowsPerSecond(),
                    r.counters().getOrDefault("xact_commit", 0L),
                    l == null ? "" : String.format("; server-side executes %d, prepares %d (reuse %s; 2nd half %s)",
                            l.executes(), l.prepares(), BenchReport.pct(l.reuse()),
                            BenchReport.pct(r.log().fromMark().reuse()))));
        } else {
            say("      " + v.id() + " FAILED: " + r.error());
        }
        try {
            pg.dropSchema(v.targetDb());
        } catch (Exception e) {
            say("      could not drop " + v.targetDb() + ": " + BenchReport.oneLine(e));
        }
        return r;
    }

    private Result runOne(Variant v, long rows) throws Exception {
        String schema = v.targetDb();
        List<String> tables = new ArrayList<>();
        for (int t = 1; t <= ctx.workload.tables(); t++) tables.add(SysbenchWorkload.table(t));
        pg.freshSchema(schema, tables);
        pg.awaitNoSessions(maintenance, 10_000);
        checksInWindow = 0;
        boolean logged = v.kind() == Kind.OURS;
        if (logged) pg.statementLog(true);
        Map<String, Long> before = pg.counters(maintenance);
        long logFrom = pg.logPosition();
        if (v.kind() == Kind.CEILING) {
            PlainJdbcCeiling.Result r = new PlainJdbcCeiling(ctx.options.ceilingConnections(), ctx.options.ceilingBatch(),
                    true, true).apply(ctx.workload.all(), () -> pg.connect(schema));
            String error = mismatch(schema);
            Map<String, Long> d = delta(before);
            return new Result(v, r.rows(), r.nanos() / 1e9, d, null, Map.of(), Map.of(), error, List.of());
        }
        ctx.connect.putConnector(v.connector(), config(v));
        ctx.connect.awaitRunning(v.connector(), 1, Duration.ofSeconds(120));
        long t0 = System.nanoTime();
        long deadline = t0 + ctx.timeout().toNanos();
        String group = "connect-" + v.connector();
        long lastFailCheck = 0;
        long total = ctx.meter.endOffsetSum(v.topics());
        long logMark = -1;
        Map<String, Double> jmxMid = Map.of();
        long lag;
        while ((lag = ctx.meter.lag(group, v.topics())) > 0) {
            if (logMark < 0 && lag <= total / 2) {
                logMark = pg.logPosition();
                jmxMid = SinkJmx.read(ctx.connect, v.connector());
            }
            if (System.nanoTime() > deadline) {
                return Result.failed(v, rows, "still " + ctx.meter.lag(group, v.topics()) + " messages behind after "
                        + ctx.timeout());
            }
            if (System.nanoTime() - lastFailCheck > 2_000_000_000L) {
                ctx.connect.assertNotFailed(v.connector());
                lastFailCheck = System.nanoTime();
            }
            ConnectorControl.sleep(200);
        }
        long t1 = System.nanoTime();
        String error = mismatch(schema);
        for (int i = 0; error != null && i < 40; i++) {
            ConnectorControl.sleep(250);
            error = mismatch(schema);
            t1 = System.nanoTime();
        }
        Map<String, Double> jmx = SinkJmx.read(ctx.connect, v.connector());
        Map<String, Double> jmxSecond = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : jmx.entrySet()) {
            jmxSecond.put(e.getKey(), e.getValue() - jmxMid.getOrDefault(e.getKey(), 0.0));
        }
        // Its sessions end with the connector; only then are their counters in pg_stat_database.
        ctx.control.delete(v.connector());
        if (!pg.awaitNoSessions(maintenance, 15_000)) {
            error = (error == null ? "" : error + "; ") + "sessions still open 15 s after the connector was deleted";
        }
        long logTo = pg.logPosition();
        if (logMark < 0) logMark = logFrom;
        PostgresTarget.LogWindow log = logged ? pg.statements(logFrom, logMark, logTo) : null;
        Map<String, Long> d = delta(before);
        return new Result(v, rows, (t1 - t0) / 1e9, d, log, jmx, logged ? jmxSecond : Map.of(), error, List.of());
    }

    /** pg_stat_database after minus before, the benchmark's own check transactions and sessions removed. */
    private Map<String, Long> delta(Map<String, Long> before) throws Exception {
        pg.awaitNoSessions(maintenance, 15_000);
        Map<String, Long> after = pg.counters(maintenance);
        Map<String, Long> d = new LinkedHashMap<>();
        for (String k : PostgresTarget.COUNTERS) d.put(k, after.getOrDefault(k, 0L) - before.getOrDefault(k, 0L));
        d.merge("xact_commit", -(long) checksInWindow * OWN_COMMITS_PER_CHECK, Long::sum);
        d.merge("sessions", -(long) checksInWindow, Long::sum);
        return d;
    }

    /** One check on a connection of its own (one transaction, one session: removed from the counters). */
    private String mismatch(String schema) throws Exception {
        checksInWindow++;
        try (Connection c = pg.connect(schema)) {
            c.setAutoCommit(false);
            List<String> diff = check.differences(c, schema);
            c.commit();
            return diff.isEmpty() ? null : "target differs from source: " + diff;
        }
    }

    private Map<String, String> config(Variant v) {
        Map<String, String> c;
        String schema = v.targetDb();
        if (v.kind() == Kind.OURS) {
            Map<String, String> values = new HashMap<>();
            values.put("TOPIC_PREFIX", v.topicPrefix());
            values.put("SOURCE_DATABASE", SOURCE_DB);
            values.put("TARGET_HOST", pg.host());
            values.put("TARGET_PORT", Integer.toString(pg.port()));
            values.put("TARGET_USER", pg.user());
            values.put("TARGET_PASSWORD", pg.password());
            values.put("TARGET_DATABASE", PostgresTarget.DATABASE);
            values.put("TARGET_SCHEMA", schema);
            c = new LinkedHashMap<>(ConnectorConfigFiles.load("sink-postgres.json", values));
            c.remove("topics");
            c.put("topics.regex", v.topics().pattern());
            // the same URL as the Debezium JDBC sink's
            c.put("connection.url", pg.url(schema));
            c.putAll(v.overrides());
        } else {
            c = new LinkedHashMap<>();
            c.put("connector.class", "io.debezium.connector.jdbc.JdbcSinkConnector");
            c.put("tasks.max", "1");
            c.put("topics.regex", v.topics().pattern());
            c.put("connection.url", pg.url(schema));
            c.put("connection.username", pg.user());
            c.put("connection.password", pg.password());
            c.put("insert.mode", "upsert");
            c.put("delete.enabled", "true");
            c.put("primary.key.mode", "record_key");
            c.put("schema.evolution", "none");
            c.put("collection.name.format", "${source.table}");
            c.put("key.converter", JSON_CONVERTER);
            c.put("key.converter.schemas.enable", "true");
            c.put("value.converter", JSON_CONVERTER);
            c.put("value.converter.schemas.enable", "true");
            c.put("consumer.override.auto.offset.reset", "earliest");
            c.putAll(v.overrides());
        }
        return c;
    }
}
