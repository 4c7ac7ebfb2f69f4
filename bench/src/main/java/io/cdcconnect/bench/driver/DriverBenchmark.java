package io.cdcconnect.bench.driver;

import io.cdcconnect.bench.e2e.PlainJdbcCeiling;
import io.cdcconnect.bench.e2e.SysbenchWorkload;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Change;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Kind;
import io.cdcconnect.bench.e2e.WideRows;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

/**
 * Issue 24's question about the sink's largest cost: the MySQL driver's per-value binding and protocol code. Applies
 * the same rows into MariaDB 11.4 through mysql-connector-j and MariaDB Connector/J (the sink's two drivers), each
 * the way the sink would use it, on one connection and one thread, and reports rows/s and the client thread's CPU
 * time per row side by side. Not a test: nothing here runs in {@code mvn test}.
 *
 * <p>Variants, all multi-row upserts ({@code INSERT ... ON DUPLICATE KEY UPDATE}) of {@code --batch} rows, a commit
 * every 4,096 rows (the sink's {@code max.txn.rows}):
 * <ul>
 *   <li>{@code mysql-server}: mysql-connector-j, server-side prepared statements, prepared once and reused, with
 *       the sink's own driver settings (read from its MariaDB dialect, TLS off);</li>
 *   <li>{@code mariadb-server}: MariaDB Connector/J, the same statements, server-side;</li>
 *   <li>{@code mariadb-bulk}: MariaDB Connector/J, one single-row upsert executed as a batch of {@code --batch} rows
 *       (MariaDB's bulk binary protocol, {@code COM_STMT_BULK_EXECUTE});</li>
 *   <li>{@code mysql-text}: mysql-connector-j, client-side statements (the text protocol: the plain client of the
 *       e2e benchmark).</li>
 * </ul>
 * Each round writes every row as an insert, then every row again as an update, into an emptied table; rounds alternate
 * the variants' order, and a warm-up round of every variant runs first (not reported). The rows are the sysbench
 * table's 4 columns and the wide60 shape's 60 ({@link WideRows}).
 *
 * <p>MariaDB Connector/J is loaded from Debezium's MariaDB plugin folder (its 3.5.3, the one Debezium ships), so it
 * stays off the classpath the e2e benchmark's Connect worker inherits.
 */
public final class DriverBenchmark {

    private static final String DB = "drv";
    private static final int COMMIT_ROWS = 4096;

    /** @param clear whether the parameters are cleared after each execution (the sink keeps them bound) */
    private record Variant(String id, String label, boolean mariadb, boolean serverSide, boolean bulk, boolean clear) {
        Variant(String id, String label, boolean mariadb, boolean serverSide, boolean bulk) {
            this(id, label, mariadb, serverSide, bulk, true);
        }
    }

    private static final List<Variant> VARIANTS = List.of(
            new Variant("mysql-server", "mysql-connector-j 9.1.0, server-side multi-row, parameters cleared after "
                    + "each execution (the sink before 2026-11-29)", false, true, false),
            new Variant("mysql-server-kept", "mysql-connector-j 9.1.0, server-side multi-row, parameters kept bound "
                    + "(the sink for MySQL and TiDB, and for MariaDB until 2026-11-29 or with "
                    + "connection.driver=mysql-connector-j)", false, true, false, false),
            new Variant("mariadb-server", "MariaDB Connector/J 3.5.3, server-side multi-row (the sink for MariaDB "
                    + "since 2026-11-29)", true, true, false),
            new Variant("mariadb-bulk", "MariaDB Connector/J 3.5.3, single-row upsert as a bulk batch", true, true,
                    true),
            new Variant("mysql-text", "mysql-connector-j 9.1.0, client-side multi-row (text protocol)", false, false,
                    false));

    private record Measure(double seconds, double cpuSeconds, long rows) {
    }

    public static void main(String[] args) throws Exception {
        int sysbenchRows = 100_000;
        int wideRows = 30_000;
        int rounds = 3;
        int batch = 256;
        Path report = Path.of("bench/results/benchmarks-driver.md");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> sysbenchRows = Integer.parseInt(args[++i]);
                case "--wide-rows" -> wideRows = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                case "--report" -> {
                    String file = args[++i];
                    report = file.equals("-") ? null : Path.of(file);
                }
                default -> throw new IllegalArgumentException("DriverBenchmark [--rows N] [--wide-rows N] "
                        + "[--rounds N] [--batch N] [--report FILE|-]; not " + args[i]);
            }
        }
        Path work = Path.of("bench/target/bench-work/driver");
        EmbeddedMariaDb.deleteRecursively(work);
        Files.createDirectories(work);
        Driver mariadb = mariadbDriver();
        Driver mysql = new com.mysql.cj.jdbc.Driver();
        Object sinkDialect = sinkDialect();
        long start = System.nanoTime();
        say("starting MariaDB 11.4...");
        StringBuilder md = new StringBuilder();
        try (EmbeddedMariaDb db = EmbeddedMariaDb.start(work.resolve("mariadb"), 1)) {
            String version;
            try (Connection c = db.connect(null); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + DB);
                var rs = s.executeQuery("SELECT VERSION()");
                rs.next();
                version = rs.getString(1);
            }
            md.append("# Benchmark: the sink's driver, mysql-connector-j against MariaDB Connector/J\n\n")
                    .append("Written by `bench/run-driver-benchmark.sh` (`io.cdcconnect.bench.driver.DriverBenchmark`)")
                    .append(" on ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(", ")
                    .append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                    .append(System.getProperty("java.version")).append(", MariaDB ").append(version)
                    .append(" (embedded, same machine). One connection, one thread; multi-row upserts of ")
                    .append(batch).append(" rows (the bulk variant: a batch of ").append(batch)
                    .append(" single-row upserts), a commit every ").append(COMMIT_ROWS).append(" rows; each round ")
                    .append("writes every row as an insert, then as an update, into an emptied table. Median of ")
                    .append(rounds).append(" rounds after a warm-up round; \"client CPU\" is the applying thread's ")
                    .append("own CPU time (ThreadMXBean), the driver's share of the sink's worker threads.\n\n");
            for (boolean wide : new boolean[] {false, true}) {
                int n = wide ? wideRows : sysbenchRows;
                List<Object[]> inserts = rows(n, wide, 1);
                List<Object[]> updates = rows(n, wide, 2);
                try (Connection c = db.connect(DB); Statement s = c.createStatement()) {
                    s.execute("DROP TABLE IF EXISTS " + SysbenchWorkload.table(1));
                    s.execute(wide ? WideRows.ddl(1) : SysbenchWorkload.ddl(1));
                }
                String shape = wide ? "wide60 (" + WideRows.COLUMNS + " columns)" : "sysbench (4 columns)";
                Map<String, List<Measure>> results = new HashMap<>();
                for (int round = 0; round <= rounds; round++) {
                    List<Variant> order = new ArrayList<>(VARIANTS);
                    if (round % 2 == 1) java.util.Collections.reverse(order);
                    for (Variant v : order) {
                        try (Connection c = db.connect(DB); Statement s = c.createStatement()) {
                            s.execute("TRUNCATE TABLE " + SysbenchWorkload.table(1));
                        }
                        String url = (v.mariadb() ? "jdbc:mariadb://" : "jdbc:mysql://") + db.host() + ":" + db.port()
                                + "/" + DB;
                        Properties p = properties(v, db, url, sinkDialect);
                        Measure m;
                        try (Connection c = (v.mariadb() ? mariadb : mysql).connect(url, p)) {
                            m = apply(c, v, wide, batch, inserts, updates);
                        }
                        say(String.format(Locale.ROOT, "%s %s round %d: %.2f s, %,.0f rows/s, client CPU %.1f µs/row",
                                shape, v.id(), round, m.seconds(), m.rows() / m.seconds(),
                                m.cpuSeconds() * 1e6 / m.rows()));
                        if (round > 0) results.computeIfAbsent(v.id(), k -> new ArrayList<>()).add(m);
                    }
                }
                md.append("## ").append(shape).append(": ").append(String.format(Locale.ROOT, "%,d", 2L * n))
                        .append(" row writes a round\n\n")
                        .append("| driver, statements | rows/s (median) | rounds, rows/s | client CPU µs/row (median)"
                                + " | rows/s vs mysql-connector-j, kept | client CPU vs mysql-connector-j, kept |\n")
                        .append("|---|---:|---:|---:|---:|---:|\n");
                double baseRate = median(results.get("mysql-server-kept"), true);
                double baseCpu = median(results.get("mysql-server-kept"), false);
                for (Variant v : VARIANTS) {
                    List<Measure> ms = results.get(v.id());
                    double rate = median(ms, true);
                    double cpu = median(ms, false);
                    StringBuilder each = new StringBuilder();
                    for (Measure m : ms) {
                        each.append(each.length() == 0 ? "" : ", ")
                                .append(String.format(Locale.ROOT, "%,.0f", m.rows() / m.seconds()));
                    }
                    md.append(String.format(Locale.ROOT, "| %s | %,.0f | %s | %.1f | %.0f%% | %.0f%% |%n", v.label(),
                            rate, each, cpu, 100 * rate / baseRate, 100 * cpu / baseCpu));
                }
                md.append('\n');
            }
        }
        md.append("Run in ").append((System.nanoTime() - start) / 1_000_000_000L).append(" s.\n");
        System.out.println();
        System.out.println(md);
        if (report != null) {
            Files.writeString(report, md.toString());
            say("written to " + report.toAbsolutePath());
        }
    }

    private static double median(List<Measure> ms, boolean rate) {
        double[] v = ms.stream().mapToDouble(m -> rate ? m.rows() / m.seconds() : m.cpuSeconds() * 1e6 / m.rows())
                .sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Rows 1..n, with values that differ by {@code pass} (an update rewrites every column). */
    private static List<Object[]> rows(int n, boolean wide, int pass) {
        Random r = new Random(20261128L + pass);
        List<Object[]> out = new ArrayList<>(n);
        for (int id = 1; id <= n; id++) {
            Change ch = new Change(1, Kind.INSERT, id, r.nextInt(1_000_000), digits(r, 119), digits(r, 59));
            out.add(wide ? WideRows.values(ch) : new Object[] {(long) id, (long) ch.k(), ch.c(), ch.pad()});
        }
        return out;
    }

    private static String digits(Random r, int n) {
        char[] c = new char[n];
        for (int i = 0; i < n; i++) c[i] = i % 12 == 11 ? '-' : (char) ('0' + r.nextInt(10));
        return new String(c);
    }

    private static Properties properties(Variant v, EmbeddedMariaDb db, String url, Object sinkDialect)
            throws ReflectiveOperationException {
        Properties p = new Properties();
        if (v.mariadb()) {
            p.setProperty("sslMode", "disable");
            p.setProperty("useServerPrepStmts", Boolean.toString(v.serverSide()));
            p.setProperty("cachePrepStmts", "false");
            p.setProperty("useBulkStmts", Boolean.toString(v.bulk()));
            p.setProperty("useBulkStmtsForInserts", Boolean.toString(v.bulk()));
        } else {
            // the sink's own driver settings (its MariaDB dialect's driverProperties), TLS off as for Connector/J
            p.putAll((Properties) sinkDialect.getClass().getMethod("driverProperties", long.class)
                    .invoke(sinkDialect, 0L));
            sinkDialect.getClass().getMethod("applySslMode", Properties.class, String.class, String.class)
                    .invoke(sinkDialect, p, url, "disabled");
            p.setProperty("useServerPrepStmts", Boolean.toString(v.serverSide()));
        }
        p.setProperty("user", db.user());
        p.setProperty("password", db.password());
        return p;
    }

    /**
     * The sink's MariaDB dialect, from the sink's plugin folder (the bench build unpacks it): its driver settings are
     * the ones measured, not a copy of them.
     */
    private static Object sinkDialect() throws Exception {
        Path lib;
        try (var dirs = Files.list(Path.of("bench/target/connect-plugins"))) {
            lib = dirs.filter(d -> d.getFileName().toString().contains("cdc-connect-sink")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no sink plugin in bench/target/connect-plugins"))
                    .resolve("lib");
        }
        List<URL> jars = new ArrayList<>();
        try (var files = Files.list(lib)) {
            for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).toList()) jars.add(jar.toUri().toURL());
        }
        URLClassLoader loader = new URLClassLoader(jars.toArray(new URL[0]), DriverBenchmark.class.getClassLoader());
        return Class.forName("io.cdcconnect.sink.dialect.mysql.MariaDbDialect", true, loader)
                .getDeclaredConstructor().newInstance();
    }

    private static Measure apply(Connection c, Variant v, boolean wide, int batch, List<Object[]> inserts,
                                 List<Object[]> updates) throws SQLException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        c.setAutoCommit(false);
        Map<Integer, PreparedStatement> statements = new HashMap<>();
        try {
            long cpu0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            for (List<Object[]> pass : List.of(inserts, updates)) {
                int inTxn = 0;
                for (int from = 0; from < pass.size(); from += batch) {
                    List<Object[]> chunk = pass.subList(from, Math.min(pass.size(), from + batch));
                    if (v.bulk()) {
                        PreparedStatement ps = statements.computeIfAbsent(1, k -> prepare(c, wide, 1));
                        for (Object[] row : chunk) {
                            bind(ps, 1, row, wide);
                            ps.addBatch();
                        }
                        ps.executeBatch();
                    } else {
                        PreparedStatement ps = statements.computeIfAbsent(chunk.size(), k -> prepare(c, wide, k));
                        int p = 1;
                        for (Object[] row : chunk) p = bind(ps, p, row, wide);
                        ps.executeUpdate();
                        if (v.clear()) ps.clearParameters();
                    }
                    inTxn += chunk.size();
                    if (inTxn >= COMMIT_ROWS) {
                        c.commit();
                        inTxn = 0;
                    }
                }
                c.commit();
            }
            long nanos = System.nanoTime() - t0;
            long cpu = threads.getCurrentThreadCpuTime() - cpu0;
            return new Measure(nanos / 1e9, cpu / 1e9, inserts.size() + updates.size());
        } finally {
            for (PreparedStatement ps : statements.values()) ps.close();
        }
    }

    private static PreparedStatement prepare(Connection c, boolean wide, int rows) {
        try {
            return c.prepareStatement(wide ? WideRows.upsertSql(1, rows) : PlainJdbcCeiling.upsertSql(1, rows));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int bind(PreparedStatement ps, int p, Object[] row, boolean wide) throws SQLException {
        if (wide) return WideRows.bind(ps, p, row);
        ps.setLong(p++, (Long) row[0]);
        ps.setLong(p++, (Long) row[1]);
        ps.setString(p++, (String) row[2]);
        ps.setString(p++, (String) row[3]);
        return p;
    }

    /** MariaDB Connector/J from Debezium's MariaDB plugin folder (the bench build unpacks it). */
    private static Driver mariadbDriver() throws Exception {
        Path folder = Path.of("bench/target/bench-plugins/debezium-connector-mariadb");
        Path jar;
        try (var files = Files.list(folder)) {
            jar = files.filter(f -> f.getFileName().toString().startsWith("mariadb-java-client-")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no mariadb-java-client jar in " + folder));
        }
        URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                DriverBenchmark.class.getClassLoader());
        return (Driver) Class.forName("org.mariadb.jdbc.Driver", true, loader).getDeclaredConstructor().newInstance();
    }

    private static void say(String s) {
        System.out.println(s);
    }
}
