package io.cdcconnect.bench.e2e;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The sysbench-like workload of {@code BENCHMARKS.md}: tables {@code sbtest1..N} ({@code id INT PRIMARY KEY, k INT,
 * c CHAR(120), pad CHAR(60), KEY(k)}), a preload, then a seeded mix of update-non-index (c), update-index (k),
 * delete + re-insert of the same id and inserts of new ids, in single-statement and multi-statement transactions.
 *
 * <p>The whole change list is generated in memory first, with the full after-image of every row, so that the same
 * changes can be written upstream (into the binlog) and replayed by the plain-JDBC ceiling.
 */
public final class SysbenchWorkload {

    public enum Kind { INSERT, UPDATE, DELETE }

    /** One row change; for INSERT and UPDATE the full after-image. {@code table} counts from 1. */
    public record Change(int table, Kind kind, int id, int k, String c, String pad) {
    }

    /** One upstream transaction, always on one table. */
    public record Txn(int table, List<Change> changes) {
    }

    private static final int PRELOAD_TXN_ROWS = 1000;

    private final int tables;
    private final int rowsPerTable;
    private final List<Txn> preload = new ArrayList<>();
    private final List<Txn> operations = new ArrayList<>();
    private final long[] changesPerTable;
    private long opChanges;

    private SysbenchWorkload(int tables, int rowsPerTable) {
        this.tables = tables;
        this.rowsPerTable = rowsPerTable;
        this.changesPerTable = new long[tables + 1];
    }

    public static String table(int t) {
        return "sbtest" + t;
    }

    public static String ddl(int t) {
        return ddl(table(t));
    }

    /** The sysbench table definition under another name (the warm-up table). */
    public static String ddl(String table) {
        return "CREATE TABLE IF NOT EXISTS " + table + " (id INT NOT NULL PRIMARY KEY, k INT NOT NULL DEFAULT 0,"
                + " c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', KEY k_" + table + " (k))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    }

    /** Writes {@code rows} inserts then {@code rows} updates into a sysbench-shaped table, in transactions of 500. */
    public static long writeWarmup(Connection c, String table, int rows) throws SQLException {
        Random r = new Random(7);
        c.setAutoCommit(false);
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " (id, k, c, pad) VALUES (?,?,?,?)");
             PreparedStatement upd = c.prepareStatement("UPDATE " + table + " SET k = k + 1 WHERE id BETWEEN ? AND ?")) {
            for (int id = 1; id <= rows; id++) {
                ins.setInt(1, id);
                ins.setInt(2, id);
                ins.setString(3, digits(r, 10));
                ins.setString(4, digits(r, 5));
                ins.addBatch();
                if (id % 500 == 0 || id == rows) {
                    ins.executeBatch();
                    c.commit();
                }
            }
            for (int from = 1; from <= rows; from += 500) {
                upd.setInt(1, from);
                upd.setInt(2, Math.min(rows, from + 499));
                upd.executeUpdate();
                c.commit();
            }
        }
        return 2L * rows;
    }

    /** Generates {@code rowsPerTable} inserts per table, then at least {@code operations} row changes. */
    public static SysbenchWorkload generate(int tables, int rowsPerTable, int operations, long seed) {
        SysbenchWorkload w = new SysbenchWorkload(tables, rowsPerTable);
        Random r = new Random(seed);
        TableState[] state = new TableState[tables + 1];
        for (int t = 1; t <= tables; t++) {
            state[t] = new TableState(rowsPerTable + operations + 16);
            List<Change> chunk = new ArrayList<>(PRELOAD_TXN_ROWS);
            for (int id = 1; id <= rowsPerTable; id++) {
                chunk.add(state[t].insert(t, id, r.nextInt(rowsPerTable) + 1, digits(r, 10), digits(r, 5)));
                if (chunk.size() == PRELOAD_TXN_ROWS) {
                    w.add(w.preload, new Txn(t, chunk));
                    chunk = new ArrayList<>(PRELOAD_TXN_ROWS);
                }
            }
            if (!chunk.isEmpty()) w.add(w.preload, new Txn(t, chunk));
        }
        while (w.opChanges < operations) {
            int t = 1 + r.nextInt(tables);
            TableState s = state[t];
            int statements = r.nextInt(10) < 7 ? 1 : 2 + r.nextInt(7);
            List<Change> txn = new ArrayList<>();
            for (int i = 0; i < statements; i++) {
                int pick = r.nextInt(100);
                if (pick < 10 || s.maxId == 0) {
                    int id = s.maxId + 1;
                    txn.add(s.insert(t, id, r.nextInt(rowsPerTable) + 1, digits(r, 10), digits(r, 5)));
                    continue;
                }
                int id = 1 + r.nextInt(s.maxId);
                if (pick < 40) {
                    txn.add(s.update(t, id, s.k[id], digits(r, 10), s.pad[id]));
                } else if (pick < 70) {
                    txn.add(s.update(t, id, s.k[id] + 1, s.c[id], s.pad[id]));
                } else {
                    txn.add(new Change(t, Kind.DELETE, id, s.k[id], s.c[id], s.pad[id]));
                    txn.add(s.insert(t, id, r.nextInt(rowsPerTable) + 1, digits(r, 10), digits(r, 5)));
                }
            }
            w.opChanges += txn.size();
            w.add(w.operations, new Txn(t, txn));
        }
        return w;
    }

    private void add(List<Txn> list, Txn txn) {
        list.add(txn);
        changesPerTable[txn.table()] += txn.changes().size();
    }

    public int tables() {
        return tables;
    }

    public int rowsPerTable() {
        return rowsPerTable;
    }

    public List<Txn> preload() {
        return preload;
    }

    public List<Txn> operations() {
        return operations;
    }

    /** Every change, preload first, in generation order. */
    public List<Txn> all() {
        List<Txn> all = new ArrayList<>(preload.size() + operations.size());
        all.addAll(preload);
        all.addAll(operations);
        return all;
    }

    public long rowChanges() {
        return Arrays.stream(changesPerTable).sum();
    }

    public long operationChanges() {
        return opChanges;
    }

    public long rowChanges(int table) {
        return changesPerTable[table];
    }

    public int transactions() {
        return preload.size() + operations.size();
    }

    /** Creates the tables (empty) in the database the connection points at. */
    public void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (int t = 1; t <= tables; t++) s.execute(ddl(t));
        }
    }

    /** Opens one connection of a pool of writers. */
    public interface ConnectionFactory {
        Connection open() throws SQLException;
    }

    /**
     * Writes {@code txns} upstream as the application would (one statement per change, preload as batched inserts),
     * over {@code threads} connections that each own a disjoint set of tables, so the per-row order is the generated one.
     */
    public void write(List<Txn> txns, ConnectionFactory connections, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int w = 0; w < threads; w++) {
                int me = w;
                Callable<Void> job = () -> {
                    try (Connection c = connections.open()) {
                        writeOwn(c, txns, me, threads);
                    }
                    return null;
                };
                done.add(pool.submit(job));
            }
            for (Future<Void> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
    }

    private void writeOwn(Connection c, List<Txn> txns, int me, int threads) throws SQLException {
        c.setAutoCommit(false);
        PreparedStatement[] insert = new PreparedStatement[tables + 1];
        PreparedStatement[] update = new PreparedStatement[tables + 1];
        PreparedStatement[] delete = new PreparedStatement[tables + 1];
        try {
            for (int t = 1; t <= tables; t++) {
                if (t % threads != me) continue;
                insert[t] = c.prepareStatement("INSERT INTO " + table(t) + " (id, k, c, pad) VALUES (?,?,?,?)");
                update[t] = c.prepareStatement("UPDATE " + table(t) + " SET k = ?, c = ?, pad = ? WHERE id = ?");
                delete[t] = c.prepareStatement("DELETE FROM " + table(t) + " WHERE id = ?");
            }
            for (Txn txn : txns) {
                int t = txn.table();
                if (t % threads != me) continue;
                boolean allInserts = txn.changes().size() > 1
                        && txn.changes().stream().allMatch(ch -> ch.kind() == Kind.INSERT);
                for (Change ch : txn.changes()) {
                    switch (ch.kind()) {
                        case INSERT -> {
                            PreparedStatement ps = insert[t];
                            ps.setInt(1, ch.id());
                            ps.setInt(2, ch.k());
                            ps.setString(3, ch.c());
                            ps.setString(4, ch.pad());
                            if (allInserts) ps.addBatch();
                            else expectOne(ps.executeUpdate(), ch);
                        }
                        case UPDATE -> {
                            PreparedStatement ps = update[t];
                            ps.setInt(1, ch.k());
                            ps.setString(2, ch.c());
                            ps.setString(3, ch.pad());
                            ps.setInt(4, ch.id());
                            expectOne(ps.executeUpdate(), ch);
                        }
                        case DELETE -> {
                            PreparedStatement ps = delete[t];
                            ps.setInt(1, ch.id());
                            expectOne(ps.executeUpdate(), ch);
                        }
                    }
                }
                if (allInserts) insert[t].executeBatch();
                c.commit();
            }
        } finally {
            for (int t = 1; t <= tables; t++) {
                if (insert[t] != null) insert[t].close();
                if (update[t] != null) update[t].close();
                if (delete[t] != null) delete[t].close();
            }
        }
    }

    private static void expectOne(int affected, Change ch) {
        if (affected != 1) {
            throw new IllegalStateException("upstream " + ch.kind() + " of " + table(ch.table()) + " id " + ch.id()
                    + " affected " + affected + " rows, expected 1: the generated workload is out of step");
        }
    }

    /** sysbench's c and pad: groups of 11 random digits joined by '-'. */
    private static String digits(Random r, int groups) {
        char[] out = new char[groups * 12 - 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = (i % 12 == 11) ? '-' : (char) ('0' + r.nextInt(10));
        }
        return new String(out);
    }

    /** Current row images of one table, indexed by id (ids never disappear: deletes are always re-inserted). */
    private static final class TableState {
        int[] k;
        String[] c;
        String[] pad;
        int maxId;

        TableState(int capacity) {
            k = new int[capacity];
            c = new String[capacity];
            pad = new String[capacity];
        }

        Change insert(int t, int id, int kv, String cv, String padv) {
            if (id >= k.length) {
                int n = Math.max(id + 1, k.length * 2);
                k = Arrays.copyOf(k, n);
                c = Arrays.copyOf(c, n);
                pad = Arrays.copyOf(pad, n);
            }
            k[id] = kv;
            c[id] = cv;
            pad[id] = padv;
            maxId = Math.max(maxId, id);
            return new Change(t, Kind.INSERT, id, kv, cv, padv);
        }

        Change update(int t, int id, int kv, String cv, String padv) {
            k[id] = kv;
            c[id] = cv;
            pad[id] = padv;
            return new Change(t, Kind.UPDATE, id, kv, cv, padv);
        }
    }
}
