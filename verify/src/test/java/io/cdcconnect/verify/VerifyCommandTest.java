package io.cdcconnect.verify;

import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cdc-verify as a user runs it (its {@code main} without System.exit), against an embedded MariaDB 11.4 (source, and a
 * MySQL-family target) and an embedded PostgreSQL 17 (target, with the types the sink's PostgreSQL dialect creates for
 * MySQL's). Servers are shared by the class; each test works in databases of its own.
 */
class VerifyCommandTest {
    static final String ENV = "VERIFY_TEST_PASSWORD";

    static DatabaseServer mariadb;
    static DatabaseServer postgres;
    static TestDatabase up;
    static TestDatabase downMaria;
    static TestDatabase downPg;

    /** Every type with a cross-database rule: unsigned BIGINT key, DECIMAL, DATETIME, TIMESTAMP, TIME, BIT, JSON, bytes... */
    static final String MARIADB_TABLE = "CREATE TABLE t (id BIGINT UNSIGNED PRIMARY KEY, dec_v DECIMAL(12,4), "
            + "dt DATETIME(6), ts TIMESTAMP(3) NULL, d DATE, tm TIME(2), b BIT(5), bin VARBINARY(8), s VARCHAR(20), "
            + "c CHAR(5), j JSON, f FLOAT, dbl DOUBLE, flag TINYINT(1), y YEAR, e ENUM('x','y'))";
    /** The same table as PostgresTypes translates it. */
    static final String POSTGRES_TABLE = "CREATE TABLE t (id numeric(20,0) PRIMARY KEY, dec_v numeric(12,4), "
            + "dt timestamp(6) without time zone, ts timestamptz(3), d date, tm interval, b bit(5), bin bytea, "
            + "s varchar(20), c char(5), j jsonb, f real, dbl double precision, flag smallint, y smallint, e text)";
    static final String COLUMNS = "(id, dec_v, dt, ts, d, tm, b, bin, s, c, j, f, dbl, flag, y, e)";
    static final int ROWS = 12;
    static final String MAX_UNSIGNED = "18446744073709551615";

    @BeforeAll
    static void servers() throws Exception {
        mariadb = TestServers.database(DatabaseSpec.mariadb("11.4").withoutBinlog());
        postgres = TestServers.postgres();
        up = new TestDatabase(mariadb, "verify_up");
        downMaria = new TestDatabase(mariadb, "verify_down");
        downPg = new TestDatabase(postgres, "verify_down");
        up.exec(MARIADB_TABLE);
        downMaria.exec(MARIADB_TABLE);
        downPg.exec(POSTGRES_TABLE);
        fill(up, false);
        fill(downMaria, false);
        fill(downPg, true);
    }

    /** Table t with the same {@link #ROWS} rows on every side (the last one keyed by the unsigned maximum). */
    static void fill(TestDatabase db, boolean pg) throws Exception {
        db.exec("DELETE FROM t");
        for (int i = 1; i <= ROWS; i++) {
            String id = i == ROWS ? MAX_UNSIGNED : Integer.toString(i);
            String ts = pg ? "'2024-05-06 07:08:09.123+00'" : "'2024-05-06 07:08:09.123'";
            String bits = pg ? "B'10101', '\\x00ff10'" : "b'10101', x'00ff10'";
            db.exec("INSERT INTO t " + COLUMNS + " VALUES (" + id + ", 1.5, '2024-01-02 03:04:05.00000" + (i % 10)
                    + "', " + ts + ", '2024-02-29', '-12:34:56.5', " + bits + ", 's" + i + "', 'ab', "
                    + "'{\"b\": " + i + ", \"a\": [1, 2]}', 1.25, 0.1, 1, 2024, 'y')");
        }
    }

    @AfterAll
    static void drop() throws Exception {
        for (TestDatabase db : new TestDatabase[] {up, downMaria, downPg}) {
            if (db != null) db.close();
        }
    }

    @Test
    void equalTablesExitZeroOnBothTargetFamilies() throws Exception {
        Run maria = verify(downMariaUrl(), "--schema-map", up.name() + "=" + downMaria.name());
        assertEquals(0, maria.status, maria.text());
        assertTrue(maria.out.contains("RESULT: equal, 1 table"), maria.text());

        Run pg = verify(downPg.jdbcUrl(), "--schema-map", up.name() + "=public", "--chunk-size", "5");
        assertEquals(0, pg.status, pg.text());
        assertTrue(pg.out.contains(String.format("%,d", ROWS)), pg.text());
    }

    @Test
    void mariaDbToPostgresDifferencesAreNamedByKeyAndColumn() throws Exception {
        try {
            downPg.exec("DELETE FROM t WHERE id = 2",
                    "INSERT INTO t " + COLUMNS + " SELECT 1000, dec_v, dt, ts, d, tm, b, bin, s, c, j, f, dbl, flag, y, e FROM t WHERE id = 1",
                    "UPDATE t SET s = 'changed' WHERE id = 3",
                    "UPDATE t SET dec_v = 1.5001 WHERE id = 5",
                    "UPDATE t SET dt = dt + interval '1 microsecond' WHERE id = 6",
                    "UPDATE t SET bin = '\\x00ff11' WHERE id = 7",
                    "UPDATE t SET ts = ts + interval '1 second' WHERE id = " + MAX_UNSIGNED);
            up.exec("UPDATE t SET s = NULL WHERE id = 4");
            downPg.exec("UPDATE t SET s = '' WHERE id = 4");
            // chunks of 3 rows: the differences fall in several chunks, and the last bound is the unsigned maximum
            Run run = verify(downPg.jdbcUrl(), "--schema-map", up.name() + "=public", "--chunk-size", "3", "--threads", "2");
            assertEquals(1, run.status, run.text());
            assertEquals(List.of("missing downstream: id=2", "extra downstream: id=1000",
                    "different: id=3 (s: 's3' ≠ 'changed')", "different: id=4 (s: NULL ≠ '')",
                    "different: id=5 (dec_v: 1.5 ≠ 1.5001)",
                    "different: id=6 (dt: '2024-01-02 03:04:05.000006' ≠ '2024-01-02 03:04:05.000007')",
                    "different: id=7 (bin: 0x00ff10 ≠ 0x00ff11)",
                    "different: id=" + MAX_UNSIGNED + " (ts: '2024-05-06 07:08:09.123' ≠ '2024-05-06 07:08:10.123')"),
                    sortedDifferences(run.out), run.text());
            assertTrue(run.out.contains("1 missing downstream, 1 extra downstream, 6 different"), run.text());

            // --where narrows both sides alike: without the differing keys the rest is equal
            Run narrowed = verify(downPg.jdbcUrl(), "--schema-map", up.name() + "=public", "--chunk-size", "3",
                    "--where", "id NOT IN (2, 3, 4, 5, 6, 7, 1000, " + MAX_UNSIGNED + ")");
            assertEquals(0, narrowed.status, narrowed.text());
            assertTrue(narrowed.out.matches("(?s).*public\\.t +5 +5 .*"), narrowed.text()); // ids 1, 8, 9, 10, 11
        } finally {
            fill(up, false);
            fill(downPg, true);
        }
    }

    @Test
    void mysqlFamilyTargetDifferencesAndAMissingTable() throws Exception {
        try {
            downMaria.exec("DELETE FROM t WHERE id = 8", "UPDATE t SET c = 'abc' WHERE id = 9");
            up.exec("CREATE TABLE u (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO u VALUES (1, 'a'), (2, 'b')");
            Run run = verify(downMariaUrl(), "--schema-map", up.name() + "=" + downMaria.name(), "--chunk-size", "4");
            assertEquals(1, run.status, run.text());
            assertEquals(List.of("missing downstream: id=8", "different: id=9 (c: 'ab' ≠ 'abc')"),
                    sortedDifferences(run.out), run.text());
            assertTrue(run.out.contains("table missing downstream"), run.text());
        } finally {
            up.exec("DROP TABLE u");
            fill(downMaria, false);
        }
    }

    @Test
    void textKeysTheSidesCollateDifferentlyAreComparedAsOneChunk() throws Exception {
        // MariaDB's utf8mb4_general_ci orders 'B' between 'a' and 'c'; PostgreSQL (collation "C") puts it first
        up.exec("CREATE TABLE names (k VARCHAR(10) PRIMARY KEY, v INT)",
                "INSERT INTO names VALUES ('a', 1), ('B', 2), ('c', 3), ('D', 4), ('e', 5)");
        downPg.exec("CREATE TABLE names (k varchar(10) COLLATE \"C\" PRIMARY KEY, v integer)",
                "INSERT INTO names VALUES ('a', 1), ('B', 2), ('c', 3), ('D', 4), ('e', 55)");
        try {
            Run run = verify(downPg.jdbcUrl(), "--schema-map", up.name() + "=public", "--chunk-size", "1",
                    "--tables", up.name() + ".names");
            assertEquals(1, run.status, run.text());
            assertEquals(List.of("different: k='e' (v: 5 ≠ 55)"), sortedDifferences(run.out), run.text());
            assertTrue(run.out.contains("note: compared as one chunk"), run.text());
        } finally {
            up.exec("DROP TABLE names");
            downPg.exec("DROP TABLE names");
        }
    }

    @Test
    void aWrongPasswordExitsTwoWithoutPrintingIt() throws Exception {
        String secret = "Wr0ng-Secret-" + System.nanoTime();
        Map<String, String> env = new HashMap<>();
        env.put(ENV, secret);
        Run run = run(env, "--source-url", jdbcUrl(mariadb, up.name()), "--source-user", mariadb.user(),
                "--source-password-env", ENV, "--target-url", downPg.jdbcUrl(), "--target-user", postgres.user(),
                "--target-password-env", ENV, "--tables", up.name() + ".t");
        assertEquals(2, run.status, run.text());
        assertTrue(run.err.contains("cannot connect"), run.text());
        assertFalse(run.text().contains(secret), run.text());
    }

    @Test
    void aTableWithoutKeyOrAPasswordOnTheCommandLineIsAnError() throws Exception {
        up.exec("CREATE TABLE nokey (v INT)");
        downMaria.exec("CREATE TABLE nokey (v INT)");
        try {
            Run run = verify(downMariaUrl(), "--schema-map", up.name() + "=" + downMaria.name(), "--tables", up.name() + ".nokey");
            assertEquals(2, run.status, run.text());
            assertTrue(run.out.contains("no primary key"), run.text());
        } finally {
            up.exec("DROP TABLE nokey");
            downMaria.exec("DROP TABLE nokey");
        }
        Run cli = run(Map.of(), "--source-url", "jdbc:mysql://h/", "--source-password", "x", "--target-url", "jdbc:mysql://h/",
                "--tables", "a.b");
        assertEquals(2, cli.status);
        assertTrue(cli.err.contains("--source-password-env"), cli.text());
    }

    // --- helpers

    record Run(int status, String out, String err) {
        String text() {
            return "exit " + status + "\n" + out + err;
        }
    }

    static String downMariaUrl() {
        return jdbcUrl(mariadb, downMaria.name());
    }

    /** A plain URL, as a user would write it (the verifier adds its own session settings). */
    static String jdbcUrl(DatabaseServer s, String db) {
        return "jdbc:mysql://" + s.host() + ":" + s.port() + "/" + db + "?useSSL=false&allowPublicKeyRetrieval=true";
    }

    /** cdc-verify from {@code up.t} (unless --tables is given) into {@code targetUrl}. */
    static Run verify(String targetUrl, String... more) {
        boolean pg = targetUrl.startsWith("jdbc:postgresql:");
        Map<String, String> env = new HashMap<>();
        env.put("CDC_VERIFY_SOURCE_PASSWORD", mariadb.password());
        env.put("CDC_VERIFY_TARGET_PASSWORD", (pg ? postgres : mariadb).password());
        List<String> args = new ArrayList<>(List.of("--source-url", jdbcUrl(mariadb, up.name()), "--source-user",
                mariadb.user(), "--target-url", targetUrl, "--target-user", (pg ? postgres : mariadb).user()));
        args.addAll(List.of(more));
        if (!args.contains("--tables")) args.addAll(List.of("--tables", up.name() + ".*"));
        return run(env, args.toArray(String[]::new));
    }

    static Run run(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = VerifyCommand.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        Run r = new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        System.out.println(r.text());
        return r;
    }

    private static final Pattern DIFFERENCE = Pattern.compile("^    ((?:missing|extra) downstream|different): .*$", Pattern.MULTILINE);

    /** The listed differences: missing, extra, then different, each kind sorted. */
    static List<String> sortedDifferences(String out) {
        List<String> lines = new ArrayList<>();
        Matcher m = DIFFERENCE.matcher(out);
        while (m.find()) lines.add(m.group().trim());
        lines.sort((a, b) -> {
            int ka = kind(a), kb = kind(b);
            return ka != kb ? Integer.compare(ka, kb) : naturalKey(a).compareTo(naturalKey(b));
        });
        return lines;
    }

    private static int kind(String line) {
        return line.startsWith("missing") ? 0 : line.startsWith("extra") ? 1 : 2;
    }

    private static String naturalKey(String line) {
        Matcher m = Pattern.compile("id=(\\d+)").matcher(line);
        return m.find() ? String.format("%030d", new java.math.BigInteger(m.group(1))) : line;
    }
}
