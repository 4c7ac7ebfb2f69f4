package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
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

    @Test
    void updatesDeletesTruncatesAndTombstones() {
        RowChange u = (RowChange) decoder.decode(record(envelope("db", "u", row(1, "a"), row(1, "b"), 5), 1, 1)).get(0);
        assertEquals(RowChange.Op.UPDATE, u.op());
        assertEquals("a", u.before()[1]);
        RowChange d = (RowChange) decoder.decode(record(envelope("db", "d", row(1, "b"), null, 6), 1, 2)).get(0);
        assertEquals(RowChange.Op.DELETE, d.op());
        DdlChange t = (DdlChange) decoder.decode(record(envelope("db", "t", null, null, 7), 1, 3)).get(0);
        assertEquals("TRUNCATE TABLE `t`", t.query());
        assertTrue(decoder.decode(new SinkRecord("dbz", 0, KEY, new Struct(KEY).put("id", 1L), null, null, 4))
                .isEmpty());
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
}
