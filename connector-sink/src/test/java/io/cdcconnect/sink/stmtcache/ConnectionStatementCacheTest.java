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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    }

    @AfterAll
    static void tearDown() throws Exception {
        ds.close();
        db.close();
    }

    private static long openOnServer(Connection c) throws SQLException {
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
}
