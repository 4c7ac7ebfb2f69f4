package io.cdcconnect.testsupport.db;

/** The database families the connectors talk to. */
public enum Flavor {
    MARIADB("MariaDB"),
    MYSQL("MySQL"),
    TIDB("TiDB"),
    /** A sink target only: no binlog, another protocol (JDBC URLs {@code jdbc:postgresql://}), double-quoted names. */
    POSTGRES("PostgreSQL");

    private final String label;

    Flavor(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether it speaks MySQL's protocol (a {@code jdbc:mysql://} URL, backquoted names, databases as schemas). */
    public boolean mysqlProtocol() {
        return this != POSTGRES;
    }

    /** {@code name} quoted as an identifier of this family's SQL: {@code `name`}, or {@code "name"} for PostgreSQL. */
    public String quote(String name) {
        String q = mysqlProtocol() ? "`" : "\"";
        return q + name.replace(q, q + q) + q;
    }
}
