package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * MySQL 8's own errors, provoked on a real MySQL 8.0 (the embedded 8.0.15 of test-support) over connections set up as
 * the sink sets them up (mysql-connector-j, server-side prepared statements, the sink's session), and classified by
 * the MySQL 8 dialect as the apply worker asks it: retried, the row rejected (dead-letter queue under
 * {@code errors.tolerance=all}), a replay, or the task failed. The codes no server here can produce say why in a
 * comment and are classified from the code alone. The table is in docs/sink.md ("Errors").
 *
 * <p>Some tests change a global setting of the shared server (max_connections, max_prepared_stmt_count,
 * super_read_only) for a moment, on an administrator's connection opened before and restored in {@code finally}:
 * test classes of this JVM run one after another, so nothing else is writing meanwhile.
 */
class MySql8ErrorClassificationTest {

    /** What the apply worker does with a failed transaction ({@code ApplyWorker}'s order of questions). */
    enum Outcome { RETRY, REJECT_ROW, REPLAY, FAIL }

    private static final SqlDialect DIALECT = MySqlFamilyDialect.choose("mysql8", "");
    private static final ExecutorService BLOCKED = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mysql8-error-blocked");
        t.setDaemon(true);
        return t;
    });

    private DatabaseServer server;
    private TestDatabase db;

    @BeforeEach
    void setUp(TestReporter report) throws Exception {
        server = SinkTarget.mysql80();
        report.publishEntry("target server", server.describe());
        db = new TestDatabase(server, "my8_err");
        db.exec("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 0), (2, 0)");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (db != null) db.close();
    }

    @AfterAll
    static void stopThreads() {
        BLOCKED.shutdownNow();
    }

    /** The order of ApplyWorker's questions: a row rejected, then a duplicate key (a replay), then the retry policy. */
    static Outcome outcome(SQLException e, boolean safeMode) {
        if (DIALECT.rejectsRow(e, safeMode)) return Outcome.REJECT_ROW;
        if (DIALECT.duplicateKey(e)) return safeMode ? Outcome.FAIL : Outcome.REPLAY;
        if (DIALECT.retryable(e)) return Outcome.RETRY;
        return Outcome.FAIL;
    }

    /**
     * {@code e} has {@code code} (0: a driver's own error, no server code) and is classified {@code expected}, as it
     * comes from the driver and as TransactionApplier wraps it ("INSERT of n row(s) into ...: error ...").
     */
    private static void assertClassified(SQLException e, int code, Outcome expected, boolean safeMode) {
        assertNotNull(e, "the server raised no error");
        assertEquals(code, e.getErrorCode(), () -> "the server answered " + DIALECT.describe(e));
        assertEquals(expected, outcome(e, safeMode), () -> DIALECT.describe(e));
        SQLException wrapped = new SQLException("INSERT of 1 row(s) into `d`.`t`: " + DIALECT.describe(e),
                e.getSQLState(), e.getErrorCode(), e);
        assertEquals(expected, outcome(wrapped, safeMode), () -> "wrapped: " + DIALECT.describe(e));
    }

    private static void assertClassified(SQLException e, int code, Outcome expected) {
        assertClassified(e, code, expected, false);
    }

    @FunctionalInterface
    interface SqlCall {
        void run() throws SQLException;
    }

    private static SQLException thrownBy(SqlCall call) {
        try {
            call.run();
        } catch (SQLException e) {
            return e;
        }
        return fail("no error");
    }

    /** A connection as the sink's pool makes it: its driver, properties and session (sql_mode, time zone). */
    private Connection sinkConnection() throws SQLException {
        return DataSources.connect(DIALECT, SinkTarget.url(server) + db.name(), server.user(), server.password(),
                60_000);
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** One row written through a server-side prepared statement, as the sink writes it. */
    private static void write(Connection c, String sql, Object... values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) ps.setObject(i + 1, values[i]);
            ps.executeUpdate();
        }
    }

    private static long connectionId(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long globalLong(Connection c, String variable) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@GLOBAL." + variable)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Waits until the statement {@code blocked} runs waits for a lock, so that the next step meets a lock, not a race.
     */
    private void awaitLockWait(Future<SQLException> blocked) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // InnoDB's view of its transactions (INNODB_TRX) is a cache the server refreshes when it sees fit, and on a busy
        // machine it was seen to miss a wait for 20 s; the process list is read live: a single-row statement by key
        // still running in it after 300 ms of looks is waiting for the lock
        long runningSince = -1;
        try (Connection c = server.connect(db.name()); Statement st = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                if (blocked.isDone()) fail("the statement did not wait for the lock: " + blocked.get());
                try (ResultSet rs = st.executeQuery(
                        "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")) {
                    rs.next();
                    if (rs.getInt(1) >= 1) return;
                }
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST "
                        + "WHERE COMMAND = 'Query' AND ID <> CONNECTION_ID() AND (INFO LIKE 'UPDATE%' "
                        + "OR INFO LIKE 'update%' OR INFO LIKE 'SELECT%FOR UPDATE%' OR INFO LIKE 'INSERT%' "
                        + "OR INFO LIKE 'DELETE%')")) {
                    rs.next();
                    if (rs.getInt(1) == 0) {
                        runningSince = -1;
                    } else if (runningSince < 0) {
                        runningSince = System.nanoTime();
                    } else if (System.nanoTime() - runningSince > TimeUnit.MILLISECONDS.toNanos(300)) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        fail("no transaction came to wait for a lock: " + db.query("SELECT ID, COMMAND, STATE, INFO FROM "
                + "information_schema.PROCESSLIST WHERE INFO IS NOT NULL"));
    }

    private Future<SQLException> inBackground(SqlCall call) {
        return BLOCKED.submit(() -> {
            try {
                call.run();
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
    }

    private static void rollbackQuietly(Connection c) {
        try {
            if (!c.isClosed() && !c.getAutoCommit()) c.rollback();
        } catch (SQLException ignored) {
            // a connection the test broke
        }
    }

    private boolean serverAtLeast(int major, int minor, int patch) throws SQLException {
        String[] v = server.serverVersion().replaceAll("[^0-9.].*$", "").split("\\.");
        int[] have = {Integer.parseInt(v[0]), Integer.parseInt(v[1]), Integer.parseInt(v[2])};
        int[] want = {major, minor, patch};
        for (int i = 0; i < 3; i++) {
            if (have[i] != want[i]) return have[i] > want[i];
        }
        return true;
    }

    // ---- retried ------------------------------------------------------------------------------------------------

    @Test
    void aDeadlockIsRetried() throws Exception {
        try (Connection a = sinkConnection(); Connection b = sinkConnection()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try {
                write(a, "UPDATE t SET v = 1 WHERE id = ?", 1);
                write(b, "UPDATE t SET v = 1 WHERE id = ?", 2);
                Future<SQLException> first = inBackground(() -> write(a, "UPDATE t SET v = 2 WHERE id = ?", 2));
                awaitLockWait(first);
                SQLException second = thrownByOrNull(() -> write(b, "UPDATE t SET v = 2 WHERE id = ?", 1));
                if (second == null) b.rollback(); // a was the victim: let it finish
                SQLException victim = second != null ? second : first.get(30, TimeUnit.SECONDS);
                assertClassified(victim, 1213, Outcome.RETRY);
            } finally {
                rollbackQuietly(a);
                rollbackQuietly(b);
            }
        }
    }

    private static SQLException thrownByOrNull(SqlCall call) {
        try {
            call.run();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    @Test
    void aLockWaitTimeoutIsRetried() throws Exception {
        try (Connection a = sinkConnection(); Connection b = sinkConnection()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try {
                write(a, "UPDATE t SET v = 1 WHERE id = ?", 1);
                exec(b, "SET SESSION innodb_lock_wait_timeout = 1");
                assertClassified(thrownBy(() -> write(b, "UPDATE t SET v = 2 WHERE id = ?", 1)), 1205, Outcome.RETRY);
            } finally {
                rollbackQuietly(a);
                rollbackQuietly(b);
            }
        }
    }

    @Test
    void aLockNotTakenUnderNowaitIsRetried() throws Exception {
        try (Connection a = sinkConnection(); Connection b = sinkConnection()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try {
                write(a, "UPDATE t SET v = 1 WHERE id = ?", 1);
                assertClassified(thrownBy(() -> exec(b, "SELECT v FROM t WHERE id = 1 FOR UPDATE NOWAIT")), 3572,
                        Outcome.RETRY);
            } finally {
                rollbackQuietly(a);
                rollbackQuietly(b);
            }
        }
    }

    @Test
    void aStatementCutByMaxExecutionTimeIsRetried() throws Exception {
        try (Connection a = sinkConnection(); Connection b = sinkConnection()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try {
                write(a, "UPDATE t SET v = 1 WHERE id = ?", 1);
                // a read waiting for a lock longer than the server lets a SELECT run
                assertClassified(thrownBy(() -> exec(b, "SELECT /*+ MAX_EXECUTION_TIME(300) */ v FROM t "
                        + "WHERE id = 1 LOCK IN SHARE MODE")), 3024, Outcome.RETRY);
            } finally {
                rollbackQuietly(a);
                rollbackQuietly(b);
            }
        }
    }

    @Test
    void aStatementKilledByAnAdministratorIsRetried() throws Exception {
        try (Connection a = sinkConnection(); Connection b = sinkConnection(); Connection admin = server.connect(null)) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try {
                write(a, "UPDATE t SET v = 1 WHERE id = ?", 1);
                long id = connectionId(b);
                Future<SQLException> blocked = inBackground(() -> write(b, "UPDATE t SET v = 2 WHERE id = ?", 1));
                awaitLockWait(blocked);
                exec(admin, "KILL QUERY " + id);
                assertClassified(blocked.get(30, TimeUnit.SECONDS), 1317, Outcome.RETRY);
            } finally {
                rollbackQuietly(a);
                rollbackQuietly(b);
            }
        }
    }

    @Test
    void aConnectionKilledByAnAdministratorIsLostAndRetried() throws Exception {
        try (Connection b = sinkConnection(); Connection admin = server.connect(null)) {
            exec(admin, "KILL CONNECTION " + connectionId(b));
            SQLException e = thrownBy(() -> write(b, "UPDATE t SET v = 2 WHERE id = ?", 1));
            // mysql-connector-j's "Communications link failure" (08S01), no server code
            assertClassified(e, 0, Outcome.RETRY);
            assertTrue(DIALECT.connectionLost(e), DIALECT.describe(e));
        }
    }

    @Test
    void anIdleConnectionTheServerClosedIsLostAndRetried() throws Exception {
        try (Connection b = sinkConnection()) {
            exec(b, "SET SESSION wait_timeout = 1");
            Thread.sleep(2_500);
            SQLException e = thrownBy(() -> write(b, "UPDATE t SET v = 2 WHERE id = ?", 1));
            // MySQL 8.0.24 and later say why first (4031, "disconnected by the server because of inactivity"); 8.0.15
            // only closes the socket, which the driver reports as a communications failure without a server code
            assertClassified(e, serverAtLeast(8, 0, 24) ? 4031 : 0, Outcome.RETRY);
            assertTrue(DIALECT.connectionLost(e), DIALECT.describe(e));
        }
    }

    @Test
    void tooManyConnectionsIsRetried() throws Exception {
        String user = plainUser("");
        try (Connection admin = server.connect(null)) {
            long before = globalLong(admin, "max_connections");
            // this administrator's connection already counts: nobody without CONNECTION_ADMIN gets in
            exec(admin, "SET GLOBAL max_connections = 1");
            try {
                SQLException e = thrownBy(() -> DriverManager.getConnection(server.jdbcUrl(db.name()), user, "pw").close());
                assertClassified(e, 1040, Outcome.RETRY);
            } finally {
                exec(admin, "SET GLOBAL max_connections = " + before);
                exec(admin, "DROP USER '" + user + "'@'%'");
            }
        }
    }

    @Test
    void anAccountOverItsConnectionLimitIsRetried() throws Exception {
        String user = plainUser(" WITH MAX_USER_CONNECTIONS 1");
        try (Connection first = DriverManager.getConnection(server.jdbcUrl(db.name()), user, "pw")) {
            SQLException e = thrownBy(() -> DriverManager.getConnection(server.jdbcUrl(db.name()), user, "pw").close());
            assertClassified(e, 1226, Outcome.RETRY);
        } finally {
            server.execute("DROP USER '" + user + "'@'%'");
        }
    }

    @Test
    void aUserOverTheServersConnectionLimitPerUserIsRetried() throws Exception {
        String user = plainUser("");
        try (Connection admin = server.connect(null)) {
            long before = globalLong(admin, "max_user_connections");
            // counted from the connections made under the limit on
            exec(admin, "SET GLOBAL max_user_connections = 1");
            try (Connection first = DriverManager.getConnection(server.jdbcUrl(db.name()), user, "pw")) {
                SQLException e = thrownBy(() -> DriverManager.getConnection(server.jdbcUrl(db.name()), user, "pw")
                        .close());
                assertClassified(e, 1203, Outcome.RETRY);
            } finally {
                exec(admin, "SET GLOBAL max_user_connections = " + before);
            }
        } finally {
            server.execute("DROP USER '" + user + "'@'%'");
        }
    }

    /** A user with every right on the test's database, none of an administrator's. */
    private String plainUser(String limits) throws SQLException {
        String user = "plain_" + UUID.randomUUID().toString().substring(0, 8);
        server.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw'" + limits,
                "GRANT ALL ON `" + db.name() + "`.* TO '" + user + "'@'%'");
        return user;
    }

    @Test
    void aServerOutOfPreparedStatementsIsRetried() throws Exception {
        try (Connection admin = server.connect(null); Connection c = sinkConnection()) {
            long before = globalLong(admin, "max_prepared_stmt_count");
            exec(admin, "SET GLOBAL max_prepared_stmt_count = 0");
            try {
                // the statement cache writes such a statement as text instead; anywhere else it is retried
                SQLException e = thrownBy(() -> c.prepareStatement("UPDATE t SET v = ? WHERE id = ?").close());
                assertClassified(e, 1461, Outcome.RETRY);
            } finally {
                exec(admin, "SET GLOBAL max_prepared_stmt_count = " + before);
            }
        }
    }

    @Test
    void aServerTurnedSuperReadOnlyIsRetried() throws Exception {
        try (Connection admin = server.connect(null); Connection c = sinkConnection()) {
            exec(admin, "SET GLOBAL super_read_only = ON");
            try {
                // the sink's user has every privilege (SUPER too): only super_read_only stops it, as in a failover
                assertClassified(thrownBy(() -> write(c, "UPDATE t SET v = 3 WHERE id = ?", 1)), 1290,
                        Outcome.RETRY);
            } finally {
                exec(admin, "SET GLOBAL super_read_only = OFF");
                exec(admin, "SET GLOBAL read_only = OFF");
            }
        }
    }

    @Test
    void aReadOnlyTransactionIsRetried() throws Exception {
        try (Connection c = sinkConnection()) {
            exec(c, "SET SESSION TRANSACTION READ ONLY");
            assertClassified(thrownBy(() -> write(c, "UPDATE t SET v = 3 WHERE id = ?", 1)), 1792, Outcome.RETRY);
        }
    }

    @Test
    void aTableRebuiltUnderAReadViewIsRetried() throws Exception {
        try (Connection a = sinkConnection(); Connection admin = server.connect(db.name())) {
            a.setAutoCommit(false);
            try {
                exec(a, "START TRANSACTION WITH CONSISTENT SNAPSHOT");
                exec(admin, "ALTER TABLE t FORCE");
                assertClassified(thrownBy(() -> exec(a, "SELECT v FROM t WHERE id = 1")), 1412, Outcome.RETRY);
            } finally {
                rollbackQuietly(a);
            }
        }
    }

    // ---- the row rejected -----------------------------------------------------------------------------------------

    private void rowsTable() throws SQLException {
        db.exec("CREATE TABLE parent (id INT PRIMARY KEY)", "INSERT INTO parent VALUES (1)",
                "CREATE TABLE r (id INT PRIMARY KEY, s VARCHAR(3), n TINYINT, d DATETIME, j JSON, e ENUM('a', 'b'), "
                        + "m3 VARCHAR(10) CHARACTER SET utf8mb3, w VARCHAR(10) NOT NULL DEFAULT '', x INT NOT NULL, "
                        + "p INT, c INT, u VARCHAR(10), UNIQUE KEY uk_u (u), "
                        + "CONSTRAINT r_parent FOREIGN KEY (p) REFERENCES parent (id), "
                        + "CONSTRAINT r_c_positive CHECK (c > 0))",
                "INSERT INTO r (id, x, p, u) VALUES (1, 1, 1, 'taken')");
    }

    private SQLException insertR(String column, Object value) throws SQLException {
        rowsTable();
        try (Connection c = sinkConnection()) {
            return thrownBy(() -> write(c, "INSERT INTO r (id, x, " + column + ") VALUES (?, ?, ?)", 2, 1, value));
        }
    }

    @Test
    void aValueTooLongRejectsTheRow() throws Exception {
        assertClassified(insertR("s", "abcd"), 1406, Outcome.REJECT_ROW);
    }

    @Test
    void aNumberOutOfRangeRejectsTheRow() throws Exception {
        assertClassified(insertR("n", 300), 1264, Outcome.REJECT_ROW);
    }

    @Test
    void anIncorrectValueRejectsTheRow() throws Exception {
        assertClassified(insertR("n", "abc"), 1366, Outcome.REJECT_ROW);
    }

    @Test
    void aStringItsCharacterSetCannotHoldRejectsTheRow() throws Exception {
        assertClassified(insertR("m3", "\uD83D\uDE00"), 1366, Outcome.REJECT_ROW);
    }

    @Test
    void anIncorrectDatetimeRejectsTheRow() throws Exception {
        assertClassified(insertR("d", "2024-13-45 25:61:00"), 1292, Outcome.REJECT_ROW);
    }

    @Test
    void invalidJsonRejectsTheRow() throws Exception {
        assertClassified(insertR("j", "{not json"), 3140, Outcome.REJECT_ROW);
    }

    @Test
    void anEnumValueOutsideTheListRejectsTheRow() throws Exception {
        assertClassified(insertR("e", "zzz"), 1265, Outcome.REJECT_ROW);
    }

    @Test
    void nullInANotNullColumnRejectsTheRow() throws Exception {
        assertClassified(insertR("w", null), 1048, Outcome.REJECT_ROW);
    }

    @Test
    void nullInANotNullColumnOfAMultiRowInsertRejectsTheRow() throws Exception {
        rowsTable();
        try (Connection c = sinkConnection()) {
            SQLException e = thrownBy(() -> write(c, "INSERT INTO r (id, x, w) VALUES (?, ?, ?), (?, ?, ?)",
                    2, 1, "ok", 3, 1, null));
            assertClassified(e, 1048, Outcome.REJECT_ROW);
        }
    }

    @Test
    void aNotNullColumnWithoutDefaultLeftOutRejectsTheRow() throws Exception {
        rowsTable();
        try (Connection c = sinkConnection()) {
            assertClassified(thrownBy(() -> write(c, "INSERT INTO r (id) VALUES (?)", 2)), 1364, Outcome.REJECT_ROW);
        }
    }

    @Test
    void aChildWithoutItsParentRejectsTheRow() throws Exception {
        assertClassified(insertR("p", 99), 1452, Outcome.REJECT_ROW);
    }

    @Test
    void deletingAParentWithChildrenRejectsTheRow() throws Exception {
        rowsTable();
        try (Connection c = sinkConnection()) {
            assertClassified(thrownBy(() -> write(c, "DELETE FROM parent WHERE id = ?", 1)), 1451,
                    Outcome.REJECT_ROW);
        }
    }

    @Test
    void aCheckConstraintViolatedRejectsTheRow() throws Exception {
        rowsTable();
        SQLException e;
        try (Connection c = sinkConnection()) {
            e = thrownByOrNull(() -> write(c, "INSERT INTO r (id, x, c) VALUES (?, ?, ?)", 2, 1, -1));
        }
        if (serverAtLeast(8, 0, 16)) {
            assertClassified(e, 3819, Outcome.REJECT_ROW);
        } else {
            // MySQL before 8.0.16 (the embedded one is 8.0.15) parses CHECK and ignores it: the row went in. The code
            // of 8.0.16 and later, as the server words it
            assertClassified(new SQLException("Check constraint 'r_c_positive' is violated.", "HY000", 3819), 3819,
                    Outcome.REJECT_ROW);
        }
    }

    @Test
    void anUnknownColumnRejectsTheRow() throws Exception {
        assertClassified(insertR("no_such_column", 1), 1054, Outcome.REJECT_ROW);
    }

    @Test
    void anUnknownTableRejectsTheRow() throws Exception {
        try (Connection c = sinkConnection()) {
            assertClassified(thrownBy(() -> write(c, "INSERT INTO no_such_table (id) VALUES (?)", 1)), 1146,
                    Outcome.REJECT_ROW);
        }
    }

    @Test
    void aDuplicateKeyIsAReplayWithoutSafeModeAndRejectsTheRowInIt() throws Exception {
        rowsTable();
        try (Connection c = sinkConnection()) {
            SQLException plain = thrownBy(() -> write(c, "INSERT INTO r (id, x) VALUES (?, ?)", 1, 1));
            assertClassified(plain, 1062, Outcome.REPLAY, false);
            // an upsert of row 2 whose update then takes row 1's unique value: no replay can explain it
            write(c, "INSERT INTO r (id, x, u) VALUES (?, ?, ?)", 2, 1, "other");
            SQLException upsert = thrownBy(() -> write(c, "INSERT INTO r (id, x, u) VALUES (?, ?, ?) "
                    + "ON DUPLICATE KEY UPDATE x = VALUES(x), u = VALUES(u)", 2, 1, "taken"));
            assertClassified(upsert, 1062, Outcome.REJECT_ROW, true);
        }
    }

    // ---- the task failed ------------------------------------------------------------------------------------------

    @Test
    void aSyntaxErrorFailsTheTask() throws Exception {
        try (Connection c = sinkConnection()) {
            assertClassified(thrownBy(() -> exec(c, "UPDAT t SET v = 1")), 1064, Outcome.FAIL);
        }
    }

    @Test
    void aMissingPrivilegeFailsTheTask() throws Exception {
        String user = "reader_" + UUID.randomUUID().toString().substring(0, 8);
        server.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw'",
                "GRANT SELECT ON `" + db.name() + "`.* TO '" + user + "'@'%'");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(db.name()), user, "pw")) {
            assertClassified(thrownBy(() -> write(c, "UPDATE t SET v = ? WHERE id = ?", 5, 1)), 1142, Outcome.FAIL);
        } finally {
            server.execute("DROP USER '" + user + "'@'%'");
        }
    }

    // ---- what the server here cannot produce ----------------------------------------------------------------------

    @Test
    void errorsNoServerHereCanRaiseAreClassifiedByTheirCodes() {
        // 2006 and 2013 are libmysqlclient's codes for a lost server; mysql-connector-j says 08S01 instead (above),
        // but a driver or proxy that passes them on is still retried
        assertClassified(new SQLException("MySQL server has gone away", "HY000", 2006), 2006, Outcome.RETRY);
        assertClassified(new SQLException("Lost connection to MySQL server during query", "HY000", 2013), 2013,
                Outcome.RETRY);
        // 1053: the server shutting down (the shared server of this JVM is not stopped for one test)
        assertClassified(new SQLException("Server shutdown in progress", "08S01", 1053), 1053, Outcome.RETRY);
        // 1836: a server started with --innodb-read-only (needs a restart of the shared server)
        assertClassified(new SQLException("Running in read-only mode", "HY000", 1836), 1836, Outcome.RETRY);
        // 3100, 3101: Group Replication (InnoDB Cluster) refusing a commit: the member is leaving or not yet online,
        // or the transaction lost certification to another member's; the plugin is not running here
        assertClassified(new SQLException("Error on observer while running replication hook 'before_commit'.",
                "HY000", 3100), 3100, Outcome.RETRY);
        assertClassified(new SQLException("Plugin instructed the server to rollback the current transaction.",
                "40000", 3101), 3101, Outcome.RETRY);
        // 1615: the server re-prepares a statement itself up to 3 times before it gives up with this
        assertClassified(new SQLException("Prepared statement needs to be re-prepared", "HY000", 1615), 1615,
                Outcome.RETRY);
        // 1637: InnoDB out of undo slots for concurrent transactions
        assertClassified(new SQLException("Too many active concurrent transactions", "HY000", 1637), 1637,
                Outcome.RETRY);
        // 1216, 1217: a foreign key, worded without the parent for a user who may not see it
        assertClassified(new SQLException("Cannot add or update a child row: a foreign key constraint fails",
                "23000", 1216), 1216, Outcome.REJECT_ROW);
        assertClassified(new SQLException("Cannot delete or update a parent row: a foreign key constraint fails",
                "23000", 1217), 1217, Outcome.REJECT_ROW);
        // 1105: "Unknown error", MySQL's (and TiDB's) catch-all: nothing says a retry or another row would fare better
        assertClassified(new SQLException("Unknown error", "HY000", 1105), 1105, Outcome.FAIL);
    }
}
