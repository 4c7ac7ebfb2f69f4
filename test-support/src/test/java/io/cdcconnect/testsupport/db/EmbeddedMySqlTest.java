package io.cdcconnect.testsupport.db;

import io.cdcconnect.testsupport.servers.EmbeddedProvider;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The MySQL 8.0 tests get from {@link TestServers}: the embedded MySQL 8.0.15, configured as a binlog source (ROW,
 * FULL, GTIDs) with a {@code caching_sha2_password} user; MySQL 8.4 is still the containers' only. Skipped, with the
 * reason, where the embedded server cannot run.
 */
class EmbeddedMySqlTest {

    @Test
    void mysql80IsEmbeddedAndMysql84IsNot() {
        EmbeddedProvider embedded = new EmbeddedProvider();
        String why80 = embedded.whyNot(DatabaseSpec.mysql("8.0"));
        assumeTrue(why80 == null, "no embedded MySQL 8.0 here: " + why80);
        assertNull(embedded.whyNot(DatabaseSpec.mysql("8.0").withoutBinlog()));
        String why84 = embedded.whyNot(DatabaseSpec.mysql("8.4"));
        assertTrue(why84 != null && why84.startsWith("MySQL 8.4 has no embedded distribution on Maven Central"), why84);
        assertTrue(why84.contains("containers profile"), why84);
    }

    @Test
    void aSourceServerWithGtidsAndCachingSha2LoginSurvivesARestart(TestReporter report) throws Exception {
        DatabaseSpec spec = DatabaseSpec.mysql("8.0");
        assumeTrue(new EmbeddedProvider().whyNot(spec) == null, () -> new EmbeddedProvider().whyNot(spec));
        long t0 = System.nanoTime();
        DatabaseServer server = TestServers.startDatabase(spec, TestServers.workDir("mysql8-own"));
        long startMs = (System.nanoTime() - t0) / 1_000_000;
        try {
            assumeTrue(server instanceof EmbeddedMySql, "a server named by a property: " + server.provenance());
            EmbeddedMySql mysql = (EmbeddedMySql) server;
            report.publishEntry("server", server.describe() + ", ready in " + startMs + " ms");
            System.out.println("EmbeddedMySqlTest: " + server.describe() + ", ready in " + startMs + " ms");
            assertTrue(server.serverVersion().startsWith(EmbeddedMySql.RELEASE), server.serverVersion());
            try (TestDatabase db = new TestDatabase(server, "mysql8_smoke")) {
                assertEquals(List.of(List.of("1", "ROW", "FULL", "ON", "ON", "+00:00", "utf8mb4")),
                        db.query("SELECT @@log_bin, @@binlog_format, @@binlog_row_image, @@gtid_mode, "
                                + "@@enforce_gtid_consistency, @@time_zone, @@character_set_server"));
                // the tests' user logs in with MySQL 8's default authentication, over TCP
                assertEquals(List.of(List.of("caching_sha2_password")), db.query(
                        "SELECT plugin FROM mysql.user WHERE user = '" + server.user() + "' AND host = '%'"));
                SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(
                        server.jdbcUrl(null), server.user(), "not-the-password").close());
                assertTrue(refused.getMessage().contains("Access denied"), refused.getMessage());
                db.exec("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
                String gtids = db.query("SELECT @@gtid_executed").get(0).get(0);
                assertTrue(gtids.matches("[0-9a-f-]{36}:1-\\d+"), "the writes got GTIDs: " + gtids);
                mysql.stopServer();
                assertFalse(mysql.isRunning());
                assertThrows(SQLException.class, () -> DriverManager.getConnection(server.jdbcUrl(null),
                        server.user(), server.password()).close());
                mysql.restart();
                assertEquals(List.of(List.of("1", "a"), List.of("2", "b")), db.query("SELECT id, v FROM t ORDER BY id"));
            }
        } finally {
            server.close();
        }
        assertFalse(listening(server.port()), "the server still listens after close");
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
