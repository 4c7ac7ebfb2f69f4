package io.cdcconnect.sink.dialect;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Binds the model's Java values (see {@code RowChange}) to statement parameters without loss. Temporal values arrive
 * as the text MySQL prints and are bound as text, so the server parses them exactly (fractions, negative TIME,
 * zero dates) in the session time zone the sink sets.
 */
public final class ValueBinder {

    private ValueBinder() {
    }

    public static void bind(PreparedStatement ps, int index, Object v) throws SQLException {
        if (v == null) {
            ps.setNull(index, Types.NULL);
        } else if (v instanceof Long l) {
            ps.setLong(index, l);
        } else if (v instanceof String s) {
            ps.setString(index, s);
        } else if (v instanceof byte[] b) {
            ps.setBytes(index, b);
        } else if (v instanceof BigDecimal d) {
            ps.setBigDecimal(index, d);
        } else if (v instanceof Integer i) {
            ps.setInt(index, i);
        } else if (v instanceof Double d) {
            ps.setDouble(index, d);
        } else if (v instanceof Float f) {
            ps.setFloat(index, f);
        } else if (v instanceof Boolean b) {
            ps.setBoolean(index, b);
        } else if (v instanceof BigInteger b) {
            ps.setBigDecimal(index, new BigDecimal(b));
        } else if (v instanceof Short s) {
            ps.setShort(index, s);
        } else if (v instanceof Byte b) {
            ps.setByte(index, b);
        } else if (v instanceof Unrepresentable u) {
            throw new Unrepresentable.UnrepresentableValueException(u.reason());
        } else {
            ps.setString(index, v.toString());
        }
    }
}
