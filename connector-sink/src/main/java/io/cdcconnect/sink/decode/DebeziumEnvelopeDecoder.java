package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Debezium change events from any converter that yields Connect Structs (JSON with schemas, Avro, Protobuf), in either
 * of Debezium's two shapes:
 * <ul>
 *   <li>the envelope: a value Struct with {@code before}, {@code after}, {@code source} and {@code op}, the key a
 *       Struct of the primary key; a {@code source} block names the database and table. Schema-change events (a
 *       value with {@code ddl} and {@code databaseName}) are DDL;</li>
 *   <li>flattened by Debezium's {@code ExtractNewRecordState} ("unwrap") SMT: the value is the row itself, with no
 *       operation unless {@code add.fields} added {@code __op}. The row is written as an upsert by the record key
 *       (an insert of the full row, which the sink's safe mode turns into insert-or-update, as with a snapshot's
 *       {@code r}); {@code __op=d} or {@code __deleted=true} ({@code delete.tombstone.handling.mode=rewrite}) is a
 *       delete. Fields named {@code __...} are the SMT's metadata, not columns. The key columns are the record key's
 *       fields. The database and table come from {@code __db}/{@code __table} when added, else from the schema name
 *       Debezium gives the row ({@code <prefix>.<db>.<table>.Value}) or key ({@code ...Key}), else from the topic
 *       ({@code <prefix>.<db>.<table>}).</li>
 * </ul>
 * A tombstone (null value) with a key deletes the row by that key (with envelopes, a second harmless delete after the
 * envelope's own). Records with nothing to apply are skipped and counted ({@link SkippedRecords}): a tombstone without
 * a key, Debezium's heartbeats, transaction markers and notifications, the snapshot's {@code DROP} statements. Anything
 * else that cannot become a change throws, naming what is missing, so that the task dead-letters it.
 *
 * <p>Commit ts: {@code source.ts_ms << 18} ({@code __source_ts_ms} when flattened, else 0: unknown, which safe mode
 * treats as a possible replay). Rows of one source transaction share their commit time, so they are assembled into one
 * downstream transaction, as Canal-JSON rows are.
 */
public final class DebeziumEnvelopeDecoder implements RecordDecoder {

    /** What {@code ExtractNewRecordState} names the fields it adds ({@code add.fields.prefix}'s default). */
    static final String METADATA_PREFIX = "__";
    /** Schema names of Debezium's own records (heartbeats, transaction markers, notifications): nothing to apply. */
    private static final String DEBEZIUM_COMMON = "io.debezium.connector.common.";
    /** Debezium's default {@code topic.heartbeat.prefix}. */
    private static final String HEARTBEAT_TOPIC = "__debezium-heartbeat";

    private record TableKey(String schema, String table, Schema row, Schema key) {
    }

    /** A flattened row's table and which fields of the value are its columns (the rest are the SMT's metadata). */
    private record FlatTable(TableInfo info, int[] fields) {
    }

    private final DebeziumValues values;
    private final SkippedRecords skipped;
    private final Map<TableKey, TableInfo> tables = new HashMap<>();
    private final Map<TableKey, FlatTable> flatTables = new HashMap<>();

    /** Skipped records are logged only (tests, tools). */
    public DebeziumEnvelopeDecoder(ZoneId timestampZone) {
        this(timestampZone, SkippedRecords.logged());
    }

    public DebeziumEnvelopeDecoder(ZoneId timestampZone, SkippedRecords skipped) {
        this.values = new DebeziumValues(timestampZone);
        this.skipped = skipped;
    }

    @Override
    public List<ChangeEvent> decode(SinkRecord record) {
        Object v = record.value();
        if (v == null) return tombstone(record);
        if (!(v instanceof Struct value)) {
            throw new IllegalArgumentException("a Debezium record must arrive as a Connect Struct (a converter with "
                    + "schemas, e.g. JsonConverter with schemas.enable=true, or Avro); got " + v.getClass().getName());
        }
        Schema vs = value.schema();
        if (vs.field("ddl") != null && vs.field("databaseName") != null) return schemaChange(record, value);
        String control = debeziumControl(record, vs);
        if (control != null) {
            skipped.skip(record, control);
            return List.of();
        }
        if (isStruct(vs, "source") && vs.field("op") != null) return envelope(record, value);
        if (isStruct(vs, "before") || isStruct(vs, "after") || isStruct(vs, "source")) {
            throw new IllegalArgumentException("a Debezium envelope needs `op` and a `source` block, and this value "
                    + "has " + (isStruct(vs, "source") ? "no `op`" : "no `source` block") + ": fields "
                    + fieldNames(vs));
        }
        return flattened(record, value);
    }

    private List<ChangeEvent> envelope(SinkRecord record, Struct value) {
        Schema vs = value.schema();
        String op = value.get("op") == null ? null : value.get("op").toString();
        if (op == null) throw new IllegalArgumentException("Debezium envelope with a null `op`");
        Struct source = value.getStruct("source");
        if (source == null) throw new IllegalArgumentException("envelope without source block (`source` is null)");
        String schema = firstString(source, "db", "schema");
        String table = firstString(source, "table");
        if (schema == null || table == null) {
            throw new IllegalArgumentException("source block names no database and table: " + source);
        }
        long commitTs = commitTs(source, value);
        if (op.equals("t")) {
            return List.of(new DdlChange(schema, table, "TRUNCATE TABLE `" + table.replace("`", "``") + "`",
                    DdlChange.Kind.TRUNCATE, commitTs));
        }
        Struct before = vs.field("before") != null ? value.getStruct("before") : null;
        Struct after = vs.field("after") != null ? value.getStruct("after") : null;
        Schema rowSchema = after != null ? after.schema() : before != null ? before.schema() : null;
        if (rowSchema == null) throw new IllegalArgumentException("op '" + op + "' without before or after image");
        Schema keySchema = record.keySchema() != null && record.keySchema().type() == Schema.Type.STRUCT
                ? record.keySchema() : null;
        TableInfo info = tables.computeIfAbsent(new TableKey(schema, table, rowSchema, keySchema),
                k -> tableInfo(schema, table, rowSchema, keySchema));
        return switch (op) {
            case "c", "r" -> List.of(RowChange.insert(info, image(info, require(after, op)), commitTs));
            case "u" -> {
                Object[] a = image(info, require(after, op));
                // with binlog_row_image=MINIMAL there is no before image: the key is unchanged then
                Object[] b = before != null ? image(info, before) : a;
                yield List.of(RowChange.update(info, b, a, commitTs));
            }
            case "d" -> List.of(RowChange.delete(info, image(info, require(before, op)), commitTs));
            default -> throw new IllegalArgumentException("unknown Debezium op '" + op + "'");
        };
    }

    /**
     * A tombstone: with a key, a delete by it (the key's fields are the primary key); without, nothing to apply.
     * {@code ExtractNewRecordState} turns each delete into one unless told otherwise.
     */
    private List<ChangeEvent> tombstone(SinkRecord record) {
        Object k = record.key();
        if (k == null) {
            skipped.skip(record, "a tombstone (null value) without a key: no row to delete");
            return List.of();
        }
        if (!(k instanceof Struct key)) {
            throw new IllegalArgumentException("a tombstone (null value) deletes by its key, which must be a Connect "
                    + "Struct of the primary-key columns; got " + k.getClass().getName());
        }
        Schema ks = key.schema();
        if (ks.fields().isEmpty()) {
            throw new IllegalArgumentException("a tombstone (null value) whose key has no fields: no key to delete by");
        }
        String[] names = tableOf(record, null, null);
        TableInfo info = tables.computeIfAbsent(new TableKey(names[0], names[1], null, ks),
                t -> tableInfo(t.schema(), t.table(), ks, ks));
        return List.of(RowChange.delete(info, image(info, key), 0L));
    }

    /** Why a record of Debezium's own (heartbeat, transaction marker, notification) is skipped, or null. */
    private static String debeziumControl(SinkRecord record, Schema vs) {
        String name = vs.name();
        if (name != null && name.startsWith(DEBEZIUM_COMMON)) {
            return switch (name.substring(DEBEZIUM_COMMON.length())) {
                case "Heartbeat" -> "a Debezium heartbeat";
                case "TransactionMetadataValue" -> "a Debezium transaction marker (BEGIN/END)";
                default -> "a record of Debezium's own (" + name + "), not a row";
            };
        }
        if (record.topic() != null && record.topic().startsWith(HEARTBEAT_TOPIC)) return "a Debezium heartbeat";
        return null;
    }

    /**
     * A row flattened by {@code ExtractNewRecordState}: an upsert by the record key, or a delete when {@code __op=d}
     * or {@code __deleted=true}.
     */
    private List<ChangeEvent> flattened(SinkRecord record, Struct value) {
        Schema vs = value.schema();
        Object k = record.key();
        if (k != null && !(k instanceof Struct)) {
            throw new IllegalArgumentException("the key of a flattened Debezium row must be a Connect Struct of the "
                    + "primary-key columns (Debezium's record key); got " + k.getClass().getName());
        }
        Schema ks = k == null ? null : ((Struct) k).schema();
        String op = metadata(value, "op");
        String deleted = metadata(value, "deleted");
        // add.fields=db,table adds __db and __table; add.fields=source.db,source.table __source_db and __source_table
        String[] names = tableOf(record, metadata(value, "db", "source_db", "schema", "source_schema"),
                metadata(value, "table", "source_table"));
        FlatTable flat = flatTables.computeIfAbsent(new TableKey(names[0], names[1], vs, ks),
                t -> flatTable(t.schema(), t.table(), vs, ks));
        TableInfo info = flat.info();
        long commitTs = 0L;
        Field ts = vs.field(METADATA_PREFIX + "source_ts_ms");
        if (ts != null && value.get(ts) instanceof Number ms) commitTs = ChangeEvent.tso(ms.longValue(), 0);
        Object[] image = image(info, value, flat.fields());
        if ("d".equals(op) || "true".equalsIgnoreCase(deleted)) {
            return List.of(RowChange.delete(info, image, commitTs));
        }
        if (op != null && !op.equals("c") && !op.equals("r") && !op.equals("u")) {
            throw new IllegalArgumentException("unknown Debezium op '" + op + "' in " + METADATA_PREFIX + "op of a "
                    + "flattened row of " + info);
        }
        if (!info.hasPrimaryKey() && !"c".equals(op) && !"r".equals(op)) {
            // an upsert needs a key: without one, an update written as an insert would add a second row
            throw new IllegalArgumentException("a flattened Debezium row of " + info + " without a record key (a table "
                    + "without primary key) can only be an insert, and " + (op == null ? "it does not say which "
                    + "operation it is (ExtractNewRecordState's add.fields=op adds " + METADATA_PREFIX + "op)"
                    : "it is an update, whose before image ExtractNewRecordState dropped (keep the envelope for such "
                    + "tables)"));
        }
        return List.of(RowChange.insert(info, image, commitTs));
    }

    /** Columns are the fields not named {@code __...}; the key columns are the record key's fields. */
    private static FlatTable flatTable(String schema, String table, Schema vs, Schema ks) {
        List<Field> fields = vs.fields();
        int[] columns = new int[fields.size()];
        int n = 0;
        for (Field f : fields) {
            if (!f.name().startsWith(METADATA_PREFIX)) columns[n++] = f.index();
        }
        if (n == 0) {
            throw new IllegalArgumentException("neither a Debezium envelope (before, after, source, op) nor a row: "
                    + "the value has no columns, only " + fieldNames(vs) + " (" + schema + "." + table + ")");
        }
        columns = java.util.Arrays.copyOf(columns, n);
        Set<String> columnNames = new HashSet<>();
        for (int i : columns) columnNames.add(fields.get(i).name());
        if (ks != null) {
            for (Field f : ks.fields()) {
                if (!columnNames.contains(f.name())) {
                    throw new IllegalArgumentException("key field `" + f.name() + "` of a flattened Debezium row of "
                            + schema + "." + table + " is not among its columns " + columnNames);
                }
            }
        }
        List<Field> kept = new ArrayList<>(n);
        for (int i : columns) kept.add(fields.get(i));
        return new FlatTable(tableInfo(schema, table, kept, ks), columns);
    }

    /** An {@code ExtractNewRecordState} metadata field ({@code __<name>}) as text: the first of {@code names} set. */
    private static String metadata(Struct value, String... names) {
        for (String name : names) {
            Field f = value.schema().field(METADATA_PREFIX + name);
            if (f != null && value.get(f) != null) return value.get(f).toString();
        }
        return null;
    }

    /**
     * Database and table of a record without a {@code source} block: {@code db} and {@code table} when given (the
     * SMT's {@code __db}, {@code __table}), else from the schema name Debezium gives the row or key
     * ({@code <prefix>.<db>.<table>.Value|Key}), else from the topic ({@code <prefix>.<db>.<table>}).
     */
    private static String[] tableOf(SinkRecord record, String db, String table) {
        if (db != null && table != null) return new String[]{db, table};
        String[] named = fromName(record.valueSchema() != null ? record.valueSchema().name() : null, ".Value");
        if (named == null) named = fromName(record.keySchema() != null ? record.keySchema().name() : null, ".Key");
        if (named == null && record.topic() != null) {
            String[] parts = record.topic().split("\\.");
            if (parts.length >= 3) named = new String[]{parts[parts.length - 2], parts[parts.length - 1]};
        }
        if (named == null) {
            throw new IllegalArgumentException("a Debezium record without a source block names no database and table: "
                    + "no " + METADATA_PREFIX + "db/" + METADATA_PREFIX + "table fields (ExtractNewRecordState's "
                    + "add.fields=db,table), no schema name <prefix>.<db>.<table>.Value or .Key, and topic '"
                    + record.topic() + "' is not <prefix>.<db>.<table>");
        }
        return new String[]{db != null ? db : named[0], table != null ? table : named[1]};
    }

    /** {@code <prefix>.<db>.<table><suffix>} as {db, table}, or null. */
    private static String[] fromName(String name, String suffix) {
        if (name == null || !name.endsWith(suffix)) return null;
        String[] parts = name.substring(0, name.length() - suffix.length()).split("\\.");
        if (parts.length < 3) return null;
        return new String[]{parts[parts.length - 2], parts[parts.length - 1]};
    }

    private static boolean isStruct(Schema s, String field) {
        Field f = s.field(field);
        return f != null && f.schema().type() == Schema.Type.STRUCT;
    }

    private static List<String> fieldNames(Schema s) {
        List<String> names = new ArrayList<>();
        for (Field f : s.fields()) names.add(f.name());
        return names;
    }

    private static Struct require(Struct image, String op) {
        if (image == null) throw new IllegalArgumentException("op '" + op + "' is missing its row image");
        return image;
    }

    private List<ChangeEvent> schemaChange(SinkRecord record, Struct value) {
        String ddl = value.getString("ddl");
        if (ddl == null || ddl.isBlank()) {
            skipped.skip(record, "a Debezium schema-change event without a DDL statement");
            return List.of();
        }
        String db = value.getString("databaseName");
        Struct source = value.schema().field("source") != null ? value.getStruct("source") : null;
        if (source != null && inSnapshot(source) && SNAPSHOT_DROP.matcher(ddl).lookingAt()) {
            // Debezium's snapshot writes DROP TABLE/DATABASE IF EXISTS before each CREATE, to rebuild its schema
            // history: applied downstream, it would drop rows the data topics already delivered
            skipped.skip(record, "a DROP statement of Debezium's snapshot (it rebuilds the schema history; applied, "
                    + "it would drop rows already delivered)");
            return List.of();
        }
        long ts = source != null ? commitTs(source, value) : 0L;
        return List.of(new DdlChange(db, "", ddl, DdlChange.Kind.QUERY, ts));
    }

    private static final java.util.regex.Pattern SNAPSHOT_DROP = java.util.regex.Pattern.compile(
            "\\s*(/\\*.*?\\*/\\s*)*DROP\\s+(TABLE|DATABASE|SCHEMA)\\b",
            java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.DOTALL);

    /** Debezium's {@code source.snapshot}: "true", "first", "first_in_data_collection", "last", ... while snapshotting. */
    private static boolean inSnapshot(Struct source) {
        if (source.schema().field("snapshot") == null) return false;
        Object v = source.get("snapshot");
        return v != null && !"false".equalsIgnoreCase(v.toString());
    }

    private static long commitTs(Struct source, Struct value) {
        Long ms = source.schema().field("ts_ms") != null ? source.getInt64("ts_ms") : null;
        if (ms == null && value.schema().field("ts_ms") != null) ms = value.getInt64("ts_ms");
        return ms == null ? 0L : ChangeEvent.tso(ms, 0);
    }

    private static String firstString(Struct s, String... names) {
        for (String n : names) {
            if (s.schema().field(n) != null) {
                Object v = s.get(n);
                if (v != null) return v.toString();
            }
        }
        return null;
    }

    private static TableInfo tableInfo(String schema, String table, Schema row, Schema key) {
        return tableInfo(schema, table, row.fields(), key);
    }

    private static TableInfo tableInfo(String schema, String table, List<Field> row, Schema key) {
        Set<String> keyNames = new HashSet<>();
        if (key != null) {
            for (Field f : key.fields()) keyNames.add(f.name());
        }
        List<ColumnInfo> columns = new ArrayList<>(row.size());
        for (Field f : row) {
            MySqlType type;
            try {
                type = DebeziumValues.typeOf(f.schema());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("column `" + f.name() + "` of " + schema + "." + table + ": "
                        + e.getMessage(), e);
            }
            int flags = DebeziumValues.flagsOf(f.schema());
            if (keyNames.contains(f.name())) flags |= ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY;
            columns.add(DebeziumValues.column(f.name(), f.schema(), type, flags));
        }
        return TableInfo.of(schema, table, columns);
    }

    private Object[] image(TableInfo info, Struct s) {
        return image(info, s, null);
    }

    /** The values of {@code s}'s fields at {@code positions} (all of them when null), as the model holds them. */
    private Object[] image(TableInfo info, Struct s, int[] positions) {
        List<Field> fields = s.schema().fields();
        Object[] out = new Object[positions == null ? fields.size() : positions.length];
        for (int i = 0; i < out.length; i++) {
            Field f = fields.get(positions == null ? i : positions[i]);
            try {
                // not s.get(f): it answers a null with the schema's default (Debezium's column DEFAULT)
                out[i] = values.convert(f.schema(), s.getWithoutDefault(f.name()));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("column `" + f.name() + "` of " + info + ": " + e.getMessage(), e);
            }
        }
        return out;
    }
}
