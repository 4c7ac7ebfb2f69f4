package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.TableInfo;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a table back from the Avro schemas TiCDC (or {@link AvroSchemaBuilder}) wrote: database from the namespace
 * (what follows its first dot), table from the record name, one column per field that carries
 * {@code connect.parameters.tidb_type}, and the key columns from the key schema's fields.
 * Names come back sanitised, as they were written.
 */
final class AvroSchemaReader {

    private AvroSchemaReader() {
    }

    /**
     * The decoded shape of one (key schema, value schema) pair.
     *
     * @param table       the reconstructed table
     * @param columns     per table column, how to read its field
     * @param fieldPos    per table column, its field position in the record being read
     * @param opPos       position of {@code _tidb_op}, or -1
     * @param commitTsPos position of {@code _tidb_commit_ts}, or -1
     * @param keyPos      per table column, its field position in the key record, or -1
     */
    record Layout(TableInfo table, AvroColumn[] columns, int[] fieldPos, int opPos, int commitTsPos, int[] keyPos) {
    }

    /** The layout of a value record (keySchema may be null when messages have no key). */
    static Layout valueLayout(Schema valueSchema, Schema keySchema, String where) {
        requireRecord(valueSchema, where);
        Set<String> keyNames = new HashSet<>();
        if (keySchema != null) {
            requireRecord(keySchema, where);
            for (Schema.Field f : keySchema.getFields()) keyNames.add(f.name());
        }
        List<ColumnInfo> infos = new ArrayList<>();
        List<AvroColumn> cols = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        int opPos = -1;
        int commitTsPos = -1;
        for (Schema.Field f : valueSchema.getFields()) {
            Field parsed = parse(f, where);
            if (parsed == null) {
                if (f.name().equals(AvroSchemaBuilder.TIDB_OP)) opPos = f.pos();
                else if (f.name().equals(AvroSchemaBuilder.TIDB_COMMIT_TS)) commitTsPos = f.pos();
                continue;
            }
            boolean key = keyNames.remove(f.name());
            add(parsed, key, infos, cols);
            positions.add(f.pos());
        }
        if (!keyNames.isEmpty()) {
            throw new CodecException("key field(s) " + keyNames + " of " + where + " are not in its value schema");
        }
        TableInfo table = TableInfo.of(AvroNames.databaseOf(valueSchema.getNamespace()), valueSchema.getName(), infos);
        int[] keyPos = new int[infos.size()];
        java.util.Arrays.fill(keyPos, -1);
        if (keySchema != null) {
            for (int i = 0; i < infos.size(); i++) {
                Schema.Field kf = keySchema.getField(cols.get(i).fieldName());
                if (kf != null) keyPos[i] = kf.pos();
            }
        }
        return new Layout(table, cols.toArray(new AvroColumn[0]),
                positions.stream().mapToInt(Integer::intValue).toArray(), opPos, commitTsPos, keyPos);
    }

    /** The layout of a key record alone (a delete): every field is a key column. */
    static Layout keyLayout(Schema keySchema, String where) {
        requireRecord(keySchema, where);
        List<ColumnInfo> infos = new ArrayList<>();
        List<AvroColumn> cols = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (Schema.Field f : keySchema.getFields()) {
            Field parsed = parse(f, where);
            if (parsed == null) continue;
            add(parsed, true, infos, cols);
            positions.add(f.pos());
        }
        TableInfo table = TableInfo.of(AvroNames.databaseOf(keySchema.getNamespace()), keySchema.getName(), infos);
        int[] pos = positions.stream().mapToInt(Integer::intValue).toArray();
        return new Layout(table, cols.toArray(new AvroColumn[0]), pos, -1, -1, pos.clone());
    }

    private static void requireRecord(Schema s, String where) {
        if (s.getType() != Schema.Type.RECORD) {
            throw new CodecException("the schema of " + where + " is an Avro " + s.getType() + ", not a record");
        }
    }

    private record Field(String name, Schema type, boolean nullable, boolean nullFirst, String tidbType,
                         Map<?, ?> params) {
    }

    /** Null for a field that is not a column (TiCDC's {@code _tidb_*} extension fields). */
    @SuppressWarnings("unchecked")
    private static Field parse(Schema.Field f, String where) {
        Schema s = f.schema();
        boolean nullable = false;
        boolean nullFirst = false;
        if (s.getType() == Schema.Type.UNION) {
            List<Schema> branches = s.getTypes();
            if (branches.size() != 2 || (branches.get(0).getType() != Schema.Type.NULL
                    && branches.get(1).getType() != Schema.Type.NULL)) {
                throw new CodecException("field " + f.name() + " of " + where + " is a union other than [null, T]");
            }
            nullable = true;
            nullFirst = branches.get(0).getType() == Schema.Type.NULL;
            s = nullFirst ? branches.get(1) : branches.get(0);
        }
        Object params = s.getObjectProp("connect.parameters");
        Object tidbType = params instanceof Map<?, ?> m ? m.get("tidb_type") : null;
        if (tidbType == null) {
            if (f.name().startsWith("_tidb_")) {
                return null;
            }
            throw new CodecException("field " + f.name() + " of " + where + " has no connect.parameters.tidb_type: "
                    + "the message was not written by TiCDC's Avro protocol");
        }
        return new Field(f.name(), s, nullable, nullFirst, tidbType.toString(), (Map<?, ?>) params);
    }

    private static void add(Field f, boolean key, List<ColumnInfo> infos, List<AvroColumn> cols) {
        MySqlType type = AvroColumnKind.mysqlTypeOf(f.tidbType());
        if (type == null) {
            throw new CodecException("field " + f.name() + " has unknown tidb_type '" + f.tidbType() + "'");
        }
        int flags = 0;
        if (f.nullable()) flags |= ColumnFlags.NULLABLE;
        if (f.tidbType().endsWith("UNSIGNED")) flags |= ColumnFlags.UNSIGNED;
        if (f.tidbType().equals("BLOB")) flags |= ColumnFlags.BINARY;
        if (key) flags |= ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY;
        AvroColumnKind kind = AvroColumnKind.forDecoding(f.tidbType(), f.type().getType().getName());
        int length = -1;
        int precision = -1;
        int scale = -1;
        LogicalType lt = f.type().getLogicalType();
        if (lt instanceof LogicalTypes.Decimal d) {
            precision = d.getPrecision();
            scale = d.getScale();
            length = precision;
        } else if (kind == AvroColumnKind.DECIMAL_BYTES) {
            Object p = f.type().getObjectProp("precision");
            Object sc = f.type().getObjectProp("scale");
            precision = p instanceof Number n ? n.intValue() : -1;
            scale = sc instanceof Number n ? n.intValue() : 0;
            length = precision;
        }
        if (kind == AvroColumnKind.BIT && f.params().get("length") != null) {
            try {
                length = Integer.parseInt(f.params().get("length").toString());
            } catch (NumberFormatException e) {
                length = -1;
            }
        }
        List<String> elements = (kind == AvroColumnKind.ENUM || kind == AvroColumnKind.SET)
                ? AvroNames.splitElements(f.params().get("allowed") == null ? null : f.params().get("allowed").toString())
                : List.of();
        ColumnInfo info = new ColumnInfo(f.name(), type, flags, f.tidbType().equals("BLOB") ? "binary" : null, length,
                scale, -1, elements, null);
        cols.add(new AvroColumn(infos.size(), f.name(), info, kind, f.nullable(), f.nullFirst(), precision,
                Math.max(scale, 0), elements));
        infos.add(info);
    }
}
