package io.cdcconnect.codec.canal;

import io.cdcconnect.codec.HandleKeys;
import io.cdcconnect.codec.json.GoText;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.TableInfo;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

/** What the encoder needs of a table, computed once per table version: everything constant pre-rendered as bytes. */
final class CanalTableMeta {
    final TableInfo info;
    final List<ColumnInfo> columns;
    /** {@code {"id":0,"database":"…","table":"…","pkNames":[…],"isDdl":false,"type":"}: a row message's start. */
    final byte[] head;
    /** "name": with the name Go-escaped. */
    final byte[][] nameColons;
    /** In a row image: {@code "name":"} before a value, {@code "name":null} for null, each also with a comma first. */
    final byte[][] valueStart;
    final byte[][] nextValueStart;
    final byte[][] nullValue;
    final byte[][] nextNullValue;
    final String[] mysqlTypes;
    /** "mysqlType" quoted and Go-escaped, per column. */
    final byte[][] mysqlTypeQuoted;
    final int[] baseSqlTypes;
    final boolean[] handleKey;
    /** {"col":sqlType,…} before promotion (null for a table without columns), and {"col":"mysqlType",…}. */
    final byte[] sqlTypeJson;
    final byte[] mysqlTypeJson;
    /** Unsigned TINYINT/SMALLINT/INT/BIGINT columns, whose sqlType depends on the value. */
    final int[] promotable;
    /** Largest unsigned value that keeps the base sqlType, per promotable column. */
    final long[] promoteAbove;
    static final int OTHER = 0;
    static final int SIGNED = 1;
    static final int UNSIGNED = 2;
    static final int TEXT = 3;
    static final int LATIN1 = 4;
    /** How each column's usual Java value is written (see the encoder's writeImage). */
    final int[] kinds;

    CanalTableMeta(TableInfo t, boolean fullTypes) {
        info = t;
        columns = t.columns();
        int n = columns.size();
        nameColons = new byte[n][];
        valueStart = new byte[n][];
        nextValueStart = new byte[n][];
        nullValue = new byte[n][];
        nextNullValue = new byte[n][];
        mysqlTypes = new String[n];
        mysqlTypeQuoted = new byte[n][];
        baseSqlTypes = new int[n];
        handleKey = new boolean[n];
        GoText text = new GoText();
        for (int i = 0; i < n; i++) {
            ColumnInfo c = columns.get(i);
            nameColons[i] = text.reset().appendQuoted(c.name()).appendByte(':').toByteArray();
            valueStart[i] = text.reset().appendRaw(nameColons[i]).appendByte('"').toByteArray();
            nextValueStart[i] = text.reset().appendByte(',').appendRaw(valueStart[i]).toByteArray();
            nullValue[i] = text.reset().appendRaw(nameColons[i]).appendAscii("null").toByteArray();
            nextNullValue[i] = text.reset().appendByte(',').appendRaw(nullValue[i]).toByteArray();
            mysqlTypes[i] = CanalTypes.mysqlType(c, fullTypes);
            mysqlTypeQuoted[i] = text.reset().appendQuoted(mysqlTypes[i]).toByteArray();
            baseSqlTypes[i] = CanalTypes.baseSqlType(c);
        }
        boolean[] hk = HandleKeys.columns(t);
        System.arraycopy(hk, 0, handleKey, 0, n);

        text.reset().appendAscii("{\"id\":0,\"database\":").appendQuoted(t.schema())
                .appendAscii(",\"table\":").appendQuoted(t.table()).appendAscii(",\"pkNames\":[");
        List<String> pks = t.primaryKeyNames();
        for (int k = 0; k < pks.size(); k++) {
            if (k > 0) text.appendByte(',');
            text.appendQuoted(pks.get(k));
        }
        head = text.appendAscii("],\"isDdl\":false,\"type\":\"").toByteArray();

        promotable = IntStream.range(0, n).filter(i -> columns.get(i).unsigned()
                && (columns.get(i).type() == MySqlType.TINY || columns.get(i).type() == MySqlType.SHORT
                || columns.get(i).type() == MySqlType.LONG || columns.get(i).type() == MySqlType.LONGLONG))
                .toArray();
        promoteAbove = new long[promotable.length];
        for (int k = 0; k < promotable.length; k++) {
            switch (columns.get(promotable[k]).type()) {
                case TINY -> promoteAbove[k] = Byte.MAX_VALUE;
                case SHORT -> promoteAbove[k] = Short.MAX_VALUE;
                case LONG -> promoteAbove[k] = Integer.MAX_VALUE;
                default -> promoteAbove[k] = Long.MAX_VALUE;
            }
        }
        kinds = new int[n];
        for (int i = 0; i < n; i++) {
            ColumnInfo c = columns.get(i);
            MySqlType type = c.type();
            if (type.isInteger()) {
                kinds[i] = c.unsigned() ? UNSIGNED : SIGNED;
            } else if (type == MySqlType.YEAR) {
                kinds[i] = SIGNED;
            } else if (type == MySqlType.BIT || type == MySqlType.ENUM || type == MySqlType.SET) {
                kinds[i] = UNSIGNED;
            } else if (CanalTypes.binaryString(c) || type == MySqlType.GEOMETRY) {
                kinds[i] = LATIN1;
            } else if (type.isStringFamily() || type.isTemporal() || type == MySqlType.JSON) {
                kinds[i] = TEXT;
            } else {
                kinds[i] = OTHER;
            }
        }
        if (n == 0) {
            sqlTypeJson = "null".getBytes(StandardCharsets.US_ASCII);
        } else {
            text.reset().appendByte('{');
            for (int i = 0; i < n; i++) {
                if (i > 0) text.appendByte(',');
                text.appendRaw(nameColons[i]).appendLong(baseSqlTypes[i]);
            }
            sqlTypeJson = text.appendByte('}').toByteArray();
        }
        text.reset().appendByte('{');
        for (int i = 0; i < n; i++) {
            if (i > 0) text.appendByte(',');
            text.appendRaw(nameColons[i]).appendRaw(mysqlTypeQuoted[i]);
        }
        mysqlTypeJson = text.appendByte('}').toByteArray();
    }

    /** True when some unsigned value exceeds its signed type, so sqlType must be written column by column. */
    boolean promotes(Object[] image) {
        for (int k = 0; k < promotable.length; k++) {
            Object v = image[promotable[k]];
            if (v instanceof Long l) {
                if (Long.compareUnsigned(l, promoteAbove[k]) > 0) return true;
            } else if (v != null) {
                int i = promotable[k];
                if (CanalTypes.sqlType(columns.get(i), baseSqlTypes[i], v) != baseSqlTypes[i]) return true;
            }
        }
        return false;
    }
}
