package io.cdcconnect.testsupport.db;

/** The database families the connectors talk to. */
public enum Flavor {
    MARIADB("MariaDB"),
    MYSQL("MySQL"),
    TIDB("TiDB");

    private final String label;

    Flavor(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
