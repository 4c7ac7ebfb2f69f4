package io.cdcconnect.it.faults;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** The fault tests' preloads: many rows through one prepared statement, committed every 5,000. */
final class BatchInsert {
    private static final int PER_COMMIT = 5_000;

    /** Binds the {@code i}th row's parameters. */
    interface Row {
        void bind(PreparedStatement ps, int i) throws SQLException;
    }

    private BatchInsert() {
    }

    static void insert(Connection c, String sql, int rows, Row row) throws SQLException {
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < rows; i++) {
                row.bind(ps, i);
                ps.addBatch();
                if (i % PER_COMMIT == PER_COMMIT - 1) {
                    ps.executeBatch();
                    c.commit();
                }
            }
            ps.executeBatch();
            c.commit();
        }
        c.setAutoCommit(true);
    }
}
