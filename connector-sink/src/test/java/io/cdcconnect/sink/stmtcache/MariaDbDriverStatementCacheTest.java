package io.cdcconnect.sink.stmtcache;

import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dialect.mysql.MariaDbConnectorJ;
import io.cdcconnect.sink.dialect.mysql.MariaDbDialect;
import io.cdcconnect.sink.metrics.SinkMetrics;
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
 * The statement cache over MariaDB Connector/J, which the MariaDB dialect chooses for a plain URL: a cached statement
 * is prepared on the server when the cache makes it (the driver itself would wait for a DML statement's first
 * execution), a statement the server will not prepare goes as text, and text means no server-side statement.
 * Server-side statements of a session are counted with its own Com_stmt_prepare - Com_stmt_close.
 */
class MariaDbDriverStatementCacheTest {

    private static TestDatabase db;
    private static HikariDataSource ds;
    private static SqlDialect dialect;

    @BeforeAll
    static void setUp() throws Exception {
        db = SinkTarget.database("stmtcache_mdb");
        String url = SinkTarget.url() + db.name();
        MariaDbDialect start = new MariaDbDialect();
        try (Connection probe = DataSources.connect(start, url, SinkTarget.user(), SinkTarget.password(),
                "preferred", 10_000)) {
            dialect = start.chooseDriver(probe, MariaDbConnectorJ.SETTING_AUTO, url, "preferred");
            try (Connection kept = DataSources.connect(start, url, SinkTarget.user(), SinkTarget.password(),
                    "preferred", 10_000)) {
                assertEquals(start.driverClass(), start.chooseDriver(kept, MariaDbConnectorJ.SETTING_MYSQL, url,
                        "preferred").driverClass(), "connection.driver=mysql-connector-j keeps mysql-connector-j");
            }
        }
        assertEquals(MariaDbConnectorJ.DRIVER_CLASS, dialect.driverClass());
        ds = DataSources.create(dialect, url, SinkTarget.user(), SinkTarget.password(), "preferred", 2, "+00:00",
                "stmtcache-mdb-test", 0);
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            assertTrue(c.isWrapperFor(org.mariadb.jdbc.Connection.class), "the pool's connections are MariaDB's");
            st.execute("CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(10))");
            c.commit();
        }
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (ds != null) ds.close();
        if (db != null) db.close();
    }

    private static long openOnServer(Connection c) throws SQLException {
        return ConnectionStatementCacheTest.openOnServer(c);
    }

    private static String insert(int rows) {
        return "INSERT INTO " + dialect.qualified(db.name(), "a") + " (id, v) VALUES (?, ?)"
                + ", (?, ?)".repeat(rows - 1) + " ON DUPLICATE KEY UPDATE v = VALUES(v)";
    }

    @Test
    void aCachedInsertIsPreparedWhenMadeAndReusedAcrossExecutions() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(8, -1, 1, 1, metrics);
        try (Connection c = ds.getConnection()) {
            long before = openOnServer(c);
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy);
            ConnectionStatementCache.Lease a = cache.acquire(insert(2));
            assertTrue(a.cached());
            assertEquals(1, openOnServer(c) - before, "prepared on the server before any execution");
            PreparedStatement ps = a.statement();
            ps.setInt(1, 1);
            ps.setString(2, "x");
            ps.setInt(3, 2);
            ps.setString(4, "y");
            ps.executeUpdate();
            a.release();
            ConnectionStatementCache.Lease b = cache.acquire(insert(2));
            assertSame(a.statement(), b.statement());
            b.statement().setInt(1, 1);
            b.statement().setString(2, "z");
            b.statement().setInt(3, 3);
            b.statement().setString(4, "w");
            b.statement().executeUpdate();
            b.release();
            c.commit();
            assertEquals(1, openOnServer(c) - before, "one server-side statement for both executions");
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT GROUP_CONCAT(id, v ORDER BY id) FROM "
                         + dialect.qualified(db.name(), "a") + " WHERE id < 10")) {
                rs.next();
                assertEquals("1z,2y,3w", rs.getString(1));
            }
            cache.close();
            assertEquals(0, openOnServer(c) - before, "closing the cache closes its statements on the server");
            assertEquals(0, policy.openStatements());
        }
    }

    @Test
    void anInsertTheServerWillNotPrepareIsSentAsTextAndCounted() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(8, -1, 1, 1, metrics);
        int rows = 35_000; // 70,000 placeholders: more than a server-side statement may have (65,535)
        try (Connection c = ds.getConnection()) {
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy);
            ConnectionStatementCache.Lease lease = cache.acquire(insert(rows));
            // the refused prepare counts in Com_stmt_prepare without a close: count from here
            long before = openOnServer(c);
            assertFalse(lease.cached());
            assertEquals(1.0, metrics.value(SinkMetrics.STATEMENTS_TEXT_FALLBACK));
            assertEquals(0, policy.openStatements(), "a failed prepare returns its budget");
            PreparedStatement ps = lease.statement();
            for (int i = 0; i < rows; i++) {
                ps.setInt(2 * i + 1, 1000 + i);
                ps.setString(2 * i + 2, "t");
            }
            assertEquals(rows, ps.executeUpdate());
            lease.release();
            c.commit();
            assertEquals(0, openOnServer(c) - before, "the text statement holds nothing on the server");
            cache.close();
        }
    }

    @Test
    void aZeroBudgetSendsEverythingAsTextWithNoServerSideStatement() throws Exception {
        SinkMetrics metrics = SinkMetrics.inMemory("c", "0");
        StatementCachePolicy policy = StatementCachePolicy.of(0, -1, 1, 1, metrics);
        try (Connection c = ds.getConnection()) {
            long before = openOnServer(c);
            ConnectionStatementCache cache = new ConnectionStatementCache(c, policy);
            ConnectionStatementCache.Lease lease = cache.acquire(insert(1));
            assertFalse(lease.cached());
            lease.statement().setInt(1, 500);
            lease.statement().setString(2, "q");
            assertEquals(1, lease.statement().executeUpdate());
            lease.release();
            c.rollback();
            assertEquals(0, openOnServer(c) - before);
            cache.close();
        }
    }
}
