package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.sink.dialect.postgres.types.PostgresTypes;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.PostgresTarget;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink into a real PostgreSQL, started by the tests: the source's CREATE TABLE translated, every MySQL type of the
 * model through Canal-JSON read back exactly under the stated rules ({@link PostgresValues}, {@link PostgresTypes}),
 * values PostgreSQL cannot hold rejected naming their column, and DDL in the middle of the stream.
 */
class PostgresSinkTest {

    /** As a MySQL source would send it: the sink translates it. */
    private static final String CREATE = "CREATE TABLE `types` (`id` int NOT NULL, `u64` bigint unsigned, "
            + "`i64` bigint, `i8` tinyint, `u8` tinyint unsigned, `i16` smallint, `i24` mediumint, `u32` int unsigned, "
            + "`d65` decimal(65,30), `f` float, `dbl` double, `dt6` datetime(6), `ts6` timestamp(6) NULL, `dte` date, "
            + "`tm` time(3), `yr` year, `b64` bit(64), `b3` bit(3), `j` json, `bin` varbinary(256), `blb` blob, "
            + "`txt` text, `vc` varchar(50), `ch` char(5), `e` enum('a','b','c'), `s` set('x','y','z'), "
            + "PRIMARY KEY (`id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";

    private static final String SELECT = "SELECT id::text, u64::text, i64::text, i8::text, u8::text, i16::text, "
            + "i24::text, u32::text, d65::text, f::text, dbl::text, to_char(dt6, 'YYYY-MM-DD HH24:MI:SS.US'), "
            + "to_char(ts6 AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), dte::text, tm::text, yr::text, b64::text, "
            + "b3::text, j::text, encode(bin, 'hex'), encode(blb, 'hex'), txt, vc, ch::text, e, s "
            + "FROM dst.types ORDER BY id";

    private static TestDatabase target;
    private static TableInfo table;

    @BeforeAll
    static void createTarget(TestReporter report) throws Exception {
        String server = PostgresTarget.server().describe();
        System.out.println("PostgresSinkTest: target " + server);
        report.publishEntry("target server", server);
        target = PostgresTarget.database("pg_sink");
        int u = ColumnFlags.UNSIGNED;
        int n = ColumnFlags.NULLABLE;
        int b = ColumnFlags.BINARY | n;
        table = TableInfo.of("src", "types", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("u64", MySqlType.LONGLONG, u | n), ColumnInfo.of("i64", MySqlType.LONGLONG, n),
                ColumnInfo.of("i8", MySqlType.TINY, n), ColumnInfo.of("u8", MySqlType.TINY, u | n),
                ColumnInfo.of("i16", MySqlType.SHORT, n), ColumnInfo.of("i24", MySqlType.INT24, n),
                ColumnInfo.of("u32", MySqlType.LONG, u | n), ColumnInfo.of("d65", MySqlType.NEWDECIMAL, n),
                ColumnInfo.of("f", MySqlType.FLOAT, n), ColumnInfo.of("dbl", MySqlType.DOUBLE, n),
                ColumnInfo.of("dt6", MySqlType.DATETIME, n), ColumnInfo.of("ts6", MySqlType.TIMESTAMP, n),
                ColumnInfo.of("dte", MySqlType.DATE, n), ColumnInfo.of("tm", MySqlType.TIME, n),
                ColumnInfo.of("yr", MySqlType.YEAR, n), ColumnInfo.of("b64", MySqlType.BIT, n),
                ColumnInfo.of("b3", MySqlType.BIT, n), ColumnInfo.of("j", MySqlType.JSON, n),
                ColumnInfo.of("bin", MySqlType.VARCHAR, b), ColumnInfo.of("blb", MySqlType.BLOB, b),
                ColumnInfo.of("txt", MySqlType.BLOB, n), ColumnInfo.of("vc", MySqlType.VARCHAR, n),
                ColumnInfo.of("ch", MySqlType.STRING, n),
                new ColumnInfo("e", MySqlType.ENUM, n, null, -1, -1, -1, List.of("a", "b", "c"), "enum('a','b','c')"),
                new ColumnInfo("s", MySqlType.SET, n, null, -1, -1, -1, List.of("x", "y", "z"), "set('x','y','z')")));
        // the table comes from the stream: the source's statement, translated by the sink
        try (TaskDriver driver = new TaskDriver(settings(Map.of()))) {
            driver.put(new DdlChange("src", "types", CREATE, DdlChange.Kind.CREATE, Rows.ts(500)));
            driver.awaitApplied();
        }
    }

    @AfterAll
    static void dropTarget() throws Exception {
        if (target != null) target.close();
    }

    private static Map<String, String> settings(Map<String, String> extra) {
        Map<String, String> m = new java.util.HashMap<>(Map.of("schema.map", "src=dst", "safe.mode", "always"));
        m.putAll(extra);
        return PostgresTarget.sinkSettings(target, m);
    }

    private static byte[] allBytes() {
        byte[] b = new byte[256];
        for (int i = 0; i < 256; i++) b[i] = (byte) i;
        return b;
    }

    @Test
    void theSourcesCreateTableIsTranslated() throws Exception {
        assertEquals(List.of(List.of("id", "integer", "NO"), List.of("u64", "numeric(20,0)", "YES"),
                        List.of("d65", "numeric(65,30)", "YES"), List.of("dt6", "timestamp(6) without time zone", "YES"),
                        List.of("ts6", "timestamp(6) with time zone", "YES"), List.of("tm", "interval", "YES"),
                        List.of("yr", "smallint", "YES"), List.of("b64", "bit(64)", "YES"), List.of("j", "jsonb", "YES"),
                        List.of("bin", "bytea", "YES"), List.of("ch", "character(5)", "YES"), List.of("e", "text", "YES")),
                target.query("SELECT a.attname, format_type(a.atttypid, a.atttypmod), "
                        + "CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END FROM pg_attribute a "
                        + "WHERE a.attrelid = 'dst.types'::regclass AND a.attname IN "
                        + "('id','u64','d65','dt6','ts6','tm','yr','b64','j','bin','ch','e') ORDER BY a.attnum"));
        assertEquals(List.of(List.of("id")), target.query("SELECT a.attname FROM pg_index i JOIN pg_attribute a ON "
                + "a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'dst.types'::regclass "
                + "AND i.indisprimary"));
    }

    @Test
    void everyTypeArrivesExactly() throws Exception {
        target.exec("DELETE FROM dst.types");
        Object[] extremes = {1L, -1L, Long.MIN_VALUE, -128L, 255L, -32768L, -8388608L, 4294967295L,
                new BigDecimal("12345678901234567890123456789012345.123456789012345678901234567890"), 3.14159f,
                1.7976931348623157E308, "9999-12-31 23:59:59.999999", "2038-01-19 03:14:07.999999", "1000-01-01",
                "-838:59:59.000", 2155L, -1L, 5L, "{\"a\": [1, 2, {\"b\": null}], \"é\": \"😀\"}", allBytes(),
                new byte[]{0, 0, (byte) 0xff, 0x27, 0x5c}, "😀 four-byte 𝄞 utf8mb4 ñ", "", "abc", 2L, 5L};
        Object[] zeros = {2L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, new BigDecimal("-0.000000000000000000000000000001"), -0.5f,
                -2.5E-308, "1000-01-01 00:00:00.000001", "1970-01-01 00:00:01.000000", "2024-02-29", "00:00:00.001",
                1901L, 0L, 0L, "null", new byte[0], new byte[0], "", null, null, 1L, 0L};
        Object[] nulls = new Object[table.columnCount()];
        nulls[0] = 3L;
        // TiCDC's content-compatible Canal-JSON: the full column types, so ENUM and SET values can be named (the
        // default mode sends "enum" alone, and an ENUM index then has no name: rejected, see PostgresValuesTest)
        try (TaskDriver driver = new TaskDriver(settings(Map.of()), null,
                CanalJsonOptions.builder().contentCompatible(true).build())) {
            driver.put(RowChange.insert(table, extremes, Rows.ts(1000)), RowChange.insert(table, zeros, Rows.ts(1001)),
                    RowChange.insert(table, nulls, Rows.ts(1002)));
            driver.awaitApplied();
        }
        List<List<String>> rows = target.query(SELECT);
        HexFormat hex = HexFormat.of();
        assertEquals(List.of("1", "18446744073709551615", "-9223372036854775808", "-128", "255", "-32768", "-8388608",
                "4294967295", "12345678901234567890123456789012345.123456789012345678901234567890", "3.14159",
                "1.7976931348623157e+308", "9999-12-31 23:59:59.999999", "2038-01-19 03:14:07.999999", "1000-01-01",
                "-838:59:59", "2155", "1".repeat(64), "101", "{\"a\": [1, 2, {\"b\": null}], \"é\": \"😀\"}",
                hex.formatHex(allBytes()), "0000ff275c", "😀 four-byte 𝄞 utf8mb4 ñ", "", "abc", "b", "x,z"),
                rows.get(0));
        assertEquals(Arrays.asList("2", "0", "0", "0", "0", "0", "0", "0", "-0.000000000000000000000000000001",
                "-0.5", "-2.5e-308", "1000-01-01 00:00:00.000001", "1970-01-01 00:00:01.000000", "2024-02-29",
                "00:00:00.001", "1901", "0".repeat(64), "000", "null", "", "", "", null, null, "a", ""), rows.get(1));
        List<String> allNull = new ArrayList<>(Arrays.asList(new String[27 - 1]));
        allNull.set(0, "3");
        assertEquals(allNull, rows.get(2));
    }

    @Test
    void updatesOfKeysAndDeletesApplyInOrder() throws Exception {
        target.exec("DELETE FROM dst.types");
        Object[] a = new Object[table.columnCount()];
        a[0] = 10L;
        a[22] = "ten";
        Object[] b = a.clone();
        b[0] = 11L;
        b[22] = "eleven";
        Object[] c = new Object[table.columnCount()];
        c[0] = 12L;
        // without safe mode: plain INSERT, UPDATE of the key, DELETE
        try (TaskDriver driver = new TaskDriver(settings(Map.of("safe.mode", "never")))) {
            driver.put(RowChange.insert(table, a, Rows.ts(1100)), RowChange.insert(table, c, Rows.ts(1100)));
            driver.put(RowChange.update(table, a, b, Rows.ts(1101)), RowChange.delete(table, c, Rows.ts(1102)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("11", "eleven")), target.query("SELECT id::text, vc FROM dst.types"));
        // in safe mode a replay of the same changes is harmless (upserts, deletes by key)
        try (TaskDriver driver = new TaskDriver(settings(Map.of("safe.mode", "always")))) {
            driver.put(RowChange.insert(table, a, Rows.ts(1100)), RowChange.insert(table, c, Rows.ts(1100)));
            driver.put(RowChange.update(table, a, b, Rows.ts(1101)), RowChange.delete(table, c, Rows.ts(1102)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("11", "eleven")), target.query("SELECT id::text, vc FROM dst.types"));
    }

    @Test
    void valuesPostgresCannotHoldAreRejectedNamingTheColumn() throws Exception {
        target.exec("DELETE FROM dst.types");
        Object[] zeroDate = new Object[table.columnCount()];
        zeroDate[0] = 20L;
        zeroDate[11] = "0000-00-00 00:00:00.000000"; // all zero, nullable column: NULL
        Object[] partialZero = new Object[table.columnCount()];
        partialZero[0] = 21L;
        partialZero[13] = "2024-00-00";
        Object[] nul = new Object[table.columnCount()];
        nul[0] = 22L;
        nul[22] = "a\u0000b";
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        try (TaskDriver driver = new TaskDriver(settings(Map.of("errors.tolerance", "all")), context)) {
            driver.put(RowChange.insert(table, zeroDate, Rows.ts(1200)), RowChange.insert(table, partialZero,
                    Rows.ts(1200)), RowChange.insert(table, nul, Rows.ts(1200)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("20", "")), target.query("SELECT id::text, COALESCE(dt6::text, '') FROM dst.types"));
        List<StandInSinkTaskContext.Report> reports;
        synchronized (context.reports) {
            reports = List.copyOf(context.reports);
        }
        assertEquals(2, reports.size(), reports.toString());
        String first = reports.get(0).error().getMessage();
        String second = reports.get(1).error().getMessage();
        assertTrue(first.contains("offset 1") && first.contains("`dte`") && first.contains("2024-00-00"), first);
        assertTrue(second.contains("offset 2") && second.contains("`vc`"), second);
    }

    @Test
    void ddlInTheMiddleOfTheStreamIsTranslated() throws Exception {
        TableInfo v1 = TableInfo.of("src", "orders", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("amount", MySqlType.NEWDECIMAL, ColumnFlags.NULLABLE)));
        TableInfo v2 = TableInfo.of("src", "orders", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("amount", MySqlType.NEWDECIMAL, ColumnFlags.NULLABLE),
                ColumnInfo.of("note", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
        TableInfo renamed = TableInfo.of("src", "orders_v2", v2.columns());
        try (TaskDriver driver = new TaskDriver(settings(Map.of("safe.mode", "never")))) {
            driver.put(new DdlChange("src", "orders", "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, "
                            + "amount DECIMAL(10,2))", DdlChange.Kind.CREATE, Rows.ts(2000)),
                    RowChange.insert(v1, new Object[]{1L, new BigDecimal("1.50")}, Rows.ts(2001)),
                    RowChange.insert(v1, new Object[]{2L, new BigDecimal("2.50")}, Rows.ts(2002)),
                    new DdlChange("src", "orders", "ALTER TABLE orders ADD COLUMN note VARCHAR(20) AFTER id",
                            DdlChange.Kind.ALTER, Rows.ts(2003)),
                    RowChange.insert(v2, new Object[]{3L, new BigDecimal("3.50"), "three"}, Rows.ts(2004)),
                    new DdlChange("src", "orders", "ALTER TABLE orders MODIFY COLUMN amount DECIMAL(12,3) NOT NULL",
                            DdlChange.Kind.ALTER, Rows.ts(2005)),
                    new DdlChange("src", "orders", "RENAME TABLE orders TO orders_v2", DdlChange.Kind.RENAME,
                            Rows.ts(2006)),
                    RowChange.insert(renamed, new Object[]{4L, new BigDecimal("4.5"), "four"}, Rows.ts(2007)),
                    RowChange.delete(renamed, new Object[]{1L, new BigDecimal("1.50"), null}, Rows.ts(2008)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("2", "2.500", ""), List.of("3", "3.500", "three"), List.of("4", "4.500", "four")),
                target.query("SELECT id::text, amount::text, COALESCE(note, '') FROM dst.orders_v2 ORDER BY id"));
        try (TaskDriver driver = new TaskDriver(settings(Map.of("safe.mode", "never")))) {
            driver.put(new DdlChange("src", "orders_v2", "TRUNCATE TABLE orders_v2", DdlChange.Kind.TRUNCATE,
                    Rows.ts(2100)), RowChange.insert(renamed, new Object[]{9L, BigDecimal.ONE, "nine"}, Rows.ts(2101)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("9")), target.query("SELECT id::text FROM dst.orders_v2"));
    }

    @Test
    void aStatementWithoutTranslationFailsOrIsSkippedAsConfigured() throws Exception {
        // partition maintenance: MySQL-only, no translation
        DdlChange view = new DdlChange("src", "after_view", "ALTER TABLE after_view COALESCE PARTITION 2",
                DdlChange.Kind.ALTER, Rows.ts(3003));
        TableInfo t = TableInfo.of("src", "after_view", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));
        DdlChange create = new DdlChange("src", "after_view", "CREATE TABLE after_view (id BIGINT PRIMARY KEY)",
                DdlChange.Kind.CREATE, Rows.ts(3001));
        try (TaskDriver driver = new TaskDriver(settings(Map.of("ddl.apply", "all", "ddl.unsupported", "skip")))) {
            driver.put(create, RowChange.insert(t, new Object[]{1L}, Rows.ts(3002)), view);
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("1")), target.query("SELECT id::text FROM dst.after_view"));
        assertEquals(List.of(List.of("1")), target.query("SELECT id::text FROM dst.after_view"),
                "the skipped statement changed nothing");
        try (TaskDriver driver = new TaskDriver(settings(Map.of("ddl.apply", "all", "ddl.unsupported", "fail")))) {
            Throwable e = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class, () -> {
                driver.put(view);
                driver.awaitApplied();
            });
            String m = String.valueOf(e.getMessage()) + " " + (e.getCause() == null ? "" : e.getCause().getMessage());
            assertTrue(m.contains("ddl.unsupported") && m.contains("COALESCE PARTITION"), m);
        }
    }
}
