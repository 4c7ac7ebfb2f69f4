package io.cdcconnect.source.convert;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Debezium's binlog records (MySQL and MariaDB connectors share the envelope): tells data, schema-change and
 * transaction records apart and turns a data record into a {@link RowChange}.
 *
 * <p>Column types come from the parameters Debezium adds to each field's schema when {@code
 * column.propagate.source.type} is on; primary-key flags from the record key's fields. A {@link TableInfo} is built
 * once per table version: Debezium gives each table version its own row schema object, so the cache is keyed by
 * that object's identity.
 */
public final class RecordConverter {

    public static final String TYPE_PARAM = "__debezium.source.column.type";
    public static final String LENGTH_PARAM = "__debezium.source.column.length";
    public static final String SCALE_PARAM = "__debezium.source.column.scale";
    public static final String ALLOWED_PARAM = "allowed";

    /** What a Debezium record is, to us. */
    public enum Kind { DATA, SCHEMA_CHANGE, TRANSACTION, HEARTBEAT, OTHER }

    static final String HEARTBEAT_SCHEMA = "io.debezium.connector.common.Heartbeat";

    /** Table versions kept; old versions fall out when a long-running task sees many ALTERs. */
    private static final int MAX_CACHED_TABLES = 4096;

    private final Map<Schema, CachedTable> tables = new IdentityHashMap<>();
    private final KeyCatalog keys;

    public RecordConverter() {
        this(KeyCatalog.NONE);
    }

    /** @param keys where unique keys beside the primary key come from */
    public RecordConverter(KeyCatalog keys) {
        this.keys = keys;
    }

    /** One table version: the model's table and the Debezium logical type of each column. */
    private record CachedTable(Schema keySchema, TableInfo table, String[] schemaNames) {
    }

    public static Kind kindOf(SourceRecord record) {
        Schema schema = record.valueSchema();
        if (schema == null || schema.type() != Schema.Type.STRUCT || !(record.value() instanceof Struct)) {
            return Kind.OTHER;
        }
        if (HEARTBEAT_SCHEMA.equals(schema.name())) return Kind.HEARTBEAT;
        if (schema.field("op") != null && schema.field("source") != null) return Kind.DATA;
        if (schema.field("ddl") != null && schema.field("databaseName") != null) return Kind.SCHEMA_CHANGE;
        if (schema.field("status") != null && schema.field("id") != null && schema.field("event_count") != null) {
            return Kind.TRANSACTION;
        }
        return Kind.OTHER;
    }

    /** Debezium's source block of a data or schema-change record. */
    public static Struct source(SourceRecord record) {
        Struct value = (Struct) record.value();
        return value.schema().field("source") == null ? null : value.getStruct("source");
    }

    /** True while Debezium reads its snapshot ("true", "first", "last", "incremental"... anything but "false"). */
    public static boolean isSnapshot(Struct source) {
        if (source == null || source.schema().field("snapshot") == null) return false;
        Object s = source.get("snapshot");
        return s != null && !"false".equalsIgnoreCase(s.toString());
    }

    /** Binlog event time (ms), or the snapshot's read time. */
    public static long eventMillis(Struct source) {
        if (source != null && source.schema().field("ts_ms") != null) {
            Long ms = source.getInt64("ts_ms");
            if (ms != null) return ms;
        }
        return System.currentTimeMillis();
    }

    /** The source transaction id of a data record (GTID, or binlog file:position), or null outside a transaction. */
    public static String transactionId(SourceRecord record) {
        Struct value = (Struct) record.value();
        if (value.schema().field("transaction") == null) return null;
        Struct tx = value.getStruct("transaction");
        return tx == null ? null : tx.getString("id");
    }

    /** Converts a data record. Debezium's "r" (snapshot read) becomes an insert. */
    public RowChange row(SourceRecord record, long commitTs) {
        Struct value = (Struct) record.value();
        Struct source = value.getStruct("source");
        String schemaName = source.getString("db");
        String tableName = source.getString("table");
        String op = value.getString("op");
        Struct before = value.getStruct("before");
        Struct after = value.getStruct("after");
        Schema rowSchema = value.schema().field("after").schema();
        CachedTable t = table(schemaName, tableName, rowSchema, record.keySchema());
        try {
            switch (op) {
                case "c": case "r":
                    return RowChange.insert(t.table, image(t, after), commitTs);
                case "u":
                    return RowChange.update(t.table, image(t, before), image(t, after), commitTs);
                case "d":
                    return RowChange.delete(t.table, image(t, before), commitTs);
                default:
                    throw new IllegalArgumentException("unsupported Debezium op '" + op + "'");
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot convert change of " + schemaName + "." + tableName
                    + " at binlog " + position(source) + ": " + e.getMessage(), e);
        }
    }

    private static String position(Struct source) {
        Object file = source.schema().field("file") == null ? null : source.get("file");
        Object pos = source.schema().field("pos") == null ? null : source.get("pos");
        return file + ":" + pos;
    }

    private static Object[] image(CachedTable t, Struct row) {
        if (row == null) return null;
        List<ColumnInfo> columns = t.table.columns();
        Object[] out = new Object[columns.size()];
        List<Field> fields = row.schema().fields();
        for (int i = 0; i < out.length; i++) {
            // getWithoutDefault: Struct.get(Field) answers a null with the schema's default, which Debezium sets to
            // the column's DEFAULT: a NULL written into a column with a default would be published as that default
            out[i] = ValueConverter.convert(columns.get(i), t.schemaNames[i], row.getWithoutDefault(fields.get(i).name()));
        }
        return out;
    }

    private CachedTable table(String schemaName, String tableName, Schema rowSchema, Schema keySchema) {
        CachedTable t = tables.get(rowSchema);
        if (t != null && t.keySchema == keySchema) return t;
        if (tables.size() >= MAX_CACHED_TABLES) tables.clear();
        t = build(schemaName, tableName, rowSchema, keySchema, keys);
        tables.put(rowSchema, t);
        return t;
    }

    /** Number of table versions held (for tests and metrics). */
    public int cachedTables() {
        return tables.size();
    }

    static CachedTable build(String schemaName, String tableName, Schema rowSchema, Schema keySchema,
                             KeyCatalog catalog) {
        Set<String> keyNames = new HashSet<>();
        if (keySchema != null && keySchema.type() == Schema.Type.STRUCT) {
            for (Field f : keySchema.fields()) keyNames.add(f.name());
        }
        List<ColumnInfo> columns = new ArrayList<>();
        String[] schemaNames = new String[rowSchema.fields().size()];
        int i = 0;
        for (Field f : rowSchema.fields()) {
            Schema fs = f.schema();
            Map<String, String> params = fs.parameters() == null ? Map.of() : fs.parameters();
            String typeName = params.get(TYPE_PARAM);
            if (typeName == null) {
                throw new IllegalArgumentException("column " + schemaName + "." + tableName + "." + f.name()
                        + " has no " + TYPE_PARAM + " parameter: Debezium must run with column.propagate.source.type=.*");
            }
            int length = intParam(params.get(LENGTH_PARAM));
            int scale = intParam(params.get(SCALE_PARAM));
            List<String> elements = elements(params.get(ALLOWED_PARAM));
            columns.add(SourceColumnType.column(f.name(), typeName, length, scale, elements, fs.isOptional(),
                    keyNames.contains(f.name())));
            schemaNames[i++] = fs.name();
        }
        return new CachedTable(keySchema, withUniqueKeys(schemaName, tableName, columns, catalog), schemaNames);
    }

    /**
     * The table with its keys: the primary key first, then each unique key whose columns all exist in this version.
     * Unique-key columns get the UNIQUE_KEY flag; without a primary key, the first unique key of NOT NULL columns is
     * the handle key (as in TiCDC), so rows can still be told apart downstream.
     */
    static TableInfo withUniqueKeys(String schemaName, String tableName, List<ColumnInfo> columns, KeyCatalog catalog) {
        TableInfo base = TableInfo.of(schemaName, tableName, columns);
        List<List<String>> unique = catalog.uniqueKeys(schemaName, tableName);
        if (unique.isEmpty()) return base;
        List<int[]> keys = new ArrayList<>(base.uniqueKeys());
        List<ColumnInfo> cols = new ArrayList<>(columns);
        boolean handle = base.hasPrimaryKey();
        for (List<String> key : unique) {
            int[] pos = new int[key.size()];
            boolean complete = !key.isEmpty();
            boolean notNull = true;
            for (int i = 0; i < pos.length && complete; i++) {
                pos[i] = base.indexOf(key.get(i));
                complete = pos[i] >= 0;
                if (complete) notNull &= !cols.get(pos[i]).nullable();
            }
            if (!complete) continue;
            keys.add(pos);
            boolean makeHandle = !handle && notNull;
            for (int p : pos) {
                int flags = cols.get(p).flags() | io.cdcconnect.codec.model.ColumnFlags.UNIQUE_KEY;
                if (makeHandle) flags |= io.cdcconnect.codec.model.ColumnFlags.HANDLE_KEY;
                cols.set(p, cols.get(p).withFlags(flags));
            }
            handle |= makeHandle;
        }
        return new TableInfo(schemaName, tableName, cols, keys);
    }

    private static int intParam(String v) {
        if (v == null || v.isEmpty()) return -1;
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Debezium joins ENUM/SET elements with ',' and no quoting. SET members cannot contain commas; an ENUM element
     * with a comma is split wrongly (documented limitation).
     */
    static List<String> elements(String allowed) {
        if (allowed == null) return List.of();
        if (allowed.isEmpty()) return List.of("");
        return Arrays.asList(allowed.split(",", -1));
    }
}
