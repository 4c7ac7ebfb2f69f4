package io.cdcconnect.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

    @Test
    void helpAndVersionExitZeroAndNameEveryOption() {
        for (String help : List.of("--help", "-h")) {
            Run run = run(Map.of(), help);
            assertEquals(0, run.status, run.text());
            for (String option : List.of("--source-url", "--source-user", "--source-password-env", "--source-password-file",
                    "--source-password", "--target-url", "--target-user", "--target-password-env", "--target-password-file",
                    "--target-password", "--tables", "--schema-map", "--chunk-size", "--threads", "--where", "--show",
                    "--progress-seconds", "--output", "--version")) {
                assertTrue(run.out.contains(option + " ") || run.out.contains(option + "="), option + " in\n" + run.out);
            }
            assertTrue(run.out.contains("Exit status: 0 equal, 1 different, 2 error."), run.out);
            assertTrue(run.out.contains("rows per chunk (default 10000)"), run.out);
        }
        Run version = run(Map.of(), "--version");
        assertEquals(0, version.status, version.text());
        // from target/classes there is no manifest; VerifyArchiveTest checks the released jar's version
        assertEquals("cdc-verify " + VerifyCommand.version(), version.out.lines().findFirst().orElseThrow());
        assertTrue(version.out.contains("Java " + System.getProperty("java.version")), version.out);
    }

    @Test
    void badOptionsExitTwoWithTheUsage() {
        Run missing = run(Map.of(), "--source-url", "jdbc:mysql://h/", "--tables", "a.b");
        assertEquals(2, missing.status, missing.text());
        assertTrue(missing.err.contains("--target-url"), missing.text());
        assertTrue(missing.err.contains("Usage: cdc-verify"), missing.text());
        Run notANumber = run(Map.of(), "--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/",
                "--tables", "a.b", "--chunk-size", "many");
        assertEquals(2, notANumber.status, notANumber.text());
        assertTrue(notANumber.err.contains("--chunk-size"), notANumber.text());
        Run zero = run(Map.of(), "--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/",
                "--tables", "a.b", "--threads", "0");
        assertEquals(2, zero.status, zero.text());
        assertTrue(zero.err.contains("--threads must be at least 1, got 0"), zero.text());
        Run unknown = run(Map.of(), "--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/",
                "--tables", "a.b", "--colour");
        assertEquals(2, unknown.status, unknown.text());
        assertTrue(unknown.err.contains("--colour"), unknown.text());
        Run twoWays = run(Map.of("V", "x"), "--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/",
                "--tables", "a.b", "--source-password", "--source-password-env", "V");
        assertEquals(2, twoWays.status, twoWays.text());
        assertTrue(twoWays.err.contains("give the source password one way"), twoWays.text());
        Run inline = run(Map.of(), "--source-url", "jdbc:mysql://h/", "--target-url", "jdbc:mysql://h/",
                "--tables", "a.b", "--target-password=hunter2");
        assertEquals(2, inline.status, inline.text());
        assertTrue(inline.err.contains("--target-password-file"), inline.text());
        assertFalse(inline.text().contains("hunter2"), inline.text());
    }

    @Test
    void jsonOutputNamesTablesRowsAndDifferencesByKeyAndColumn() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        Run equal = verify(downPg.jdbcUrl(), "--schema-map", up.name() + "=public", "--output", "json");
        assertEquals(0, equal.status, equal.text());
        JsonNode e = mapper.readTree(equal.out); // the whole of stdout is the document
        assertEquals(0, e.path("exitStatus").asInt(-1));
        assertEquals("equal", e.path("result").asText());
        assertEquals("cdc-verify", e.path("tool").asText());
        assertEquals(VerifyCommand.version(), e.path("version").asText());
        assertEquals(downPg.jdbcUrl(), e.path("target").path("url").asText());
        assertEquals(postgres.user(), e.path("target").path("user").asText());
        assertTrue(e.path("targetServer").asText().startsWith("PostgreSQL"), e.toString());
        assertEquals(1, e.path("tables").size());
        assertEquals(ROWS, e.path("tables").path(0).path("rowsUpstream").asLong());
        assertEquals(ROWS, e.path("tables").path(0).path("rowsDownstream").asLong());
        assertEquals("equal", e.path("tables").path(0).path("result").asText());
        assertEquals(0, e.path("tables").path(0).path("differences").size());
        try {
            downPg.exec("DELETE FROM t WHERE id = 2", "UPDATE t SET s = 'changed \"q\"', dec_v = 2.5 WHERE id = 3");
            Run diff = verify(downPg.jdbcUrl(), "--schema-map", up.name() + "=public", "--output", "json", "--chunk-size", "4");
            assertEquals(1, diff.status, diff.text());
            JsonNode d = mapper.readTree(diff.out);
            assertEquals(1, d.path("exitStatus").asInt(-1));
            assertEquals("different", d.path("result").asText());
            JsonNode t = d.path("tables").path(0);
            assertEquals(up.name() + ".t", t.path("source").asText());
            assertEquals("public.t", t.path("target").asText());
            assertEquals("different", t.path("result").asText());
            assertEquals(ROWS, t.path("rowsUpstream").asLong());
            assertEquals(ROWS - 1, t.path("rowsDownstream").asLong());
            assertEquals(1, t.path("missingDownstream").asLong());
            assertEquals(0, t.path("extraDownstream").asLong());
            assertEquals(1, t.path("differentRows").asLong());
            assertEquals(2, t.path("differences").size(), t.toString());
            JsonNode missing = t.path("differences").path(0);
            assertEquals("missing downstream", missing.path("kind").asText());
            assertEquals("id=2", missing.path("key").asText());
            JsonNode changed = t.path("differences").path(1);
            assertEquals("different", changed.path("kind").asText());
            assertEquals("id=3", changed.path("key").asText());
            List<String> columns = new ArrayList<>();
            for (JsonNode c : changed.path("columns")) {
                columns.add(c.path("column").asText() + "|" + c.path("upstream").asText() + "|" + c.path("downstream").asText());
            }
            assertEquals(List.of("dec_v|1.5|2.5", "s|'s3'|'changed \"q\"'"), columns.stream().sorted().toList());
        } finally {
            fill(downPg, true);
        }
    }

    @Test
    void jsonOutputOfARunThatCannotConnectCarriesTheErrorNotThePassword() throws Exception {
        String secret = "Wr0ng-\"Secret-" + System.nanoTime();
        Run run = run(Map.of(ENV, secret), "--source-url", jdbcUrl(mariadb, up.name()), "--source-user", mariadb.user(),
                "--source-password-env", ENV, "--target-url", downPg.jdbcUrl(), "--target-user", postgres.user(),
                "--target-password-env", ENV, "--tables", up.name() + ".t", "--output", "JSON");
        assertEquals(2, run.status, run.text());
        JsonNode j = new ObjectMapper().readTree(run.out);
        assertEquals(2, j.path("exitStatus").asInt(-1));
        assertEquals("error", j.path("result").asText());
        assertTrue(j.path("error").asText().contains("cannot connect"), j.toString());
        assertFalse(run.text().contains(secret), run.text());
    }

    @Test
    void passwordsCanBeTypedAtAPrompt() {
        List<String> asked = new ArrayList<>();
        VerifyCommand.Prompt prompt = text -> {
            asked.add(text);
            return (text.startsWith("source") ? mariadb : postgres).password().toCharArray();
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = VerifyCommand.run(new String[] {"--source-url", jdbcUrl(mariadb, up.name()), "--source-user",
                mariadb.user(), "--source-password", "--target-url", downPg.jdbcUrl(), "--target-user", postgres.user(),
                "--target-password", "--tables", up.name() + ".t", "--schema-map", up.name() + "=public"}, Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), prompt);
        String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text);
        assertEquals(List.of("source password: ", "target password: "), asked);
        assertFalse(text.contains(mariadb.password()) && !mariadb.password().isEmpty(), text);
    }

    @Test
    void withoutATerminalThePromptReadsOneLineOfStandardInputPerPassword() {
        InputStream stdin = System.in;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setIn(new ByteArrayInputStream("first secret\nsecond\n".getBytes(StandardCharsets.UTF_8)));
            VerifyCommand.Prompt prompt = VerifyCommand.terminalPrompt(new PrintStream(err, true, StandardCharsets.UTF_8));
            assertNull(System.console(), "the test runs without a terminal");
            assertArrayEquals("first secret".toCharArray(), prompt.readPassword("source password: "));
            assertArrayEquals("second".toCharArray(), prompt.readPassword("target password: "));
            assertNull(prompt.readPassword("more: "));
            assertEquals("source password: target password: more: ", err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setIn(stdin);
        }
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
