package io.cdcconnect.verify;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Compares tables the way sync-diff-inspector does: each table is split into chunks by key ranges taken from the
 * source ({@code chunkSize} rows each), both sides compute a checksum of every chunk (row count and the sum of a
 * 128-bit hash of each row's values, written down by {@link ValueKind} so that MySQL and PostgreSQL values compare),
 * and only a chunk whose checksums differ is read again, row by row, to name the keys that differ. Checksums are
 * computed here, not by the servers: one normalisation for every pair of databases, at the cost of reading each
 * table once over the network (docs/verify.md).
 */
public final class Verifier {
    private final VerifyRequest request;
    private final Consumer<String> progress;
    private final Map<Thread, Connection[]> sessions = new ConcurrentHashMap<>();

    private Verifier(VerifyRequest request, Consumer<String> progress) {
        this.request = request;
        this.progress = progress;
    }

    /**
     * Runs the comparison. Throws when a side cannot be reached or a table pattern is malformed; a table that cannot
     * be compared (no key, a query failing) is reported in its {@link TableResult} as an error.
     *
     * @param progress receives a line per table in progress every {@code progressMillis} (null: none)
     */
    public static VerifyReport run(VerifyRequest request, Consumer<String> progress) throws SQLException {
        return new Verifier(request, progress).run();
    }

    private VerifyReport run() throws SQLException {
        long t0 = System.nanoTime();
        Connection up = request.source().open();
        Connection down;
        try {
            down = request.target().open();
        } catch (SQLException e) {
            request.source().release(up);
            throw e;
        }
        sessions.put(Thread.currentThread(), new Connection[] {up, down});
        ExecutorService pool = request.threads() > 1 ? Executors.newFixedThreadPool(request.threads(), r -> {
            Thread t = new Thread(r, "cdc-verify-chunk");
            t.setDaemon(true);
            return t;
        }) : null;
        ScheduledExecutorService ticker = null;
        List<TableResult> results = new ArrayList<>();
        try {
            SqlFamily upFamily = SqlFamily.of(up);
            SqlFamily downFamily = SqlFamily.of(down);
            String upServer = describe(up);
            String downServer = describe(down);
            TableNames names = new TableNames(upFamily, up);
            List<String[]> tables = names.resolve(request.tables(), results, request.shown());
            if (progress != null) {
                ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "cdc-verify-progress");
                    t.setDaemon(true);
                    return t;
                });
                List<TableResult> seen = results;
                ticker.scheduleAtFixedRate(() -> report(seen), request.progressMillis(), request.progressMillis(),
                        TimeUnit.MILLISECONDS);
            }
            List<Future<?>> pending = new ArrayList<>();
            Map<TableResult, Long> started = new LinkedHashMap<>();
            for (String[] t : tables) {
                String targetSchema = request.targetSchema(t[0]);
                TableResult result = new TableResult(t[0] + "." + t[1], targetSchema + "." + t[1], request.shown());
                synchronized (results) {
                    results.add(result);
                }
                started.put(result, System.nanoTime());
                try {
                    plan(upFamily, up, downFamily, down, t[0], t[1], targetSchema, result, pool, pending);
                } catch (SQLException e) {
                    result.failed(scrub(e.getMessage()));
                }
            }
            for (Future<?> f : pending) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted", e);
                }
            }
            for (Map.Entry<TableResult, Long> e : started.entrySet()) {
                e.getKey().finish((System.nanoTime() - e.getValue()) / 1_000_000);
            }
            return new VerifyReport(upServer, downServer, List.copyOf(results), (System.nanoTime() - t0) / 1_000_000);
        } finally {
            if (ticker != null) ticker.shutdownNow();
            if (pool != null) pool.shutdownNow();
            for (Map.Entry<Thread, Connection[]> e : sessions.entrySet()) {
                releaseQuietly(request.source(), e.getValue()[0]);
                releaseQuietly(request.target(), e.getValue()[1]);
            }
        }
    }

    /** Reads both sides' definitions and hands the table's chunks out as the source's keys give their bounds. */
    private void plan(SqlFamily upFamily, Connection up, SqlFamily downFamily, Connection down, String schema,
                      String table, String targetSchema, TableResult result, ExecutorService pool,
                      List<Future<?>> pending) throws SQLException {
        TableMeta upMeta = TableMeta.read(upFamily, up, schema, table, true);
        if (!TableMeta.exists(downFamily, down, targetSchema, table)) {
            result.missingTable(count(up, upMeta));
            return;
        }
        if (upMeta.key().isEmpty()) {
            throw new SQLException(result.source() + " has no primary key and no unique key of NOT NULL columns: "
                    + "cdc-verify compares rows by key (add one, or leave the table out of --tables)");
        }
        TablePlan plan = new TablePlan(upMeta, TableMeta.read(downFamily, down, targetSchema, table, false),
                request.where(), result);
        if (!plan.keyOrderAgrees(up, down)) {
            // bounds taken in the source's order would not cut the target into the same ranges: one chunk
            result.note("compared as one chunk: its key has text columns the two sides collate differently");
            schedule(plan, new KeyRange(0, null, null), result, pool, pending);
            return;
        }
        List<String> key = plan.sourceKey();
        String order = String.join(", ", key);
        Object[] lower = null;
        int index = 0;
        while (true) {
            List<Object> params = new ArrayList<>();
            StringBuilder sql = new StringBuilder("SELECT ").append(order).append(" FROM ").append(upMeta.qualified())
                    .append(" WHERE ").append(new KeyRange(index, lower, null).predicate(key, params));
            if (request.where() != null) sql.append(" AND (").append(request.where()).append(')');
            sql.append(" ORDER BY ").append(order).append(upFamily.limitOffset(1, request.chunkSize() - 1L));
            Object[] upper = null;
            try (PreparedStatement ps = up.prepareStatement(sql.toString())) {
                KeyRange.bind(ps, params);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        upper = new Object[key.size()];
                        for (int i = 0; i < upper.length; i++) upper[i] = rs.getObject(i + 1);
                    }
                }
            }
            schedule(plan, new KeyRange(index++, lower, upper), result, pool, pending);
            if (upper == null) return;
            lower = upper;
        }
    }

    /** Counts one chunk of the table and compares it: on the pool if there is one, else now. */
    private void schedule(TablePlan plan, KeyRange range, TableResult result, ExecutorService pool,
                          List<Future<?>> pending) {
        result.chunks.incrementAndGet();
        Runnable check = () -> check(plan, range, result);
        if (pool == null) check.run();
        else pending.add(pool.submit(check));
    }

    private void check(TablePlan plan, KeyRange range, TableResult result) {
        try {
            Connection[] c = session();
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            long[] upSum = new long[2];
            long[] downSum = new long[2];
            long upRows = digest(plan, c[0], true, range, sha, upSum);
            long downRows = digest(plan, c[1], false, range, sha, downSum);
            result.sourceRows.addAndGet(upRows);
            result.targetRows.addAndGet(downRows);
            if (upRows != downRows || upSum[0] != downSum[0] || upSum[1] != downSum[1]) {
                result.differingChunks.incrementAndGet();
                drill(plan, range, result, c);
            }
        } catch (SQLException | RuntimeException | NoSuchAlgorithmException e) {
            result.failed(range.describe() + ": " + scrub(String.valueOf(e.getMessage())));
        } finally {
            result.chunksDone.incrementAndGet();
        }
    }

    private static long digest(TablePlan plan, Connection c, boolean upstream, KeyRange range, MessageDigest sha,
                               long[] sum) throws SQLException {
        long rows = 0;
        try (PreparedStatement ps = plan.select(c, upstream, range); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                TablePlan.hash(sha, plan.row(rs, upstream), sum);
                rows++;
            }
        }
        return rows;
    }

    /** Reads a differing chunk again on both sides and sorts its rows into missing, extra and different. */
    private static void drill(TablePlan plan, KeyRange range, TableResult result, Connection[] c) throws SQLException {
        Map<String, String[]> ups = rows(plan, c[0], true, range);
        Map<String, String[]> downs = rows(plan, c[1], false, range);
        for (Map.Entry<String, String[]> e : ups.entrySet()) {
            String[] d = downs.remove(e.getKey());
            if (d == null) result.upstreamOnly(e.getKey(), e.getValue(), plan);
            else result.compared(e.getKey(), e.getValue(), d, plan);
        }
        for (Map.Entry<String, String[]> e : downs.entrySet()) result.downstreamOnly(e.getKey(), e.getValue(), plan);
    }

    private static Map<String, String[]> rows(TablePlan plan, Connection c, boolean upstream, KeyRange range)
            throws SQLException {
        Map<String, String[]> out = new LinkedHashMap<>();
        try (PreparedStatement ps = plan.select(c, upstream, range); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String[] row = plan.row(rs, upstream);
                out.put(plan.key(row), row);
            }
        }
        return out;
    }

    private long count(Connection c, TableMeta t) throws SQLException {
        String sql = "SELECT COUNT(*) FROM " + t.qualified() + (request.where() == null ? "" : " WHERE " + request.where());
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** This thread's two connections, opened on first use. */
    private Connection[] session() throws SQLException {
        Connection[] c = sessions.get(Thread.currentThread());
        if (c != null) return c;
        Connection up = request.source().open();
        try {
            c = new Connection[] {up, request.target().open()};
        } catch (SQLException e) {
            releaseQuietly(request.source(), up);
            throw e;
        }
        sessions.put(Thread.currentThread(), c);
        return c;
    }

    private void report(List<TableResult> results) {
        List<TableResult> now;
        synchronized (results) {
            now = List.copyOf(results);
        }
        for (TableResult t : now) {
            if (t.isDone() || t.chunksDone.get() == t.chunks()) continue;
            progress.accept(String.format("%s: %d of %d chunks so far compared, %,d rows upstream, %d differing chunks",
                    t.source(), t.chunksDone.get(), t.chunks(), t.sourceRows(), t.differingChunks()));
        }
    }

    /** {@code msg} without either side's password. */
    private String scrub(String msg) {
        if (request.source() instanceof Endpoint ep) msg = ep.scrub(msg);
        if (request.target() instanceof Endpoint ep) msg = ep.scrub(msg);
        return msg;
    }

    private static String describe(Connection c) {
        try {
            return c.getMetaData().getDatabaseProductName() + " " + c.getMetaData().getDatabaseProductVersion();
        } catch (SQLException e) {
            return "unknown server";
        }
    }

    private static void releaseQuietly(ConnectionSource s, Connection c) {
        try {
            s.release(c);
        } catch (SQLException ignored) {
            // closing after the comparison: nothing left to protect
        }
    }
}
