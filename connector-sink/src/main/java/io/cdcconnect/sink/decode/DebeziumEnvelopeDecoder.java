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
 * Debezium change-event envelopes (value Struct with before/after/source/op, key Struct of the primary key) from any
 * converter that yields Connect Structs (JSON with schemas, Avro, Protobuf). Also reads Debezium's schema-change
 * events (a value with {@code ddl} and {@code databaseName}) as DDL. Tombstones and values without {@code op}
 * (heartbeats) carry nothing.
 *
 * <p>Commit ts: {@code source.ts_ms << 18}. Rows of one source transaction share their commit time, so they are
 * assembled into one downstream transaction, as Canal-JSON rows are.
 */
public final class DebeziumEnvelopeDecoder implements RecordDecoder {

    private record TableKey(String schema, String table, Schema row, Schema key) {
    }

    private final DebeziumValues values;
    private final Map<TableKey, TableInfo> tables = new HashMap<>();

    public DebeziumEnvelopeDecoder(ZoneId timestampZone) {
        this.values = new DebeziumValues(timestampZone);
    }

    @Override
    public List<ChangeEvent> decode(SinkRecord record) {
        Object v = record.value();
        if (v == null) return List.of();
        if (!(v instanceof Struct value)) {
            throw new IllegalArgumentException("a Debezium envelope must arrive as a Connect Struct (a converter with "
                    + "schemas, e.g. JsonConverter with schemas.enable=true, or Avro); got " + v.getClass().getName());
        }
        Schema vs = value.schema();
        if (vs.field("ddl") != null && vs.field("databaseName") != null) return schemaChange(value);
        if (vs.field("op") == null) return List.of();
        String op = value.getString("op");
        if (op == null) return List.of();
        Struct source = vs.field("source") != null ? value.getStruct("source") : null;
        if (source == null) throw new IllegalArgumentException("envelope without source block");
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

    private static Struct require(Struct image, String op) {
        if (image == null) throw new IllegalArgumentException("op '" + op + "' is missing its row image");
        return image;
    }

    private List<ChangeEvent> schemaChange(Struct value) {
        String ddl = value.getString("ddl");
        if (ddl == null || ddl.isBlank()) return List.of();
        String db = value.getString("databaseName");
        Struct source = value.schema().field("source") != null ? value.getStruct("source") : null;
        if (source != null && inSnapshot(source) && SNAPSHOT_DROP.matcher(ddl).lookingAt()) {
            // Debezium's snapshot writes DROP TABLE/DATABASE IF EXISTS before each CREATE, to rebuild its schema
            // history: applied downstream, it would drop rows the data topics already delivered
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
        Set<String> keyNames = new HashSet<>();
        if (key != null) {
            for (Field f : key.fields()) keyNames.add(f.name());
        }
        List<ColumnInfo> columns = new ArrayList<>(row.fields().size());
        for (Field f : row.fields()) {
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
        List<Field> fields = s.schema().fields();
        Object[] out = new Object[fields.size()];
        for (int i = 0; i < out.length; i++) {
            Field f = fields.get(i);
            try {
                out[i] = values.convert(f.schema(), s.get(f));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("column `" + f.name() + "` of " + info + ": " + e.getMessage(), e);
            }
        }
        return out;
    }
}
