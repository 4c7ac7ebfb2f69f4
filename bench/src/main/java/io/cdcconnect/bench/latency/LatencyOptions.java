package io.cdcconnect.bench.latency;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The latency benchmark's parameters: the steady input rates (row changes per second, probe rows included), how long
 * each runs and how much of its start is left out of the figures. {@code --quick} runs each rate 20 s on a smaller
 * preload: a smoke run.
 */
public record LatencyOptions(List<Integer> rates, int seconds, int skipSeconds, int tables, int rowsPerTable,
                             int connections, int maxTxnRows, boolean durable, Map<String, String> sourceConfig,
                             Map<String, String> sinkConfig, Path report, boolean quick, String commandLine) {

    public static final String USAGE = """
            LatencyBenchmark [--quick] [--rates N,N,...] [--seconds N] [--skip-seconds N] [--tables N] [--rows N]
                             [--connections N] [--max-txn-rows N] [--durable] [--source-config k=v,...] [--sink-config k=v,...]
                             [--report FILE|-]
              --rates         steady input rates, row changes per second (default 1000,5000,10000)
              --seconds       how long each rate runs (default 120, quick 20)
              --skip-seconds  start of each rate left out of the figures (default 10)
              --tables        sysbench tables (default 8)
              --rows          rows preloaded per table (default 20000, quick 2000)
              --connections   generator connections, each owning a disjoint set of tables (default 2)
              --max-txn-rows  most row changes per generated transaction, each 1..N (default 9); larger
                              transactions reach higher rates on a busy server
              --durable       keep innodb_flush_log_at_trx_commit=1 during the runs (default 2: on a disk where
                              an fsync takes milliseconds, 2 connections committing durably cannot reach the rates)
              --source-config settings added to our source's config/source-mariadb.json, e.g. poll.interval.ms=50
              --sink-config   settings added to our sink's config/sink-mariadb.json, e.g. worker.count=2
              --report        markdown file to write the results to (default bench/results/benchmarks-latency.md; - = none)
              --quick         20 s per rate, 2000 rows per table: a smoke run
            """;

    public static LatencyOptions parse(String[] args) {
        List<Integer> rates = List.of(1_000, 5_000, 10_000);
        int seconds = -1;
        int skip = 10;
        int tables = 8;
        int rows = -1;
        int connections = 2;
        int maxTxnRows = 9;
        Path report = Path.of("bench/results/benchmarks-latency.md");
        boolean quick = false;
        boolean durable = false;
        Map<String, String> sourceConfig = new LinkedHashMap<>();
        Map<String, String> sinkConfig = new LinkedHashMap<>();
        List<String> a = new ArrayList<>(Arrays.asList(args));
        for (int i = 0; i < a.size(); i++) {
            String k = a.get(i);
            switch (k) {
                case "--quick" -> quick = true;
                case "--rates" -> {
                    List<Integer> r = new ArrayList<>();
                    for (String v : value(a, ++i, k).split(",")) r.add(positive(k, v.trim()));
                    rates = List.copyOf(r);
                }
                case "--seconds" -> seconds = positive(k, value(a, ++i, k));
                case "--skip-seconds" -> skip = nonNegative(k, value(a, ++i, k));
                case "--tables" -> tables = positive(k, value(a, ++i, k));
                case "--rows" -> rows = positive(k, value(a, ++i, k));
                case "--connections" -> connections = positive(k, value(a, ++i, k));
                case "--max-txn-rows" -> maxTxnRows = positive(k, value(a, ++i, k));
                case "--durable" -> durable = true;
                case "--source-config" -> settings(k, value(a, ++i, k), sourceConfig);
                case "--sink-config" -> settings(k, value(a, ++i, k), sinkConfig);
                case "--report" -> {
                    String v = value(a, ++i, k);
                    report = "-".equals(v) ? null : Path.of(v);
                }
                case "-h", "--help" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown argument '" + k + "'\n" + USAGE);
            }
        }
        if (seconds < 0) seconds = quick ? 20 : 120;
        if (rows < 0) rows = quick ? 2_000 : 20_000;
        if (skip >= seconds) {
            throw new IllegalArgumentException("--skip-seconds (" + skip + ") must be below --seconds (" + seconds + ")");
        }
        return new LatencyOptions(rates, seconds, skip, tables, rows, connections, maxTxnRows, durable,
                Map.copyOf(sourceConfig),
                Map.copyOf(sinkConfig), report, quick, String.join(" ", args));
    }

    /** Reads {@code k=v,k=v} into {@code out}. */
    private static void settings(String key, String v, Map<String, String> out) {
        for (String pair : v.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException(key + " takes k=v,k=v, not '" + v + "'");
            out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
    }

    private static String value(List<String> a, int i, String key) {
        if (i >= a.size()) throw new IllegalArgumentException(key + " needs a value\n" + USAGE);
        return a.get(i);
    }

    private static int positive(String key, String v) {
        int n = nonNegative(key, v);
        if (n == 0) throw new IllegalArgumentException(key + " takes a positive integer, not '" + v + "'");
        return n;
    }

    private static int nonNegative(String key, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 0) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " takes a non-negative integer, not '" + v + "'");
        }
    }
}
