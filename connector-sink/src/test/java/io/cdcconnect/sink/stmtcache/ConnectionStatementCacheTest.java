package io.cdcconnect.sink.stmtcache;

import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.dialect.mysql.MariaDbDialect;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The statement cache on real connections to MariaDB 10.11. Server-side statements of a session are counted with the
 * session's own Com_stmt_prepare - Com_stmt_close, which other clients of the shared server cannot disturb.
 */
class ConnectionStatementCacheTest {

    private static TestDatabase db;
    private static HikariDataSource ds;

    @BeforeAll
    static void setUp() throws Exception {
        db = SinkTarget.database("stmtcache");
        ds = DataSources.create(new MariaDbDialect(), SinkTarget.url() + db.name(), SinkTarget.user(),
                SinkTarget.password(), 2, "+00:00", "stmtcache-test", 0);
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(10))");
            st.execute("CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(10))");
            c.commit();
        }
    }

    @AfterAll
    static void tearDown() throws Exception {
        ds.close();
        db.close();
    }

    /** Server-side statements this session holds open: its own Com_stmt_prepare - Com_stmt_close. */
    static long openOnServer(Connection c) throws SQLException {
        long prepared = 0;
        long closed = 0;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW SESSION STATUS WHERE Variable_name IN "
                     + "('Com_stmt_prepare', 'Com_stmt_close')")) {
            while (rs.next()) {
                if (rs.getString(1).equalsIgnoreCase("Com_stmt_prepare")) prepared = rs.getLong(2);
                else closed = rs.getLong(2);
            }
        }
        return prepared - closed;
    }

    private static double count(SinkMetrics m, String name) {
        return m.value(name);
    }

    @Test
    void aHitReusesTheSameServerSideStatement() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(8, -1, 1, 1, metrics);
        try (Connection c = ds.getConnection()) {
            long before = openOnServer(c);
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy);
            ConnectionStatementCache.Lease a = cache.acquire("SELECT ? + 1");
            a.statement().setInt(1, 41);
            try (ResultSet rs = a.statement().executeQuery()) {
                rs.next();
                assertEquals(42, rs.getInt(1));
            }
            a.release();
            ConnectionStatementCache.Lease b = cache.acquire("SELECT ? + 1");
            assertSame(a.statement(), b.statement());
            assertTrue(b.cached());
            assertEquals(1, openOnServer(c) - before);
            assertEquals(1.0, count(metrics, SinkMetrics.CACHE_HITS));
            assertEquals(1.0, count(metrics, SinkMetrics.CACHE_MISSES));
            assertEquals(1.0, count(metrics, SinkMetrics.STATEMENTS_PREPARED));
            cache.close();
            assertEquals(0, openOnServer(c) - before);
            assertEquals(0, policy.openStatements());
        }
    }

    private static int selectPlusOne(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void aReleasedStatementKeepsItsParametersAcrossTransactionsWithinTheHeldBytesBudget() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(3, -1, 1, 1, metrics);
        long budget = ConnectionStatementCache.HELD_BYTES;
        try (Connection c = ds.getConnection()) {
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy);
            ConnectionStatementCache.Lease a = cache.acquire("SELECT ? + 1");
            a.statement().setInt(1, 41);
            assertEquals(42, selectPlusOne(a.statement()));
            a.release(100);
            a.release(100);
            assertEquals(1, cache.heldCount(), "held once, however often it was handed back");
            assertEquals(100, cache.heldBytes(), "counted once too");
            cache.trimHeld();
            // a later transaction: the driver still has its value (every caller binds all of them)
            ConnectionStatementCache.Lease b = cache.acquire("SELECT ? + 1");
            assertSame(a.statement(), b.statement());
            assertEquals(42, selectPlusOne(b.statement()), "under the budget, trimming keeps the bindings");
            b.release(budget / 2);
            ConnectionStatementCache.Lease d = cache.acquire("SELECT ? + 2");
            d.statement().setInt(1, 40);
            assertEquals(42, selectPlusOne(d.statement()));
            d.release(budget / 2 + 1);
            assertEquals(budget + 1, cache.heldBytes());
            cache.trimHeld();
            // over the budget: the least recently used ('SELECT ? + 1') goes first, and that is enough
            assertEquals(1, cache.heldCount());
            assertEquals(budget / 2 + 1, cache.heldBytes());
            ConnectionStatementCache.Lease e = cache.acquire("SELECT ? + 1");
            SQLException unbound = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> selectPlusOne(e.statement()));
            assertTrue(unbound.getMessage().contains("parameter"), unbound.getMessage());
            e.release(0);
            ConnectionStatementCache.Lease f = cache.acquire("SELECT ? + 2");
            assertEquals(42, selectPlusOne(f.statement()), "the most recently used kept its binding");
            f.release(budget / 2 + 1);
            // an evicted (closed) statement is no longer held, and its bytes no longer count
            cache.acquire("SELECT ? + 3").release(10);
            cache.acquire("SELECT ? + 4").release(10);
            assertTrue(e.statement().isClosed(), "'SELECT ? + 1', the least recently used, was evicted");
            assertEquals(3, cache.heldCount(), "the evicted one went with its eviction");
            assertEquals(budget / 2 + 1 + 20, cache.heldBytes());
            // a failed transaction clears them all, whatever the budget
            cache.clearHeld();
            assertEquals(0, cache.heldCount());
            assertEquals(0, cache.heldBytes());
            cache.close();
        }
    }

    @Test
    void theLeastRecentlyUsedStatementIsEvictedAndClosedOnTheServer() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(3, -1, 1, 1, metrics);
        try (Connection c = ds.getConnection()) {
            long before = openOnServer(c);
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy);
            for (int i = 0; i < 10; i++) {
                cache.acquire("SELECT " + i + " + ?").release();
                assertTrue(openOnServer(c) - before <= 3, "never more than the limit open on the server");
            }
            assertEquals(3, cache.size());
            assertEquals(3, openOnServer(c) - before);
            assertEquals(7.0, count(metrics, SinkMetrics.CACHE_EVICTIONS));
            // "SELECT 9" was used last, so it is still cached; "SELECT 0" was evicted
            cache.acquire("SELECT 9 + ?").release();
            assertEquals(1.0, count(metrics, SinkMetrics.CACHE_HITS));
            cache.close();
            assertEquals(0, openOnServer(c) - before);
        }
    }

    @Test
    void theGlobalBudgetIsSharedByAllConnections() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        // 8 statements on the server, 2 connections, 2 tasks: 8 / 2 / 2 / 2 = 1 per connection
        StatementCachePolicy policy = StatementCachePolicy.of(100, 8, 2, 2, metrics);
        assertEquals(1, policy.perConnectionLimit());
        assertEquals(2, policy.globalLimit());
        try (Connection c1 = ds.getConnection(); Connection c2 = ds.getConnection()) {
            ConnectionStatementCache a = new ConnectionStatementCache(c1, policy);
            ConnectionStatementCache b = new ConnectionStatementCache(c2, policy);
            a.acquire("SELECT 1 + ?").release();
            b.acquire("SELECT 2 + ?").release();
            a.acquire("SELECT 3 + ?").release();
            assertEquals(2, policy.openStatements());
            assertEquals(2, policy.peakStatements());
            a.close();
            b.close();
        }
    }

    @Test
    void aStatementThatCannotBePreparedIsSentAsTextAndCounted() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(8, -1, 1, 1, metrics);
        // more placeholders than a server-side statement may have (65,535): the server refuses to prepare it
        int n = 70_000;
        StringBuilder sql = new StringBuilder("SELECT 1 IN (?");
        for (int i = 1; i < n; i++) sql.append(",?");
        sql.append(')');
        try (Connection c = ds.getConnection()) {
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy);
            ConnectionStatementCache.Lease lease = cache.acquire(sql.toString());
            assertFalse(lease.cached());
            PreparedStatement ps = lease.statement();
            for (int i = 1; i <= n; i++) ps.setInt(i, i == n ? 1 : 2);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertEquals(1, rs.getInt(1), "the last of 70,000 parameters was bound");
            }
            lease.release();
            assertEquals(1.0, count(metrics, SinkMetrics.STATEMENTS_TEXT_FALLBACK));
            assertEquals(0, policy.openStatements(), "a failed prepare returns its budget");
            cache.close();
        }
    }

    @Test
    void aZeroBudgetSendsEverythingAsText() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(0, -1, 1, 1, metrics);
        try (Connection c = ds.getConnection()) {
            long before = openOnServer(c);
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy);
            ConnectionStatementCache.Lease lease = cache.acquire("SELECT ? + 1");
            assertFalse(lease.cached());
            lease.release();
            assertEquals(0, openOnServer(c) - before);
            cache.close();
        }
    }

    private static final MariaDbDialect DIALECT = new MariaDbDialect();

    private static String table(String name) {
        return DIALECT.qualified(db.name(), name);
    }

    private static String insert(String name, int rows) {
        return "INSERT INTO " + table(name) + " (id, v) VALUES (?, ?)" + ", (?, ?)".repeat(rows - 1);
    }

    @Test
    void aDdlEvictsAndClosesTheStatementsOfTheTablesItChangedOnly() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(8, -1, 1, 1, metrics);
        TableChanges changes = new TableChanges();
        try (Connection c = ds.getConnection()) {
            long before = openOnServer(c);
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy, changes);
            PreparedStatement a1 = cache.acquire(table("a"), insert("a", 1)).statement();
            cache.acquire(table("a"), insert("a", 8)).release();
            PreparedStatement b1 = cache.acquire(table("b"), insert("b", 1)).statement();
            // a statement of no known table: any DDL takes it
            cache.acquire("SELECT ? + 1").release();
            assertEquals(4, openOnServer(c) - before);

            // told by the DDL side, compared without case; nothing is closed until the owner looks
            changes.tablesChanged(List.of(DIALECT.qualified(db.name().toUpperCase(), "A")));
            assertEquals(4, cache.size());
            assertEquals(3, cache.evictChanged());
            assertEquals(0, cache.evictChanged(), "once");
            assertTrue(a1.isClosed());
            assertFalse(b1.isClosed());
            assertEquals(1, cache.size());
            assertEquals(1, openOnServer(c) - before, "the evicted statements are closed on the server");
            assertEquals(1, policy.openStatements(), "their budget is returned");
            assertEquals(3.0, count(metrics, SinkMetrics.CACHE_EVICTIONS));

            // b's statement is still the cached one, a's is prepared anew
            assertSame(b1, cache.acquire(table("b"), insert("b", 1)).statement());
            ConnectionStatementCache.Lease again = cache.acquire(table("a"), insert("a", 1));
            assertNotSame(a1, again.statement());
            again.statement().setInt(1, 1);
            again.statement().setString(2, "x");
            assertEquals(1, again.statement().executeUpdate());
            again.release();
            c.rollback();
            assertEquals(1.0, count(metrics, SinkMetrics.CACHE_HITS));
            assertEquals(5.0, count(metrics, SinkMetrics.CACHE_MISSES));
            cache.close();
            assertEquals(0, openOnServer(c) - before);
            assertEquals(0, policy.openStatements());
        }
    }

    @Test
    void aDdlWhoseTablesAreUnknownEvictsEveryStatementBeforeTheNextOneIsHandedOut() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(8, -1, 1, 1, metrics);
        TableChanges changes = new TableChanges();
        try (Connection c = ds.getConnection()) {
            long before = openOnServer(c);
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy, changes);
            PreparedStatement a1 = cache.acquire(table("a"), insert("a", 1)).statement();
            PreparedStatement b1 = cache.acquire(table("b"), insert("b", 1)).statement();
            // database-level: its tables cannot be named
            assertNull(changes.ddlRan(io.cdcconnect.sink.ddl.sql.MySqlDdlParser.parse("ALTER DATABASE `" + db.name() + "` CHARACTER SET utf8mb4").changedTables(),
                    db.name(), s -> s, DIALECT::qualified));
            // no explicit evictChanged: the next acquire looks first
            PreparedStatement b2 = cache.acquire(table("b"), insert("b", 1)).statement();
            assertNotSame(b1, b2);
            assertTrue(a1.isClosed() && b1.isClosed());
            assertEquals(1, cache.size());
            assertEquals(1, openOnServer(c) - before);
            assertEquals(2.0, count(metrics, SinkMetrics.CACHE_EVICTIONS));
            cache.close();
        }
    }

    @Test
    void aDdlRunOnAnotherThreadIsSeenByTheCachesOwner() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(8, -1, 2, 1, metrics);
        TableChanges changes = new TableChanges();
        try (Connection c1 = ds.getConnection(); Connection c2 = ds.getConnection()) {
            ConnectionStatementCache w1 = new ConnectionStatementCache(c1, policy, changes);
            ConnectionStatementCache w2 = new ConnectionStatementCache(c2, policy, changes);
            PreparedStatement a1 = w1.acquire(table("a"), insert("a", 1)).statement();
            PreparedStatement a2 = w2.acquire(table("a"), insert("a", 1)).statement();
            PreparedStatement b2 = w2.acquire(table("b"), insert("b", 1)).statement();
            // the task thread runs DROP TABLE a: both connections' statements of a go, not b's
            Thread ddl = new Thread(() -> changes.ddlRan(io.cdcconnect.sink.ddl.sql.MySqlDdlParser.parse("DROP TABLE IF EXISTS `a` /* generated by server */").changedTables(),
                    db.name(), s -> s, DIALECT::qualified));
            ddl.start();
            ddl.join();
            assertEquals(1, w1.evictChanged());
            assertEquals(1, w2.evictChanged());
            assertTrue(a1.isClosed() && a2.isClosed());
            assertSame(b2, w2.acquire(table("b"), insert("b", 1)).statement());
            assertEquals(1, policy.openStatements());
            w1.close();
            w2.close();
            assertEquals(0, policy.openStatements());
        }
    }
}
