package io.cdcconnect.source;

import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds records shaped exactly like those of Debezium 3.3's binlog connectors (envelope, source block, transaction
 * block, propagated source-type parameters), for either flavour, so the conversion can be tested without a server.
 * The shapes were taken from records the real MariaDB connector produced in {@code MariaDbCaptureTest} and from
 * Debezium's MySQL source-info schema (which adds thread and query to the source block and names the connector mysql).
 */
public final class DebeziumRecords {
    public final String flavor;
    public final String prefix;
    private final Schema sourceSchema;
    private final Schema transactionSchema;
    private final Schema schemaChangeValue;
    private long pos = 1000;

    public DebeziumRecords(String flavor, String prefix) {
        this.flavor = flavor;
        this.prefix = prefix;
        SchemaBuilder sb = SchemaBuilder.struct().name("io.debezium.connector." + flavor + ".Source")
                .field("version", Schema.STRING_SCHEMA)
                .field("connector", Schema.STRING_SCHEMA)
                .field("name", Schema.STRING_SCHEMA)
                .field("ts_ms", Schema.INT64_SCHEMA)
                .field("snapshot", SchemaBuilder.string().optional().defaultValue("false").build())
                .field("db", Schema.STRING_SCHEMA)
                .field("ts_us", Schema.OPTIONAL_INT64_SCHEMA)
                .field("ts_ns", Schema.OPTIONAL_INT64_SCHEMA)
                .field("table", Schema.OPTIONAL_STRING_SCHEMA)
                .field("server_id", Schema.INT64_SCHEMA)
                .field("gtid", Schema.OPTIONAL_STRING_SCHEMA)
                .field("file", Schema.STRING_SCHEMA)
                .field("pos", Schema.INT64_SCHEMA)
                .field("row", Schema.INT32_SCHEMA);
        if (flavor.equals("mysql")) {
            sb.field("thread", Schema.OPTIONAL_INT64_SCHEMA).field("query", Schema.OPTIONAL_STRING_SCHEMA);
        }
        sourceSchema = sb.build();
        transactionSchema = SchemaBuilder.struct().optional().name("event.block")
                .field("id", Schema.STRING_SCHEMA)
                .field("total_order", Schema.INT64_SCHEMA)
                .field("data_collection_order", Schema.INT64_SCHEMA)
                .build();
        schemaChangeValue = SchemaBuilder.struct().name("io.debezium.connector." + flavor + ".SchemaChangeValue")
                .field("source", sourceSchema)
                .field("ts_ms", Schema.INT64_SCHEMA)
                .field("databaseName", Schema.OPTIONAL_STRING_SCHEMA)
                .field("schemaName", Schema.OPTIONAL_STRING_SCHEMA)
                .field("ddl", Schema.OPTIONAL_STRING_SCHEMA)
                .field("tableChanges", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
                .build();
    }

    /** A column's field schema as Debezium builds it with column.propagate.source.type=.* */
    public static SchemaBuilder column(SchemaBuilder base, String name, String type, Integer length, Integer scale) {
        base.parameter("__debezium.source.column.type", type);
        if (length != null) base.parameter("__debezium.source.column.length", length.toString());
        if (scale != null) base.parameter("__debezium.source.column.scale", scale.toString());
        base.parameter("__debezium.source.column.name", name);
        return base;
    }

    /** One table version: row schema, key schema and topic, as Debezium's TableSchemaBuilder makes them. */
    public final class Table {
        public final String db;
        public final String name;
        public final Schema rowSchema;
        public final Schema keySchema;
        public final Schema envelope;

        Table(String db, String name, Schema rowSchema, Schema keySchema) {
            this.db = db;
            this.name = name;
            this.rowSchema = rowSchema;
            this.keySchema = keySchema;
            this.envelope = SchemaBuilder.struct().name(prefix + "." + db + "." + name + ".Envelope").version(2)
                    .field("before", rowSchema)
                    .field("after", rowSchema)
                    .field("source", sourceSchema)
                    .field("transaction", transactionSchema)
                    .field("op", Schema.STRING_SCHEMA)
                    .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
                    .build();
        }

        public Struct row(Object... values) {
            Struct s = new Struct(rowSchema);
            for (int i = 0; i < values.length; i++) s.put(rowSchema.fields().get(i), values[i]);
            return s;
        }
    }

    /** Defines a table; {@code keyColumns} are the primary-key column names. */
    public Table table(String db, String name, Map<String, SchemaBuilder> columns, String... keyColumns) {
        SchemaBuilder row = SchemaBuilder.struct().optional().name(prefix + "." + db + "." + name + ".Value");
        for (Map.Entry<String, SchemaBuilder> c : columns.entrySet()) row.field(c.getKey(), c.getValue().build());
        Schema rowSchema = row.build();
        Schema keySchema = null;
        if (keyColumns.length > 0) {
            SchemaBuilder key = SchemaBuilder.struct().name(prefix + "." + db + "." + name + ".Key");
            for (String k : keyColumns) key.field(k, rowSchema.field(k).schema());
            keySchema = key.build();
        }
        return new Table(db, name, rowSchema, keySchema);
    }

    public Struct source(String db, String table, long tsMs, String snapshot, String gtid) {
        Struct s = new Struct(sourceSchema)
                .put("version", "3.3.0.Final").put("connector", flavor).put("name", prefix).put("ts_ms", tsMs)
                .put("snapshot", snapshot).put("db", db).put("table", table).put("server_id", 1L)
                .put("gtid", gtid).put("file", "bin.000001").put("pos", pos).put("row", 0);
        if (flavor.equals("mysql")) s.put("thread", 7L);
        return s;
    }

    public Map<String, Object> offset(String txId) {
        Map<String, Object> o = new LinkedHashMap<>();
        if (txId != null) o.put("transaction_id", txId);
        o.put("file", "bin.000001");
        o.put("pos", pos);
        return o;
    }

    /** A data record; {@code op} c/u/d/r; {@code txId} null outside a transaction or during the snapshot. */
    public SourceRecord data(Table t, String op, Struct before, Struct after, long tsMs, String txId,
                             boolean snapshot) {
        pos += 100;
        Struct value = new Struct(t.envelope)
                .put("before", before).put("after", after)
                .put("source", source(t.db, t.name, tsMs, snapshot ? "true" : "false", txId))
                .put("op", op).put("ts_ms", tsMs + 5);
        if (txId != null) {
            value.put("transaction", new Struct(transactionSchema).put("id", txId).put("total_order", 1L)
                    .put("data_collection_order", 1L));
        }
        Struct key = null;
        Struct image = after != null ? after : before;
        if (t.keySchema != null && image != null) {
            key = new Struct(t.keySchema);
            for (var f : t.keySchema.fields()) key.put(f.name(), image.get(f.name()));
        }
        // A truncate record has neither image nor key.
        return new SourceRecord(Map.of("server", prefix), offset(txId), prefix + "." + t.db + "." + t.name, null,
                image == null ? null : t.keySchema, key, t.envelope, value);
    }

    private static final Schema TX_VALUE = SchemaBuilder.struct().name("io.debezium.connector.common.TransactionMetadataValue")
            .field("status", Schema.STRING_SCHEMA)
            .field("id", Schema.STRING_SCHEMA)
            .field("event_count", Schema.OPTIONAL_INT64_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();

    public SourceRecord transaction(String status, String txId, long tsMs) {
        pos += 10;
        Struct v = new Struct(TX_VALUE).put("status", status).put("id", txId).put("ts_ms", tsMs);
        if (status.equals("END")) v.put("event_count", 1L);
        return new SourceRecord(Map.of("server", prefix), offset(txId), prefix + ".transaction", null, null, null,
                TX_VALUE, v);
    }

    public SourceRecord ddl(String db, String table, String ddl, long tsMs, boolean snapshot) {
        pos += 50;
        Struct v = new Struct(schemaChangeValue)
                .put("source", source(db, table, tsMs, snapshot ? "true" : "false", null))
                .put("ts_ms", tsMs + 3).put("databaseName", db).put("ddl", ddl).put("tableChanges", new ArrayList<>());
        return new SourceRecord(Map.of("server", prefix), offset(null), prefix, null, null, null, schemaChangeValue, v);
    }

    // --- field schemas for the common types ---
    public static SchemaBuilder int32(String n, String type, Integer len) {
        return column(SchemaBuilder.int32().optional(), n, type, len, null);
    }

    public static SchemaBuilder decimal(String n, String type, int precision, int scale) {
        return column(Decimal.builder(scale).optional().parameter("connect.decimal.precision",
                Integer.toString(precision)), n, type, precision, scale);
    }

    public static BigDecimal dec(String v) {
        return new BigDecimal(v);
    }

    public static Map<String, SchemaBuilder> columns(Object... nameAndSchema) {
        Map<String, SchemaBuilder> m = new LinkedHashMap<>();
        for (int i = 0; i < nameAndSchema.length; i += 2) m.put((String) nameAndSchema[i], (SchemaBuilder) nameAndSchema[i + 1]);
        return m;
    }

    public static List<Object> list(Object... v) {
        return List.of(v);
    }
}
