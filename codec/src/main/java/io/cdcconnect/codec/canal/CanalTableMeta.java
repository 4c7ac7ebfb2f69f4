package io.cdcconnect.codec.canal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import io.cdcconnect.codec.HandleKeys;
import io.cdcconnect.codec.json.ByteSink;
import io.cdcconnect.codec.json.GoJson;
import io.cdcconnect.codec.json.GoText;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.TableInfo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.IntStream;

/** What the encoder needs of a table, computed once per table version. */
final class CanalTableMeta {
    final TableInfo info;
    final SerializableString schema;
    final SerializableString table;
    final List<ColumnInfo> columns;
    final SerializableString[] names;
    /** "name": with the name Go-escaped, for values assembled outside the generator. */
    final byte[][] nameColons;
    final String[] mysqlTypes;
    final SerializableString[] mysqlTypeNames;
    final int[] baseSqlTypes;
    final boolean[] handleKey;
    final SerializableString[] pkNames;
    /** {"col":sqlType,…} before promotion, and {"col":"mysqlType",…}: constant per table, rendered once. */
    final SerializableString sqlTypeJson;
    final SerializableString mysqlTypeJson;
    /** Unsigned TINYINT/SMALLINT/INT/BIGINT columns, whose sqlType depends on the value. */
    final int[] promotable;
    /** Largest unsigned value that keeps the base sqlType, per promotable column. */
    final long[] promoteAbove;
    static final int OTHER = 0;
    static final int SIGNED = 1;
    static final int UNSIGNED = 2;
    static final int TEXT = 3;
    static final int LATIN1 = 4;
    /** How each column's usual Java value is written (see writeImage). */
    final int[] kinds;

    CanalTableMeta(TableInfo t, boolean fullTypes) {
        info = t;
        schema = GoText.name(t.schema());
        table = GoText.name(t.table());
        columns = t.columns();
        int n = columns.size();
        names = new SerializableString[n];
        nameColons = new byte[n][];
        mysqlTypes = new String[n];
        mysqlTypeNames = new SerializableString[n];
        baseSqlTypes = new int[n];
        handleKey = new boolean[n];
        for (int i = 0; i < n; i++) {
            ColumnInfo c = columns.get(i);
            names[i] = GoText.name(c.name());
            byte[] escaped = names[i].asQuotedUTF8();
            nameColons[i] = new byte[escaped.length + 3];
            nameColons[i][0] = '"';
            System.arraycopy(escaped, 0, nameColons[i], 1, escaped.length);
            nameColons[i][escaped.length + 1] = '"';
            nameColons[i][escaped.length + 2] = ':';
            mysqlTypes[i] = CanalTypes.mysqlType(c, fullTypes);
            mysqlTypeNames[i] = GoText.name(mysqlTypes[i]);
            baseSqlTypes[i] = CanalTypes.baseSqlType(c);
        }
        boolean[] hk = HandleKeys.columns(t);
        System.arraycopy(hk, 0, handleKey, 0, n);
        pkNames = t.primaryKeyNames().stream().map(GoText::name).toArray(SerializableString[]::new);
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
        ByteSink out = new ByteSink(64 * (n + 1));
        try (JsonGenerator g = GoJson.generator(out)) {
            if (n == 0) {
                g.writeNull();
            } else {
                g.writeStartObject();
                for (int i = 0; i < n; i++) {
                    g.writeFieldName(names[i]);
                    g.writeNumber(baseSqlTypes[i]);
                }
                g.writeEndObject();
            }
            g.flush();
            sqlTypeJson = GoText.raw(out.toByteArray());
            out.reset();
            g.writeStartObject();
            for (int i = 0; i < n; i++) {
                g.writeFieldName(names[i]);
                g.writeString(mysqlTypeNames[i]);
            }
            g.writeEndObject();
            g.flush();
            mysqlTypeJson = GoText.raw(out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
