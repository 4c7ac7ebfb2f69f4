package io.cdcconnect.bench.snapshot;

import io.cdcconnect.bench.e2e.SourcePhase;
import io.cdcconnect.bench.e2e.SysbenchWorkload;
import io.cdcconnect.it.Pipeline;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The initial snapshot, ours against Debezium's MariaDB connector with JsonConverter, on the same preloaded
 * sysbench-like tables, with the broker and the Connect worker each in a child JVM of its own
 * ({@link ConnectCluster#startSeparateProcesses}). Each round registers every variant anew (a new topic prefix, so a
 * new snapshot), one at a time, in alternating order, timed from the connector's creation until its topics hold one
 * message per row. In round 1 the first variant of each plugin is the first work that plugin does in the worker
 * (cold); the later rounds are warm. Run it with {@code bench/run-snapshot-benchmark.sh}; never part of the test suite.
 */
public final class SnapshotBenchmark {

    private static final String DB = "sbtest";

    /** One connector under test. */
    private record Variant(String id, String label, boolean ours, Map<String, String> overrides) {
    }

    public static void main(String[] args) throws Exception {
        int tables = 8;
        int rows = 20_000;
        int rounds = 3;
        Path report = Path.of("bench/results/benchmarks-snapshot.md");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tables" -> tables = Integer.parseInt(args[++i]);
                case "--rows" -> rows = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--report" -> {
                    String f = args[++i];
                    report = f.equals("-") ? null : Path.of(f);
                }
                case "--quick" -> {
                    rows = 2_000;
                    rounds = 1;
                }
                default -> {
                    System.err.println("usage: SnapshotBenchmark [--tables N] [--rows N] [--rounds N] [--report FILE|-]"
                            + " [--quick]");
                    System.exit(2);
                }
            }
        }
        System.exit(run(tables, rows, rounds, report, String.join(" ", args)));
    }

    static int run(int tables, int rowsPerTable, int rounds, Path report, String argLine) throws Exception {
        long t0 = System.nanoTime();
        Path work = Path.of(System.getProperty("cdc.work.dir", "bench/target/bench-work")).resolve("snapshot");
        Path ourPlugins = Pipeline.pluginDir();
        Path dbzPlugins = Path.of(System.getProperty("cdc.bench.plugin.dir", "bench/target/bench-plugins"));
        List<Variant> variants = List.of(
                new Variant("ours", "ours, canal-json, defaults", true, Map.of()),
                new Variant("ours-2threads", "ours, canal-json, snapshot.max.threads=2", true,
                        Map.of("snapshot.max.threads", "2")),
                new Variant("dbz", "Debezium MariaDB + JsonConverter (schemas on), defaults", false, Map.of()),
                new Variant("dbz-2threads", "Debezium MariaDB + JsonConverter, snapshot.max.threads=2", false,
                        Map.of("snapshot.max.threads", "2")));
        String only = System.getProperty("bench.snapshot.variants");
        if (only != null && !only.isBlank()) {
            // -Dbench.snapshot.variants=ours-2threads,dbz: these variants, in this order (the first of each plugin
            // in round 1 is that plugin's cold run)
            Map<String, Variant> byId = new LinkedHashMap<>();
            for (Variant v : variants) byId.put(v.id(), v);
            List<Variant> chosen = new ArrayList<>();
            for (String id : only.split(",")) {
                Variant v = byId.get(id.trim());
                if (v == null) throw new IllegalArgumentException("no variant " + id + "; variants: " + byId.keySet());
                chosen.add(v);
            }
            variants = chosen;
        }
        say("starting MariaDB 11.4 and, each in a child JVM, a Kafka broker and a Connect worker...");
        EmbeddedMariaDb db = EmbeddedMariaDb.start(work.resolve("mariadb"), 1);
        Map<String, String> worker = new HashMap<>();
        worker.put("plugin.path", ourPlugins.toAbsolutePath() + "," + dbzPlugins.toAbsolutePath());
        worker.put("offset.flush.interval.ms", "1000");
        try (ConnectCluster connect = ConnectCluster.startSeparateProcesses(ourPlugins, work.resolve("connect"), 1,
                worker); Admin admin = Admin.create(Map.of("bootstrap.servers", connect.bootstrapServers()))) {
            SysbenchWorkload workload = SysbenchWorkload.generate(tables, rowsPerTable, 0, 20261125L);
            try (Connection c = db.connect(null)) {
                c.createStatement().execute("CREATE DATABASE " + DB);
            }
            try (Connection c = db.connect(DB)) {
                workload.createTables(c);
            }
            workload.write(workload.preload(), () -> db.connect(DB), 2);
            long expected = (long) tables * rowsPerTable;
            say(expected + " rows in " + tables + " tables");
            Map<String, List<Double>> secs = new LinkedHashMap<>();
            int serverId = 6400;
            for (int r = 1; r <= rounds; r++) {
                List<Variant> order = new ArrayList<>(variants);
                if (r % 2 == 0) java.util.Collections.reverse(order);
                for (Variant v : order) {
                    String prefix = "s" + r + v.id().replace("-", "");
                    Map<String, String> config = config(v, db, connect, prefix, ++serverId);
                    String name = "snap-" + v.id() + "-r" + r;
                    long start = System.nanoTime();
                    connect.putConnector(name, config);
                    long first = awaitRows(admin, prefix, tables, expected, Duration.ofMinutes(10));
                    double s = (System.nanoTime() - start) / 1e9;
                    double toFirst = (first - start) / 1e9;
                    secs.computeIfAbsent(v.id(), k -> new ArrayList<>()).add(s);
                    say(String.format("round %d, %s: %.1f s, %,.0f rows/s; first message after %.1f s, then %,.0f"
                            + " rows/s", r, v.id(), s, expected / s, toFirst, expected / (s - toFirst)));
                    connect.deleteConnector(name);
                }
            }
            String md = render(variants, secs, expected, tables, rowsPerTable, rounds, argLine,
                    (System.nanoTime() - t0) / 1_000_000_000L);
            System.out.println(md);
            if (report != null) Files.writeString(report, md);
            return 0;
        } finally {
            db.close();
        }
    }

    private static Map<String, String> config(Variant v, EmbeddedMariaDb db, ConnectCluster connect, String prefix,
                                              int serverId) {
        Map<String, String> c;
        if (v.ours()) {
            c = SourcePhase.ourConfig(db, DB, serverId, prefix, connect.bootstrapServers());
        } else {
            c = new LinkedHashMap<>(SourcePhase.debeziumConfig(db, DB, serverId, prefix, connect.bootstrapServers()));
        }
        c.putAll(v.overrides());
        return c;
    }

    /**
     * Waits until the tables' topics of {@code prefix} hold {@code expected} messages; returns the {@link System#nanoTime}
     * at which the first of them was seen (to the 100 ms of the polling).
     */
    private static long awaitRows(Admin admin, String prefix, int tables, long expected, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (int t = 1; t <= tables; t++) {
            ask.put(new TopicPartition(prefix + "." + DB + "." + SysbenchWorkload.table(t), 0), OffsetSpec.latest());
        }
        long seen = 0;
        long first = 0;
        while (System.nanoTime() < deadline) {
            seen = 0;
            for (TopicPartition tp : ask.keySet()) {
                try {
                    ListOffsetsResult.ListOffsetsResultInfo info = admin.listOffsets(Map.of(tp, ask.get(tp)))
                            .partitionResult(tp).get();
                    seen += info.offset();
                } catch (java.util.concurrent.ExecutionException e) {
                    // the topic is not created yet
                }
            }
            if (seen > 0 && first == 0) first = System.nanoTime();
            if (seen >= expected) return first;
            Thread.sleep(100);
        }
        throw new IllegalStateException("only " + seen + " of " + expected + " messages under " + prefix);
    }

    private static String render(List<Variant> variants, Map<String, List<Double>> secs, long rows, int tables,
                                 int rowsPerTable, int rounds, String argLine, long totalSeconds) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Snapshot benchmark\n\n");
        sb.append("Command: `bench/run-snapshot-benchmark.sh ").append(argLine).append("`; ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(System.getProperty("java.version")).append(", ").append(totalSeconds).append(" s in all.\n\n");
        sb.append(tables).append(" sysbench-like tables x ").append(rowsPerTable).append(" rows = ").append(rows)
                .append(" rows; MariaDB 11.4 (embedded), the Kafka broker and the Connect worker each in a child JVM;")
                .append(" each variant a new connector (new topic prefix), one at a time, rounds in alternating order,")
                .append(" timed from `PUT /connectors` until its topics held one message per row. In round 1 the")
                .append(" first variant of each plugin (ours, then Debezium's) is that plugin's first work in the worker")
                .append(" JVM (cold); the second variant of each plugin in round 1 runs after it, partly warmed up;")
                .append(" later rounds are warm.\n\n");
        sb.append("| variant | round 1, rows/s | later rounds, rows/s | median of later rounds | vs Debezium"
                + " defaults (cold / warm) | vs Debezium, same snapshot.max.threads (cold / warm) |\n"
                + "|---|---:|---|---:|---:|---:|\n");
        for (Variant v : variants) {
            List<Double> s = secs.get(v.id());
            if (s == null) continue;
            List<Double> warm = rates(rows, s.subList(1, s.size()));
            sb.append(String.format("| %s | %,.0f | %s | %s | %s | %s |%n", v.label(), rows / s.get(0),
                    warm.stream().map(x -> String.format("%,.0f", x)).toList(),
                    warm.isEmpty() ? "–" : String.format("%,.0f", median(warm)),
                    v.ours() ? versus(rows, s, secs.get("dbz")) : "–",
                    v.ours() ? versus(rows, s, secs.get(v.id().endsWith("2threads") ? "dbz-2threads" : "dbz")) : "–"));
        }
        return sb.toString();
    }

    private static List<Double> rates(long rows, List<Double> seconds) {
        return seconds.stream().map(x -> rows / x).toList();
    }

    /** "cold ratio / warm-median ratio" of {@code ours} against {@code base} (seconds per round). */
    private static String versus(long rows, List<Double> ours, List<Double> base) {
        if (base == null) return "–";
        String cold = String.format("%.2fx", base.get(0) / ours.get(0));
        if (ours.size() < 2 || base.size() < 2) return cold + " / –";
        return cold + String.format(" / %.2fx", median(rates(rows, ours.subList(1, ours.size())))
                / median(rates(rows, base.subList(1, base.size()))));
    }

    private static double median(List<Double> xs) {
        if (xs.isEmpty()) return Double.NaN;
        List<Double> s = new ArrayList<>(xs);
        java.util.Collections.sort(s);
        return s.get(s.size() / 2);
    }

    private static void say(String line) {
        System.out.println(Instant.now().truncatedTo(ChronoUnit.SECONDS) + " " + line);
    }
}
