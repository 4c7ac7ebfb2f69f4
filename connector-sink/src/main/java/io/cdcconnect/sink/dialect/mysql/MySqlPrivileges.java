package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the connected user of a MySQL, MariaDB or TiDB server may do, read from {@code information_schema}'s
 * USER_PRIVILEGES (global), SCHEMA_PRIVILEGES (per database, with LIKE wildcards) and TABLE_PRIVILEGES (per table).
 * Lenient where the server cannot tell: privileges through an active role are not listed there, so a user with one is
 * not checked; a privilege granted on some tables of a database counts as held there.
 */
final class MySqlPrivileges {

    /** Rows are written with these; MySQL also needs SELECT for the columns an UPDATE or DELETE matches on. */
    static final List<String> DATA = List.of("SELECT", "INSERT", "UPDATE", "DELETE");

    /** The sink's own tables: created if missing, then read and written. */
    static final List<String> CONTROL = List.of("CREATE", "SELECT", "INSERT", "UPDATE", "DELETE");

    /** The privileges each kind of DDL statement needs (TRUNCATE needs DROP; RENAME needs ALTER, DROP, CREATE, INSERT). */
    static final Map<Kind, List<String>> DDL = new EnumMap<>(Map.of(
            Kind.CREATE_TABLE, List.of("CREATE"), Kind.ALTER_TABLE, List.of("ALTER"), Kind.DROP_TABLE, List.of("DROP"),
            Kind.TRUNCATE_TABLE, List.of("DROP"), Kind.RENAME_TABLE, List.of("ALTER", "DROP", "CREATE", "INSERT"),
            Kind.CREATE_INDEX, List.of("INDEX"), Kind.DROP_INDEX, List.of("INDEX"), Kind.CREATE_DATABASE,
            List.of("CREATE"), Kind.ALTER_DATABASE, List.of("ALTER"), Kind.DROP_DATABASE, List.of("DROP")));

    private final String user;
    private final Set<String> global;
    /** database pattern (LIKE syntax) -> privileges */
    private final Map<Pattern, Set<String>> perDatabase;
    /** database (lower case) -> privileges held on some of its tables */
    private final Map<String, Set<String>> perTable;

    private MySqlPrivileges(String user, Set<String> global, Map<Pattern, Set<String>> perDatabase,
                            Map<String, Set<String>> perTable) {
        this.user = user;
        this.global = global;
        this.perDatabase = perDatabase;
        this.perTable = perTable;
    }

    /** The messages of {@link io.cdcconnect.sink.dialect.SqlDialect#missingPrivileges}. */
    static List<String> missing(Connection c, Set<String> dataSchemas, Set<Kind> ddl, String controlSchema)
            throws SQLException {
        MySqlPrivileges p = read(c);
        if (p == null) return List.of();
        Set<String> needed = new LinkedHashSet<>(DATA);
        for (Kind k : ddl) needed.addAll(DDL.getOrDefault(k, List.of()));
        List<String> out = new ArrayList<>();
        if (dataSchemas.isEmpty()) {
            List<String> lacking = new ArrayList<>();
            for (String priv : needed) {
                if (!p.heldAnywhere(priv)) lacking.add(priv);
            }
            if (!lacking.isEmpty()) {
                out.add(p.user + " lacks " + String.join(", ", lacking) + " on every database; grant them on the "
                        + "databases the sink writes (GRANT " + String.join(", ", lacking) + " ON `db`.* TO " + p.user
                        + ")");
            }
        } else {
            for (String schema : dataSchemas) out.addAll(p.lacks(schema, needed));
        }
        if (controlSchema != null && !controlSchema.isBlank()) out.addAll(p.lacks(controlSchema, CONTROL));
        return out;
    }

    private List<String> lacks(String schema, Iterable<String> needed) {
        List<String> lacking = new ArrayList<>();
        for (String priv : needed) {
            if (!held(schema, priv)) lacking.add(priv);
        }
        if (lacking.isEmpty()) return List.of();
        return List.of(user + " lacks " + String.join(", ", lacking) + " on database `" + schema + "` (GRANT "
                + String.join(", ", lacking) + " ON `" + schema.replace("`", "``") + "`.* TO " + user + ")");
    }

    private boolean held(String schema, String priv) {
        if (global.contains(priv)) return true;
        for (Map.Entry<Pattern, Set<String>> e : perDatabase.entrySet()) {
            if (e.getValue().contains(priv) && e.getKey().matcher(schema).matches()) return true;
        }
        return perTable.getOrDefault(schema.toLowerCase(Locale.ROOT), Set.of()).contains(priv);
    }

    private boolean heldAnywhere(String priv) {
        if (global.contains(priv)) return true;
        for (Set<String> s : perDatabase.values()) {
            if (s.contains(priv)) return true;
        }
        for (Set<String> s : perTable.values()) {
            if (s.contains(priv)) return true;
        }
        return false;
    }

    /** The user's grants, or null when they cannot be told (an active role, or none listed for the user). */
    private static MySqlPrivileges read(Connection c) throws SQLException {
        String current;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT CURRENT_USER()")) {
            rs.next();
            current = rs.getString(1);
        }
        if (activeRole(c)) return null;
        int at = current.lastIndexOf('@');
        String grantee = at < 0 ? "'" + current + "'"
                : "'" + current.substring(0, at) + "'@'" + current.substring(at + 1) + "'";
        Set<String> global = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = ?")) {
            ps.setString(1, grantee);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) global.add(rs.getString(1).toUpperCase(Locale.ROOT));
            }
        }
        // every account has a row (USAGE at least): none means the name did not match, so nothing can be told
        if (global.isEmpty()) return null;
        Map<Pattern, Set<String>> perDatabase = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, PRIVILEGE_TYPE "
                + "FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = ?")) {
            ps.setString(1, grantee);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    perDatabase.computeIfAbsent(like(rs.getString(1)), k -> new HashSet<>())
                            .add(rs.getString(2).toUpperCase(Locale.ROOT));
                }
            }
        }
        Map<String, Set<String>> perTable = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, PRIVILEGE_TYPE "
                + "FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE = ?")) {
            ps.setString(1, grantee);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    perTable.computeIfAbsent(rs.getString(1).toLowerCase(Locale.ROOT), k -> new HashSet<>())
                            .add(rs.getString(2).toUpperCase(Locale.ROOT));
                }
            }
        }
        return new MySqlPrivileges(grantee, global, perDatabase, perTable);
    }

    /** Whether a role is active (MySQL 8 answers NONE, MariaDB NULL, MySQL 5.7 has no CURRENT_ROLE()). */
    private static boolean activeRole(Connection c) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT CURRENT_ROLE()")) {
            if (!rs.next()) return false;
            String role = rs.getString(1);
            return role != null && !role.isBlank() && !role.equalsIgnoreCase("NONE");
        } catch (SQLException e) {
            return false;
        }
    }

    /** A database name pattern of a GRANT (LIKE: % and _ wildcards, \ escapes), as a case-insensitive regex. */
    static Pattern like(String pattern) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (ch == '\\' && i + 1 < pattern.length()) {
                re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (ch == '%') {
                re.append(".*");
            } else if (ch == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE);
    }
}
