package io.cdcconnect.verify;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One chunk of a table: the rows whose key is above {@code lower} (exclusive; null = from the first row) and at most
 * {@code upper} (inclusive; null = to the last row). Bounds are key values read from the source; every row of either
 * side falls in exactly one chunk of a table's plan, whatever the collation orders them by.
 */
record KeyRange(int index, Object[] lower, Object[] upper) {

    /** The predicate over {@code keyColumns} (quoted) with its parameters appended to {@code params}. */
    String predicate(List<String> keyColumns, List<Object> params) {
        List<String> parts = new ArrayList<>(2);
        if (lower != null) parts.add(compare(keyColumns, lower, ">", ">", params));
        if (upper != null) parts.add(compare(keyColumns, upper, "<", "<=", params));
        return parts.isEmpty() ? "1 = 1" : String.join(" AND ", parts);
    }

    /** (k1 op v1) OR (k1 = v1 AND k2 op v2) ... the last column with {@code lastOp}: a row comparison, index-friendly. */
    static String compare(List<String> keyColumns, Object[] values, String op, String lastOp, List<Object> params) {
        StringBuilder sql = new StringBuilder("(");
        for (int i = 0; i < keyColumns.size(); i++) {
            if (i > 0) sql.append(" OR ");
            sql.append('(');
            for (int j = 0; j < i; j++) {
                sql.append(keyColumns.get(j)).append(" = ? AND ");
                params.add(values[j]);
            }
            sql.append(keyColumns.get(i)).append(' ').append(i == keyColumns.size() - 1 ? lastOp : op).append(" ?)");
            params.add(values[i]);
        }
        return sql.append(')').toString();
    }

    static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object v = params.get(i);
            if (v instanceof BigInteger b) v = new BigDecimal(b); // unsigned BIGINT; PgJDBC binds no BigInteger
            ps.setObject(i + 1, v);
        }
    }

    String describe() {
        return "chunk " + index;
    }
}
