package io.cdcconnect.source;

import java.util.Locale;

/**
 * Which Debezium binlog connector reads the server. MariaDB and MySQL diverge in GTIDs, privileges and binlog events,
 * so Debezium ships one connector for each; everything after the Debezium record is shared.
 */
public enum SourceFlavor {
    MARIADB("io.debezium.connector.mariadb.MariaDbConnector", "io.debezium.connector.mariadb.MariaDbConnectorTask",
            "jdbc:mariadb://", "org.mariadb.jdbc.Driver"),
    MYSQL("io.debezium.connector.mysql.MySqlConnector", "io.debezium.connector.mysql.MySqlConnectorTask",
            "jdbc:mysql://", "com.mysql.cj.jdbc.Driver");

    private final String connectorClass;
    private final String taskClass;
    private final String jdbcPrefix;
    private final String driverClass;

    SourceFlavor(String connectorClass, String taskClass, String jdbcPrefix, String driverClass) {
        this.connectorClass = connectorClass;
        this.taskClass = taskClass;
        this.jdbcPrefix = jdbcPrefix;
        this.driverClass = driverClass;
    }

    /**
     * A JDBC connection through the flavour's driver, loaded from the plugin's own class loader: DriverManager looks
     * drivers up by the caller's and the thread's class loaders, which inside a Connect worker need not see the
     * plugin's driver.
     */
    public java.sql.Connection connect(String host, int port, java.util.Properties props) throws java.sql.SQLException {
        java.sql.Driver driver;
        try {
            driver = (java.sql.Driver) Class.forName(driverClass, true, SourceFlavor.class.getClassLoader())
                    .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new java.sql.SQLException("JDBC driver " + driverClass + " is not in the plugin folder", e);
        }
        java.sql.Connection c = driver.connect(jdbcUrl(host, port), props);
        if (c == null) throw new java.sql.SQLException(driverClass + " refused URL " + jdbcUrl(host, port));
        return c;
    }

    /** Debezium's connector class; Debezium's task needs it as {@code connector.class} to pick its services. */
    public String debeziumConnectorClass() {
        return connectorClass;
    }

    public String debeziumTaskClass() {
        return taskClass;
    }

    public String jdbcUrl(String host, int port) {
        return jdbcPrefix + host + ":" + port + "/";
    }

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SourceFlavor parse(String name) {
        switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
            case "": case "mariadb": return MARIADB;
            case "mysql": return MYSQL;
            default: throw new IllegalArgumentException("unknown source.flavor '" + name + "' (expected mariadb or mysql)");
        }
    }
}
