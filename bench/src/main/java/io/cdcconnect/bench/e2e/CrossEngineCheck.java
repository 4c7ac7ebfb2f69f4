package io.cdcconnect.bench.e2e;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a PostgreSQL schema holds exactly the source's rows, across engines (CHECKSUM TABLE is MariaDB's alone):
 * per table the row count and an order-independent digest of every row's (id, k, c, pad), CHAR values with their
 * trailing spaces removed (PostgreSQL returns CHAR(n) padded, MariaDB trimmed). The source's digests are read once:
 * the source does not change during the sink phase.
 */
public final class CrossEngineCheck {
    private final int tables;
    private final long[][] source;

    /** Reads the source's tables (MariaDB, {@code sourceDb}). */
    public CrossEngineCheck(Connection mariadb, String sourceDb, int tables) throws SQLException {
        this.tables = tables;
        this.source = new long[tables + 1][];
        for (int t = 1; t <= tables; t++) {
            source[t] = digest(mariadb, "`" + sourceDb + "`." + SysbenchWorkload.table(t));
        }
    }

    /** Empty when every table of {@code schema} matches; one line per differing table otherwise. */
    public List<String> differences(Connection postgres, String schema) throws SQLException {
        List<String> out = new ArrayList<>();
        for (int t = 1; t <= tables; t++) {
            String table = SysbenchWorkload.table(t);
            long[] down = digest(postgres, schema + "." + table);
            if (down[0] != source[t][0] || down[1] != source[t][1]) {
                out.add(table + ": source " + source[t][0] + " rows (digest " + Long.toHexString(source[t][1])
                        + "), target " + down[0] + " rows (digest " + Long.toHexString(down[1]) + ")");
            }
        }
        return out;
    }

    /** {count, sum of row hashes}. */
    private static long[] digest(Connection c, String qualifiedTable) throws SQLException {
        long count = 0;
        long sum = 0;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, k, c, pad FROM " + qualifiedTable)) {
            while (rs.next()) {
                long h = mix(((long) rs.getInt(1) << 32) ^ (rs.getInt(2) & 0xffffffffL));
                h = mix(h * 31 + rtrim(rs.getString(3)).hashCode());
                h = mix(h * 31 + rtrim(rs.getString(4)).hashCode());
                sum += h;
                count++;
            }
        }
        return new long[] {count, sum};
    }

    private static String rtrim(String s) {
        if (s == null) return "\u0000null";
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') end--;
        return s.substring(0, end);
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
