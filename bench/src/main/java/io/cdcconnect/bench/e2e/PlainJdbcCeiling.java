package io.cdcconnect.bench.e2e;

import io.cdcconnect.bench.e2e.SysbenchWorkload.Change;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Kind;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Txn;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The ceiling of {@code BENCHMARKS.md}: a plain JDBC client applying the same row changes, no Kafka in between, as
 * multi-row statements over N connections. Each key always goes to the same connection and each table's changes are
 * cut into runs of one kind (upserts of the after-image, or deletes by key) of at most {@code batch} rows, applied in
 * order: every change is applied, none is folded away, so per-key order holds.
 */
public final class PlainJdbcCeiling {

    /**
     * How the client applies the changes: {@code IN_ORDER} every change in order, multi-row statements of one kind,
     * autocommit (commit-bound on a slow disk); {@code WINDOWED} issue 24's reference, every change in order as
     * multi-row statements of one kind, one table per connection, one transaction per {@code batch} changes (nothing
     * folded, nothing committed row by row); {@code FOLDED} the net effect per key of windows of {@code batch}.
     */
    public enum Mode {
        IN_ORDER("in-order"), WINDOWED("windowed"), FOLDED("folded");

        final String arg;

        Mode(String arg) {
            this.arg = arg;
        }

        public static Mode of(String arg) {
            for (Mode m : values()) if (m.arg.equals(arg)) return m;
            throw new IllegalArgumentException("mode " + arg);
        }
    }

    private final int connections;
    private final int batch;
    private final boolean folded;
    private final boolean windowed;
    /** PostgreSQL's upsert ({@code ON CONFLICT (id) DO UPDATE}) instead of MariaDB's {@code ON DUPLICATE KEY UPDATE}. */
    private final boolean postgres;
    /** The rows are {@link WideRows}' 60 columns (the wide60 shape), not sysbench's four. */
    private final boolean wide;
    /** wide: every change's 60 values, made before the clock starts (read-only while the lanes run). */
    private java.util.Map<Change, Object[]> wideValues = java.util.Map.of();

    /**
     * @param folded false: every change in order, cut into runs of one kind (a delete ends a run of upserts);
     *               true: per connection and table, windows of {@code batch} consecutive changes, each applied as one
     *               transaction of its net effect per key (one multi-row DELETE for keys whose last change is a
     *               delete, one multi-row upsert of the full after-image for the others), which is what a batching
     *               sink may do too
     */
    public PlainJdbcCeiling(int connections, int batch, boolean folded) {
        this(connections, batch, folded, false);
    }

    /**
     * @param postgres the target is PostgreSQL: only {@code folded} (an upsert of PostgreSQL may not touch one key
     *                 twice, which every-change-in-order runs would ask for)
     */
    public PlainJdbcCeiling(int connections, int batch, boolean folded, boolean postgres) {
        this(connections, batch, folded ? Mode.FOLDED : Mode.IN_ORDER, postgres);
    }

    public PlainJdbcCeiling(int connections, int batch, Mode mode, boolean postgres) {
        this(connections, batch, mode, postgres, false);
    }

    /** @param wide the rows are {@link WideRows}' (MariaDB only) */
    public PlainJdbcCeiling(int connections, int batch, Mode mode, boolean postgres, boolean wide) {
        if (postgres && wide) throw new IllegalArgumentException("PostgreSQL: the sysbench rows only");
        if (postgres && mode != Mode.FOLDED) throw new IllegalArgumentException("PostgreSQL: the folded ceiling only");
        this.connections = connections;
        this.batch = batch;
        this.folded = mode == Mode.FOLDED;
        this.windowed = mode == Mode.WINDOWED;
        this.postgres = postgres;
        this.wide = wide;
    }

    /** The result: rows applied and statements sent. */
    public record Result(long rows, long statements, long nanos) {
    }

    /** Applies every change of {@code txns} into the target; returns when all are committed. */
    public Result apply(List<Txn> txns, SysbenchWorkload.ConnectionFactory target) throws Exception {
        List<List<Change>> lanes = new ArrayList<>();
        for (int i = 0; i < connections; i++) lanes.add(new ArrayList<>());
        for (Txn t : txns) {
            for (Change ch : t.changes()) lanes.get(lane(ch)).add(ch);
        }
        if (wide) {
            // the 60 values of every row, made before the clock starts: the client only binds and sends them
            java.util.Map<Change, Object[]> values = new java.util.IdentityHashMap<>();
            for (List<Change> lane : lanes) {
                for (Change ch : lane) if (!isDelete(ch)) values.put(ch, WideRows.values(ch));
            }
            wideValues = values;
        }
        // Connect before the clock starts: the other variants do not count their connection set-up either.
        List<Connection> conns = new ArrayList<>();
        for (int i = 0; i < connections; i++) conns.add(target.open());
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            long t0 = System.nanoTime();
            List<Future<Long>> done = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                Connection c = conns.get(i);
                List<Change> lane = lanes.get(i);
                done.add(pool.submit(() -> folded ? applyLaneFolded(c, lane)
                        : windowed ? applyLaneWindowed(c, lane) : applyLane(c, lane)));
            }
            long statements = 0;
            for (Future<Long> f : done) statements += f.get();
            long nanos = System.nanoTime() - t0;
            long rows = lanes.stream().mapToLong(List::size).sum();
            return new Result(rows, statements, nanos);
        } finally {
            pool.shutdownNow();
            for (Connection c : conns) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // closing after the measurement; nothing to report
                }
            }
        }
    }

    /**
     * Applies the workload's changes from a fresh child JVM ({@link #main}), so that a cold round of the ceiling starts
     * as cold as a freshly started Connect worker: nothing of JDBC's or of this class's compiled by the JIT yet. The
     * child regenerates the workload from the same seed (untimed) and times {@link #apply} alone.
     */
    static Result applyInFreshJvm(BenchOptions o, long seed, Mode mode, String jdbcUrl, Path log)
            throws Exception {
        Map<String, String> r = ChildJvm.run(PlainJdbcCeiling.class, List.of(Integer.toString(o.tables()),
                        Integer.toString(o.rowsPerTable()), Integer.toString(o.operations()), Long.toString(seed),
                        Integer.toString(o.ceilingConnections()), Integer.toString(o.ceilingBatch()),
                        mode.arg, jdbcUrl), List.of(), "1g", log,
                Duration.ofSeconds(o.timeoutSeconds()));
        return new Result(Long.parseLong(r.get("rows")), Long.parseLong(r.get("statements")),
                Long.parseLong(r.get("nanos")));
    }

    /**
     * The child of {@link #applyInFreshJvm}: {@code PlainJdbcCeiling <tables> <rows> <operations> <seed>
     * <connections> <batch> <in-order|windowed|folded> <jdbc url of the target database>} (MariaDB, the test user).
     */
    public static void main(String[] args) throws Exception {
        SysbenchWorkload w = SysbenchWorkload.generate(Integer.parseInt(args[0]), Integer.parseInt(args[1]),
                Integer.parseInt(args[2]), Long.parseLong(args[3]));
        String url = args[7];
        Result r = new PlainJdbcCeiling(Integer.parseInt(args[4]), Integer.parseInt(args[5]), Mode.of(args[6]), false)
                .apply(w.all(), () -> DriverManager.getConnection(url, EmbeddedMariaDb.USER, EmbeddedMariaDb.PASSWORD));
        ChildJvm.result(Map.of("rows", r.rows(), "statements", r.statements(), "nanos", r.nanos()));
    }

    private int lane(Change ch) {
        // windowed: one table per connection, as issue 24's reference; else by key
        if (windowed) return Math.floorMod(ch.table(), connections);
        return Math.floorMod(ch.table() * 31 + Integer.hashCode(ch.id()) * 0x9E3779B1, connections);
    }

    /**
     * Every change in order, as multi-row statements of one kind (a change of kind, or of table, ends one), and a
     * commit every {@code batch} changes: a transaction of 500 events, as a client that batches without folding.
     */
    private long applyLaneWindowed(Connection c, List<Change> lane) throws SQLException {
        c.setAutoCommit(false);
        Map<String, PreparedStatement> statements = new HashMap<>();
        long sent = 0;
        List<Change> run = new ArrayList<>(batch);
        int inTxn = 0;
        try {
            for (Change ch : lane) {
                if (!run.isEmpty() && (isDelete(run.get(0)) != isDelete(ch) || run.get(0).table() != ch.table())) {
                    sent += flush(c, statements, run);
                }
                run.add(ch);
                if (++inTxn >= batch) {
                    sent += flush(c, statements, run);
                    c.commit();
                    inTxn = 0;
                }
            }
            if (!run.isEmpty()) sent += flush(c, statements, run);
            c.commit();
        } finally {
            for (PreparedStatement ps : statements.values()) ps.close();
        }
        return sent;
    }

    private long applyLane(Connection c, List<Change> lane) throws SQLException {
        c.setAutoCommit(true);
        Map<Integer, List<Change>> pending = new HashMap<>();
        Map<String, PreparedStatement> statements = new HashMap<>();
        long sent = 0;
        try {
            for (Change ch : lane) {
                List<Change> run = pending.computeIfAbsent(ch.table(), t -> new ArrayList<>(batch));
                if (!run.isEmpty() && isDelete(run.get(0)) != isDelete(ch)) {
                    sent += flush(c, statements, run);
                }
                run.add(ch);
                if (run.size() >= batch) sent += flush(c, statements, run);
            }
            for (List<Change> run : pending.values()) {
                if (!run.isEmpty()) sent += flush(c, statements, run);
            }
        } finally {
            for (PreparedStatement ps : statements.values()) ps.close();
        }
        return sent;
    }

    private long applyLaneFolded(Connection c, List<Change> lane) throws SQLException {
        c.setAutoCommit(false);
        Map<Integer, List<Change>> windows = new HashMap<>();
        Map<String, PreparedStatement> statements = new HashMap<>();
        long sent = 0;
        try {
            for (Change ch : lane) {
                List<Change> w = windows.computeIfAbsent(ch.table(), t -> new ArrayList<>(batch));
                w.add(ch);
                if (w.size() >= batch) sent += flushWindow(c, statements, w);
            }
            for (List<Change> w : windows.values()) {
                if (!w.isEmpty()) sent += flushWindow(c, statements, w);
            }
        } finally {
            for (PreparedStatement ps : statements.values()) ps.close();
        }
        return sent;
    }

    /** One transaction: the window's net effect per key. */
    private int flushWindow(Connection c, Map<String, PreparedStatement> cache, List<Change> window)
            throws SQLException {
        Map<Integer, Change> last = new java.util.LinkedHashMap<>();
        for (Change ch : window) {
            last.remove(ch.id());
            last.put(ch.id(), ch);
        }
        List<Change> deletes = new ArrayList<>();
        List<Change> upserts = new ArrayList<>();
        for (Change ch : last.values()) (isDelete(ch) ? deletes : upserts).add(ch);
        int sent = 0;
        if (!deletes.isEmpty()) sent += flush(c, cache, deletes);
        if (!upserts.isEmpty()) sent += flush(c, cache, upserts);
        c.commit();
        window.clear();
        return sent;
    }

    private static boolean isDelete(Change ch) {
        return ch.kind() == Kind.DELETE;
    }

    private int flush(Connection c, Map<String, PreparedStatement> cache, List<Change> run) throws SQLException {
        int t = run.get(0).table();
        boolean delete = isDelete(run.get(0));
        String key = t + (delete ? "d" : "u") + run.size();
        PreparedStatement ps = cache.get(key);
        if (ps == null) {
            ps = c.prepareStatement(delete ? deleteSql(t, run.size()) : wide ? WideRows.upsertSql(t, run.size())
                    : postgres ? upsertSqlPostgres(t, run.size()) : upsertSql(t, run.size()));
            cache.put(key, ps);
        }
        int p = 1;
        for (Change ch : run) {
            if (wide && !delete) {
                p = WideRows.bind(ps, p, wideValues.get(ch));
                continue;
            }
            ps.setInt(p++, ch.id());
            if (!delete) {
                ps.setInt(p++, ch.k());
                ps.setString(p++, ch.c());
                ps.setString(p++, ch.pad());
            }
        }
        ps.executeUpdate();
        run.clear();
        return 1;
    }

    public static String upsertSql(int t, int rows) {
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(SysbenchWorkload.table(t))
                .append(" (id, k, c, pad) VALUES ");
        for (int i = 0; i < rows; i++) sb.append(i == 0 ? "(?,?,?,?)" : ",(?,?,?,?)");
        return sb.append(" ON DUPLICATE KEY UPDATE k = VALUES(k), c = VALUES(c), pad = VALUES(pad)").toString();
    }

    static String upsertSqlPostgres(int t, int rows) {
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(SysbenchWorkload.table(t))
                .append(" (id, k, c, pad) VALUES ");
        for (int i = 0; i < rows; i++) sb.append(i == 0 ? "(?,?,?,?)" : ",(?,?,?,?)");
        return sb.append(" ON CONFLICT (id) DO UPDATE SET k = EXCLUDED.k, c = EXCLUDED.c, pad = EXCLUDED.pad")
                .toString();
    }

    static String deleteSql(int t, int rows) {
        StringBuilder sb = new StringBuilder("DELETE FROM ").append(SysbenchWorkload.table(t)).append(" WHERE id IN (");
        for (int i = 0; i < rows; i++) sb.append(i == 0 ? "?" : ",?");
        return sb.append(')').toString();
    }
}
