package io.cdcconnect.verify;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What differs between the two families of databases the verifier reads: how names are quoted, where a table's
 * "schema" sits in JDBC metadata (MySQL's databases are catalogs, PostgreSQL's schemas are schemas), and the system
 * schemas never compared.
 */
enum SqlFamily {
    /** MySQL, MariaDB, TiDB (mysql-connector-j). */
    MYSQL(Set.of("mysql", "information_schema", "performance_schema", "sys")),
    POSTGRES(Set.of("pg_catalog", "information_schema", "pg_toast"));

    private final Set<String> systemSchemas;

    SqlFamily(Set<String> systemSchemas) {
        this.systemSchemas = systemSchemas;
    }

    static SqlFamily of(Connection c) throws SQLException {
        String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("postgres")) return POSTGRES;
        if (product.contains("mysql") || product.contains("mariadb") || product.contains("tidb")) return MYSQL;
        throw new SQLException("unsupported database " + product + ": cdc-verify reads MySQL, MariaDB, TiDB and PostgreSQL");
    }

    static SqlFamily ofUrl(String url) {
        return url != null && url.startsWith("jdbc:postgresql:") ? POSTGRES : MYSQL;
    }

    /** The URL prefixes of the drivers cdc-verify ships (MySQL Connector/J, PgJDBC), and the family each serves. */
    private static final List<String> MYSQL_PREFIXES = List.of("jdbc:mysql:", "jdbc:mysql+srv:");
    private static final String POSTGRES_PREFIX = "jdbc:postgresql:";
    static final String URL_FORMS = "jdbc:mysql://host:3306/ (MySQL, MariaDB, TiDB) or "
            + "jdbc:postgresql://host:5432/database (PostgreSQL)";

    /**
     * Why {@code url} cannot be compared (not a JDBC URL, or one of a database cdc-verify does not read), or null
     * when one of the drivers serves it: decided from the text alone, before any connection. {@code shown} is the URL
     * as it may be printed (its password masked).
     */
    static String unsupportedUrl(String url, String shown) {
        String lower = url == null ? "" : url.trim().toLowerCase(Locale.ROOT);
        if (lower.startsWith(POSTGRES_PREFIX) || MYSQL_PREFIXES.stream().anyMatch(lower::startsWith)) return null;
        if (!lower.startsWith("jdbc:")) {
            return "'" + shown + "' is not a JDBC URL: write " + URL_FORMS;
        }
        int colon = lower.indexOf(':', "jdbc:".length());
        String scheme = colon < 0 ? lower : lower.substring(0, colon + 1);
        if (scheme.equals("jdbc:mariadb:")) {
            return "jdbc:mariadb: URLs are not read (cdc-verify ships MySQL Connector/J and PgJDBC only): write "
                    + "jdbc:mysql://host:3306/ for MariaDB too";
        }
        return scheme + " is a database cdc-verify does not compare: it reads " + URL_FORMS;
    }

    String quote(String name) {
        return this == MYSQL ? "`" + name.replace("`", "``") + "`" : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    String qualified(String schema, String table) {
        return quote(schema) + "." + quote(table);
    }

    boolean isSystemSchema(String schema) {
        return systemSchemas.contains(schema.toLowerCase(Locale.ROOT));
    }

    /** The schemas (MySQL: databases) of the server, system ones left out. */
    List<String> schemas(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        DatabaseMetaData md = c.getMetaData();
        try (ResultSet rs = this == MYSQL ? md.getCatalogs() : md.getSchemas()) {
            while (rs.next()) {
                String s = rs.getString(1);
                if (!isSystemSchema(s) && !s.startsWith("pg_temp") && !s.startsWith("pg_toast")) out.add(s);
            }
        }
        return out;
    }

    /** The base tables of {@code schema}. */
    List<String> tables(Connection c, String schema) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getTables(catalog(schema), schemaPattern(schema), "%",
                new String[] {this == MYSQL ? "TABLE" : "TABLE", "PARTITIONED TABLE"})) {
            while (rs.next()) out.add(rs.getString("TABLE_NAME"));
        }
        return out;
    }

    /** The catalog argument of DatabaseMetaData calls for {@code schema}. */
    String catalog(String schema) {
        return this == MYSQL ? schema : null;
    }

    String schemaPattern(String schema) {
        return this == MYSQL ? null : schema;
    }

    /** A query's row limit and offset, for the chunk planner. */
    String limitOffset(long limit, long offset) {
        return " LIMIT " + limit + " OFFSET " + offset;
    }
}
