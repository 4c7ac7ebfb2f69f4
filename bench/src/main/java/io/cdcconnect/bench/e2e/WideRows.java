package io.cdcconnect.bench.e2e;

import io.cdcconnect.bench.e2e.SysbenchWorkload.Change;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The 60-column rows of the wide60 shape: the sysbench table's four columns ({@code id, k, c, pad}) and 56 more of
 * the common types, about 1.3 KB of values a row. The 56 are a function of the change's table, id, k and c, so the
 * workload's changes ({@link Change}) carry them: every update rewrites them, as a full after-image does.
 *
 * <p>Only types whose values reach the target the same way through a Canal-JSON message as through JDBC's setters
 * (no FLOAT, whose text in JSON rounds; no TIMESTAMP, whose value depends on the session's time zone), so that
 * {@link TargetCheck}'s {@code CHECKSUM TABLE} can compare the sink's copy with the plain client's.
 */
public final class WideRows {

    /** One group of extra columns: how many, the name's prefix, the SQL type, the codec's type. */
    private record Group(int count, String prefix, String sqlType, MySqlType type, int scale, int fsp) {
    }

    private static final List<Group> GROUPS = List.of(
            new Group(8, "n_int", "INT", MySqlType.LONG, -1, -1),
            new Group(6, "n_bigint", "BIGINT", MySqlType.LONGLONG, -1, -1),
            new Group(2, "n_tiny", "TINYINT", MySqlType.TINY, -1, -1),
            new Group(2, "n_small", "SMALLINT", MySqlType.SHORT, -1, -1),
            new Group(6, "n_dec", "DECIMAL(20,6)", MySqlType.NEWDECIMAL, 6, -1),
            new Group(4, "n_double", "DOUBLE", MySqlType.DOUBLE, -1, -1),
            new Group(4, "d_date", "DATE", MySqlType.DATE, -1, -1),
            new Group(4, "d_datetime", "DATETIME(6)", MySqlType.DATETIME, -1, 6),
            new Group(16, "s_varchar", "VARCHAR(64)", MySqlType.VARCHAR, -1, -1),
            new Group(2, "s_char", "CHAR(20)", MySqlType.STRING, -1, -1),
            new Group(2, "s_text", "TEXT", MySqlType.BLOB, -1, -1));

    /** Columns after the sysbench four. */
    static final int EXTRA = GROUPS.stream().mapToInt(Group::count).sum();
    public static final int COLUMNS = 4 + EXTRA;

    static {
        if (COLUMNS != 60) throw new IllegalStateException("the wide rows have " + COLUMNS + " columns");
    }

    private WideRows() {
    }

    /** The extra columns' names, in order. */
    private static List<String> extraNames() {
        List<String> names = new ArrayList<>(EXTRA);
        for (Group g : GROUPS) for (int i = 0; i < g.count(); i++) names.add(g.prefix() + "_" + i);
        return names;
    }

    public static String ddl(int t) {
        String table = SysbenchWorkload.table(t);
        StringBuilder sb = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(table)
                .append(" (id INT NOT NULL PRIMARY KEY, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '',"
                        + " pad CHAR(60) NOT NULL DEFAULT ''");
        for (Group g : GROUPS) {
            for (int i = 0; i < g.count(); i++) {
                // one column of each group may be NULL (values() leaves it NULL on some rows)
                sb.append(", ").append(g.prefix()).append('_').append(i).append(' ').append(g.sqlType())
                        .append(i == 0 ? " NULL" : " NOT NULL");
            }
        }
        return sb.append(", KEY k_").append(table).append(" (k)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4").toString();
    }

    /** The columns as our source's encoder describes them. */
    static List<ColumnInfo> columns() {
        List<ColumnInfo> c = new ArrayList<>(COLUMNS);
        c.add(ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY));
        c.add(ColumnInfo.of("k", MySqlType.LONG, ColumnFlags.MULTIPLE_KEY));
        c.add(ColumnInfo.of("c", MySqlType.STRING, 0));
        c.add(ColumnInfo.of("pad", MySqlType.STRING, 0));
        for (Group g : GROUPS) {
            for (int i = 0; i < g.count(); i++) {
                int flags = i == 0 ? ColumnFlags.NULLABLE : 0;
                c.add(new ColumnInfo(g.prefix() + "_" + i, g.type(), flags, null, -1, g.scale(), g.fsp(), List.of(),
                        g.sqlType().toLowerCase(java.util.Locale.ROOT)));
            }
        }
        return c;
    }

    /**
     * The row's 60 values: {@code id, k, c, pad} as the sysbench row, then the extra columns as Java values the codec
     * encodes and JDBC binds (Long, BigDecimal, Double, String; null for the NULL ones).
     */
    public static Object[] values(Change ch) {
        Object[] v = new Object[COLUMNS];
        v[0] = (long) ch.id();
        v[1] = (long) ch.k();
        v[2] = ch.c();
        v[3] = ch.pad();
        SplittableRandom r = new SplittableRandom(((long) ch.table() << 40) ^ ((long) ch.id() << 20) ^ ch.k()
                ^ ((long) ch.c().hashCode() << 32));
        int p = 4;
        for (Group g : GROUPS) {
            for (int i = 0; i < g.count(); i++) {
                // the first column of a group is NULL on one row in eight
                v[p++] = i == 0 && (ch.id() & 7) == 0 ? null : value(g, r);
            }
        }
        return v;
    }

    private static Object value(Group g, SplittableRandom r) {
        return switch (g.type()) {
            case LONG -> (long) r.nextInt();
            case LONGLONG -> r.nextLong();
            case TINY -> (long) r.nextInt(-128, 128);
            case SHORT -> (long) r.nextInt(-32768, 32768);
            case NEWDECIMAL -> BigDecimal.valueOf(r.nextLong(-99_999_999_999_999L, 99_999_999_999_999L), 6);
            case DOUBLE -> r.nextInt(-1_000_000_000, 1_000_000_000) / 1024.0;
            case DATE -> String.format("%04d-%02d-%02d", 1990 + r.nextInt(40), 1 + r.nextInt(12), 1 + r.nextInt(28));
            case DATETIME -> String.format("%04d-%02d-%02d %02d:%02d:%02d.%06d", 1990 + r.nextInt(40),
                    1 + r.nextInt(12), 1 + r.nextInt(28), r.nextInt(24), r.nextInt(60), r.nextInt(60),
                    r.nextInt(1_000_000));
            case VARCHAR -> letters(r, 20 + r.nextInt(25));
            case STRING -> letters(r, 20);
            case BLOB -> "Lorem <ipsum> & \"dolor\" " + letters(r, 100);
            default -> throw new IllegalStateException(g.prefix());
        };
    }

    private static String letters(SplittableRandom r, int n) {
        char[] c = new char[n];
        for (int i = 0; i < n; i++) c[i] = (char) ('a' + r.nextInt(26));
        return new String(c);
    }

    /** A multi-row upsert of the 60 columns (MariaDB). */
    public static String upsertSql(int t, int rows) {
        List<String> names = new ArrayList<>(List.of("id", "k", "c", "pad"));
        names.addAll(extraNames());
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(SysbenchWorkload.table(t)).append(" (")
                .append(String.join(", ", names)).append(") VALUES ");
        String tuple = "(" + "?,".repeat(COLUMNS - 1) + "?)";
        for (int i = 0; i < rows; i++) sb.append(i == 0 ? "" : ",").append(tuple);
        sb.append(" ON DUPLICATE KEY UPDATE ");
        for (int i = 1; i < names.size(); i++) {
            sb.append(i == 1 ? "" : ", ").append(names.get(i)).append(" = VALUES(").append(names.get(i)).append(')');
        }
        return sb.toString();
    }

    /** Binds one row's values from parameter {@code p} on; returns the next parameter. */
    public static int bind(PreparedStatement ps, int p, Object[] row) throws SQLException {
        for (Object v : row) {
            if (v == null) ps.setNull(p++, Types.NULL);
            else if (v instanceof Long l) ps.setLong(p++, l);
            else if (v instanceof Double d) ps.setDouble(p++, d);
            else if (v instanceof BigDecimal d) ps.setBigDecimal(p++, d);
            else ps.setString(p++, (String) v);
        }
        return p;
    }
}
