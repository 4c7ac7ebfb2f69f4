package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.metrics.JmxMeters;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Debezium MySQL connector envelopes, built with the schema names Debezium uses, decoded and applied. */
class DebeziumEnvelopeDecoderTest {

    static final Schema ROW = SchemaBuilder.struct().name("srv.db.t.Value")
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("price", Decimal.builder(2).optional().parameter("connect.decimal.precision", "10").build())
            .field("created", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").optional().build())
            .field("updated", SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").optional().build())
            .field("day", SchemaBuilder.int32().name("io.debezium.time.Date").optional().build())
            .field("dur", SchemaBuilder.int64().name("io.debezium.time.MicroTime").optional().build())
            .field("flags", SchemaBuilder.bytes().name("io.debezium.data.Bits").parameter("length", "16").optional()
                    .build())
            .field("doc", SchemaBuilder.string().name("io.debezium.data.Json").optional().build())
            .field("color", SchemaBuilder.string().name("io.debezium.data.Enum").parameter("allowed", "red,green")
                    .optional().build())
            .field("raw", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("active", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .optional().build();
    static final Schema KEY = SchemaBuilder.struct().name("srv.db.t.Key").field("id", Schema.INT64_SCHEMA).build();
    static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.mysql.Source")
            .field("connector", Schema.STRING_SCHEMA).field("ts_ms", Schema.INT64_SCHEMA)
            .field("db", Schema.STRING_SCHEMA).field("table", Schema.OPTIONAL_STRING_SCHEMA).build();
    static final Schema ENVELOPE = SchemaBuilder.struct().name("srv.db.t.Envelope")
            .field("before", ROW).field("after", ROW).field("source", SOURCE)
            .field("op", Schema.STRING_SCHEMA).field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).build();

    private final DebeziumEnvelopeDecoder decoder = new DebeziumEnvelopeDecoder(ZoneOffset.UTC);

    static Struct row(long id, String name) {
        return new Struct(ROW).put("id", id).put("name", name).put("price", new BigDecimal("12.50"))
                .put("created", 1_704_067_200_123_456L).put("updated", "2024-01-01T10:00:00.5Z")
                .put("day", 19723).put("dur", -3_723_000_001L).put("flags", new byte[]{0x05, 0x01})
                .put("doc", "{\"k\": [1]}").put("color", "green").put("raw", new byte[]{0, (byte) 0xff})
                .put("active", true);
    }

    static Struct envelope(String db, String op, Struct before, Struct after, long tsMs) {
        Struct source = new Struct(SOURCE).put("connector", "mysql").put("ts_ms", tsMs).put("db", db)
                .put("table", "t");
        return new Struct(ENVELOPE).put("before", before).put("after", after).put("source", source).put("op", op);
    }

    static SinkRecord record(Struct value, long id, long offset) {
        return new SinkRecord("dbz", 0, KEY, new Struct(KEY).put("id", id), ENVELOPE, value, offset);
    }

    static final Schema HISTORY_SOURCE = SchemaBuilder.struct().name("io.debezium.connector.mysql.Source")
            .field("connector", Schema.STRING_SCHEMA).field("ts_ms", Schema.INT64_SCHEMA)
            .field("snapshot", SchemaBuilder.string().optional().build()).field("db", Schema.STRING_SCHEMA).build();
    static final Schema SCHEMA_CHANGE = SchemaBuilder.struct().name("io.debezium.connector.mysql.SchemaChangeValue")
            .field("source", HISTORY_SOURCE).field("ts_ms", Schema.INT64_SCHEMA)
            .field("databaseName", Schema.OPTIONAL_STRING_SCHEMA).field("ddl", Schema.OPTIONAL_STRING_SCHEMA).build();

    private List<ChangeEvent> schemaChange(String snapshot, String ddl) {
        Struct source = new Struct(HISTORY_SOURCE).put("connector", "mysql").put("ts_ms", 1000L)
                .put("snapshot", snapshot).put("db", "db");
        Struct value = new Struct(SCHEMA_CHANGE).put("source", source).put("ts_ms", 1000L).put("databaseName", "db")
                .put("ddl", ddl);
        return decoder.decode(new SinkRecord("dbz-history", 0, null, null, SCHEMA_CHANGE, value, 0));
    }

    @Test
    void theSnapshotsDropStatementsAreNotAppliedButItsCreatesAndLaterDropsAre() {
        // Debezium's snapshot rebuilds its schema history with DROP ... IF EXISTS before each CREATE
        assertEquals(List.of(), schemaChange("true", "DROP TABLE IF EXISTS `db`.`t`"));
        assertEquals(List.of(), schemaChange("first", "DROP DATABASE IF EXISTS `db`"));
        assertEquals(List.of(), schemaChange("last", "/* snapshot */ drop table if exists t"));
        List<ChangeEvent> create = schemaChange("true", "CREATE TABLE `t` (id BIGINT PRIMARY KEY)");
        assertEquals(1, create.size());
        assertEquals("CREATE TABLE `t` (id BIGINT PRIMARY KEY)", ((DdlChange) create.get(0)).query());
        // a DROP read from the binlog is the user's: applied
        assertEquals(1, schemaChange("false", "DROP TABLE `t`").size());
        assertEquals(1, schemaChange(null, "DROP TABLE `t`").size());
    }

    @Test
    void createBecomesAnInsertWithTheModelsTypes() {
        List<ChangeEvent> events = decoder.decode(record(envelope("db", "c", null, row(1, "a"), 1000), 1, 0));
        RowChange r = (RowChange) events.get(0);
        assertEquals(RowChange.Op.INSERT, r.op());
        assertEquals(ChangeEvent.tso(1000, 0), r.commitTs());
        assertEquals("db", r.schema());
        assertEquals(List.of("id"), r.table().primaryKeyNames());
        assertEquals(MySqlType.TIMESTAMP, r.table().column(4).type());
        assertArrayEquals(new Object[]{1L, "a", new BigDecimal("12.50"), "2024-01-01 00:00:00.123456",
                "2024-01-01 10:00:00.500000", "2024-01-01", "-01:02:03.000001", 0x0105L, "{\"k\": [1]}", "green",
                new byte[]{0, (byte) 0xff}, 1L}, r.after());
    }

    /** A NULL in a column with a DEFAULT (Debezium's schema default) reaches the target as NULL, not the default. */
    @Test
    void aNullInAColumnWithADefaultIsDecodedAsNull() {
        Schema row = SchemaBuilder.struct().name("srv.db.d.Value").field("id", Schema.INT64_SCHEMA)
                .field("points", SchemaBuilder.int32().optional().defaultValue(0).build()).optional().build();
        Schema env = SchemaBuilder.struct().name("srv.db.d.Envelope").field("before", row).field("after", row)
                .field("source", SOURCE).field("op", Schema.STRING_SCHEMA).build();
        Struct source = new Struct(SOURCE).put("connector", "mysql").put("ts_ms", 1L).put("db", "db").put("table", "d");
        Struct value = new Struct(env).put("after", new Struct(row).put("id", 1L).put("points", null))
                .put("source", source).put("op", "c");
        RowChange r = (RowChange) decoder.decode(new SinkRecord("dbz", 0, KEY, new Struct(KEY).put("id", 1L), env,
                value, 0)).get(0);
        assertArrayEquals(new Object[]{1L, null}, r.after());
    }

    @Test
    void updatesDeletesTruncatesAndTombstones() {
        RowChange u = (RowChange) decoder.decode(record(envelope("db", "u", row(1, "a"), row(1, "b"), 5), 1, 1)).get(0);
        assertEquals(RowChange.Op.UPDATE, u.op());
        assertEquals("a", u.before()[1]);
        RowChange d = (RowChange) decoder.decode(record(envelope("db", "d", row(1, "b"), null, 6), 1, 2)).get(0);
        assertEquals(RowChange.Op.DELETE, d.op());
        DdlChange t = (DdlChange) decoder.decode(record(envelope("db", "t", null, null, 7), 1, 3)).get(0);
        assertEquals("TRUNCATE TABLE `t`", t.query());
        // the tombstone Debezium writes after a delete deletes again by key: harmless after the envelope's delete
        RowChange again = (RowChange) decoder.decode(new SinkRecord("dbz", 0, KEY, new Struct(KEY).put("id", 1L),
                null, null, 4)).get(0);
        assertEquals(RowChange.Op.DELETE, again.op());
        assertEquals("db.t", again.schema() + "." + again.tableName());
    }

    // ExtractNewRecordState's output, as Debezium 3.3's SMT writes it: the row's schema (named as the envelope's row,
    // <prefix>.<db>.<table>.Value, not optional) with the fields add.fields and delete.tombstone.handling.mode=rewrite
    // append, all optional: __deleted as the text "true"/"false", __op, __db, __table, __source_ts_ms

    /** The flattened row's schema named {@code name}, with the SMT's {@code metadata} fields ("deleted", "op", ...). */
    static Schema flatSchema(String name, String... metadata) {
        SchemaBuilder b = SchemaBuilder.struct();
        if (name != null) b.name(name);
        for (org.apache.kafka.connect.data.Field f : ROW.fields()) b.field(f.name(), f.schema());
        for (String m : metadata) {
            b.field("__" + m, m.endsWith("ts_ms") ? Schema.OPTIONAL_INT64_SCHEMA : Schema.OPTIONAL_STRING_SCHEMA);
        }
        return b.build();
    }

    /** {@code row(id, name)} flattened into {@code schema}, its metadata fields set from {@code metadata} pairs. */
    static Struct flat(Schema schema, long id, String name, Object... metadata) {
        Struct row = row(id, name);
        Struct v = new Struct(schema);
        for (org.apache.kafka.connect.data.Field f : ROW.fields()) v.put(f.name(), row.get(f.name()));
        for (int i = 0; i < metadata.length; i += 2) v.put("__" + metadata[i], metadata[i + 1]);
        return v;
    }

    static SinkRecord flatRecord(String topic, Struct value, Long id, long offset) {
        return flatRecord(topic, value, KEY, id, offset);
    }

    static SinkRecord flatRecord(String topic, Struct value, Schema key, Long id, long offset) {
        return new SinkRecord(topic, 0, id == null ? null : key, id == null ? null : new Struct(key).put("id", id),
                value.schema(), value, offset);
    }

    /** A key whose schema has no name (an SMT or converter dropped Debezium's {@code <prefix>.<db>.<table>.Key}). */
    static final Schema BARE_KEY = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

    private final SinkMetrics metrics = SinkMetrics.inMemory("flat", "0");
    private final DebeziumEnvelopeDecoder counting = new DebeziumEnvelopeDecoder(ZoneOffset.UTC,
            new SkippedRecords(() -> metrics));

    private double skipped() {
        return metrics.value(SinkMetrics.RECORDS_SKIPPED);
    }

    @Test
    void aFlattenedRowIsAnUpsertByTheRecordKeyWithoutTheSmtsFields() {
        Schema s = flatSchema("srv.db.t.Value", "op", "db", "table", "source_ts_ms");
        for (String op : List.of("r", "c", "u")) {
            RowChange r = (RowChange) counting.decode(flatRecord("srv.db.t", flat(s, 1, "a", "op", op, "db", "shop",
                    "table", "orders", "source_ts_ms", 1000L), 1L, 0)).get(0);
            // an insert of the full row: written as an upsert in safe mode, or re-planned as one on a duplicate key
            assertEquals(RowChange.Op.INSERT, r.op(), op);
            assertEquals("shop.orders", r.schema() + "." + r.tableName(), "__db and __table name the table");
            assertEquals(ChangeEvent.tso(1000, 0), r.commitTs(), "__source_ts_ms is the commit time");
            assertEquals(List.of("id"), r.table().primaryKeyNames(), "the record key's fields are the primary key");
            assertEquals(ROW.fields().size(), r.table().columnCount(), "the __ fields are not columns");
            assertEquals(-1, r.table().indexOf("__op"));
            assertArrayEquals(new Object[]{1L, "a", new BigDecimal("12.50"), "2024-01-01 00:00:00.123456",
                    "2024-01-01 10:00:00.500000", "2024-01-01", "-01:02:03.000001", 0x0105L, "{\"k\": [1]}", "green",
                    new byte[]{0, (byte) 0xff}, 1L}, r.after());
        }
        // the SMT's defaults add no field: the table comes from the row's schema name, else from the topic
        RowChange plain = (RowChange) counting.decode(flatRecord("other-topic", flat(flatSchema("srv.db.t.Value"), 2,
                "b"), 2L, 1)).get(0);
        assertEquals(RowChange.Op.INSERT, plain.op());
        assertEquals("db.t", plain.schema() + "." + plain.tableName());
        assertEquals(0L, plain.commitTs(), "no commit time: unknown");
        RowChange byTopic = (RowChange) counting.decode(flatRecord("my.prefix.shop.orders", flat(flatSchema(null), 3,
                "c"), BARE_KEY, 3L, 2)).get(0);
        assertEquals("shop.orders", byTopic.schema() + "." + byTopic.tableName(), "<prefix>.<db>.<table>");
        // add.fields=source.db,source.table names them __source_db, __source_table
        Schema sourceFields = flatSchema("srv.db.t.Value", "source_db", "source_table");
        RowChange bySource = (RowChange) counting.decode(flatRecord("srv.db.t", flat(sourceFields, 4, "d", "source_db",
                "shop", "source_table", "items"), 4L, 3)).get(0);
        assertEquals("shop.items", bySource.schema() + "." + bySource.tableName());
        assertEquals(0.0, skipped());
    }

    @Test
    void aRewrittenDeleteIsADeleteAndItsOtherRowsAreUpserts() {
        // delete.tombstone.handling.mode=rewrite: a delete is the before image with __deleted=true
        Schema s = flatSchema("srv.db.t.Value", "deleted");
        RowChange d = (RowChange) counting.decode(flatRecord("srv.db.t", flat(s, 1, "a", "deleted", "true"), 1L, 0))
                .get(0);
        assertEquals(RowChange.Op.DELETE, d.op());
        assertEquals(1L, d.before()[0]);
        assertEquals(ROW.fields().size(), d.before().length);
        RowChange u = (RowChange) counting.decode(flatRecord("srv.db.t", flat(s, 1, "a", "deleted", "false"), 1L, 1))
                .get(0);
        assertEquals(RowChange.Op.INSERT, u.op());
        // add.fields=op: __op=d says it too
        Schema withOp = flatSchema("srv.db.t.Value", "deleted", "op");
        RowChange d2 = (RowChange) counting.decode(flatRecord("srv.db.t", flat(withOp, 2, "b", "deleted", "true",
                "op", "d"), 2L, 2)).get(0);
        assertEquals(RowChange.Op.DELETE, d2.op());
        RowChange d3 = (RowChange) counting.decode(flatRecord("srv.db.t", flat(flatSchema("srv.db.t.Value", "op"), 3,
                "c", "op", "d"), 3L, 3)).get(0);
        assertEquals(RowChange.Op.DELETE, d3.op());
    }

    @Test
    void aTombstoneWithAKeyDeletesByItAndOneWithoutIsCountedAsSkipped() {
        // ExtractNewRecordState's default for a delete: the key and a null value
        RowChange d = (RowChange) counting.decode(new SinkRecord("srv.db.t", 0, KEY, new Struct(KEY).put("id", 7L),
                null, null, 0)).get(0);
        assertEquals(RowChange.Op.DELETE, d.op());
        assertEquals("db.t", d.schema() + "." + d.tableName());
        assertEquals(List.of("id"), d.table().primaryKeyNames());
        assertArrayEquals(new Object[]{7L}, d.before(), "the key is the row to delete");
        // the table from the topic when the key's schema has no Debezium name
        RowChange byTopic = (RowChange) counting.decode(new SinkRecord("p.shop.orders", 0, BARE_KEY,
                new Struct(BARE_KEY).put("id", 8L), null, null, 1)).get(0);
        assertEquals("shop.orders", byTopic.schema() + "." + byTopic.tableName());
        assertEquals(0.0, skipped());

        assertEquals(List.of(), counting.decode(new SinkRecord("srv.db.t", 0, null, null, null, null, 2)));
        assertEquals(List.of(), counting.decode(new SinkRecord("srv.db.t", 0, null, null, null, null, 3)));
        assertEquals(2.0, skipped(), "each tombstone without a key counts");
    }

    @Test
    void debeziumsOwnRecordsAreCountedAsSkipped() {
        Schema heartbeat = SchemaBuilder.struct().name("io.debezium.connector.common.Heartbeat")
                .field("ts_ms", Schema.INT64_SCHEMA).build();
        assertEquals(List.of(), counting.decode(new SinkRecord("__debezium-heartbeat.srv", 0, null, null, heartbeat,
                new Struct(heartbeat).put("ts_ms", 1L), 0)));
        Schema txn = SchemaBuilder.struct().name("io.debezium.connector.common.TransactionMetadataValue")
                .field("status", Schema.STRING_SCHEMA).field("id", Schema.STRING_SCHEMA).build();
        assertEquals(List.of(), counting.decode(new SinkRecord("srv.transaction", 0, null, null, txn,
                new Struct(txn).put("status", "BEGIN").put("id", "x"), 1)));
        assertEquals(2.0, skipped());
        // the snapshot's DROP statements too
        Struct source = new Struct(HISTORY_SOURCE).put("connector", "mysql").put("ts_ms", 1000L)
                .put("snapshot", "true").put("db", "db");
        Struct drop = new Struct(SCHEMA_CHANGE).put("source", source).put("ts_ms", 1000L).put("databaseName", "db")
                .put("ddl", "DROP TABLE IF EXISTS `db`.`t`");
        assertEquals(List.of(), counting.decode(new SinkRecord("srv", 0, null, null, SCHEMA_CHANGE, drop, 2)));
        assertEquals(3.0, skipped());
    }

    @Test
    void whatIsNeitherAnEnvelopeNorAUsableRowThrowsSayingWhatIsMissing() {
        // only the SMT's fields: no columns
        Schema onlyMetadata = SchemaBuilder.struct().name("srv.db.t.Value").field("__op", Schema.OPTIONAL_STRING_SCHEMA)
                .field("__deleted", Schema.OPTIONAL_STRING_SCHEMA).build();
        assertMessage("no columns", () -> counting.decode(new SinkRecord("srv.db.t", 0, KEY,
                new Struct(KEY).put("id", 1L), onlyMetadata, new Struct(onlyMetadata).put("__op", "c"), 0)));
        // a row with nothing that names its table
        Schema bare = flatSchema(null);
        assertMessage("names no database and table", () -> counting.decode(flatRecord("orders", flat(bare, 1, "a"),
                BARE_KEY, 1L, 1)));
        // a tombstone with a key but nothing that names the table
        assertMessage("names no database and table", () -> counting.decode(new SinkRecord("orders", 0, BARE_KEY,
                new Struct(BARE_KEY).put("id", 1L), null, null, 2)));
        // half an envelope
        Schema noOp = SchemaBuilder.struct().name("srv.db.t.Envelope").field("before", ROW).field("after", ROW)
                .field("source", SOURCE).build();
        assertMessage("no `op`", () -> counting.decode(new SinkRecord("srv.db.t", 0, KEY,
                new Struct(KEY).put("id", 1L), noOp, new Struct(noOp).put("after", row(1, "a")), 3)));
        Schema noSource = SchemaBuilder.struct().field("before", ROW).field("after", ROW)
                .field("op", Schema.STRING_SCHEMA).build();
        assertMessage("no `source` block", () -> counting.decode(new SinkRecord("srv.db.t", 0, KEY,
                new Struct(KEY).put("id", 1L), noSource, new Struct(noSource).put("op", "c"), 4)));
        // a value that is not a row: a nested structure cannot be a column
        Schema nested = SchemaBuilder.struct().name("srv.db.t.Value").field("id", Schema.INT64_SCHEMA)
                .field("payload", SchemaBuilder.struct().field("x", Schema.INT32_SCHEMA).build()).build();
        assertMessage("column `payload`", () -> counting.decode(new SinkRecord("srv.db.t", 0, KEY,
                new Struct(KEY).put("id", 1L), nested, new Struct(nested).put("id", 1L)
                .put("payload", new Struct(nested.field("payload").schema()).put("x", 1)), 5)));
        // a key that is not among the row's columns
        Schema otherKey = SchemaBuilder.struct().name("srv.db.t.Key").field("uuid", Schema.STRING_SCHEMA).build();
        assertMessage("key field `uuid`", () -> counting.decode(new SinkRecord("srv.db.t", 0, otherKey,
                new Struct(otherKey).put("uuid", "u"), flatSchema("srv.db.t.Value"),
                flat(flatSchema("srv.db.t.Value"), 1, "a"), 6)));
        // without a key, an update cannot be applied (its before image is gone), nor a row that does not say
        Schema withOp = flatSchema("srv.db.t.Value", "op");
        assertMessage("whose before image", () -> counting.decode(flatRecord("srv.db.t", flat(withOp, 1, "a", "op",
                "u"), null, 7)));
        assertMessage("add.fields=op", () -> counting.decode(flatRecord("srv.db.t", flat(flatSchema("srv.db.t.Value"),
                1, "a"), null, 8)));
        assertMessage("unknown Debezium op 'x'", () -> counting.decode(flatRecord("srv.db.t", flat(withOp, 1, "a",
                "op", "x"), 1L, 9)));
        // ... but an insert can
        RowChange insert = (RowChange) counting.decode(flatRecord("srv.db.t", flat(withOp, 1, "a", "op", "c"), null,
                10)).get(0);
        assertEquals(RowChange.Op.INSERT, insert.op());
        assertTrue(insert.table().primaryKeyNames().isEmpty());
        assertEquals(0.0, skipped(), "nothing here was skipped: each one throws, and the task dead-letters it");
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable decode) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, decode);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }

    @Test
    void schemalessValuesAreRejectedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> decoder.decode(new SinkRecord("dbz", 0, null, null, null, Map.of("op", "c"), 0)));
        assertTrue(e.getMessage().contains("Connect Struct"), e.getMessage());
    }

    @Test
    void envelopesThroughJsonConverterAreAppliedToMariaDb() throws Exception {
        JsonConverter json = new JsonConverter();
        json.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), false);
        JsonConverter keyJson = new JsonConverter();
        keyJson.configure(Map.of("schemas.enable", "true"), true);
        try (TestDatabase src = SinkTarget.database("dbz_src"); TestDatabase dst = SinkTarget.database("dbz_dst")) {
            dst.exec("CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(10), price DECIMAL(10,2), "
                    + "created DATETIME(6), updated TIMESTAMP(6) NULL, day DATE, dur TIME(6), flags BIT(16), "
                    + "doc JSON, color ENUM('red','green'), raw VARBINARY(4), active TINYINT(1))");
            try (TaskDriver driver = new TaskDriver(Map.of("input.format", "debezium", "schema.map",
                    src.name() + "=" + dst.name()))) {
                long offset = 0;
                Struct[] values = {envelope(src.name(), "r", null, row(1, "a"), 1000),
                        envelope(src.name(), "c", null, row(2, "b"), 1001),
                        envelope(src.name(), "u", row(2, "b"), row(2, "bb"), 1002),
                        envelope(src.name(), "d", row(1, "a"), null, 1003)};
                List<SinkRecord> records = new java.util.ArrayList<>();
                for (Struct v : values) {
                    // serialise and read back as a worker would, so the Structs are the converter's own
                    byte[] bytes = json.fromConnectData("dbz", ENVELOPE, v);
                    SchemaAndValue sv = json.toConnectData("dbz", bytes);
                    long id = v.getStruct(v.get("after") != null ? "after" : "before").getInt64("id");
                    byte[] keyBytes = keyJson.fromConnectData("dbz", KEY, new Struct(KEY).put("id", id));
                    SchemaAndValue kv = keyJson.toConnectData("dbz", keyBytes);
                    records.add(new SinkRecord(TaskDriver.TOPIC, 0, kv.schema(), kv.value(), sv.schema(), sv.value(),
                            offset++));
                }
                driver.putRecords(records);
                long deadline = System.currentTimeMillis() + 20_000;
                while (driver.committable() < offset && System.currentTimeMillis() < deadline) {
                    driver.putRecords(List.of());
                    Thread.sleep(10);
                }
                assertEquals(offset, driver.committable());
            }
            assertEquals(List.of(Arrays.asList("2", "bb", "12.50", "2024-01-01 00:00:00.123456",
                    "2024-01-01 10:00:00.500000", "2024-01-01", "-01:02:03.000001", "105", "{\"k\": [1]}", "green",
                    "00FF", "1")), dst.query("SELECT id, name, price, DATE_FORMAT(created, '%Y-%m-%d %H:%i:%s.%f'), "
                    + "DATE_FORMAT(updated, '%Y-%m-%d %H:%i:%s.%f'), day, CAST(dur AS CHAR), HEX(flags), doc, color, "
                    + "HEX(raw), active FROM t"));
        }
    }

    @Test
    void flattenedRecordsThroughJsonConverterLeaveExactlyTheRightRowsInMariaDb() throws Exception {
        // seen on a worker: a snapshot of 3 rows, an update, a delete and an insert through ExtractNewRecordState left
        // the target empty and the task RUNNING
        JsonConverter json = new JsonConverter();
        json.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), false);
        JsonConverter keyJson = new JsonConverter();
        keyJson.configure(Map.of("schemas.enable", "true"), true);
        try (TestDatabase src = SinkTarget.database("dbzflat_src");
             TestDatabase dst = SinkTarget.database("dbzflat_dst")) {
            dst.exec("CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(10), price DECIMAL(10,2), "
                    + "created DATETIME(6), updated TIMESTAMP(6) NULL, day DATE, dur TIME(6), flags BIT(16), "
                    + "doc JSON, color ENUM('red','green'), raw VARBINARY(4), active TINYINT(1))");
            String name = "srv." + src.name() + ".t";
            Schema key = SchemaBuilder.struct().name(name + ".Key").field("id", Schema.INT64_SCHEMA).build();
            // the SMT's defaults: the row alone, deletes as tombstones
            Schema plain = flatSchema(name + ".Value");
            // delete.tombstone.handling.mode=rewrite, add.fields=op,source.ts_ms
            Schema rewrite = flatSchema(name + ".Value", "deleted", "op", "source_ts_ms");
            // committed after the replay window: written without safe mode, the update hits a duplicate key and is
            // applied again as an upsert
            long later = System.currentTimeMillis() + 3_600_000;
            Object[][] changes = {
                    {1L, flat(plain, 1, "a")}, {2L, flat(plain, 2, "b")}, {3L, flat(plain, 3, "c")}, // snapshot
                    {2L, flat(plain, 2, "bb")},                                                        // update
                    {1L, null},                                                                        // delete
                    {4L, flat(plain, 4, "d")},                                                         // insert
                    {null, null},                                                   // a tombstone without a key
                    {4L, flat(rewrite, 4, "dd", "deleted", "false", "op", "u", "source_ts_ms", later)},
                    {3L, flat(rewrite, 3, "c", "deleted", "true", "op", "d", "source_ts_ms", later + 1)}};
            try (TaskDriver driver = new TaskDriver(Map.of("input.format", "debezium", "schema.map",
                    src.name() + "=" + dst.name(), "task.id", "flattened"))) {
                List<SinkRecord> records = new java.util.ArrayList<>();
                long offset = 0;
                for (Object[] c : changes) {
                    // serialised and read back as a worker would, so the Structs are the converter's own
                    Struct v = (Struct) c[1];
                    SchemaAndValue sv = v == null ? SchemaAndValue.NULL
                            : json.toConnectData(name, json.fromConnectData(name, v.schema(), v));
                    SchemaAndValue kv = c[0] == null ? SchemaAndValue.NULL : keyJson.toConnectData(name,
                            keyJson.fromConnectData(name, key, new Struct(key).put("id", c[0])));
                    records.add(new SinkRecord(TaskDriver.TOPIC, 0, kv.schema(), kv.value(), sv.schema(), sv.value(),
                            offset++));
                }
                driver.putRecords(records);
                long deadline = System.currentTimeMillis() + 20_000;
                while (driver.committable() < offset && System.currentTimeMillis() < deadline) {
                    driver.putRecords(List.of());
                    Thread.sleep(10);
                }
                assertEquals(offset, driver.committable());
                assertEquals(1.0, JmxMeters.read(SinkMetrics.RECORDS_SKIPPED, "driver", "flattened"),
                        "the tombstone without a key is counted");
                assertEquals(0.0, JmxMeters.read(SinkMetrics.ERRANT_RECORDS, "driver", "flattened"));
            }
            assertEquals(List.of(Arrays.asList("2", "bb", "12.50", "2024-01-01 00:00:00.123456", "00FF"),
                    Arrays.asList("4", "dd", "12.50", "2024-01-01 00:00:00.123456", "00FF")),
                    dst.query("SELECT id, name, price, DATE_FORMAT(created, '%Y-%m-%d %H:%i:%s.%f'), HEX(raw) FROM t "
                            + "ORDER BY id"));
        }
    }
}
