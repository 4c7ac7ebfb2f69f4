package io.cdcconnect.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * How one table is compared: the columns both sides have, each with the {@link ValueKind} rule both sides are read
 * by, the key (from the source), and the statements each side runs for a chunk.
 */
final class TablePlan {
    private static final int SHOWN_VALUE_CHARS = 60;

    final TableMeta up;
    final TableMeta down;
    final String where;
    private final List<String> names = new ArrayList<>();
    private final List<ValueKind> rules = new ArrayList<>();
    private final List<TableMeta.Column> upCols = new ArrayList<>();
    private final List<TableMeta.Column> downCols = new ArrayList<>();
    private final int[] keyPositions;

    /** Pairs the columns by name; what only one side has is told to {@code result}. */
    TablePlan(TableMeta up, TableMeta down, String where, TableResult result) throws SQLException {
        this.up = up;
        this.down = down;
        this.where = where;
        for (TableMeta.Column u : up.columns()) {
            TableMeta.Column d = down.column(u.name());
            if (d == null) {
                result.structure("column " + u.name() + " missing downstream");
                continue;
            }
            names.add(u.name());
            upCols.add(u);
            downCols.add(d);
            rules.add(ValueKind.common(u.kind(), d.kind()));
        }
        for (TableMeta.Column d : down.columns()) {
            if (up.column(d.name()) == null) result.structure("column " + d.name() + " only downstream");
        }
        keyPositions = new int[up.key().size()];
        for (int k = 0; k < keyPositions.length; k++) {
            int pos = -1;
            for (int i = 0; i < names.size(); i++) {
                if (names.get(i).equalsIgnoreCase(up.key().get(k))) pos = i;
            }
            if (pos < 0) throw new SQLException("key column " + up.key().get(k) + " of " + up.qualified() + " is missing downstream");
            keyPositions[k] = pos;
        }
    }

    /**
     * Whether both sides order the key alike, so that ranges cut from the source's keys cut the target the same way:
     * true when no key column is text, or when every text key column has the same collation on both sides of one
     * family (information_schema, which MySQL and PostgreSQL both have). MySQL's and PostgreSQL's collations differ.
     */
    boolean keyOrderAgrees(Connection upConn, Connection downConn) throws SQLException {
        boolean text = false;
        for (int p : keyPositions) {
            ValueKind k = rules.get(p);
            if (k == ValueKind.CHAR || k == ValueKind.TEXT || k == ValueKind.JSON) text = true;
        }
        if (!text) return true;
        if (up.family() != down.family()) return false;
        java.util.Map<String, String> a = collations(upConn, up), b = collations(downConn, down);
        for (String k : up.key()) {
            if (!java.util.Objects.equals(a.get(TableMeta.lower(k)), b.get(TableMeta.lower(k)))) return false;
        }
        return true;
    }

    private static java.util.Map<String, String> collations(Connection c, TableMeta t) throws SQLException {
        java.util.Map<String, String> out = new java.util.HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, COLLATION_NAME FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(TableMeta.lower(rs.getString(1)), rs.getString(2));
            }
        }
        return out;
    }

    /** The key columns, quoted for the source. */
    List<String> sourceKey() {
        return quoted(up.family(), up.key());
    }

    private List<String> quoted(SqlFamily f, List<String> cols) {
        List<String> out = new ArrayList<>(cols.size());
        for (String c : cols) out.add(f.quote(c));
        return out;
    }

    /** The compared columns of one side's rows in {@code range}. */
    PreparedStatement select(Connection c, boolean upstream, KeyRange range) throws SQLException {
        TableMeta t = upstream ? up : down;
        List<TableMeta.Column> cols = upstream ? upCols : downCols;
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < cols.size(); i++) sql.append(i == 0 ? "" : ", ").append(t.family().quote(cols.get(i).name()));
        List<String> key = new ArrayList<>();
        for (int p : keyPositions) key.add(t.family().quote(cols.get(p).name()));
        List<Object> params = new ArrayList<>();
        sql.append(" FROM ").append(t.qualified()).append(" WHERE ").append(range.predicate(key, params));
        if (where != null) sql.append(" AND (").append(where).append(')');
        PreparedStatement ps = c.prepareStatement(sql.toString());
        KeyRange.bind(ps, params);
        return ps;
    }

    /** The current row of a {@link #select} result, every value written down by its column's rule. */
    String[] row(ResultSet rs, boolean upstream) throws SQLException {
        List<TableMeta.Column> cols = upstream ? upCols : downCols;
        String[] row = new String[cols.size()];
        for (int i = 0; i < row.length; i++) {
            TableMeta.Column c = cols.get(i);
            row[i] = rules.get(i).read(rs, i + 1, c.kind(), c.typeName());
        }
        return row;
    }

    /** The key of a row as the report shows it, whole (rows are matched by it): {@code id=5}, {@code a=1, b='x'}. */
    String key(String[] row) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < keyPositions.length; k++) {
            if (k > 0) b.append(", ");
            b.append(names.get(keyPositions[k])).append('=').append(show(keyPositions[k], row[keyPositions[k]], Integer.MAX_VALUE));
        }
        return b.toString();
    }

    /** 128 bits of SHA-256 over the row's values (NULL distinct from every string, "" included). */
    static void hash(MessageDigest sha, String[] row, long[] into) {
        sha.reset();
        for (String v : row) {
            if (v == null) {
                sha.update((byte) 0);
                continue;
            }
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            sha.update((byte) 1);
            sha.update((byte) (b.length >>> 24));
            sha.update((byte) (b.length >>> 16));
            sha.update((byte) (b.length >>> 8));
            sha.update((byte) b.length);
            sha.update(b);
        }
        byte[] d = sha.digest();
        long a = 0, c = 0;
        for (int i = 0; i < 8; i++) {
            a = (a << 8) | (d[i] & 0xff);
            c = (c << 8) | (d[i + 8] & 0xff);
        }
        into[0] += a;
        into[1] += c;
    }

    /** "name: upstream ≠ downstream" for every column whose values differ. */
    List<RowDifference.Column> differingColumns(String[] up, String[] down) {
        List<RowDifference.Column> out = new ArrayList<>();
        for (int i = 0; i < up.length; i++) {
            if (!java.util.Objects.equals(up[i], down[i])) {
                out.add(new RowDifference.Column(names.get(i), show(i, up[i], SHOWN_VALUE_CHARS), show(i, down[i], SHOWN_VALUE_CHARS)));
            }
        }
        return out;
    }

    private String show(int column, String v, int maxChars) {
        if (v == null) return "NULL";
        ValueKind r = rules.get(column);
        boolean bare = r == ValueKind.NUMBER || r == ValueKind.FLOAT4 || r == ValueKind.FLOAT8 || r == ValueKind.BITS;
        String s = v.length() > maxChars ? v.substring(0, maxChars) + "…(" + v.length() + " chars)" : v;
        if (r == ValueKind.BYTES) return "0x" + s;
        return bare ? s : "'" + s.replace("'", "''").replace("\n", "\\n") + "'";
    }
}
