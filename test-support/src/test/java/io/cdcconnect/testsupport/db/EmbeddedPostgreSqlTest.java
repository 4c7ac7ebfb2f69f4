package io.cdcconnect.testsupport.db;

import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The PostgreSQL tests get from {@link TestServers#postgres()}: the embedded one (zonky's binaries, run as another user
 * when the build runs as root) unless a property names a server. Skipped, with the reason, where none can be had.
 */
class EmbeddedPostgreSqlTest {

    @Test
    void aFreshDatabaseTakesRealStatementsAndIsDroppedWithConnectionsStillOpen() throws SQLException {
        DatabaseServer server = TestServers.postgres();
        assertEquals(Flavor.POSTGRES, server.spec().flavor());
        String dbName;
        Connection leftOpen;
        try (TestDatabase db = new TestDatabase(server, "PgSmoke")) {
            dbName = db.name();
            assertTrue(dbName.startsWith("pgsmoke_"), "lower-cased, so SQL may name it unquoted: " + dbName);
            assertEquals(server.jdbcUrl(dbName), db.jdbcUrl());
            assertTrue(db.jdbcUrl().startsWith("jdbc:postgresql://" + server.host() + ":" + server.port() + "/" + dbName),
                    db.jdbcUrl());
            db.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT NOT NULL, price NUMERIC(10, 2), "
                            + "at TIMESTAMPTZ DEFAULT '2024-01-02 03:04:05+00')",
                    "INSERT INTO items (id, name, price) VALUES (1, 'ä€😀', 9.99), (2, 'two', NULL)",
                    "UPDATE items SET price = 1.50 WHERE id = 2");
            assertEquals(List.of(List.of("1", "ä€😀", "9.99"), List.of("2", "two", "1.50")),
                    db.query("SELECT id, name, price FROM items ORDER BY id"));
            assertEquals(2, db.count("items"));
            assertEquals(List.of(List.of(dbName, "UTF8", "public")),
                    db.query("SELECT current_database(), pg_encoding_to_char(encoding), current_schema() "
                            + "FROM pg_database WHERE datname = current_database()"));
            String version = db.query("SHOW server_version").get(0).get(0);
            assertEquals(version, server.serverVersion());
            if (server instanceof EmbeddedPostgreSql) {
                assertTrue(version.startsWith(EmbeddedPostgreSql.MAJOR + "."), version);
            }
            leftOpen = db.connect(); // as a connector's pool would leave it: the drop must not wait for it
        }
        try (leftOpen) {
            assertFalse(databaseExists(server, dbName), dbName + " still exists");
        }
    }

    @Test
    void theEmbeddedServerIsItsOwnNotTheMachinesOnPort5432() throws SQLException {
        DatabaseServer server = TestServers.postgres();
        assumeTrue(server instanceof EmbeddedPostgreSql, "a server named by a property is used: " + server.provenance());
        EmbeddedPostgreSql pg = (EmbeddedPostgreSql) server;
        assertEquals("127.0.0.1", pg.host());
        assertNotEquals(5432, pg.port());
        try (Connection c = pg.connect(null)) {
            var rs = c.createStatement().executeQuery(
                    "SELECT inet_server_port(), current_setting('data_directory'), current_setting('fsync'), "
                            + "current_setting('max_prepared_transactions'), current_user, "
                            + "(SELECT rolsuper FROM pg_roles WHERE rolname = current_user)");
            rs.next();
            assertEquals(pg.port(), rs.getInt(1), "the server answering is the one started");
            assertEquals(pg.dataDir().toString(), rs.getString(2));
            assertEquals("off", rs.getString(3));
            assertEquals("0", rs.getString(4));
            assertEquals(EmbeddedPostgreSql.USER, rs.getString(5));
            assertTrue(rs.getBoolean(6), "the test user is a superuser");
        }
        // password authentication over TCP: a wrong password is refused
        SQLException refused = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(pg.jdbcUrl(null), EmbeddedPostgreSql.USER, "wrong").close());
        assertEquals("28P01", refused.getSQLState(), refused.getMessage());
    }

    @Test
    void aServerOfItsOwnStopsAndRestartsOnTheSamePortWithItsData() throws SQLException {
        DatabaseServer server = TestServers.startDatabase(DatabaseSpec.postgres(), TestServers.workDir("pg-outage"));
        try {
            EmbeddedPostgreSql pg = assertInstanceOf(EmbeddedPostgreSql.class, server);
            pg.execute("CREATE TABLE kept (id INT PRIMARY KEY)", "INSERT INTO kept VALUES (7)");
            pg.stopServer();
            assertFalse(pg.isRunning());
            SQLException down = assertThrows(SQLException.class, () -> pg.connect(null).close());
            assertEquals("08001", down.getSQLState(), down.getMessage()); // connection refused
            pg.restart();
            assertTrue(pg.isRunning());
            try (Connection c = pg.connect(null)) {
                var rs = c.createStatement().executeQuery("SELECT id FROM kept");
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
            }
        } finally {
            server.close();
        }
    }

    private static boolean databaseExists(DatabaseServer server, String name) throws SQLException {
        try (Connection c = server.connect(null);
             var ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            ps.setString(1, name);
            return ps.executeQuery().next();
        }
    }
}
