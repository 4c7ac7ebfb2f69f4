package io.cdcconnect.bench.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The end-to-end benchmark's parameters. Defaults follow {@code BENCHMARKS.md} (8 tables x 20k rows, then 100k row
 * changes); {@code --quick} shrinks everything for a smoke run of about a minute.
 */
public record BenchOptions(int tables, int rowsPerTable, int operations, int sinkWorkers, int ceilingConnections,
                           int ceilingBatch, int sinkRounds, Set<String> skip, long timeoutSeconds, Path report,
                           boolean quick, String commandLine, Set<String> targets, String deployment,
                           Set<String> shapes) {

    /** The sink targets {@code --targets} may name. */
    public static final List<String> TARGETS = List.of("mariadb", "postgres");

    /** How {@code --deployment} may place the Kafka broker and the Connect worker. */
    public static final List<String> DEPLOYMENTS = List.of("processes", "embedded");

    /**
     * The scale shapes {@code --shapes} may name, in the order they run (issue 14, item 4): our sink with two tasks
     * over 8-partition topics, fed Open-protocol, fed Avro, where the time of the Debezium-envelope input goes, one
     * transaction of 100k rows, the workload over 64 tables, as TiCDC writes it, and in rows of 60 columns.
     */
    public static final List<String> SHAPES = List.of("tasks2", "open", "avro", "dbz-breakdown", "txn100k",
            "tables64", "ticdc", "wide60");

    /** The letters for the shapes: {@code --shapes a,b,c}. */
    private static final Map<String, List<String>> SHAPE_LETTERS = Map.of("a", List.of("tasks2"),
            "b", List.of("open", "avro"), "c", List.of("dbz-breakdown"), "e", List.of("txn100k"),
            "f", List.of("tables64"), "g", List.of("ticdc"), "h", List.of("wide60"));

    public static final String USAGE = """
            EndToEndBenchmark [--quick] [--tables N] [--rows N] [--operations N] [--sink-workers N]
                              [--ceiling-connections N] [--ceiling-batch N] [--sink-rounds N]
                              [--skip variant,...] [--targets mariadb,postgres] [--timeout-seconds N]
                              [--report FILE|-] [--deployment processes|embedded] [--shapes all|name,...]
              --tables              sysbench tables (default 8)
              --rows                rows preloaded per table (default 20000)
              --operations          row changes after the preload (default 100000)
              --sink-workers        worker.count of our sink's default variant (default: the sink's own default)
              --ceiling-connections connections of the plain-JDBC ceiling (default 2)
              --ceiling-batch       rows per multi-row statement of the ceiling (default 500)
              --sink-rounds         rounds of the sink variants, median reported (default 3, quick 1;
                                    the batching-off and Debezium JDBC variants run once)
              --skip                variants to leave out, e.g. src-avro,sink-dbz-jdbc,pg-ceiling
              --targets             sink targets to measure: mariadb, postgres or both (default both); the
                                    PostgreSQL phase starts an embedded PostgreSQL 17 (test-support)
              --timeout-seconds     per variant (default 900)
              --report              markdown file to write the results to (default bench/results/benchmarks-e2e.md; - = none)
              --deployment          processes (default): the Kafka broker and the Connect worker each in a
                                    child JVM of its own, as users deploy them; embedded: both in this JVM
              --shapes              scale shapes beside the default sink run (default none): tasks2 (our sink,
                                    tasks.max=2, over topics of 8 partitions a further source connector
                                    writes), open, avro (our sink fed Open-protocol, Avro), dbz-breakdown
                                    (JsonConverter against our Debezium decoder, ns per record), txn100k
                                    (one source transaction of 100k inserts), ticdc (the workload as a
                                    TiCDC changefeed writes it: a commit time per source transaction),
                                    tables64 (the workload's
                                    rows over 64 tables), wide60 (a quarter of the workload in rows of
                                    60 columns), each against plain JDBC on the same rows;
                                    all, or a (tasks2), b (open, avro), c (dbz-breakdown), e (txn100k),
                                    f (tables64), g (ticdc), h (wide60)
              --quick               8 tables x 1000 rows, 6000 changes: a smoke run
            """;

    public static BenchOptions parse(String[] args) {
        int tables = 8;
        int rows = 20_000;
        int ops = 100_000;
        int workers = -1;
        int ceilingConns = 2;
        int ceilingBatch = 500;
        int rounds = -1;
        Set<String> skip = new LinkedHashSet<>();
        long timeout = 900;
        Path report = Path.of("bench/results/benchmarks-e2e.md");
        boolean quick = false;
        Set<String> targets = new LinkedHashSet<>(TARGETS);
        String deployment = DEPLOYMENTS.get(0);
        Set<String> shapes = new LinkedHashSet<>();
        boolean rowsSet = false;
        boolean opsSet = false;
        List<String> a = new ArrayList<>(Arrays.asList(args));
        for (int i = 0; i < a.size(); i++) {
            String k = a.get(i);
            switch (k) {
                case "--quick" -> quick = true;
                case "--tables" -> tables = positive(k, value(a, ++i, k));
                case "--rows" -> {
                    rows = positive(k, value(a, ++i, k));
                    rowsSet = true;
                }
                case "--operations" -> {
                    ops = positive(k, value(a, ++i, k));
                    opsSet = true;
                }
                case "--sink-workers" -> workers = positive(k, value(a, ++i, k));
                case "--ceiling-connections" -> ceilingConns = positive(k, value(a, ++i, k));
                case "--ceiling-batch" -> ceilingBatch = positive(k, value(a, ++i, k));
                case "--sink-rounds" -> rounds = positive(k, value(a, ++i, k));
                case "--skip" -> skip.addAll(List.of(value(a, ++i, k).split(",")));
                case "--targets" -> {
                    targets = new LinkedHashSet<>();
                    for (String t : value(a, ++i, k).split(",")) {
                        String name = t.trim().toLowerCase(java.util.Locale.ROOT);
                        if (name.equals("postgresql") || name.equals("pg")) name = "postgres";
                        if (!TARGETS.contains(name)) {
                            throw new IllegalArgumentException("--targets takes " + TARGETS + ", not '" + t + "'");
                        }
                        targets.add(name);
                    }
                }
                case "--deployment" -> {
                    deployment = value(a, ++i, k).trim().toLowerCase(java.util.Locale.ROOT);
                    if (!DEPLOYMENTS.contains(deployment)) {
                        throw new IllegalArgumentException("--deployment takes " + DEPLOYMENTS + ", not '" + deployment + "'");
                    }
                }
                case "--shapes" -> shapes = shapes(value(a, ++i, k));
                case "--timeout-seconds" -> timeout = positive(k, value(a, ++i, k));
                case "--report" -> {
                    String v = value(a, ++i, k);
                    report = "-".equals(v) ? null : Path.of(v);
                }
                case "-h", "--help" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown argument '" + k + "'\n" + USAGE);
            }
        }
        if (quick) {
            if (!rowsSet) rows = 1_000;
            if (!opsSet) ops = 6_000;
        }
        if (rounds < 0) rounds = quick ? 1 : 3;
        return new BenchOptions(tables, rows, ops, workers, ceilingConns, ceilingBatch, rounds, skip, timeout, report,
                quick, String.join(" ", args), targets, deployment, shapes);
    }

    /** {@code all}, shape names and the letters, in {@link #SHAPES}' order. */
    private static Set<String> shapes(String list) {
        Set<String> named = new LinkedHashSet<>();
        for (String t : list.split(",")) {
            String name = t.trim().toLowerCase(java.util.Locale.ROOT);
            if (name.isEmpty() || name.equals("none")) continue;
            if (name.equals("all")) named.addAll(SHAPES);
            else if (SHAPE_LETTERS.containsKey(name)) named.addAll(SHAPE_LETTERS.get(name));
            else if (SHAPES.contains(name)) named.add(name);
            else throw new IllegalArgumentException("--shapes takes all, " + SHAPES + " or a, b, c, e, f, g, h; not '" + t + "'");
        }
        Set<String> ordered = new LinkedHashSet<>(SHAPES);
        ordered.retainAll(named);
        return ordered;
    }

    public boolean shape(String name) {
        return shapes.contains(name);
    }

    /** Broker and worker run as processes of their own (not in this JVM). */
    public boolean separateProcesses() {
        return deployment.equals("processes");
    }

    /** The same options with {@code skip} instead. */
    public BenchOptions skipping(Set<String> variants) {
        return new BenchOptions(tables, rowsPerTable, operations, sinkWorkers, ceilingConnections, ceilingBatch,
                sinkRounds, variants, timeoutSeconds, report, quick, commandLine, targets, deployment, shapes);
    }

    public boolean targets(String target) {
        return targets.contains(target);
    }

    public boolean runs(String variant) {
        return !skip.contains(variant);
    }

    private static String value(List<String> a, int i, String key) {
        if (i >= a.size()) throw new IllegalArgumentException(key + " needs a value\n" + USAGE);
        return a.get(i);
    }

    private static int positive(String key, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n <= 0) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " takes a positive integer, not '" + v + "'");
        }
    }
}
