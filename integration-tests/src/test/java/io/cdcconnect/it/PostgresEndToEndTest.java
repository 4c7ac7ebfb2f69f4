package io.cdcconnect.it;

import io.cdcconnect.testsupport.Closeables;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.testsupport.servers.TestServers;
import io.cdcconnect.verify.Endpoint;
import io.cdcconnect.verify.Summary;
import io.cdcconnect.verify.Verifier;
import io.cdcconnect.verify.VerifyReport;
import io.cdcconnect.verify.VerifyRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The whole pipeline into PostgreSQL: MariaDB 11.4 → our source (Debezium's binlog reader) → Kafka, Canal-JSON →
 * our sink in a real Connect worker → a PostgreSQL the test starts. The sink creates the tables from the snapshot's
 * MySQL DDL, translated; rows of the snapshot and of the binlog follow, with key updates, deletes, an ADD COLUMN, a
 * MODIFY COLUMN and a TRUNCATE in the middle of the stream. Every row is compared, source against target. ENUM and
 * SET values arrive as indexes (Canal-JSON's default mode names only the type): the sink names them from the
 * definition its translated CREATE TABLE recorded in the column's comment.
 */
class PostgresEndToEndTest {

    private static final String SCHEMA = "replica";
    private static Pipeline pipeline;
    private static TestDatabase target;

    /** Each table's rows as text, MariaDB's side: the same text as {@link #PG} gives for the same values. */
    private static final Map<String, String> MARIADB = Map.of(
            "accounts", "SELECT CAST(id AS CHAR), name, CAST(balance AS CHAR), "
                    + "DATE_FORMAT(opened, '%Y-%m-%d %H:%i:%s.%f'), LPAD(BIN(flags), 4, '0'), notes, HEX(photo), kind, tags, "
                    + "CAST(tier AS CHAR) FROM accounts ORDER BY id",
            "events", "SELECT CAST(id AS CHAR), CAST(account AS CHAR), DATE_FORMAT(at, '%Y-%m-%d %H:%i:%s.%f'), "
                    + "CAST(amount AS CHAR) FROM events ORDER BY id");
    private static final Map<String, String> PG = Map.of(
            "accounts", "SELECT id::text, name, balance::text, to_char(opened, 'YYYY-MM-DD HH24:MI:SS.US'), "
                    + "flags::text, notes, upper(encode(photo, 'hex')), kind, tags, tier::text FROM replica.accounts ORDER BY accounts.id",
            "events", "SELECT id::text, account::text, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'), "
                    + "amount::text FROM replica.events ORDER BY events.id");

    @BeforeAll
    static void startPipeline() throws Exception {
        DatabaseServer pg = TestServers.database(DatabaseSpec.postgres());
        target = new TestDatabase(pg, "pg_e2e");
        pipeline = Pipeline.start(Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("postgres"),
                "pgsrc", null);
        pipeline.createSchemas(List.of(), List.of(
                "CREATE TABLE accounts (id BIGINT UNSIGNED NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, "
                        + "balance DECIMAL(12,2) NOT NULL, opened DATETIME(3) NULL, flags BIT(4) NULL, notes TEXT NULL, "
                        + "photo BLOB NULL, kind ENUM('basic','gold') NOT NULL DEFAULT 'basic', tags SET('a','b','c') NULL) "
                        + "DEFAULT CHARSET utf8mb4",
                "CREATE TABLE events (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, account BIGINT UNSIGNED NOT NULL, "
                        + "at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), amount INT NOT NULL, "
                        + "KEY by_account (account))"), false);
        pipeline.putConfigValue("TARGET_HOST", pg.host());
        pipeline.putConfigValue("TARGET_PORT", Integer.toString(pg.port()));
        pipeline.putConfigValue("TARGET_USER", pg.user());
        pipeline.putConfigValue("TARGET_PASSWORD", pg.password() == null ? "" : pg.password());
        pipeline.putConfigValue("TARGET_DATABASE", target.name());
        pipeline.putConfigValue("TARGET_SCHEMA", SCHEMA);
    }

    @AfterAll
    static void stop() throws Exception {
        Closeables.closeAll(pipeline, target);
    }

    @Test
    void everyRowArrivesInPostgresThroughSnapshotStreamAndDdl() throws Exception {
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO accounts (id, name, balance, opened, flags, notes, photo, kind, tags) VALUES "
                    + "(1, 'ann', 10.50, '2024-01-31 23:59:59.125', b'1010', 'ünïcödé 😀', x'00FF10', 'gold', 'a,c'), "
                    + "(2, 'bob', -3.00, NULL, NULL, NULL, NULL, 'basic', NULL), "
                    + "(18446744073709551615, 'max', 0.01, '1000-01-01 00:00:00.000', b'1111', '', x'', 'basic', '')");
            for (int i = 0; i < 200; i++) {
                s.execute("INSERT INTO events (account, at, amount) VALUES (" + (1 + i % 2) + ", "
                        + "'2024-03-01 10:00:00.000001' + INTERVAL " + i + " SECOND, " + i + ")");
            }
        }
        pipeline.registerSource("source-mariadb.json", 1);
        pipeline.registerSink("sink-postgres.json", 1);
        // the snapshot first: DDL during it would make Debezium's snapshot read fail ("table definition has changed")
        awaitTargetCount("SELECT (SELECT count(*) FROM replica.accounts) + (SELECT count(*) FROM replica.events)", 203);
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            s.execute("UPDATE accounts SET id = 1002, balance = balance + 1 WHERE id = 2");
            s.execute("DELETE FROM events WHERE amount % 10 = 0");
            s.execute("ALTER TABLE accounts ADD COLUMN tier INT NOT NULL DEFAULT 1");
            s.execute("INSERT INTO accounts (id, name, balance, kind, tags, tier) VALUES (3, 'cy', 7.77, 'gold', 'b', 3)");
            s.execute("UPDATE accounts SET tier = 2, notes = 'upgraded' WHERE id = 1");
            s.execute("ALTER TABLE events MODIFY COLUMN amount BIGINT NOT NULL");
            s.execute("INSERT INTO events (account, at, amount) VALUES (3, '2038-01-19 03:14:07.999999', "
                    + "9007199254740993)");
            s.execute("START TRANSACTION");
            s.execute("INSERT INTO accounts (id, name, balance) VALUES (4, 'dee', 1.00)");
            s.execute("UPDATE accounts SET id = 5 WHERE id = 4");
            s.execute("DELETE FROM accounts WHERE id = 18446744073709551615");
            s.execute("COMMIT");
        }
        awaitEqual("after snapshot, updates, deletes and DDL");
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE TABLE events");
            s.execute("INSERT INTO events (account, at, amount) VALUES (5, '2025-05-05 05:05:05.5', 5)");
        }
        awaitEqual("after TRUNCATE");
        assertEquals(List.of(List.of("1")), query(PG.get("events").replace("SELECT id::text, account::text,",
                "SELECT count(*)::text FROM (SELECT id, account,") + ") x"));

        // cdc-verify, the command users run, agrees across the two engines (its own value rules, not this test's
        // casts), and names a value changed downstream by key and column
        Endpoint up = new Endpoint(pipeline.source().jdbcUrl(pipeline.sourceDb()), pipeline.source().user(),
                pipeline.source().password());
        Endpoint down = new Endpoint(target.jdbcUrl(), target.server().user(), target.server().password());
        VerifyRequest request = VerifyRequest.of(up, down, List.of(pipeline.sourceDb() + ".*"),
                Map.of(pipeline.sourceDb(), SCHEMA)).withChunkSize(2);
        VerifyReport equal = Verifier.run(request, null);
        assertEquals(VerifyReport.EQUAL, equal.exitStatus(), String.join("\n", Summary.lines(equal)));
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute("UPDATE replica.accounts SET notes = 'changed downstream' WHERE id = 1");
        }
        VerifyReport changed = Verifier.run(request, null);
        assertEquals(VerifyReport.DIFFERENT, changed.exitStatus(), String.join("\n", Summary.lines(changed)));
        assertEquals("[different: id=1 (notes: 'upgraded' ≠ 'changed downstream')]",
                changed.table("accounts").differences().toString());
    }

    private static void awaitEqual(String when) throws Exception {
        long deadline = System.nanoTime() + 180_000_000_000L;
        Map<String, List<List<String>>> src = Map.of();
        Map<String, List<List<String>>> dst = Map.of();
        while (System.nanoTime() < deadline) {
            pipeline.connect().assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
            src = readAll(true);
            try {
                dst = readAll(false);
            } catch (SQLException e) {
                dst = Map.of(); // the tables may not exist downstream yet
            }
            if (src.equals(dst)) return;
            Thread.sleep(1000);
        }
        assertEquals(src, dst, "rows " + when + " (source MariaDB vs target PostgreSQL)");
    }

    private static void awaitTargetCount(String sql, long expected) throws Exception {
        long deadline = System.nanoTime() + 180_000_000_000L;
        String seen = "nothing";
        while (System.nanoTime() < deadline) {
            pipeline.connect().assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
            try {
                seen = query(sql).get(0).get(0);
                if (Long.parseLong(seen) == expected) return;
            } catch (SQLException e) {
                seen = e.getMessage(); // the tables may not exist downstream yet
            }
            Thread.sleep(500);
        }
        assertEquals(Long.toString(expected), seen, sql);
    }

    private static Map<String, List<List<String>>> readAll(boolean source) throws SQLException {
        Map<String, List<List<String>>> out = new java.util.TreeMap<>();
        for (String table : MARIADB.keySet()) {
            String sql = (source ? MARIADB : PG).get(table);
            if (source) {
                try (Connection c = pipeline.sourceConnection()) {
                    out.put(table, rows(c, sql));
                }
            } else {
                out.put(table, query(sql));
            }
        }
        return out;
    }

    private static List<List<String>> query(String sql) throws SQLException {
        try (Connection c = target.connect()) {
            return rows(c, sql);
        }
    }

    private static List<List<String>> rows(Connection c, String sql) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) row.add(rs.getString(i));
                out.add(row);
            }
        }
        return out;
    }
}
