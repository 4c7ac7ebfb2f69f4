package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.metrics.JmxMeters;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.PostgresTarget;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The migration statements users ran into PostgreSQL, applied by the sink to a real PostgreSQL: each statement comes
 * through the task as a source would send it, and the target's catalog is read back.
 */
class PostgresDdlTargetTest {

    private static TestDatabase target;
    private static final AtomicLong TS = new AtomicLong(10_000);

    @BeforeAll
    static void createTarget() throws Exception {
        target = PostgresTarget.database("pg_ddl");
    }

    @AfterAll
    static void dropTarget() throws Exception {
        if (target != null) target.close();
    }

    private static Map<String, String> settings(String... extra) {
        Map<String, String> m = new HashMap<>(Map.of("schema.map", "src=dst", "safe.mode", "always"));
        for (int i = 0; i < extra.length; i += 2) m.put(extra[i], extra[i + 1]);
        return PostgresTarget.sinkSettings(target, m);
    }

    private static DdlChange ddl(String table, String sql) {
        return new DdlChange("src", table, sql, DdlChange.Kind.ALTER, Rows.ts(TS.incrementAndGet()));
    }

    private static void run(ChangeEvent... events) throws Exception {
        try (TaskDriver driver = new TaskDriver(settings())) {
            driver.put(events);
            driver.awaitApplied();
        }
    }

    /** name, type, NOT NULL, default, identity of each column of dst.table. */
    private static List<List<String>> columns(String table) throws Exception {
        return target.query("SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull::text, "
                + "COALESCE(pg_get_expr(d.adbin, d.adrelid), ''), a.attidentity::text, a.attgenerated::text "
                + "FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
                + "WHERE a.attrelid = 'dst." + table + "'::regclass AND a.attnum > 0 AND NOT a.attisdropped "
                + "ORDER BY a.attnum");
    }

    @Test
    void modifyOfAKeyColumnKeepsItNotNullAndRedefinesTheWholeColumn() throws Exception {
        run(ddl("p2", "CREATE TABLE p2 (id INT PRIMARY KEY, v INT DEFAULT 5, n INT NOT NULL, u INT UNSIGNED)"),
                ddl("p2", "ALTER TABLE p2 MODIFY id BIGINT UNSIGNED"),
                // no DEFAULT: the old one goes; no NOT NULL: nullable
                ddl("p2", "ALTER TABLE p2 MODIFY v INT, MODIFY COLUMN n BIGINT, CHANGE u u2 INT UNSIGNED NOT NULL"));
        assertEquals(List.of(
                List.of("id", "numeric(20,0)", "true", "", "", ""),
                List.of("v", "integer", "false", "", "", ""),
                List.of("n", "bigint", "false", "", "", ""),
                List.of("u2", "bigint", "true", "", "", "")), columns("p2"));
        // the widened key holds MySQL's largest BIGINT UNSIGNED
        target.exec("INSERT INTO dst.p2 (id, u2) VALUES (18446744073709551615, 4294967295)");
        // a replay of the same statements is harmless
        run(ddl("p2", "ALTER TABLE p2 MODIFY id BIGINT UNSIGNED"));
        assertEquals("true", columns("p2").get(0).get(2));
    }

    /**
     * The least-privileged setup of docs/migration-mysql-to-postgresql.md (step 2): the sink's user owns the target
     * and control schemas made for it and has no CREATE on the database. PostgreSQL checks that privilege even for
     * CREATE SCHEMA IF NOT EXISTS on a schema that exists, which failed the task at its first control-table read (a
     * user's run from the release archives); the sink now asks the catalog before it creates a schema.
     */
    @Test
    void aUserWithoutCreateOnTheDatabaseWorksInTheSchemasMadeForIt() throws Exception {
        String role = "cdc_least_" + Long.toHexString(System.nanoTime());
        target.exec("CREATE ROLE " + role + " LOGIN PASSWORD 'least-pw'",
                "REVOKE CREATE ON DATABASE " + target.quote(target.name()) + " FROM PUBLIC",
                "CREATE SCHEMA least_dst AUTHORIZATION " + role,
                "CREATE SCHEMA least_ctl AUTHORIZATION " + role);
        try {
            assertTrue(target.query("SELECT has_database_privilege('" + role + "', current_database(), 'CREATE')")
                    .get(0).get(0).startsWith("f"), "the role has no CREATE on the database");
            Map<String, String> s = settings("schema.map", "src=least_dst", "ddl.checkpoint.database", "least_ctl",
                    "connection.user", role, "connection.password", "least-pw");
            try (TaskDriver driver = new TaskDriver(s)) {
                driver.put(new DdlChange("src", "", "CREATE DATABASE IF NOT EXISTS src", DdlChange.Kind.QUERY,
                                Rows.ts(TS.incrementAndGet())),
                        ddl("least", "CREATE TABLE least (id INT PRIMARY KEY, v VARCHAR(10))"),
                        ddl("least", "ALTER TABLE least ADD COLUMN w INT"));
                driver.awaitApplied();
            }
            assertEquals(List.of(List.of("id"), List.of("v"), List.of("w")), target.query(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = 'least_dst' "
                            + "AND table_name = 'least' ORDER BY ordinal_position"));
            assertTrue(Integer.parseInt(target.query("SELECT count(*) FROM information_schema.tables "
                    + "WHERE table_schema = 'least_ctl'").get(0).get(0)) > 0, "the control tables are in least_ctl");
        } finally {
            target.exec("DROP SCHEMA IF EXISTS least_dst CASCADE", "DROP SCHEMA IF EXISTS least_ctl CASCADE",
                    "DROP OWNED BY " + role, "DROP ROLE " + role);
        }
    }

    @Test
    void modifyWithAutoIncrementKeepsTheIdentityAndWithoutItDropsIt() throws Exception {
        target.exec("CREATE SCHEMA IF NOT EXISTS dst",
                "CREATE TABLE dst.ai (id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY)");
        run(ddl("ai", "ALTER TABLE ai MODIFY id BIGINT NOT NULL AUTO_INCREMENT"));
        assertEquals(List.of("id", "bigint", "true", "", "d", ""), columns("ai").get(0));
        target.exec("INSERT INTO dst.ai DEFAULT VALUES");
        run(ddl("ai", "ALTER TABLE ai MODIFY id BIGINT NOT NULL"));
        assertEquals(List.of("id", "bigint", "true", "", "", ""), columns("ai").get(0));
    }

    @Test
    void createTableLikeCopiesTheDefinition() throws Exception {
        run(ddl("orig", "CREATE TABLE orig (id BIGINT NOT NULL, name VARCHAR(20) DEFAULT 'x', PRIMARY KEY (id), "
                        + "KEY k_name (name))"),
                ddl("copy", "CREATE TABLE copy LIKE orig"),
                ddl("copy2", "CREATE TABLE IF NOT EXISTS copy2 (LIKE orig)"));
        assertEquals(columns("orig"), columns("copy"));
        assertEquals(columns("orig"), columns("copy2"));
        assertEquals(List.of(List.of("copy_pkey"), List.of("copy_name_idx")), target.query(
                "SELECT indexname FROM pg_indexes WHERE schemaname = 'dst' AND tablename = 'copy' ORDER BY 1 DESC"));
    }

    @Test
    void aStatementWithoutTranslationReachesTheDeadLetterQueueUnderErrorsToleranceAll() throws Exception {
        TableInfo t = TableInfo.of("src", "dlq", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        try (TaskDriver driver = new TaskDriver(settings("errors.tolerance", "all"), context)) {
            driver.put(ddl("dlq", "CREATE TABLE dlq (id BIGINT PRIMARY KEY)"),
                    ddl("dlq", "ALTER TABLE dlq COALESCE PARTITION 2"),
                    RowChange.insert(t, new Object[]{1L}, Rows.ts(TS.incrementAndGet())));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("1")), target.query("SELECT id::text FROM dst.dlq"),
                "the stream went on after the refused statement");
        List<StandInSinkTaskContext.Report> reports;
        synchronized (context.reports) {
            reports = List.copyOf(context.reports);
        }
        assertEquals(1, reports.size(), reports.toString());
        String m = reports.get(0).error().getMessage();
        assertTrue(m.contains("offset 1") && m.contains("COALESCE PARTITION"), m);
        // without errors.tolerance=all the task fails naming the statement
        try (TaskDriver driver = new TaskDriver(settings())) {
            Throwable e = assertThrows(Throwable.class, () -> {
                driver.put(ddl("dlq", "ALTER TABLE dlq COALESCE PARTITION 2"));
                driver.awaitApplied();
            });
            String all = e + " " + e.getCause();
            assertTrue(all.contains("COALESCE PARTITION") && all.contains("ddl.unsupported"), all);
        }
    }

    @Test
    void ifExistsOnAnAbsentTableIsReportedAsDoingNothing() throws Exception {
        try (TaskDriver driver = new TaskDriver(settings("task.id", "noeffect"))) {
            driver.put(ddl("never_created", "DROP TABLE IF EXISTS never_created"));
            driver.awaitApplied();
            assertEquals(1.0, JmxMeters.read(SinkMetrics.DDL_NO_EFFECT, "driver", "noeffect"));
            driver.put(ddl("made", "CREATE TABLE made (id INT PRIMARY KEY)"));
            driver.awaitApplied();
            assertEquals(1.0, JmxMeters.read(SinkMetrics.DDL_NO_EFFECT, "driver", "noeffect"),
                    "a statement that created something is not counted");
            driver.put(ddl("made", "CREATE TABLE IF NOT EXISTS made (id INT PRIMARY KEY)"));
            driver.awaitApplied();
            assertEquals(2.0, JmxMeters.read(SinkMetrics.DDL_NO_EFFECT, "driver", "noeffect"));
            // an ALTER of a table the stream never created: its guarded statements did nothing either
            driver.put(ddl("never_created", "ALTER TABLE never_created MODIFY v INT, ADD COLUMN w INT"));
            driver.awaitApplied();
            assertEquals(3.0, JmxMeters.read(SinkMetrics.DDL_NO_EFFECT, "driver", "noeffect"));
        }
    }

    private static List<StandInSinkTaskContext.Report> runTolerating(ChangeEvent... events) throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        try (TaskDriver driver = new TaskDriver(settings("errors.tolerance", "all"), context)) {
            driver.put(events);
            driver.awaitApplied();
        }
        synchronized (context.reports) {
            return List.copyOf(context.reports);
        }
    }

    @Test
    void generatedColumnsAreComputedByPostgresAndNeverWritten() throws Exception {
        // the source's rows carry the generated values: flagged as generated (TiCDC) or not (a Debezium envelope)
        TableInfo t = TableInfo.of("src", "gen", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("a", MySqlType.LONG, ColumnFlags.NULLABLE),
                ColumnInfo.of("b", MySqlType.LONG, ColumnFlags.NULLABLE),
                ColumnInfo.of("c", MySqlType.LONG, ColumnFlags.NULLABLE | ColumnFlags.GENERATED),
                ColumnInfo.of("v", MySqlType.LONG, ColumnFlags.NULLABLE)));
        run(ddl("gen", "CREATE TABLE gen (id INT PRIMARY KEY, a INT, b INT, c INT AS (a + b) STORED, "
                        + "v INT GENERATED ALWAYS AS (a * b) VIRTUAL)"),
                RowChange.insert(t, new Object[]{1L, 2L, 3L, 5L, 6L}, Rows.ts(TS.incrementAndGet())),
                RowChange.insert(t, new Object[]{2L, 4L, null, null, null}, Rows.ts(TS.incrementAndGet())),
                RowChange.update(t, new Object[]{1L, 2L, 3L, 5L, 6L}, new Object[]{1L, 10L, 3L, 13L, 30L},
                        Rows.ts(TS.incrementAndGet())),
                ddl("gen", "ALTER TABLE gen ADD COLUMN d INT AS (a - b) STORED, "
                        + "ADD COLUMN e VARCHAR(40) AS (CONCAT(a, '-', IFNULL(b, 0))) STORED"));
        assertEquals(List.of(List.of("1", "13", "30", "7", "10-3"), List.of("2", "", "", "", "4-0")),
                target.query("SELECT id::text, COALESCE(c::text, ''), COALESCE(v::text, ''), COALESCE(d::text, ''), "
                        + "COALESCE(e, '') FROM dst.gen ORDER BY id"));
        assertEquals("s", columns("gen").get(3).get(5));
        // redefining one has no translation: refused, naming it
        List<StandInSinkTaskContext.Report> r = runTolerating(
                ddl("gen", "ALTER TABLE gen MODIFY c BIGINT AS (a + b + 1) STORED"));
        assertEquals(1, r.size());
        assertTrue(r.get(0).error().getMessage().contains("generated column `c`"), r.get(0).error().getMessage());
    }

    @Test
    void checkAndForeignKeyConstraintsHoldAndCanBeDropped() throws Exception {
        run(ddl("parent", "CREATE TABLE parent (id INT PRIMARY KEY)"),
                ddl("child", "CREATE TABLE child (id INT PRIMARY KEY, pid INT, qty INT CHECK (qty > 0), "
                        + "CONSTRAINT fk_p FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE, "
                        + "CHECK (qty < 1000 OR pid IS NULL))"),
                ddl("child", "ALTER TABLE child ADD CONSTRAINT ck_even CHECK (MOD(qty, 2) = 0)"),
                // a replay of the same ALTER does nothing
                ddl("child", "ALTER TABLE child ADD CONSTRAINT ck_even CHECK (MOD(qty, 2) = 0)"));
        target.exec("INSERT INTO dst.parent VALUES (1)", "INSERT INTO dst.child VALUES (1, 1, 4)");
        assertEquals("23514", sqlState("INSERT INTO dst.child VALUES (2, 1, 0)"));
        assertEquals("23514", sqlState("INSERT INTO dst.child VALUES (2, 1, 3)"));
        assertEquals("23514", sqlState("INSERT INTO dst.child VALUES (2, 1, 2000)"));
        assertEquals("23503", sqlState("INSERT INTO dst.child VALUES (2, 7, 2)"));
        target.exec("DELETE FROM dst.parent WHERE id = 1");
        assertEquals(List.of(List.of("0")), target.query("SELECT count(*)::text FROM dst.child"), "ON DELETE CASCADE");
        // MariaDB's JSON column as its SHOW CREATE TABLE writes it: text that is not JSON is refused
        run(ddl("mdoc", "CREATE TABLE mdoc (id INT PRIMARY KEY, doc LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin "
                + "DEFAULT NULL CHECK (json_valid(`doc`)))"));
        target.exec("INSERT INTO dst.mdoc VALUES (1, '{\"a\": 1}'), (2, NULL)");
        assertEquals("22P02", sqlState("INSERT INTO dst.mdoc VALUES (3, '{not json')"));
        run(ddl("child", "ALTER TABLE child DROP CHECK child_chk_1, DROP CHECK ck_even, DROP FOREIGN KEY fk_p"));
        target.exec("INSERT INTO dst.child VALUES (3, 9, -1)");
        assertEquals(List.of(List.of("child_chk_2")), target.query("SELECT conname FROM pg_constraint WHERE "
                + "conrelid = 'dst.child'::regclass AND contype IN ('c', 'f')"));
    }

    /**
     * A child row whose parent never comes fails the deferred key at commit: it goes to the dead-letter queue with
     * its reason (after the wait for an earlier transaction), the rest of its transaction is applied.
     */
    @Test
    void aChildRowWithoutItsParentIsRejectedAloneNotTheTask() throws Exception {
        run(ddl("fk_parent", "CREATE TABLE fk_parent (id INT PRIMARY KEY)"),
                ddl("fk_child", "CREATE TABLE fk_child (id INT PRIMARY KEY, pid INT, "
                        + "FOREIGN KEY (pid) REFERENCES fk_parent (id))"));
        TableInfo parent = TableInfo.of("src", "fk_parent", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));
        TableInfo child = TableInfo.of("src", "fk_child", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("pid", MySqlType.LONG, ColumnFlags.NULLABLE)));
        long ts = Rows.ts(TS.incrementAndGet());
        List<StandInSinkTaskContext.Report> r = runTolerating(
                RowChange.insert(parent, new Object[]{1L}, ts),
                RowChange.insert(child, new Object[]{1L, 1L}, ts),
                RowChange.insert(child, new Object[]{2L, 9L}, ts));
        assertEquals(1, r.size(), r.toString());
        assertTrue(r.get(0).error().getMessage().contains("23503"), r.get(0).error().getMessage());
        assertEquals(List.of(List.of("1", "1")), target.query("SELECT id::text, pid::text FROM dst.fk_child"));
    }

    /** MySQL's JSON_UNQUOTE(JSON_EXTRACT(doc, '$.a.b')): the member's text, a non-string's JSON text, NULL if none. */
    @Test
    void aGeneratedColumnOfAJsonMemberIsComputed() throws Exception {
        run(ddl("jdoc", "CREATE TABLE jdoc (id INT PRIMARY KEY, payload JSON NULL)"),
                ddl("jdoc", "ALTER TABLE jdoc ADD COLUMN kind VARCHAR(20) AS "
                        + "(JSON_UNQUOTE(JSON_EXTRACT(payload, '$.type'))) STORED, "
                        + "ADD COLUMN deep VARCHAR(20) AS (JSON_UNQUOTE(JSON_EXTRACT(payload, '$.a.b'))) STORED"));
        target.exec("INSERT INTO dst.jdoc (id, payload) VALUES (1, '{\"type\": \"welcome\", \"a\": {\"b\": 3}}'), "
                + "(2, '{\"type\": null}'), (3, '{}'), (4, NULL)");
        assertEquals(List.of(List.of("1", "welcome", "3"), List.of("2", "null", "-"), List.of("3", "-", "-"),
                        List.of("4", "-", "-")),
                target.query("SELECT id::text, COALESCE(kind, '-'), COALESCE(deep, '-') FROM dst.jdoc ORDER BY id"));
    }

    /** A legacy table without a key gets one: MySQL numbers the rows already there, and so does the identity. */
    @Test
    void anAutoIncrementColumnAddedToRowsNumbersThem() throws Exception {
        run(ddl("legacy", "CREATE TABLE legacy (code VARCHAR(10) NOT NULL, name VARCHAR(60) NULL, "
                + "UNIQUE KEY uq_code (code))"));
        // an update moves C001 behind C003 in PostgreSQL's heap; InnoDB clusters by the unique key: C001 is 1
        target.exec("INSERT INTO dst.legacy VALUES ('C001', 'a'), ('C003', NULL)",
                "UPDATE dst.legacy SET name = 'b' WHERE code = 'C001'");
        DdlChange add = ddl("legacy", "ALTER TABLE legacy ADD COLUMN id INT NOT NULL AUTO_INCREMENT FIRST, "
                + "ADD PRIMARY KEY (id)");
        run(add, add); // and a replay numbers nothing
        assertEquals(List.of(List.of("1", "C001"), List.of("2", "C003")),
                target.query("SELECT id::text, code FROM dst.legacy ORDER BY id"));
        target.exec("INSERT INTO dst.legacy (code) VALUES ('C007')");
        assertEquals(List.of(List.of("3")), target.query("SELECT id::text FROM dst.legacy WHERE code = 'C007'"));
    }

    private static String sqlState(String sql) {
        java.sql.SQLException e = assertThrows(java.sql.SQLException.class, () -> target.exec(sql));
        return e.getSQLState();
    }

    @Test
    void expressionDefaultsKeepTheirMeaning() throws Exception {
        run(ddl("dflt", "CREATE TABLE dflt (id INT PRIMARY KEY, u CHAR(36) DEFAULT (UUID()), "
                        + "ub BINARY(16) DEFAULT (UUID_TO_BIN(UUID())), "
                        + "due DATE DEFAULT (CURRENT_DATE + INTERVAL 30 DAY))"),
                ddl("dflt", "ALTER TABLE dflt ADD COLUMN later DATETIME DEFAULT (NOW() + INTERVAL 1 HOUR), "
                        + "ADD COLUMN tag VARCHAR(10) DEFAULT (LOWER('NEW'))"));
        target.exec("INSERT INTO dst.dflt (id) VALUES (1), (2)");
        assertEquals(List.of(List.of("36", "16", "30", "true", "new"), List.of("36", "16", "30", "true", "new")),
                target.query("SELECT length(u)::text, octet_length(ub)::text, (due - CURRENT_DATE)::text, "
                        + "(later > now()::timestamp + interval '59 minutes')::text, tag FROM dst.dflt ORDER BY id"));
        assertEquals(List.of(List.of("2")), target.query("SELECT count(DISTINCT u)::text FROM dst.dflt"));
        // a unique key on an expression holds on PostgreSQL too
        run(ddl("fu", "CREATE TABLE fu (id INT PRIMARY KEY, email VARCHAR(50), UNIQUE KEY uq_email ((LOWER(email))))"),
                ddl("fu", "CREATE INDEX ix_dom ON fu ((SUBSTRING_INDEX(email, '@', -1)))")); // no translation: left out
        target.exec("INSERT INTO dst.fu VALUES (1, 'Ann@x.org')");
        assertEquals("23505", sqlState("INSERT INTO dst.fu VALUES (2, 'ann@x.org')"));
        // without an equivalent of the same meaning: refused with the reason, the task goes on
        List<StandInSinkTaskContext.Report> r = runTolerating(
                ddl("dflt", "ALTER TABLE dflt ADD COLUMN r DOUBLE DEFAULT (RAND(7))"));
        assertEquals(1, r.size());
        String m = r.get(0).error().getMessage();
        assertTrue(m.contains("RAND") && m.contains("ADD COLUMN"), m);
    }

    @Test
    void rangeListAndHashPartitioningBecomeDeclarativePartitions() throws Exception {
        run(ddl("pr", "CREATE TABLE pr (id INT NOT NULL, created DATE NOT NULL, PRIMARY KEY (id, created)) "
                        + "PARTITION BY RANGE COLUMNS(created) (PARTITION p2023 VALUES LESS THAN ('2024-01-01'), "
                        + "PARTITION p2024 VALUES LESS THAN ('2025-01-01') ENGINE = InnoDB, "
                        + "PARTITION pmax VALUES LESS THAN (MAXVALUE))"),
                ddl("pl", "CREATE TABLE pl (id INT NOT NULL, region INT NOT NULL, PRIMARY KEY (id, region)) "
                        + "PARTITION BY LIST (region) (PARTITION p_east VALUES IN (1, 2), "
                        + "PARTITION p_west VALUES IN (3))"),
                ddl("ph", "CREATE TABLE ph (id BIGINT PRIMARY KEY, v INT) PARTITION BY HASH (id) PARTITIONS 3"),
                ddl("pk", "CREATE TABLE pk (id INT PRIMARY KEY) PARTITION BY KEY () PARTITIONS 2"));
        target.exec("INSERT INTO dst.pr VALUES (1, '2023-05-01'), (2, '2024-05-01'), (3, '2031-01-01')",
                "INSERT INTO dst.pl VALUES (1, 1), (2, 3)",
                "INSERT INTO dst.ph SELECT g, g FROM generate_series(1, 30) g");
        assertEquals(List.of(List.of("1", "dst.pr_p2023"), List.of("2", "dst.pr_p2024"), List.of("3", "dst.pr_pmax")),
                target.query("SELECT id::text, tableoid::regclass::text FROM dst.pr ORDER BY id"));
        assertEquals(List.of(List.of("1", "dst.pl_p_east"), List.of("2", "dst.pl_p_west")),
                target.query("SELECT id::text, tableoid::regclass::text FROM dst.pl ORDER BY id"));
        assertEquals(List.of(List.of("3", "30")), target.query("SELECT count(DISTINCT tableoid)::text, "
                + "count(*)::text FROM dst.ph"));
        assertEquals(List.of(List.of("2")), target.query("SELECT count(*)::text FROM pg_inherits WHERE "
                + "inhparent = 'dst.pk'::regclass"));
        assertEquals("23514", sqlState("INSERT INTO dst.pl VALUES (3, 9)"), "no partition holds region 9, as in MySQL");
        // maintenance: a LIST partition added, one truncated, one dropped with its rows
        run(ddl("pl", "ALTER TABLE pl ADD PARTITION (PARTITION p_north VALUES IN (9))"),
                ddl("pr", "ALTER TABLE pr TRUNCATE PARTITION p2024"),
                ddl("pr", "ALTER TABLE pr DROP PARTITION p2023"),
                ddl("pr", "ALTER TABLE pr DROP PARTITION p2023")); // a replay
        target.exec("INSERT INTO dst.pl VALUES (3, 9)");
        assertEquals(List.of(List.of("3", "dst.pr_pmax")),
                target.query("SELECT id::text, tableoid::regclass::text FROM dst.pr ORDER BY id"));
        // as in MySQL, the next partition took the dropped one's range over: a row of 2023 lands in p2024
        target.exec("INSERT INTO dst.pr VALUES (4, '2023-11-11')");
        assertEquals(List.of(List.of("4", "dst.pr_p2024")),
                target.query("SELECT id::text, tableoid::regclass::text FROM dst.pr WHERE id = 4"));
        assertEquals(List.of(List.of("3", "dst.pl_p_north")),
                target.query("SELECT id::text, tableoid::regclass::text FROM dst.pl WHERE region = 9"));
        // into a table that is not partitioned here, DROP PARTITION cannot delete the rows: refused, not skipped
        List<StandInSinkTaskContext.Report> refused = runTolerating(
                ddl("flat", "CREATE TABLE flat (id INT PRIMARY KEY)"),
                ddl("flat", "ALTER TABLE flat DROP PARTITION p0"));
        assertEquals(1, refused.size(), refused.toString());
        assertTrue(refused.get(0).error().getMessage().contains("is not partitioned here"),
                refused.get(0).error().getMessage());
        // partitioning by a function has no translation: refused naming it, nothing created
        List<StandInSinkTaskContext.Report> r = runTolerating(ddl("pf", "CREATE TABLE pf (id INT NOT NULL, "
                + "created DATE NOT NULL, PRIMARY KEY (id, created)) PARTITION BY RANGE (YEAR(created)) "
                + "(PARTITION p0 VALUES LESS THAN (2024), PARTITION p1 VALUES LESS THAN MAXVALUE)"));
        assertEquals(1, r.size());
        assertTrue(r.get(0).error().getMessage().contains("PARTITION BY RANGE of an expression"),
                r.get(0).error().getMessage());
        assertEquals(List.of(), target.query("SELECT 1 FROM pg_class WHERE relname = 'pf'"));
    }
}
