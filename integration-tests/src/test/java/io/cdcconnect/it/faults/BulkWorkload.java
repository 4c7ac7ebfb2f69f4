package io.cdcconnect.it.faults;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Large transactions on one table: each rewrites a fifth of the rows (1,000 of the 5,000 preloaded) with the
 * transaction's number, or inserts 1,000 new rows. The last value of every row depends on the order in which the
 * transactions were applied, so a reordering, a lost transaction or a half-applied one shows in the comparison.
 */
final class BulkWorkload {
    static final String TABLE = "bulk";
    static final String DDL = "CREATE TABLE IF NOT EXISTS bulk (id BIGINT NOT NULL PRIMARY KEY, grp INT NOT NULL,"
            + " v BIGINT NOT NULL, note VARCHAR(64) NULL, KEY idx_grp (grp)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    static final int ROWS_PER_TXN = 1_000;
    private static final int GROUPS = 5;

    private long nextId;
    private long txn;

    static List<String> tables() {
        return List.of(TABLE);
    }

    /** Inserts {@code rows} rows in transactions of 1,000. */
    void preload(Connection c, int rows) throws SQLException {
        c.setAutoCommit(false);
        for (int done = 0; done < rows; done += ROWS_PER_TXN) insertBatch(c, Math.min(ROWS_PER_TXN, rows - done));
        c.setAutoCommit(true);
    }

    /** One transaction of 1,000 row changes; returns the row changes written. */
    int next(Connection c) throws SQLException {
        txn++;
        c.setAutoCommit(false);
        int n;
        if (txn % 3 == 0) {
            n = insertBatch(c, ROWS_PER_TXN);
        } else {
            try (Statement s = c.createStatement()) {
                n = s.executeUpdate("UPDATE bulk SET v = " + txn + ", note = 'txn " + txn + "' WHERE grp = "
                        + (txn % GROUPS) + " AND id < " + (GROUPS * ROWS_PER_TXN));
            }
            c.commit();
        }
        c.setAutoCommit(true);
        return n;
    }

    private int insertBatch(Connection c, int rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO bulk (id, grp, v, note) VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                long id = nextId++;
                ps.setLong(1, id);
                ps.setInt(2, (int) (id % GROUPS));
                ps.setLong(3, txn);
                ps.setString(4, null);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        c.commit();
        return rows;
    }
}
