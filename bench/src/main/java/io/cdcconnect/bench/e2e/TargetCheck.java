package io.cdcconnect.bench.e2e;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a target database holds exactly the source's rows: per table the row count and {@code CHECKSUM TABLE}
 * (same server, same table definition, so equal contents give equal checksums).
 */
public final class TargetCheck {
    /** Statements {@link #differences} sends per table and database. */
    public static final int STATEMENTS_PER_TABLE = 2;

    private TargetCheck() {
    }

    /** Empty when every table matches; otherwise one line per differing table. */
    public static List<String> differences(Connection c, String sourceDb, String targetDb, int tables)
            throws SQLException {
        List<String> out = new ArrayList<>();
        for (int t = 1; t <= tables; t++) {
            String table = SysbenchWorkload.table(t);
            long[] up = countAndChecksum(c, sourceDb, table);
            long[] down = countAndChecksum(c, targetDb, table);
            if (up[0] != down[0] || up[1] != down[1]) {
                out.add(table + ": source " + up[0] + " rows (checksum " + up[1] + "), target " + down[0]
                        + " rows (checksum " + down[1] + ")");
            }
        }
        return out;
    }

    /** Row counts only, cheap enough to poll. */
    public static long rows(Connection c, String db, int tables) throws SQLException {
        long n = 0;
        try (Statement s = c.createStatement()) {
            for (int t = 1; t <= tables; t++) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM `" + db + "`." + SysbenchWorkload.table(t))) {
                    rs.next();
                    n += rs.getLong(1);
                }
            }
        }
        return n;
    }

    private static long[] countAndChecksum(Connection c, String db, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            long count;
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM `" + db + "`." + table)) {
                rs.next();
                count = rs.getLong(1);
            }
            try (ResultSet rs = s.executeQuery("CHECKSUM TABLE `" + db + "`." + table + " EXTENDED")) {
                rs.next();
                return new long[] {count, rs.getLong(2)};
            }
        }
    }
}
