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
