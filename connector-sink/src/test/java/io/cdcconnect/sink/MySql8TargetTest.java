package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.metrics.JmxMeters;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink applying into MySQL 8.0 (the embedded MySQL 8.0.15 of test-support: MySQL's own server, SQL modes,
 * {@code caching_sha2_password} login, DDL and prepared-statement limits). {@link io.cdcconnect.sink.apply.TypeFidelityMySql8Test}
 * covers the types. Skipped, with the reason, where no MySQL 8.0 can be had.
 */
class MySql8TargetTest {

    private DatabaseServer server;
    private TestDatabase source;
    private TestDatabase target;

    @BeforeEach
    void setUp(TestReporter report) throws Exception {
        server = SinkTarget.mysql80();
        report.publishEntry("target server", server.describe());
        source = new TestDatabase(server, "my8_src");
        target = new TestDatabase(server, "my8_dst");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (source != null) source.close();
        if (target != null) target.close();
    }

    private TableInfo items(boolean withC) {
        List<ColumnInfo> cols = new ArrayList<>(List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
        if (withC) cols.add(ColumnInfo.of("c", MySqlType.LONG, ColumnFlags.NULLABLE));
        return TableInfo.of(source.name(), "items", cols);
    }

    /** A primary key and a second unique key: safe mode writes REPLACE here, as an upsert could hit the wrong row. */
    private TableInfo users() {
        return TableInfo.of(source.name(), "users", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("email", MySqlType.VARCHAR, ColumnFlags.UNIQUE_KEY | ColumnFlags.NULLABLE),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
    }

    private DdlChange ddl(String table, String sql, DdlChange.Kind kind, long millis) {
        return new DdlChange(source.name(), table, sql, kind, Rows.ts(millis));
    }

    /**
     * A stream with DDL from the messages (CREATE TABLE, ADD COLUMN), a key update, deletes and a unique value moving
     * from one row to another, applied by one task that then stops as a crash would, and replayed whole by a second
     * task: the replayed rows go in safe mode (upserts, REPLACE where a second unique key exists), the statements are
     * recognised from the checkpoint MySQL holds, and the target ends as the stream says.
     */
    @Test
    void aStreamWithDdlAppliedThenReplayedWholeEndsAsTheStreamSays() throws Exception {
        long t = System.currentTimeMillis() + 3_600_000;
        TableInfo narrow = items(false);
        TableInfo wide = items(true);
        TableInfo users = users();
        List<ChangeEvent> history = List.of(
                ddl("items", "CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))", DdlChange.Kind.CREATE, t),
                ddl("users", "CREATE TABLE users (id BIGINT PRIMARY KEY, email VARCHAR(50), v VARCHAR(20), "
                        + "UNIQUE KEY uk_email (email))", DdlChange.Kind.CREATE, t + 1),
                RowChange.insert(narrow, new Object[]{1L, "one"}, Rows.ts(t + 2)),
                RowChange.insert(narrow, new Object[]{2L, "two"}, Rows.ts(t + 2)),
                RowChange.insert(narrow, new Object[]{3L, "three"}, Rows.ts(t + 2)),
                RowChange.update(narrow, new Object[]{2L, "two"}, new Object[]{20L, "twenty"}, Rows.ts(t + 3)),
                RowChange.insert(users, new Object[]{1L, "a@example.com", "first"}, Rows.ts(t + 3)),
                ddl("items", "ALTER TABLE items ADD COLUMN c INT", DdlChange.Kind.ALTER, t + 4),
                RowChange.insert(wide, new Object[]{4L, "four", 44L}, Rows.ts(t + 5)),
                RowChange.update(wide, new Object[]{3L, "three", null}, new Object[]{3L, "THREE", 33L}, Rows.ts(t + 5)),
                RowChange.delete(wide, new Object[]{1L, "one", null}, Rows.ts(t + 6)),
                // the address moves from user 1 to user 2 in one transaction
                RowChange.update(users, new Object[]{1L, "a@example.com", "first"},
                        new Object[]{1L, "b@example.com", "first"}, Rows.ts(t + 7)),
                RowChange.insert(users, new Object[]{2L, "a@example.com", "second"}, Rows.ts(t + 7)));
        String connector = "my8-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> props = Map.of("name", connector, "schema.map", source.name() + "=" + target.name(),
                "safe.mode", "auto", "ddl.checkpoint.database", "cdc_connect");
        List<SinkRecord> records = new ArrayList<>();
        try (TaskDriver first = new TaskDriver(server, props)) {
            for (ChangeEvent e : history) records.add(first.recordOf(e));
            first.putRecords(records);
            first.awaitApplied();
        }
        List<List<String>> items = List.of(List.of("3", "THREE", "33"), List.of("4", "four", "44"),
                Arrays.asList("20", "twenty", null));
        List<List<String>> usersRows = List.of(List.of("1", "b@example.com", "first"),
                List.of("2", "a@example.com", "second"));
        assertEquals(items, target.query("SELECT id, v, c FROM items ORDER BY id"));
        assertEquals(usersRows, target.query("SELECT id, email, v FROM users ORDER BY id"));
        try (TaskDriver second = new TaskDriver(server, props)) {
            second.putRecords(records);
            second.awaitApplied(records.size());
        }
        assertEquals(items, target.query("SELECT id, v, c FROM items ORDER BY id"), "after the replay");
        assertEquals(usersRows, target.query("SELECT id, email, v FROM users ORDER BY id"), "after the replay");
        assertEquals(List.of(List.of("c", "int")), target.query("SELECT column_name, data_type FROM "
                + "information_schema.columns WHERE table_schema = '" + target.name() + "' AND table_name = 'items' "
                + "AND column_name = 'c'"), "the column added once");
    }

    /** Replaying rows already applied, in {@code safe.mode=always}, leaves the target as it was. */
    @Test
    void safeModeAlwaysReappliesInsertsUpdatesAndDeletesHarmlessly() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE users (id BIGINT PRIMARY KEY, email VARCHAR(50), v VARCHAR(20), UNIQUE KEY (email))");
        long t = System.currentTimeMillis();
        TableInfo narrow = items(false);
        TableInfo users = users();
        List<ChangeEvent> events = new ArrayList<>();
        for (long id = 1; id <= 40; id++) events.add(RowChange.insert(narrow, new Object[]{id, "v" + id}, Rows.ts(t)));
        for (long id = 1; id <= 10; id++) {
            events.add(RowChange.update(narrow, new Object[]{id, "v" + id}, new Object[]{id + 100, "moved"},
                    Rows.ts(t + 1)));
        }
        for (long id = 11; id <= 20; id++) events.add(RowChange.delete(narrow, new Object[]{id, "v" + id}, Rows.ts(t + 2)));
        events.add(RowChange.insert(users, new Object[]{1L, "x@example.com", "a"}, Rows.ts(t + 3)));
        events.add(RowChange.update(users, new Object[]{1L, "x@example.com", "a"}, new Object[]{1L, "y@example.com", "a"},
                Rows.ts(t + 4)));
        events.add(RowChange.insert(users, new Object[]{2L, "x@example.com", "b"}, Rows.ts(t + 4)));
        Map<String, String> props = Map.of("schema.map", source.name() + "=" + target.name(), "safe.mode", "always");
        for (int pass = 1; pass <= 2; pass++) {
            try (TaskDriver driver = new TaskDriver(server, props)) {
                driver.put(events.toArray(new ChangeEvent[0]));
                driver.awaitApplied();
            }
            assertEquals(List.of(List.of("30", "101", "110", "10")),
                    target.query("SELECT COUNT(*), MIN(CASE WHEN v = 'moved' THEN id END), MAX(id), "
                            + "SUM(v = 'moved') FROM items"), "pass " + pass);
            assertEquals(List.of(List.of("1", "y@example.com"), List.of("2", "x@example.com")),
                    target.query("SELECT id, email FROM users ORDER BY id"), "pass " + pass);
        }
    }

    private static long globalLong(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(rs.getMetaData().getColumnCount());
        }
    }

    /**
     * The server-side statement cache on MySQL 8 with its {@code max_prepared_stmt_count} lowered to 48: the sink
     * reads it and keeps at most half of it divided over its connections (48 / 2 / 3 = 8 per connection, 24 for the
     * task) while writing 30 tables with two statement texts each, three times over. The server's own
     * {@code Prepared_stmt_count}, sampled while it writes, never passes the budget, no prepare is refused (no text
     * fallback), and every row arrives.
     */
    @Test
    void preparedStatementsStayWithinTheServersMaxPreparedStmtCount(TestReporter report) throws Exception {
        int tables = 30;
        long serverMax = 48;
        for (int i = 0; i < tables; i++) target.exec("CREATE TABLE t" + i + " (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        List<ChangeEvent> events = new ArrayList<>();
        long ts = 1000;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < tables; i++) {
                TableInfo table = Rows.idValue(source.name(), "t" + i);
                ts++;
                for (int r = 0; r < 9; r++) { // an 8-row and a 1-row statement: two texts per table
                    events.add(RowChange.insert(table, new Object[]{round * 100L + r, "r" + round}, Rows.ts(ts)));
                }
            }
        }
        try (Connection monitor = target.connect()) {
            long before = globalLong(monitor, "SELECT @@GLOBAL.max_prepared_stmt_count");
            try {
                monitor.createStatement().execute("SET GLOBAL max_prepared_stmt_count = " + serverMax);
                long baseline = globalLong(monitor, "SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'");
                AtomicLong peak = new AtomicLong(baseline);
                AtomicBoolean sampling = new AtomicBoolean(true);
                Thread sampler = new Thread(() -> {
                    try (Connection c = target.connect()) {
                        while (sampling.get()) {
                            peak.accumulateAndGet(globalLong(c, "SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'"),
                                    Math::max);
                            Thread.sleep(1);
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }, "prepared-stmt-sampler");
                sampler.start();
                double prepared;
                double evictions;
                try (TaskDriver driver = new TaskDriver(server, Map.of("schema.map", source.name() + "="
                        + target.name(), "worker.count", "2", "statement.cache.size", "256", "safe.mode", "always",
                        "task.id", "my8budget"))) {
                    driver.put(events.toArray(new ChangeEvent[0]));
                    driver.awaitApplied();
                    prepared = JmxMeters.read(SinkMetrics.STATEMENTS_PREPARED, "driver", "my8budget");
                    evictions = JmxMeters.read(SinkMetrics.CACHE_EVICTIONS, "driver", "my8budget");
                    assertEquals(0.0, JmxMeters.read(SinkMetrics.STATEMENTS_TEXT_FALLBACK, "driver", "my8budget"),
                            "a prepare the server refused");
                    assertTrue(JmxMeters.read(SinkMetrics.CACHE_SIZE, "driver", "my8budget") <= 24);
                } finally {
                    sampling.set(false);
                    sampler.join();
                }
                String line = "MySQL 8 statement cache: peak Prepared_stmt_count " + peak.get() + " (baseline "
                        + baseline + ") of max_prepared_stmt_count " + serverMax + "; sink budget 24 (8 per connection"
                        + " x 3), " + (long) prepared + " statements prepared, " + (long) evictions + " evicted";
                System.out.println("MySql8TargetTest: " + line);
                report.publishEntry("prepared statements", line);
                assertTrue(evictions > 0, "30 tables x 2 texts must not fit in 8 per connection");
                assertTrue(prepared > 24, "prepared " + prepared);
                assertTrue(peak.get() - baseline <= 24, line);
                assertTrue(peak.get() < serverMax, line);
            } finally {
                monitor.createStatement().execute("SET GLOBAL max_prepared_stmt_count = " + before);
            }
        }
        for (int i = 0; i < tables; i++) assertEquals(27, target.count("t" + i));
    }

    /**
     * Another client holds all but a few of MySQL's prepared statements: the sink's prepares past them are refused by
     * the server (1461, "Can't create more than max_prepared_stmt_count statements"), each such statement is sent as
     * text instead, the task goes on, and every row arrives.
     */
    @Test
    void aPrepareTheServerRefusesFallsBackToText() throws Exception {
        int tables = 6;
        long serverMax = 48;
        int held = 44;
        for (int i = 0; i < tables; i++) target.exec("CREATE TABLE f" + i + " (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        List<ChangeEvent> events = new ArrayList<>();
        for (int i = 0; i < tables; i++) {
            TableInfo table = Rows.idValue(source.name(), "f" + i);
            for (long r = 0; r < 9; r++) events.add(RowChange.insert(table, new Object[]{r, "f" + i}, Rows.ts(5000 + i)));
        }
        try (Connection monitor = target.connect()) {
            long before = globalLong(monitor, "SELECT @@GLOBAL.max_prepared_stmt_count");
            List<java.sql.PreparedStatement> hog = new ArrayList<>();
            try (Connection hogConnection = java.sql.DriverManager.getConnection(
                    server.jdbcUrl(null) + "&useServerPrepStmts=true", server.user(), server.password())) {
                monitor.createStatement().execute("SET GLOBAL max_prepared_stmt_count = " + serverMax);
                long baseline = globalLong(monitor, "SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'");
                for (int i = 0; hog.size() < held - baseline; i++) hog.add(hogConnection.prepareStatement("SELECT ? + " + i));
                assertEquals(held, globalLong(monitor, "SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'"));
                double fallbacks;
                try (TaskDriver driver = new TaskDriver(server, Map.of("schema.map", source.name() + "="
                        + target.name(), "worker.count", "1", "safe.mode", "always", "task.id", "my8refused"))) {
                    driver.put(events.toArray(new ChangeEvent[0]));
                    driver.awaitApplied();
                    fallbacks = JmxMeters.read(SinkMetrics.STATEMENTS_TEXT_FALLBACK, "driver", "my8refused");
                }
                System.out.println("MySql8TargetTest: " + held + " of " + serverMax + " prepared statements held by "
                        + "another client: " + (long) fallbacks + " statements sent as text after the server refused them");
                assertTrue(fallbacks > 0, "the server refused no prepare");
            } finally {
                monitor.createStatement().execute("SET GLOBAL max_prepared_stmt_count = " + before);
            }
        }
        for (int i = 0; i < tables; i++) assertEquals(List.of(List.of("9", "f" + i)),
                target.query("SELECT COUNT(*), MIN(v) FROM f" + i));
    }

    /**
     * MariaDB's {@code DROP CONSTRAINT} (of a CHECK, a foreign key, a unique key; with {@code IF EXISTS}; beside
     * another clause), as migrations on a MariaDB source write it, into MySQL 8.0.15, which has no {@code DROP
     * CONSTRAINT} (8.0.19) and keeps no CHECK (8.0.16): each statement runs as what the name is on the target, and
     * the one of the CHECK, which the server never kept, leaves its clause out. Before, each of them failed the task
     * with the server's syntax error 1064.
     */
    @Test
    void mariaDbsDropConstraintRunsAsWhatTheNameIsOnTheTarget() throws Exception {
        long t = System.currentTimeMillis() + 3_600_000;
        TableInfo child = TableInfo.of(source.name(), "child", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("pid", MySqlType.LONG, ColumnFlags.NULLABLE),
                ColumnInfo.of("qty", MySqlType.LONG, ColumnFlags.NULLABLE)));
        List<ChangeEvent> history = List.of(
                ddl("parent", "CREATE TABLE parent (id INT PRIMARY KEY, code VARCHAR(10), "
                        + "CONSTRAINT uq_code UNIQUE (code))", DdlChange.Kind.CREATE, t),
                ddl("child", "CREATE TABLE child (id INT PRIMARY KEY, pid INT, qty INT, "
                        + "CONSTRAINT fk_child_parent FOREIGN KEY (pid) REFERENCES parent (id))", DdlChange.Kind.CREATE,
                        t + 1),
                ddl("child", "ALTER TABLE child ADD CONSTRAINT chk_qty CHECK (qty > 0)", DdlChange.Kind.ALTER, t + 2),
                ddl("child", "ALTER TABLE child DROP CONSTRAINT chk_qty", DdlChange.Kind.ALTER, t + 3),
                RowChange.insert(child, new Object[]{1, null, 0}, Rows.ts(t + 4)),
                ddl("child", "ALTER TABLE child DROP CONSTRAINT fk_child_parent, ADD COLUMN note VARCHAR(20)",
                        DdlChange.Kind.ALTER, t + 5),
                ddl("parent", "ALTER TABLE parent DROP CONSTRAINT uq_code", DdlChange.Kind.ALTER, t + 6),
                ddl("child", "ALTER TABLE child ADD COLUMN extra INT, DROP CONSTRAINT IF EXISTS fk_gone",
                        DdlChange.Kind.ALTER, t + 7));
        Map<String, String> props = Map.of("name", "my8-dropc-" + UUID.randomUUID().toString().substring(0, 8),
                "schema.map", source.name() + "=" + target.name());
        try (TaskDriver task = new TaskDriver(server, props)) {
            task.put(history.toArray(ChangeEvent[]::new));
            task.awaitApplied();
        }
        assertEquals(List.of(Arrays.asList("1", null, "0")), target.query("SELECT id, pid, qty FROM child"));
        assertEquals(List.of(List.of("child", "PRIMARY KEY"), List.of("parent", "PRIMARY KEY")),
                target.query("SELECT table_name, constraint_type FROM information_schema.table_constraints WHERE "
                        + "table_schema = '" + target.name() + "' ORDER BY table_name, constraint_name"),
                "the foreign key and the unique key are gone, the primary keys kept");
        assertEquals(List.of(List.of("id"), List.of("pid"), List.of("qty"), List.of("note"), List.of("extra")),
                target.query("SELECT column_name FROM information_schema.columns WHERE table_schema = '"
                        + target.name() + "' AND table_name = 'child' ORDER BY ordinal_position"),
                "the clauses beside DROP CONSTRAINT ran");
    }
}
