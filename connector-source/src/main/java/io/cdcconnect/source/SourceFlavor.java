package io.cdcconnect.source;

import java.util.Locale;

/**
 * Which Debezium binlog connector reads the server. MariaDB and MySQL diverge in GTIDs, privileges and binlog events,
 * so Debezium ships one connector for each; everything after the Debezium record is shared.
 */
public enum SourceFlavor {
    MARIADB("io.debezium.connector.mariadb.MariaDbConnector", "io.debezium.connector.mariadb.MariaDbConnectorTask",
            "jdbc:mariadb://"),
    MYSQL("io.debezium.connector.mysql.MySqlConnector", "io.debezium.connector.mysql.MySqlConnectorTask",
            "jdbc:mysql://");

    private final String connectorClass;
    private final String taskClass;
    private final String jdbcPrefix;

    SourceFlavor(String connectorClass, String taskClass, String jdbcPrefix) {
        this.connectorClass = connectorClass;
        this.taskClass = taskClass;
        this.jdbcPrefix = jdbcPrefix;
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
