package io.cdcconnect.bench.e2e;

import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import io.cdcconnect.it.ConnectorConfigFiles;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static io.cdcconnect.bench.e2e.BenchContext.SOURCE_DB;
import static io.cdcconnect.bench.e2e.BenchContext.say;

/**
 * Kafka to the target. Each variant drains the same topics (Canal-JSON from our source, Debezium envelopes from
 * Debezium's) into a fresh database on the same server, alone, timed from the connector's creation until its consumer group
 * has committed everything and every table matches the source (row count and CHECKSUM TABLE). The server's counters
 * are read before and after, and {@code Prepared_stmt_count} is sampled for its peak. The plain-JDBC ceiling applies
 * the same changes without Kafka. A cold round (our default variant in a fresh worker process, the in-order plain-JDBC
 * reference in a fresh JVM) runs before the warm-up and the warm rounds; {@code --shapes} adds our sink over other
 * inputs (two tasks over 8-partition topics, Open-protocol, Avro) to the warm rounds.
 */
public final class SinkPhase {

    public enum Kind { OURS, DEBEZIUM_JDBC, CEILING }

    /**
     * One sink under test; {@code overrides} are added to the connector's config. {@code input} is null for the
     * workload (the target must match the source database), or the rows of a shape that brings its own
     * ({@link ShapeInput}: the target must match its reference copy).
     */
    public record Variant(String id, String label, Kind kind, String topicPrefix, Map<String, String> overrides,
                          String tableRegex, int round, ShapeInput.Dataset input) {
        Variant(String id, String label, Kind kind, String topicPrefix, Map<String, String> overrides) {
            this(id, label, kind, topicPrefix, overrides, "sbtest[0-9]+", 1, null);
        }

        Variant(String id, String label, Kind kind, String topicPrefix, Map<String, String> overrides,
                String tableRegex) {
            this(id, label, kind, topicPrefix, overrides, tableRegex, 1, null);
        }

        /** The same variant in another round: a new connector name, hence a new consumer group reading from the start. */
        Variant inRound(int r) {
            return new Variant(id, label, kind, topicPrefix, overrides, tableRegex, r, input);
        }

        String connector() {
            return "bench-" + id + (round > 1 ? "-r" + round : "");
        }

        String targetDb() {
            return "bt_" + id.replace('-', '_');
        }

        Pattern topics() {
            return Pattern.compile(Pattern.quote(topicPrefix + "." + SOURCE_DB + ".") + tableRegex);
        }
    }

    /** What one variant did. */
    public record Result(Variant variant, long rows, double seconds, ServerCounters.Delta counters,
                         Map<String, Double> jmx, int workers, long budget, String error, List<Double> rounds) {
        Result(Variant variant, long rows, double seconds, ServerCounters.Delta counters, Map<String, Double> jmx,
               int workers, long budget, String error) {
            this(variant, rows, seconds, counters, jmx, workers, budget, error, List.of());
        }

        Result withRounds(List<Double> all) {
            return new Result(variant, rows, seconds, counters, jmx, workers, budget, error, all);
        }

        public double rowsPerSecond() {
            return seconds > 0 ? rows / seconds : Double.NaN;
        }

        public boolean ok() {
            return error == null;
        }
    }

    private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";

    private final BenchContext ctx;
    /** Opened before any window: a new connection's own set-up queries would count in Questions. */
    private Connection checks;

    public SinkPhase(BenchContext ctx) {
        this.ctx = ctx;
    }

    /** The variants in the order they run. */
    public List<Variant> variants() {
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("sink-jdbc-ceiling", "plain JDBC ceiling: " + ctx.options.ceilingConnections()
                + " connections, per table windows of " + ctx.options.ceilingBatch() + " changes, each one transaction"
                + " of its net effect per key (multi-row DELETE + multi-row upsert)", Kind.CEILING, "",
                Map.of("mode", "folded")));
        // issue 24's reference: in order, windowed, nothing folded, nothing committed row by row
        v.add(new Variant("sink-jdbc-inorder", "plain JDBC, every change in order, windowed: "
                + ctx.options.ceilingConnections() + " connections, one table per connection, multi-row statements of "
                + "one kind, one transaction per " + ctx.options.ceilingBatch() + " changes", Kind.CEILING, "",
                Map.of("mode", "windowed")));
        Map<String, String> ours = new LinkedHashMap<>();
        if (ctx.options.sinkWorkers() > 0) ours.put("worker.count", Integer.toString(ctx.options.sinkWorkers()));
        v.add(new Variant("sink-ours", "ours, canal-json, defaults" + (ours.isEmpty() ? "" : " but " + ours),
                Kind.OURS, "occ", ours));
        v.add(new Variant("sink-ours-nocache", "ours, statement cache off (statement.cache.size=0)", Kind.OURS, "occ",
                with(ours, "statement.cache.size", "0")));
        v.add(new Variant("sink-ours-nobatch", "ours, batching off (max.txn.rows=1: one row per statement and per"
                + " commit; the sink has no switch for multi-row statements alone)", Kind.OURS, "occ",
                with(ours, "max.txn.rows", "1")));
        v.add(new Variant("sink-ours-1worker", "ours, one worker (worker.count=1)", Kind.OURS, "occ",
                with(ours, "worker.count", "1")));
        v.add(new Variant("sink-ours-nodecode", "ours, decoding on the task thread (decode.threads=0)", Kind.OURS,
                "occ", with(ours, "decode.threads", "0")));
        // the template's URL lets the driver negotiate TLS, which MariaDB 11.4 offers; the plain-JDBC references
        // connect without it (test-support's URL): this variant shows what TLS costs our sink
        v.add(new Variant("sink-ours-notls", "ours, without TLS (connection.url with sslMode=DISABLED, as the plain-JDBC"
                + " references connect)", Kind.OURS, "occ", with(ours, "connection.url", "jdbc:mysql://"
                + ctx.db.host() + ":" + ctx.db.port() + "/?sslMode=DISABLED")));
        Map<String, String> dbzIn = new LinkedHashMap<>(ours);
        dbzIn.put("input.format", "debezium");
        dbzIn.put("key.converter", JSON_CONVERTER);
        dbzIn.put("key.converter.schemas.enable", "true");
        dbzIn.put("value.converter", JSON_CONVERTER);
        dbzIn.put("value.converter.schemas.enable", "true");
        dbzIn.put("value.converter.replace.null.with.default", "false");
        v.add(new Variant("sink-ours-dbzin", "ours, Debezium envelopes in (input.format=debezium)", Kind.OURS, "dbz",
                dbzIn));
        v.add(new Variant("sink-dbz-jdbc", "Debezium JDBC sink, insert.mode=upsert, defaults", Kind.DEBEZIUM_JDBC, "dbz",
                Map.of()));
        if (ctx.options.shape("tasks2")) {
            v.add(new Variant("shape-tasks2", "shape tasks2: ours, canal-json over topics of "
                    + SourcePhase.SHAPE_PARTITIONS + " partitions (partition.rule=pk), tasks.max=2", Kind.OURS,
                    SourcePhase.PARTITIONED.prefix(), with(ours, "tasks.max", "2")));
        }
        if (ctx.options.shape("open")) {
            v.add(new Variant("shape-open", "shape open: ours, Open-protocol in (input.format=open-protocol)",
                    Kind.OURS, "oop", with(ours, "input.format", "open-protocol")));
        }
        if (ctx.options.shape("avro")) {
            Map<String, String> avro = with(ours, "input.format", "avro");
            avro.put("schema.registry.url", ctx.registry.url());
            v.add(new Variant("shape-avro", "shape avro: ours, Avro in (input.format=avro, the stand-in registry)",
                    Kind.OURS, "oav", avro));
        }
        for (ShapeInput.Dataset d : ctx.shapeInputs.values()) {
            String what = d.shape().equals("txn100k")
                    ? "one source transaction of " + ShapeInput.TXN_ROWS + " inserts (then one of 1)"
                    : d.shape().equals("ticdc") ? "the workload as a TiCDC changefeed writes it (a commit time per "
                    + "source transaction, no TiDB extension)"
                    : d.wide() ? "a quarter of the workload's changes, in rows of " + WideRows.COLUMNS + " columns"
                    : "the workload's rows over " + d.tables() + " tables";
            v.add(new Variant("shape-" + d.shape() + "-jdbc", "shape " + d.shape() + ": plain JDBC, every change in "
                    + "order, windowed, " + ctx.options.ceilingConnections() + " connections, one transaction per "
                    + ctx.options.ceilingBatch() + " changes: the same rows", Kind.CEILING, "",
                    Map.of("mode", "windowed"), "sbtest[0-9]+", 1, d));
            v.add(new Variant("shape-" + d.shape(), "shape " + d.shape() + ": ours, canal-json, defaults, " + what,
                    Kind.OURS, d.prefix(), ours, "sbtest[0-9]+", 1, d));
        }
        v.removeIf(x -> !ctx.options.runs(x.id()));
        return v;
    }

    /** Row changes variant {@code v} applies. */
    private long rows(Variant v) {
        return v.input() == null ? ctx.workload.rowChanges() : v.input().rowChanges();
    }

    /**
     * The cold round: our sink's default variant as the first task of a freshly started Connect worker process (no
     * warm-up before it), then the plain-JDBC in-order reference in a fresh child JVM; both run before anything else
     * of the sink phase.
     */
    private List<Variant> coldVariants() {
        List<Variant> v = new ArrayList<>();
        for (Variant x : variants()) {
            if (x.id().equals("sink-ours")) {
                v.add(0, new Variant("sink-ours-cold", x.label() + ", cold", Kind.OURS, x.topicPrefix(), x.overrides()));
            } else if (x.id().equals("sink-jdbc-inorder")) {
                Map<String, String> fresh = with(x.overrides(), "jvm", "fresh");
                v.add(new Variant("sink-jdbc-inorder-cold", x.label() + ", cold (a fresh child JVM)", Kind.CEILING, "",
                        fresh));
            }
        }
        return v;
    }

    private static Map<String, String> with(Map<String, String> base, String k, String value) {
        Map<String, String> m = new LinkedHashMap<>(base);
        m.put(k, value);
        return m;
    }

    /**
     * Warms the JIT up for our sink and the Debezium JDBC sink, on the warm-up table's topics (never measured), so
     * that no variant pays for being the first of its plugin. Returns a note, or null.
     */
    private String warmUp(java.util.Set<String> filledPrefixes, ServerCounters counters, long maxPrepared) {
        StringBuilder note = new StringBuilder();
        for (Variant w : List.of(
                new Variant("warm-ours", "warm-up, ours", Kind.OURS, "occ", Map.of(), SourcePhase.WARMUP_TABLE),
                new Variant("warm-dbz-jdbc", "warm-up, Debezium JDBC", Kind.DEBEZIUM_JDBC, "dbz", Map.of(),
                        SourcePhase.WARMUP_TABLE))) {
            if (!filledPrefixes.contains(w.topicPrefix())) continue;
            if (w.kind() == Kind.DEBEZIUM_JDBC && !ctx.options.runs("sink-dbz-jdbc")) continue;
            try {
                ctx.execute(null, "DROP DATABASE IF EXISTS `" + w.targetDb() + "`", "CREATE DATABASE `" + w.targetDb() + "`");
                ctx.execute(w.targetDb(), SysbenchWorkload.ddl(SourcePhase.WARMUP_TABLE));
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
                    ctx.execute(null, "DROP DATABASE IF EXISTS `" + w.targetDb() + "`");
                } catch (Exception ignored) {
                    // a leftover scratch database does not change the figures
                }
            }
        }
        return note.length() == 0 ? null : note.toString().trim();
    }

    private String warmUpNote;
    private final List<Result> coldResults = new ArrayList<>();

    public String warmUpNote() {
        return warmUpNote;
    }

    /** The cold round's results (empty when neither sink-ours nor sink-jdbc-inorder ran). */
    public List<Result> coldResults() {
        return coldResults;
    }

    /** Runs every variant whose input topics exist; {@code sourcesOk} says which topic prefixes were filled. */
    public List<Result> run(java.util.Set<String> filledPrefixes) throws Exception {
        List<Result> results = new ArrayList<>();
        try (ServerCounters counters = new ServerCounters(ctx.connect(null), 200); Connection check = ctx.connect(null)) {
            this.checks = check;
            counters.watchCpu(WORKER_CPU, ctx.connect::workerPids);
            long serverPid = serverPid(check);
            counters.watchCpu(DATABASE_CPU, () -> serverPid < 0 ? List.of() : List.of(serverPid));
            long maxPrepared = counters.maxPreparedStatements();
            List<Variant> cold = coldVariants();
            if (!cold.isEmpty()) {
                if (ctx.options.separateProcesses()) {
                    say("      cold round: restarting the Connect worker (a fresh JVM), then our sink first, no warm-up...");
                    // SIGKILL, then a new worker process: every source connector is stopped with its offsets
                    // committed, so nothing is lost, and no graceful shutdown can keep the old process waiting.
                    ctx.connect.killAndRestartWorker();
                } else {
                    say("      cold round: our sink's first run in this JVM (embedded worker), no warm-up...");
                }
                for (Variant v : cold) coldResults.add(runLogged(v, rows(v), counters, maxPrepared, filledPrefixes));
            }
            warmUpNote = warmUp(filledPrefixes, counters, maxPrepared);
            Map<String, List<Result>> byId = new LinkedHashMap<>();
            List<Variant> all = variants();
            for (int round = 1; round <= ctx.options.sinkRounds(); round++) {
                List<Variant> order = new ArrayList<>(all);
                // Every other round in reverse, so that no variant always runs right after the same neighbour.
                if (round % 2 == 0) java.util.Collections.reverse(order);
                if (round > 1) {
                    say("      round " + round + " of " + ctx.options.sinkRounds() + " (the slow variants ran once)");
                    order.removeIf(x -> SLOW.contains(x.id()));
                }
                for (Variant base : order) {
                    Variant v = base.inRound(round);
                    Result r = runLogged(v, rows(v), counters, maxPrepared, filledPrefixes);
                    byId.computeIfAbsent(v.id(), k -> new ArrayList<>()).add(r);
                }
            }
            for (List<Result> runs : byId.values()) results.add(median(runs));
        }
        return results;
    }

    /** Variants too slow to repeat; their margins are wide. */
    private static final java.util.Set<String> SLOW = java.util.Set.of("sink-ours-nobatch", "sink-dbz-jdbc");

    /** The run with the median rows/s (of those that succeeded), carrying every run's rows/s. */
    private static Result median(List<Result> runs) {
        List<Result> ok = new ArrayList<>(runs.stream().filter(Result::ok).toList());
        if (ok.isEmpty()) return runs.get(0);
        ok.sort(java.util.Comparator.comparingDouble(Result::rowsPerSecond));
        List<Double> rates = runs.stream().filter(Result::ok).map(Result::rowsPerSecond).toList();
        Result m = ok.get((ok.size() - 1) / 2);
        if (ok.size() < runs.size()) {
            String failed = runs.stream().filter(r -> !r.ok()).map(Result::error).findFirst().orElse("");
            return new Result(m.variant(), m.rows(), m.seconds(), m.counters(), m.jmx(), m.workers(), m.budget(),
                    "failed in " + (runs.size() - ok.size()) + " of " + runs.size() + " rounds: " + failed, rates);
        }
        return m.withRounds(rates);
    }

    private Result runLogged(Variant v, long rows, ServerCounters counters, long maxPrepared,
                             java.util.Set<String> filledPrefixes) throws Exception {
        if (v.kind() != Kind.CEILING && !filledPrefixes.contains(v.topicPrefix())) {
            return new Result(v, rows, Double.NaN, null, Map.of(), 0, 0,
                    "its input topics (" + v.topicPrefix() + ".*) were not filled by the source phase");
        }
        say("      " + v.id() + (v.round() > 1 ? " (round " + v.round() + ")" : "") + ": " + v.label() + " ...");
        Result r;
        try {
            r = runOne(v, rows, counters, maxPrepared);
        } catch (Exception e) {
            counters.abort();
            r = new Result(v, rows, Double.NaN, null, Map.of(), 0, 0, BenchReport.oneLine(e));
        } finally {
            if (v.kind() != Kind.CEILING) ctx.control.delete(v.connector());
        }
        if (r.ok()) {
            Double assigned = r.jmx().get(PARTITIONS_AFTER);
            say(String.format("      %s: %.1f s, %.0f rows/s; Questions %d, Com_stmt_prepare %d, Com_stmt_execute %d,"
                            + " peak Prepared_stmt_count %d%s", v.id(), r.seconds(), r.rowsPerSecond(),
                    r.counters().questions(), r.counters().get("Com_stmt_prepare"),
                    r.counters().get("Com_stmt_execute"), r.counters().peakPreparedStatements(),
                    assigned == null || assigned.isNaN() ? "" : String.format("; first partitions after %.1f s, "
                            + "%.0f rows/s from then", assigned, r.rows() / (r.seconds() - assigned))));
        } else {
            say("      " + v.id() + " FAILED: " + r.error());
        }
        ctx.execute(null, "DROP DATABASE IF EXISTS `" + v.targetDb() + "`");
        return r;
    }

    private Result runOne(Variant v, long rows, ServerCounters counters, long maxPrepared) throws Exception {
        ctx.execute(null, "DROP DATABASE IF EXISTS `" + v.targetDb() + "`", "CREATE DATABASE `" + v.targetDb() + "`");
        try (Connection c = ctx.connect(v.targetDb())) {
            if (v.input() == null) ctx.workload.createTables(c);
            else ShapeInput.createTables(c, v.input());
        }
        if (v.kind() == Kind.CEILING) {
            PlainJdbcCeiling.Mode mode = PlainJdbcCeiling.Mode.of(v.overrides().get("mode"));
            counters.start();
            // the in-order reference connects as the harness's client does: MariaDB Connector/J, no TLS
            String url = mode == PlainJdbcCeiling.Mode.WINDOWED ? referenceUrl(v.targetDb()) : ctx.db.jdbcUrl(v.targetDb());
            PlainJdbcCeiling.Result r = "fresh".equals(v.overrides().get("jvm"))
                    ? PlainJdbcCeiling.applyInFreshJvm(ctx.options, EndToEndBenchmark.SEED, mode,
                    url, ctx.workDir.resolve(v.id() + ".log"))
                    : new PlainJdbcCeiling(ctx.options.ceilingConnections(), ctx.options.ceilingBatch(), mode, false,
                    v.input() != null && v.input().wide())
                    .apply(v.input() == null ? ctx.workload.all() : v.input().txns(), () -> java.sql.DriverManager
                            .getConnection(url, EmbeddedMariaDb.USER, EmbeddedMariaDb.PASSWORD));
            ServerCounters.Delta d = counters.stop();
            String error = mismatch(v, null);
            return new Result(v, r.rows(), r.nanos() / 1e9, d, Map.of(), ctx.options.ceilingConnections(), 0, error);
        }
        Map<String, String> config = config(v);
        int workers = Integer.parseInt(config.getOrDefault("worker.count", "4"));
        int tasks = Integer.parseInt(config.getOrDefault("tasks.max", "1"));
        long budget = tasks * budget(config, workers, maxPrepared);
        counters.start();
        // timed from the connector's creation (as the harness that measures the connectors as users install them):
        // the task's start and the consumer group's join are part of what a user waits
        long t0 = System.nanoTime();
        ctx.control.put(v.connector(), config, Duration.ofSeconds(120));
        ctx.connect.awaitRunning(v.connector(), tasks, Duration.ofSeconds(120));
        long deadline = t0 + ctx.timeout().toNanos();
        String group = "connect-" + v.connector();
        long lastFailCheck = 0;
        long total = ctx.meter.endOffsetSum(v.topics());
        boolean marked = false;
        long lag;
        // when Connect's consumer gave the task its first partitions (Connect's own sink-task-metrics): the time
        // before that is the group's join, which a new group's first member waits group.initial.rebalance.delay.ms
        double assignedAfter = Double.NaN;
        while ((lag = ctx.meter.lag(group, v.topics())) > 0) {
            if (Double.isNaN(assignedAfter) && partitionsAssigned(v.connector())) {
                assignedAfter = (System.nanoTime() - t0) / 1e9;
            }
            if (!marked && lag <= total / 2) {
                counters.mark();
                marked = true;
            }
            if (System.nanoTime() > deadline) {
                counters.stop();
                return new Result(v, rows, Double.NaN, null, Map.of(), workers, budget,
                        "still " + ctx.meter.lag(group, v.topics()) + " messages behind after " + ctx.timeout());
            }
            if (System.nanoTime() - lastFailCheck > 2_000_000_000L) {
                ctx.connect.assertNotFailed(v.connector());
                lastFailCheck = System.nanoTime();
            }
            ConnectorControl.sleep(200);
        }
        long t1 = System.nanoTime();
        // Offsets are committed after the rows (ours by design; Connect's for the others): confirm with the rows.
        String error = mismatch(v, counters);
        for (int i = 0; error != null && i < 40; i++) {
            ConnectorControl.sleep(250);
            error = mismatch(v, counters);
            t1 = System.nanoTime();
        }
        ServerCounters.Delta d = counters.stop();
        Map<String, Double> jmx = new java.util.TreeMap<>(SinkJmx.read(ctx.connect, v.connector()));
        jmx.put(PARTITIONS_AFTER, assignedAfter);
        return new Result(v, rows, (t1 - t0) / 1e9, d, jmx, workers, budget, error);
    }

    /** The in-order reference's URL: MariaDB Connector/J, TLS off (its default), server-side prepares off (its default). */
    private String referenceUrl(String database) {
        return "jdbc:mariadb://" + ctx.db.host() + ":" + ctx.db.port() + "/" + database + "?sslMode=disable";
    }

    /** The names {@link ServerCounters.Delta#cpu} knows: the Connect worker's process and the target server's. */
    static final String WORKER_CPU = "worker";
    static final String DATABASE_CPU = "database";

    /** The target server's process id, from its pid file; -1 if it cannot be read (then no database CPU is given). */
    private static long serverPid(Connection c) {
        try (java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT @@pid_file, @@datadir")) {
            rs.next();
            java.nio.file.Path file = java.nio.file.Path.of(rs.getString(2)).resolve(rs.getString(1));
            return Long.parseLong(java.nio.file.Files.readString(file).strip());
        } catch (Exception e) {
            return -1;
        }
    }

    /** The seconds from the connector's creation to its first partitions, kept with the result's JMX figures. */
    static final String PARTITIONS_AFTER = "bench-partitions-assigned-after-s";

    /** Whether Connect's consumer has given the connector's tasks a partition (polled every 200 ms). */
    private boolean partitionsAssigned(String connector) {
        try {
            Double n = ctx.connect.workerMetrics("kafka.connect:type=sink-task-metrics,connector=" + connector
                    + ",task=*").get("partition-count");
            return n != null && n > 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Compares target and source; the statements it sends are subtracted from the window's Questions. */
    private String mismatch(Variant v, ServerCounters window) throws Exception {
        int tables = v.input() == null ? ctx.workload.tables() : v.input().tables();
        List<String> diff = TargetCheck.differences(checks, v.input() == null ? SOURCE_DB : v.input().referenceDb(),
                v.targetDb(), tables);
        if (window != null) window.addOwn(TargetCheck.STATEMENTS_PER_TABLE * 2L * tables);
        return diff.isEmpty() ? null : "target differs from source: " + diff;
    }

    /** Our sink's statement budget for one task of the connector, as CdcSinkConfig documents it. */
    private static long budget(Map<String, String> config, int workers, long maxPrepared) {
        if (!config.containsKey("connector.class") || !config.get("connector.class").startsWith("io.cdcconnect")) return 0;
        int perConnection = Integer.parseInt(config.getOrDefault("statement.cache.size", "256"));
        int connections = workers + 1;
        long serverShare = maxPrepared < 0 ? Long.MAX_VALUE : maxPrepared / 2 / connections;
        return Math.min(perConnection, serverShare) * connections;
    }

    private Map<String, String> config(Variant v) {
        Map<String, String> c;
        if (v.kind() == Kind.OURS) {
            Map<String, String> values = new HashMap<>();
            values.put("TOPIC_PREFIX", v.topicPrefix());
            values.put("SOURCE_DATABASE", SOURCE_DB);
            values.put("TARGET_HOST", ctx.db.host());
            values.put("TARGET_PORT", Integer.toString(ctx.db.port()));
            values.put("TARGET_USER", EmbeddedMariaDb.USER);
            values.put("TARGET_PASSWORD", EmbeddedMariaDb.PASSWORD);
            values.put("TARGET_DATABASE", v.targetDb());
            c = new LinkedHashMap<>(ConnectorConfigFiles.load("sink-mariadb.json", values));
            c.remove("topics");
            c.put("topics.regex", v.topics().pattern());
            c.putAll(v.overrides());
        } else {
            c = new LinkedHashMap<>();
            c.put("connector.class", "io.debezium.connector.jdbc.JdbcSinkConnector");
            c.put("tasks.max", "1");
            c.put("topics.regex", v.topics().pattern());
            c.put("connection.url", "jdbc:mariadb://" + ctx.db.host() + ":" + ctx.db.port() + "/" + v.targetDb());
            c.put("connection.username", EmbeddedMariaDb.USER);
            c.put("connection.password", EmbeddedMariaDb.PASSWORD);
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
