package io.cdcconnect.source.convert;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.source.DebeziumRecords;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.List;

import static io.cdcconnect.source.DebeziumRecords.column;
import static io.cdcconnect.source.DebeziumRecords.columns;
import static io.cdcconnect.source.DebeziumRecords.dec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Conversion of Debezium-shaped records (both flavours) into the model's rows, types and Java values. */
class RecordConverterTest {

    private static DebeziumRecords.Table allTypes(DebeziumRecords dbz, boolean mysql) {
        return dbz.table("shop", "items", columns(
                "id", column(SchemaBuilder.int32(), "id", "INT", 11, null),
                "ti", column(SchemaBuilder.int16().optional(), "ti", "TINYINT", 4, null),
                "tu", column(SchemaBuilder.int16().optional(), "tu", "TINYINT UNSIGNED", 3, null),
                "flag", mysql ? column(SchemaBuilder.bool().optional(), "flag", "BOOLEAN", 1, null)
                        : column(SchemaBuilder.int16().optional(), "flag", "TINYINT", 1, null),
                "iu", column(SchemaBuilder.int64().optional(), "iu", "INT UNSIGNED", 10, null),
                "bu", DebeziumRecords.decimal("bu", "BIGINT UNSIGNED", 20, 0),
                "f", column(SchemaBuilder.float32().optional(), "f", "FLOAT", null, null),
                "d", column(SchemaBuilder.float64().optional(), "d", "DOUBLE", null, null),
                "amount", DebeziumRecords.decimal("amount", "DECIMAL", 10, 4),
                "dt", column(SchemaBuilder.int32().name("io.debezium.time.Date").optional(), "dt", "DATE", null, null),
                "tm", column(SchemaBuilder.int64().name("io.debezium.time.MicroTime").optional(), "tm", "TIME", 3, null),
                "dtm", column(SchemaBuilder.int64().name("io.debezium.time.Timestamp").optional(), "dtm", "DATETIME",
                        null, null),
                "dtm6", column(SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").optional(), "dtm6",
                        "DATETIME", 6, null),
                "ts", column(SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").optional(), "ts",
                        "TIMESTAMP", 2, null),
                "y", column(SchemaBuilder.int32().name("io.debezium.time.Year").optional(), "y", "YEAR", 4, null),
                "b1", column(SchemaBuilder.bool().optional(), "b1", "BIT", 1, null),
                "b12", column(SchemaBuilder.bytes().name("io.debezium.data.Bits").parameter("length", "12").optional(),
                        "b12", "BIT", 12, null),
                "name", column(SchemaBuilder.string().optional(), "name", "VARCHAR", 20, null),
                "txt", column(SchemaBuilder.string().optional(), "txt", "MEDIUMTEXT", null, null),
                "bin", column(SchemaBuilder.bytes().optional(), "bin", "VARBINARY", 8, null),
                "j", mysql ? column(SchemaBuilder.string().name("io.debezium.data.Json").optional(), "j", "JSON", null, null)
                        : column(SchemaBuilder.string().optional(), "j", "LONGTEXT", null, null),
                "e", column(SchemaBuilder.string().name("io.debezium.data.Enum").parameter("allowed", "S,M,L")
                        .optional(), "e", "ENUM", 1, null),
                "s", column(SchemaBuilder.string().name("io.debezium.data.EnumSet").parameter("allowed", "a,b,c,d")
                        .optional(), "s", "SET", 7, null)), "id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void snapshotReadBecomesInsertWithEveryValueInTheModelsJavaType(String flavor) {
        boolean mysql = flavor.equals("mysql");
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = allTypes(dbz, mysql);
        Struct after = t.row(7, (short) -5, (short) 250, mysql ? (Object) Boolean.TRUE : (Object) (short) 1, 4294967295L,
                dec("18446744073709551615"), 1.5f, 2.25d, dec("-12.3400"), 19753, -3020399500000L,
                1706745599000L, 1706745599123456L, "2024-02-01T10:00:00.12Z", 2024, true,
                ByteBuffer.wrap(new byte[] {0x03, 0x08}).array(), "héllo", "long text",
                ByteBuffer.wrap(new byte[] {(byte) 0xff, 0, 1}), "{\"k\": [1, 2]}", "M", "a,d");
        SourceRecord r = dbz.data(t, "r", null, after, 1_700_000_000_000L, null, true);

        RowChange row = new RecordConverter().row(r, 42L);

        assertEquals(RowChange.Op.INSERT, row.op());
        assertEquals(42L, row.commitTs());
        assertEquals("shop", row.schema());
        assertEquals("items", row.tableName());
        assertEquals(List.of("id"), row.table().primaryKeyNames());
        Object[] v = row.after();
        assertEquals(7L, v[0]);
        assertEquals(-5L, v[1]);
        assertEquals(250L, v[2]);
        assertEquals(1L, v[3]);
        assertEquals(4294967295L, v[4]);
        assertEquals(-1L, v[5], "BIGINT UNSIGNED max holds the all-ones pattern");
        assertEquals(1.5f, v[6]);
        assertEquals(2.25d, v[7]);
        assertEquals(dec("-12.3400"), v[8]);
        assertEquals("2024-01-31", v[9]);
        assertEquals("-838:59:59.500", v[10]);
        assertEquals("2024-01-31 23:59:59", v[11]);
        assertEquals("2024-01-31 23:59:59.123456", v[12]);
        assertEquals("2024-02-01 10:00:00.12", v[13]);
        assertEquals(2024L, v[14]);
        assertEquals(1L, v[15]);
        assertEquals(0x803L, v[16], "Debezium's BIT bytes are little-endian");
        assertEquals("héllo", v[17]);
        assertEquals("long text", v[18]);
        assertArrayEquals(new byte[] {(byte) 0xff, 0, 1}, (byte[]) v[19]);
        assertEquals("{\"k\": [1, 2]}", v[20]);
        assertEquals(2L, v[21], "ENUM index is 1-based");
        assertEquals(0b1001L, v[22], "SET bitmask");
    }

    /**
     * A NULL written into a column with a DEFAULT stays NULL: Debezium gives the field the column's default as its
     * schema default, and Connect's Struct.get(Field) answers a null with it (found by a user's run from the release
     * archives: an UPDATE to NULL was published as the default 0).
     */
    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void aNullInAColumnWithADefaultStaysNull(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = dbz.table("shop", "customers", columns(
                "id", column(SchemaBuilder.int32(), "id", "INT", 11, null),
                "points", column(SchemaBuilder.int64().optional().defaultValue(0L), "points", "INT UNSIGNED", 10, null),
                "tier", column(SchemaBuilder.string().optional().defaultValue("basic"), "tier", "VARCHAR", 16, null)),
                "id");
        Struct before = t.row(1, 5L, "gold");
        Struct after = t.row(1, null, null);
        RowChange row = new RecordConverter().row(dbz.data(t, "u", before, after, 1L, "0-1-1", false), 1L);
        assertArrayEquals(new Object[] {1L, null, null}, row.after(), "NULLs, not the columns' defaults");
        assertArrayEquals(new Object[] {1L, 5L, "gold"}, row.before());
        Struct inserted = t.row(2, null, "silver");
        RowChange insert = new RecordConverter().row(dbz.data(t, "c", null, inserted, 2L, "0-1-2", false), 2L);
        assertArrayEquals(new Object[] {2L, null, "silver"}, insert.after());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void columnTypesAndFlagsComeFromThePropagatedSourceTypes(String flavor) {
        boolean mysql = flavor.equals("mysql");
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = allTypes(dbz, mysql);
        Struct after = t.row(1, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null);
        TableInfo table = new RecordConverter().row(dbz.data(t, "c", null, after, 1L, "0-1-1", false), 1L).table();

        ColumnInfo id = table.column(0);
        assertEquals(MySqlType.LONG, id.type());
        assertTrue(id.primaryKey() && id.handleKey());
        assertFalse(id.nullable());
        assertEquals("int(11)", id.columnType());
        ColumnInfo tu = table.column(2);
        assertEquals(MySqlType.TINY, tu.type());
        assertTrue(tu.unsigned() && tu.nullable() && !tu.primaryKey());
        assertEquals("tinyint(3) unsigned", tu.columnType());
        assertEquals(MySqlType.LONGLONG, table.column(5).type());
        assertTrue(table.column(5).unsigned());
        assertEquals(MySqlType.NEWDECIMAL, table.column(8).type());
        assertEquals(10, table.column(8).length());
        assertEquals(4, table.column(8).scale());
        assertEquals("decimal(10,4)", table.column(8).columnType());
        assertEquals(MySqlType.TIME, table.column(10).type());
        assertEquals(3, table.column(10).fsp());
        assertEquals(0, table.column(11).fsp(), "DATETIME without a length has fsp 0");
        assertEquals(6, table.column(12).fsp());
        assertEquals(MySqlType.TIMESTAMP, table.column(13).type());
        assertEquals("timestamp(2)", table.column(13).columnType());
        assertEquals(MySqlType.BIT, table.column(16).type());
        assertEquals(12, table.column(16).length());
        assertEquals(MySqlType.VARCHAR, table.column(17).type());
        assertFalse(table.column(17).binary());
        assertEquals(MySqlType.MEDIUM_BLOB, table.column(18).type());
        assertFalse(table.column(18).binary(), "MEDIUMTEXT is text");
        assertEquals(MySqlType.VARCHAR, table.column(19).type());
        assertTrue(table.column(19).binary(), "VARBINARY is binary");
        assertTrue(ColumnFlags.has(table.column(19).flags(), ColumnFlags.BINARY));
        assertEquals(mysql ? MySqlType.JSON : MySqlType.LONG_BLOB, table.column(20).type());
        assertEquals(MySqlType.ENUM, table.column(21).type());
        assertEquals(List.of("S", "M", "L"), table.column(21).elements());
        assertEquals("enum('S','M','L')", table.column(21).columnType());
        assertEquals(MySqlType.SET, table.column(22).type());
        for (int i = 1; i < after.schema().fields().size(); i++) {
            assertNull(new RecordConverter().row(dbz.data(t, "c", null, after, 1L, "0-1-1", false), 1L).after()[i]);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void updatesAndDeletesCarryTheirImagesAndShareOneTableVersion(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = dbz.table("db", "kv", columns(
                "k", column(SchemaBuilder.string(), "k", "VARCHAR", 10, null),
                "v", column(SchemaBuilder.int64().optional(), "v", "BIGINT", 20, null)), "k");
        RecordConverter converter = new RecordConverter();
        RowChange upd = converter.row(dbz.data(t, "u", t.row("a", 1L), t.row("a", 2L), 1L, "tx", false), 9L);
        RowChange del = converter.row(dbz.data(t, "d", t.row("a", 2L), null, 1L, "tx", false), 9L);
        assertEquals(RowChange.Op.UPDATE, upd.op());
        assertArrayEquals(new Object[] {"a", 1L}, upd.before());
        assertArrayEquals(new Object[] {"a", 2L}, upd.after());
        assertEquals(RowChange.Op.DELETE, del.op());
        assertArrayEquals(new Object[] {"a", 2L}, del.before());
        assertNull(del.after());
        assertSame(upd.table(), del.table(), "one TableInfo per table version");
        assertEquals(1, converter.cachedTables());

        // A new table version (after an ALTER) gets its own TableInfo.
        DebeziumRecords.Table t2 = dbz.table("db", "kv", columns(
                "k", column(SchemaBuilder.string(), "k", "VARCHAR", 10, null),
                "v", column(SchemaBuilder.int64().optional(), "v", "BIGINT", 20, null),
                "w", column(SchemaBuilder.string().optional(), "w", "CHAR", 2, null)), "k");
        RowChange ins = converter.row(dbz.data(t2, "c", null, t2.row("b", 3L, "xy"), 1L, "tx2", false), 10L);
        assertEquals(3, ins.table().columnCount());
        assertEquals(2, converter.cachedTables());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void uniqueKeysFromTheCatalogFollowThePrimaryKeyAndMissingColumnsDropAKey(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = dbz.table("db", "users", columns(
                "id", column(SchemaBuilder.int32(), "id", "INT", 11, null),
                "email", column(SchemaBuilder.string(), "email", "VARCHAR", 50, null),
                "a", column(SchemaBuilder.int32().optional(), "a", "INT", 11, null)), "id");
        KeyCatalog catalog = (schema, table) -> List.of(List.of("email"), List.of("a", "not_yet_added"));
        TableInfo info = new RecordConverter(catalog).row(
                dbz.data(t, "c", null, t.row(1, "x@y", 2), 1L, "tx", false), 1L).table();
        assertEquals(2, info.uniqueKeys().size());
        assertArrayEquals(new int[] {0}, info.uniqueKeys().get(0));
        assertArrayEquals(new int[] {1}, info.uniqueKeys().get(1));
        assertTrue(info.column(1).uniqueKey());
        assertFalse(info.column(1).handleKey(), "the primary key stays the handle");
        assertFalse(info.column(2).uniqueKey());
        assertEquals(List.of("id"), info.primaryKeyNames());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void withoutPrimaryKeyTheFirstNotNullUniqueKeyIsTheHandle(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = dbz.table("db", "nopk", columns(
                "maybe", column(SchemaBuilder.int32().optional(), "maybe", "INT", 11, null),
                "code", column(SchemaBuilder.string(), "code", "CHAR", 3, null)));
        KeyCatalog catalog = (schema, table) -> List.of(List.of("maybe"), List.of("code"));
        TableInfo info = new RecordConverter(catalog).row(
                dbz.data(t, "c", null, t.row(null, "abc"), 1L, "tx", false), 1L).table();
        assertTrue(info.primaryKeyNames().isEmpty());
        assertEquals(2, info.uniqueKeys().size());
        assertFalse(info.column(0).handleKey(), "a nullable key cannot identify a row");
        assertTrue(info.column(1).handleKey() && info.column(1).uniqueKey());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void tableWithoutPrimaryKeyHasNoKeyColumns(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = dbz.table("db", "log", columns(
                "msg", column(SchemaBuilder.string().optional(), "msg", "TEXT", null, null)));
        RowChange row = new RecordConverter().row(dbz.data(t, "c", null, t.row("hi"), 1L, "tx", false), 1L);
        assertTrue(row.table().primaryKeyNames().isEmpty());
        assertTrue(row.table().uniqueKeys().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void recordKindsAndTransactionIdsAreRecognised(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = dbz.table("db", "kv", columns(
                "k", column(SchemaBuilder.string(), "k", "VARCHAR", 10, null)), "k");
        SourceRecord data = dbz.data(t, "c", null, t.row("a"), 1L, "0-1-5", false);
        assertEquals(RecordConverter.Kind.DATA, RecordConverter.kindOf(data));
        assertEquals("0-1-5", RecordConverter.transactionId(data));
        assertFalse(RecordConverter.isSnapshot(RecordConverter.source(data)));
        assertEquals(1L, RecordConverter.eventMillis(RecordConverter.source(data)));
        assertEquals(RecordConverter.Kind.TRANSACTION, RecordConverter.kindOf(dbz.transaction("BEGIN", "0-1-5", 1L)));
        assertEquals(RecordConverter.Kind.SCHEMA_CHANGE,
                RecordConverter.kindOf(dbz.ddl("db", "kv", "ALTER TABLE kv ADD c INT", 1L, false)));
        SourceRecord snap = dbz.data(t, "r", null, t.row("a"), 1L, null, true);
        assertTrue(RecordConverter.isSnapshot(RecordConverter.source(snap)));
        assertNull(RecordConverter.transactionId(snap));
        SourceRecord heartbeat = new SourceRecord(java.util.Map.of("server", "p"), java.util.Map.of("pos", 1L),
                "__debezium-heartbeat.p", null, null, null, Schema.OPTIONAL_STRING_SCHEMA, "x");
        assertEquals(RecordConverter.Kind.OTHER, RecordConverter.kindOf(heartbeat));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void aFieldWithoutPropagatedTypeIsReportedWithTableAndColumn(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = dbz.table("db", "bare", columns("x", SchemaBuilder.int32()), "x");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RecordConverter().row(dbz.data(t, "c", null, t.row(1), 1L, "tx", false), 1L));
        assertTrue(e.getMessage().contains("db.bare.x") && e.getMessage().contains("column.propagate.source.type"),
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "mysql"})
    void aValueOutsideItsEnumNamesTableAndColumnButNotTheValue(String flavor) {
        DebeziumRecords dbz = new DebeziumRecords(flavor, "p");
        DebeziumRecords.Table t = dbz.table("db", "sizes", columns(
                "id", column(SchemaBuilder.int32(), "id", "INT", 11, null),
                "e", column(SchemaBuilder.string().name("io.debezium.data.Enum").parameter("allowed", "S,M").optional(),
                        "e", "ENUM", 1, null)), "id");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RecordConverter().row(dbz.data(t, "c", null, t.row(1, "secret-XL"), 1L, "tx", false), 1L));
        assertTrue(e.getMessage().contains("db.sizes") && e.getMessage().contains("column e"), e.getMessage());
        assertFalse(e.getMessage().contains("secret-XL"), "row values stay out of errors");
    }
}
