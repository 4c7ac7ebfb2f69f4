package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What the connected role of a PostgreSQL server may do, asked of the server's own privilege functions
 * ({@code has_schema_privilege}, {@code has_table_privilege}, {@code pg_has_role}), so that memberships, PUBLIC
 * grants and superusers count as they do for the statements themselves. A database of the stream is a schema here;
 * ALTER, DROP and TRUNCATE of a table need its ownership.
 */
final class PostgresPrivileges {

    private static final Set<Kind> NEED_OWNERSHIP = EnumSet.of(Kind.ALTER_TABLE, Kind.DROP_TABLE, Kind.TRUNCATE_TABLE,
            Kind.RENAME_TABLE, Kind.CREATE_INDEX, Kind.DROP_INDEX);
    private static final Set<Kind> CREATE_IN_SCHEMA = EnumSet.of(Kind.CREATE_TABLE, Kind.CREATE_INDEX,
            Kind.RENAME_TABLE);
    private static final int LISTED = 5;

    private PostgresPrivileges() {
    }

    static List<String> missing(Connection c, Set<String> dataSchemas, Set<Kind> ddl, String controlSchema)
            throws SQLException {
        String role = single(c, "SELECT current_user");
        String database = single(c, "SELECT current_database()");
        boolean createSchemas = Boolean.parseBoolean(single(c,
                "SELECT has_database_privilege(current_database(), 'CREATE')::text"));
        List<String> out = new ArrayList<>();
        for (String schema : dataSchemas) {
            Boolean[] schemaPrivs = schemaPrivileges(c, schema);
            if (schemaPrivs == null) {
                if (!ddl.isEmpty() && !createSchemas) {
                    out.add("schema \"" + schema + "\" does not exist and role " + role + " may not create it (GRANT "
                            + "CREATE ON DATABASE \"" + database + "\" TO " + role + ", or create the schema)");
                }
                continue;
            }
            if (!schemaPrivs[0]) {
                out.add("role " + role + " lacks USAGE on schema \"" + schema + "\" (GRANT USAGE ON SCHEMA \"" + schema
                        + "\" TO " + role + ")");
                continue;
            }
            if (!schemaPrivs[1] && ddl.stream().anyMatch(CREATE_IN_SCHEMA::contains)) {
                out.add("role " + role + " lacks CREATE on schema \"" + schema + "\", which DDL from the stream needs "
                        + "(GRANT CREATE ON SCHEMA \"" + schema + "\" TO " + role + ")");
            }
            List<String> noDml = tables(c, schema, "NOT (has_table_privilege(c.oid, 'SELECT') AND "
                    + "has_table_privilege(c.oid, 'INSERT') AND has_table_privilege(c.oid, 'UPDATE') AND "
                    + "has_table_privilege(c.oid, 'DELETE'))");
            if (!noDml.isEmpty()) {
                out.add("role " + role + " lacks SELECT, INSERT, UPDATE or DELETE on " + list(schema, noDml)
                        + " (GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \"" + schema + "\" TO "
                        + role + ")");
            }
            if (ddl.stream().anyMatch(NEED_OWNERSHIP::contains)) {
                List<String> notOwned = tables(c, schema, "NOT pg_has_role(c.relowner, 'USAGE')");
                if (!notOwned.isEmpty()) {
                    out.add("role " + role + " does not own " + list(schema, notOwned) + ", and ALTER, DROP and "
                            + "TRUNCATE from the stream need the owner (ALTER TABLE ... OWNER TO " + role
                            + ", or leave those kinds out of ddl.apply)");
                }
            }
        }
        if (controlSchema != null && !controlSchema.isBlank()) {
            Boolean[] p = schemaPrivileges(c, controlSchema);
            if (p == null ? !createSchemas : !(p[0] && p[1])) {
                out.add("role " + role + " cannot create the sink's tables in schema \"" + controlSchema + "\" ("
                        + (p == null ? "GRANT CREATE ON DATABASE \"" + database + "\" TO " + role
                        : "GRANT USAGE, CREATE ON SCHEMA \"" + controlSchema + "\" TO " + role) + ")");
            }
        }
        return out;
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** {USAGE, CREATE} on the schema, or null when it does not exist. */
    private static Boolean[] schemaPrivileges(Connection c, String schema) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT has_schema_privilege(n.oid, 'USAGE'), "
                + "has_schema_privilege(n.oid, 'CREATE') FROM pg_catalog.pg_namespace n WHERE n.nspname = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                return new Boolean[]{rs.getBoolean(1), rs.getBoolean(2)};
            }
        }
    }

    /** Up to a few (plus one, to tell there are more) tables of the schema matching {@code condition}. */
    private static List<String> tables(Connection c, String schema, String condition) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT c.relname FROM pg_catalog.pg_class c "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? "
                + "AND c.relkind IN ('r', 'p') AND " + condition + " ORDER BY c.relname LIMIT " + (LISTED + 1))) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static String list(String schema, List<String> tables) {
        List<String> named = new ArrayList<>();
        for (int i = 0; i < Math.min(LISTED, tables.size()); i++) named.add("\"" + schema + "\".\"" + tables.get(i) + "\"");
        return "table" + (tables.size() > 1 ? "s " : " ") + String.join(", ", named)
                + (tables.size() > LISTED ? " and more" : "");
    }
}
