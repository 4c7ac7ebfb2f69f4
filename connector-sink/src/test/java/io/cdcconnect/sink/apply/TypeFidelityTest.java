package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every type of the model, through Canal-JSON (the codec's encoder and decoder) and the sink task, into the real
 * MariaDB 10.11, read back exactly; {@link TypeFidelityMySql8Test} runs the same into MySQL 8.0.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TypeFidelityTest {

    private static final String DDL = "CREATE TABLE types ("
            + "id INT PRIMARY KEY, u64 BIGINT UNSIGNED, i64 BIGINT, i8 TINYINT, u8 TINYINT UNSIGNED, i16 SMALLINT, "
            + "i24 MEDIUMINT, u32 INT UNSIGNED, d65 DECIMAL(65,30), f FLOAT, dbl DOUBLE, dt6 DATETIME(6), "
            + "ts6 TIMESTAMP(6) NULL, dte DATE, tm TIME(3), yr YEAR, b64 BIT(64), b3 BIT(3), j JSON, "
            + "bin VARBINARY(256), blb BLOB, txt TEXT, vc VARCHAR(50), ch CHAR(5), e ENUM('a','b','c'), "
            + "s SET('x','y','z')) DEFAULT CHARSET utf8mb4";

    private static final String SELECT = "SELECT id, u64, i64, i8, u8, i16, i24, u32, CAST(d65 AS CHAR), f, CAST(dbl AS CHAR), "
            + "DATE_FORMAT(dt6, '%Y-%m-%d %H:%i:%s.%f'), DATE_FORMAT(ts6, '%Y-%m-%d %H:%i:%s.%f'), "
            + "UNIX_TIMESTAMP(ts6), dte, CAST(tm AS CHAR), CAST(yr AS CHAR), HEX(b64), HEX(b3), j, HEX(bin), HEX(blb), txt, vc, ch, e, s "
            + "FROM types ORDER BY id";

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo table;

    /** The server the rows are applied to. */
    DatabaseServer server() {
        return SinkTarget.server();
    }

    /**
     * Once per class, in the first test rather than a {@code @BeforeAll}: where the server cannot be had, each test is
     * then reported skipped with the reason (an abort in {@code @BeforeAll} leaves surefire's report without them).
     */
    @BeforeEach
    void createTables(TestReporter report) throws Exception {
        if (table != null) return;
        String server = server().describe();
        System.out.println(getClass().getSimpleName() + ": target " + server);
        report.publishEntry("target server", server);
        source = new TestDatabase(server(), "fidelity_src");
        target = new TestDatabase(server(), "fidelity_dst");
        target.exec(DDL);
        int u = ColumnFlags.UNSIGNED;
        int n = ColumnFlags.NULLABLE;
        int b = ColumnFlags.BINARY | n;
        table = TableInfo.of(source.name(), "types", List.of(
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
                new ColumnInfo("e", MySqlType.ENUM, n, null, -1, -1, -1, List.of("a", "b", "c"), null),
                new ColumnInfo("s", MySqlType.SET, n, null, -1, -1, -1, List.of("x", "y", "z"), null)));
    }

    @AfterAll
    void dropTables() throws Exception {
        if (source != null) source.close();
        if (target != null) target.close();
    }

    private static byte[] allBytes() {
        byte[] b = new byte[256];
        for (int i = 0; i < 256; i++) b[i] = (byte) i;
        return b;
    }

    @Test
    void everyTypeArrivesExactly() throws Exception {
        target.exec("DELETE FROM types");
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
        try (TaskDriver driver = new TaskDriver(server(), Map.of("schema.map", source.name() + "=" + target.name(),
                "safe.mode", "always"))) {
            driver.put(RowChange.insert(table, extremes, Rows.ts(1000)), RowChange.insert(table, zeros, Rows.ts(1001)),
                    RowChange.insert(table, nulls, Rows.ts(1002)));
            driver.awaitApplied();
        }
        List<List<String>> rows = target.query(SELECT);
        HexFormat hex = HexFormat.of().withUpperCase();
        assertEquals(List.of("1", "18446744073709551615", "-9223372036854775808", "-128", "255", "-32768", "-8388608",
                "4294967295", "12345678901234567890123456789012345.123456789012345678901234567890", "3.14159",
                "1.7976931348623157e308", "9999-12-31 23:59:59.999999", "2038-01-19 03:14:07.999999",
                "2147483647.999999", "1000-01-01", "-838:59:59.000", "2155", "FFFFFFFFFFFFFFFF", "5",
                "{\"a\": [1, 2, {\"b\": null}], \"é\": \"😀\"}", hex.formatHex(allBytes()), "0000FF275C",
                "😀 four-byte 𝄞 utf8mb4 ñ", "", "abc", "b", "x,z"), rows.get(0));
        assertEquals(Arrays.asList("2", "0", "0", "0", "0", "0", "0", "0", "-0.000000000000000000000000000001",
                "-0.5", "-2.5e-308", "1000-01-01 00:00:00.000001", "1970-01-01 00:00:01.000000", "1.000000",
                "2024-02-29", "00:00:00.001", "1901", "0", "0", "null", "", "", "", null, null, "a", ""), rows.get(1));
        List<String> allNull = new ArrayList<>(Arrays.asList(new String[27]));
        allNull.set(0, "3");
        assertEquals(allNull, rows.get(2));
    }

    @Test
    void largeRowsStayUnderMaxAllowedPacket() throws Exception {
        long maxPacket = Long.parseLong(target.query("SELECT @@max_allowed_packet").get(0).get(0));
        target.exec("CREATE TABLE IF NOT EXISTS big (id BIGINT PRIMARY KEY, payload LONGBLOB)", "DELETE FROM big");
        TableInfo big = TableInfo.of(source.name(), "big", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY),
                ColumnInfo.of("payload", MySqlType.LONG_BLOB, ColumnFlags.BINARY | ColumnFlags.NULLABLE)));
        // 12 rows of an eighth of the packet each: 8 of them in one statement would not fit
        byte[] payload = new byte[(int) (maxPacket / 8)];
        java.util.Arrays.fill(payload, (byte) 0x5a);
        RowChange[] rows = new RowChange[12];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = RowChange.insert(big, new Object[]{(long) i, payload}, Rows.ts(4000));
        }
        try (TaskDriver driver = new TaskDriver(server(), Map.of("schema.map", source.name() + "=" + target.name(),
                "safe.mode", "always"))) {
            driver.put(rows);
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("12", Long.toString(12 * (maxPacket / 8)))),
                target.query("SELECT COUNT(*), SUM(LENGTH(payload)) FROM big"));
    }

    @Test
    void zeroDatesArriveEvenWhereTheServersSqlModeForbidsThem() throws Exception {
        target.exec("DELETE FROM types");
        Object[] row = new Object[table.columnCount()];
        row[0] = 20L;
        row[11] = "0000-00-00 00:00:00.000000";
        row[13] = "2024-00-00";
        // the sink's sessions start with a sql_mode that rejects zero dates, as MySQL 8's default does
        try (TaskDriver driver = new TaskDriver(server(), Map.of("schema.map", source.name() + "=" + target.name(),
                "connection.url", SinkTarget.url(server()) + "?sessionVariables=sql_mode='STRICT_TRANS_TABLES,"
                        + "NO_ZERO_IN_DATE,NO_ZERO_DATE'"))) {
            driver.put(RowChange.insert(table, row, Rows.ts(3000)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("0000-00-00 00:00:00.000000", "2024-00-00")),
                target.query("SELECT CAST(dt6 AS CHAR), CAST(dte AS CHAR) FROM types"));
    }

    @Test
    void timestampsKeepTheirInstantWhenTheServersZoneIsNotUtc() throws Exception {
        target.exec("DELETE FROM types");
        Object[] row = new Object[table.columnCount()];
        row[0] = 11L;
        row[12] = "2024-01-01 00:00:00.250000";
        // sessions start in +05:00, as on a server whose default zone is not UTC; the sink sets its own zone
        try (TaskDriver driver = new TaskDriver(server(), Map.of("schema.map", source.name() + "=" + target.name(),
                "connection.url", SinkTarget.url(server()) + "?sessionVariables=time_zone='%2B05:00'"))) {
            driver.put(RowChange.insert(table, row, Rows.ts(2100)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("1704067200.250000")), target.query("SELECT UNIX_TIMESTAMP(ts6) FROM types"));
    }

    @Test
    void timestampsAreWrittenInTheConfiguredSessionZone() throws Exception {
        target.exec("DELETE FROM types");
        Object[] row = new Object[table.columnCount()];
        row[0] = 10L;
        row[12] = "2024-01-01 08:00:00.000000";
        // the producer wrote its TIMESTAMPs in UTC+8: 08:00 there is 00:00 UTC
        try (TaskDriver driver = new TaskDriver(server(), Map.of("schema.map", source.name() + "=" + target.name(),
                "timestamp.time.zone", "+08:00"))) {
            driver.put(RowChange.insert(table, row, Rows.ts(2000)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("1704067200.000000")), target.query("SELECT UNIX_TIMESTAMP(ts6) FROM types"));
    }
}
