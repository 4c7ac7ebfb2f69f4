package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.sink.dialect.postgres.ddl.PostgresDdl;
import io.cdcconnect.codec.canal.CanalTypes;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.dialect.ControlSql;
import io.cdcconnect.sink.dialect.ForeignKeyChecks;
import io.cdcconnect.sink.dialect.ServerLimits;
import io.cdcconnect.sink.dialect.SqlFailures;
import io.cdcconnect.sink.dialect.StandardSqlDialect;
import io.cdcconnect.sink.dialect.Unrepresentable;
import io.cdcconnect.sink.dialect.UnsupportedDdlException;
import io.cdcconnect.sink.dialect.ValueConverter;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * PostgreSQL (12 and later) through PgJDBC.
 *
 * <ul>
 *   <li>Every value is bound as text of unspecified type ({@code stringtype=unspecified}), converted by
 *   {@link PostgresValues}: the server types each parameter by its column, so a statement keeps one parameter
 *   signature whatever the values (NULL or not) and stays prepared.</li>
 *   <li>Server-side prepared statements are the sink's own bounded cache's: {@code prepareThreshold=1} prepares a
 *   statement on its first execution, {@code preparedStatementCacheQueries=0} keeps the driver from caching any.</li>
 *   <li>Upserts are {@code INSERT ... ON CONFLICT (identity key) DO UPDATE}; there is no REPLACE, so a row of a table
 *   with several unique keys that clashes with another row on a second key is rejected as a duplicate key.</li>
 *   <li>MySQL DDL from the stream is translated by {@link PostgresDdl}; a database is a schema.</li>
 * </ul>
 */
public final class PostgresDialect extends StandardSqlDialect {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresDialect.class);

    public static final List<String> URL_PREFIXES = List.of("jdbc:postgresql:");

    /** PostgreSQL's largest message is 1 GiB; statements stay far below it. */
    private static final long MAX_STATEMENT_BYTES = 64L << 20;

    private static final Pattern OFFSET = Pattern.compile("([+-])(\\d{1,2}):(\\d{2})");

    private static final String COLUMNS_SQL = "SELECT a.attname, t.typname"
            + " || COALESCE(substring(format_type(a.atttypid, a.atttypmod) from '\\([^)]*\\)'), ''),"
            + " NOT a.attnotnull, a.attgenerated <> '', t.typname = 'citext' OR COALESCE(NOT co.collisdeterministic, false),"
            + " col_description(c.oid, a.attnum)"
            + " FROM pg_catalog.pg_attribute a"
            + " JOIN pg_catalog.pg_class c ON c.oid = a.attrelid"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
            + " LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation"
            + " WHERE n.nspname = ? AND c.relname = ? AND c.relkind IN ('r', 'p') AND a.attnum > 0"
            + " AND NOT a.attisdropped ORDER BY a.attnum";

    private static final String KEYS_SQL = "SELECT ic.relname, i.indisprimary, a.attname"
            + " FROM pg_catalog.pg_index i"
            + " JOIN pg_catalog.pg_class c ON c.oid = i.indrelid"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid"
            + " CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)"
            + " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
            + " WHERE n.nspname = ? AND c.relname = ? AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL"
            + " ORDER BY NOT i.indisprimary, ic.relname, k.ord";

    /** Statements that create a table or an index (their schema must exist first). */
    private static final Pattern CREATES = Pattern.compile("\\s*(?:/\\*.*?\\*/\\s*)*CREATE\\s+(?!DATABASE|SCHEMA)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private static final Set<String> SYSTEM_SCHEMAS = Set.of("pg_catalog", "information_schema", "pg_toast");

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String driverClass() {
        return "org.postgresql.Driver";
    }

    @Override
    public Properties driverProperties(long socketTimeoutMillis) {
        Properties p = new Properties();
        p.setProperty("stringtype", "unspecified");
        p.setProperty("prepareThreshold", "1");
        p.setProperty("preparedStatementCacheQueries", "0");
        p.setProperty("preparedStatementCacheSizeMiB", "0");
        p.setProperty("reWriteBatchedInserts", "false");
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("connectTimeout", "30");
        p.setProperty("ApplicationName", "cdc-connect sink");
        // seconds, at least one
        if (socketTimeoutMillis > 0) {
            p.setProperty("socketTimeout", Long.toString(Math.max(1, (socketTimeoutMillis + 999) / 1000)));
        }
        return p;
    }

    @Override
    public void limitConnectTime(Properties driverProperties, int millis) {
        String seconds = Integer.toString(Math.max(1, (millis + 999) / 1000));
        driverProperties.setProperty("connectTimeout", seconds);
        driverProperties.setProperty("loginTimeout", seconds);
    }

    /** connection.ssl.mode's values as PgJDBC's sslmode spells them. */
    private static final Map<String, String> SSL_MODES = Map.of("disabled", "disable", "preferred", "prefer",
            "required", "require", "verify-ca", "verify-ca", "verify-identity", "verify-full");

    /** sslmode, unless the URL sets sslmode or ssl (PgJDBC reads ssl only when no sslmode is given). */
    @Override
    public void applySslMode(Properties driverProperties, String url, String mode) {
        if (mode == null || !urlTlsSettings(url).isEmpty()) return;
        String sslmode = SSL_MODES.get(mode.toLowerCase(java.util.Locale.ROOT));
        if (sslmode == null) throw new IllegalArgumentException("unknown TLS mode '" + mode + "'");
        driverProperties.setProperty("sslmode", sslmode);
    }

    @Override
    public String effectiveSslMode(String url, String mode) {
        Map<String, String> tls = urlTlsSettings(url);
        if (tls.isEmpty()) return mode;
        String sslmode = tls.get("sslmode");
        if (sslmode != null) {
            if (sslmode.equalsIgnoreCase("allow")) return "preferred";
            for (Map.Entry<String, String> e : SSL_MODES.entrySet()) {
                if (e.getValue().equalsIgnoreCase(sslmode.trim())) return e.getKey();
            }
            return mode;
        }
        // PgJDBC: ssl=true (or ssl alone) without sslmode is verify-full, anything else prefer
        String ssl = tls.get("ssl");
        return ssl.isEmpty() || ssl.equalsIgnoreCase("true") ? "verify-identity" : "preferred";
    }

    /** sslmode and ssl of the URL's query (names in lower case), percent-decoded as PgJDBC decodes them. */
    static Map<String, String> urlTlsSettings(String url) {
        Map<String, String> out = new LinkedHashMap<>();
        int q = url == null ? -1 : url.indexOf('?');
        if (q < 0) return out;
        for (String token : url.substring(q + 1).split("&")) {
            int eq = token.indexOf('=');
            try {
                String key = java.net.URLDecoder.decode(eq < 0 ? token : token.substring(0, eq),
                        java.nio.charset.StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT);
                String value = eq < 0 ? "" : java.net.URLDecoder.decode(token.substring(eq + 1),
                        java.nio.charset.StandardCharsets.UTF_8);
                if (key.equals("sslmode") || key.equals("ssl")) out.put(key, value);
            } catch (IllegalArgumentException e) {
                // PgJDBC refuses the URL itself when it connects, and says why
            }
        }
        return out;
    }

    /** PostgreSQL 12 or later (generated columns, the catalog this dialect reads). */
    @Override
    public String serverMismatch(String configured, String serverVersion) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)").matcher(serverVersion == null ? ""
                : serverVersion);
        if (m.find() && Integer.parseInt(m.group(1)) < 12) {
            return "the target runs " + serverVersion + "; the sink needs PostgreSQL 12 or later";
        }
        return null;
    }

    @Override
    public List<String> missingPrivileges(Connection c, Set<String> dataSchemas,
                                          Set<io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind> ddl, String controlSchema)
            throws SQLException {
        return PostgresPrivileges.missing(c, dataSchemas, ddl, controlSchema);
    }

    /**
     * The session's TimeZone, in which TIMESTAMP text is read into {@code timestamptz}: an ISO offset ("+08:00") as
     * an interval (PostgreSQL reads a bare "+08:00" zone string with POSIX's inverted sign), SYSTEM as the server's
     * default, a name as it is.
     */
    @Override
    public String sessionInitSql(String timeZone) {
        if (timeZone.equalsIgnoreCase("SYSTEM")) return "SET TIME ZONE DEFAULT";
        if (OFFSET.matcher(timeZone).matches()) {
            return "SET TIME ZONE INTERVAL '" + timeZone + "' HOUR TO MINUTE";
        }
        return "SET TIME ZONE '" + timeZone.replace("'", "''") + "'";
    }

    /**
     * With {@code session_replication_role = replica} when {@code foreignKeyChecks} turns checks off: no foreign key
     * trigger fires (checks nor actions), nor any ordinary trigger, as on a logical replication subscriber. PostgreSQL
     * has no way to turn them on for one statement, so {@link ForeignKeyChecks#REPLICA} is
     * {@link ForeignKeyChecks#SERVER} here: the foreign keys the sink creates are DEFERRABLE INITIALLY DEFERRED
     * ({@link PostgresDdl}), checked when a worker's transaction commits.
     */
    @Override
    public String sessionInitSql(String timeZone, ForeignKeyChecks foreignKeyChecks) {
        String base = sessionInitSql(timeZone);
        return foreignKeyChecks.sessionOff() ? base + "; SET session_replication_role = replica" : base;
    }

    @Override
    public boolean canTurnForeignKeyChecksOff() {
        return true;
    }

    @Override
    public ServerLimits readLimits(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW server_version")) {
            rs.next();
            // no server-wide cap on prepared statements: each session holds its own
            return new ServerLimits("PostgreSQL " + rs.getString(1), MAX_STATEMENT_BYTES, -1);
        }
    }

    @Override
    public TargetTable readTable(Connection c, String schema, String table) throws SQLException {
        List<TargetColumn> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(COLUMNS_SQL)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String comment = rs.getString(6);
                    String type = rs.getString(2);
                    // an ENUM/SET translated by PostgresDdl keeps its MySQL definition in its comment
                    if (comment != null && comment.startsWith(PostgresDdl.ELEMENTS_COMMENT)) {
                        type += SOURCE_TYPE_SEPARATOR + comment.substring(PostgresDdl.ELEMENTS_COMMENT.length());
                    }
                    columns.add(new TargetColumn(rs.getString(1), type, rs.getBoolean(5), rs.getBoolean(4),
                            rs.getBoolean(3)));
                }
            }
        }
        if (columns.isEmpty()) return null;
        Map<String, List<String>> keys = new LinkedHashMap<>();
        boolean primary = false;
        try (PreparedStatement ps = c.prepareStatement(KEYS_SQL)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keys.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(3));
                    primary |= rs.getBoolean(2);
                }
            }
        }
        Map<String, List<String[]>> fkRows = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(FOREIGN_KEYS_SQL)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    fkRows.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new String[]{rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)});
                }
            }
        }
        List<TargetTable.ForeignKey> fks = new ArrayList<>();
        for (List<String[]> cols : fkRows.values()) {
            fks.add(new TargetTable.ForeignKey(cols.stream().map(x -> x[0]).toList(), cols.get(0)[1], cols.get(0)[2],
                    cols.stream().map(x -> x[3]).toList()));
        }
        return new TargetTable(schema, table, qualified(schema, table), columns, new ArrayList<>(keys.values()),
                primary, fks);
    }

    /** A table's foreign keys, a row per column in order: name, column, parent schema, table and column. */
    private static final String FOREIGN_KEYS_SQL = "SELECT con.conname, a.attname, pn.nspname, pc.relname, pa.attname"
            + " FROM pg_catalog.pg_constraint con"
            + " JOIN pg_catalog.pg_class c ON c.oid = con.conrelid"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS u(k, fk, ord)"
            + " JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = u.k"
            + " JOIN pg_catalog.pg_class pc ON pc.oid = con.confrelid"
            + " JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace"
            + " JOIN pg_catalog.pg_attribute pa ON pa.attrelid = con.confrelid AND pa.attnum = u.fk"
            + " WHERE con.contype = 'f' AND n.nspname = ? AND c.relname = ? ORDER BY con.conname, u.ord";

    @Override
    public boolean tableExists(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_catalog.pg_tables"
                + " WHERE schemaname = ? AND tablename = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public Set<String> systemSchemas() {
        return SYSTEM_SCHEMAS;
    }

    /** An identifier in double quotes, double quotes doubled; case is kept. */
    @Override
    public String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /**
     * A target column's type as {@link #readTable} gives it: the PostgreSQL type ({@code typname(typmod)}), then, for
     * an ENUM or SET column that PostgresDdl created, this separator and its MySQL definition.
     */
    static final char SOURCE_TYPE_SEPARATOR = '|';

    /**
     * {@link PostgresValues}' converter for the column. ENUM and SET values arrive as indexes; when the message does
     * not list the elements (Canal-JSON's default mode names only the type), they are taken from the MySQL definition
     * the target column recorded when PostgresDdl created it.
     */
    @Override
    public ValueConverter converter(ColumnInfo source, TargetColumn target) {
        String type = target.columnType();
        int sep = type.indexOf(SOURCE_TYPE_SEPARATOR);
        ColumnInfo from = source;
        if (sep >= 0) {
            String mysqlType = type.substring(sep + 1);
            type = type.substring(0, sep);
            if (source.elements().isEmpty()
                    && (source.type() == MySqlType.ENUM || source.type() == MySqlType.SET)) {
                List<String> elements = CanalTypes.parseColumn(source.name(), mysqlType, null, false).elements();
                from = new ColumnInfo(source.name(), source.type(), source.flags(), source.charset(), source.length(),
                        source.scale(), source.fsp(), elements, mysqlType);
            }
        }
        return PostgresValues.converter(from, target.name(), type, target.nullable());
    }

    /** Text of unspecified type, or NULL of unspecified type (see the class comment). */
    @Override
    public void bind(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.VARCHAR);
        } else if (value instanceof String s) {
            ps.setString(index, s);
        } else if (value instanceof Unrepresentable u) {
            throw new Unrepresentable.UnrepresentableValueException(u.reason());
        } else {
            ps.setString(index, value.toString());
        }
    }

    @Override
    public int maxParameters() {
        return 32_767;
    }

    @Override
    public boolean hasReplace() {
        return false;
    }

    @Override
    public String replace(String table, List<String> columns, int rows) {
        throw new UnsupportedOperationException("PostgreSQL has no REPLACE");
    }

    /** {@code INSERT ... ON CONFLICT (key) DO UPDATE SET c = EXCLUDED.c}, or DO NOTHING when every column is key. */
    @Override
    public String upsert(String table, List<String> columns, List<String> keyColumns, int rows) {
        StringBuilder sb = insertLike("INSERT INTO ", table, columns, rows);
        sb.append(" ON CONFLICT (");
        for (int k = 0; k < keyColumns.size(); k++) {
            if (k > 0) sb.append(',');
            sb.append(quote(keyColumns.get(k)));
        }
        sb.append(')');
        boolean first = true;
        for (String c : columns) {
            if (containsIgnoreCase(keyColumns, c)) continue;
            sb.append(first ? " DO UPDATE SET " : ",");
            String q = quote(c);
            sb.append(q).append("=EXCLUDED.").append(q);
            first = false;
        }
        if (first) sb.append(" DO NOTHING");
        return sb.toString();
    }

    @Override
    protected String nullSafeEquals() {
        return " IS NOT DISTINCT FROM ?";
    }

    /** PostgreSQL has no LIMIT on DELETE or UPDATE: one row is picked by its ctid. */
    @Override
    protected String oneRowWhere(String table, String condition) {
        return " WHERE ctid = (SELECT ctid FROM " + table + " WHERE " + condition + " LIMIT 1)";
    }

    private static boolean schemaExists(Statement st, String schema) throws SQLException {
        try (java.sql.PreparedStatement ps = st.getConnection().prepareStatement(
                "SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?")) {
            ps.setString(1, schema);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public DdlRun applyDdl(Statement st, DdlChange ddl, io.cdcconnect.sink.ddl.sql.ParsedDdl parsed,
                           String targetSchema, Map<String, String> schemaMap) throws SQLException {
        // translated from the statement the sink read (its pieces), never from the message's text
        String mysql = parsed.canonical();
        PostgresDdl.Translation t = PostgresDdl.translate(parsed, targetSchema,
                db -> schemaMap.getOrDefault(db, db));
        if (t.unsupported() != null) throw new UnsupportedDdlException(t.unsupported());
        List<String> ran = new ArrayList<>(t.statements().size() + 1);
        // a database of the stream is a schema here: the first statement that creates something in it creates it
        if (!targetSchema.isEmpty() && !t.statements().isEmpty() && CREATES.matcher(mysql).lookingAt()) {
            // asks the catalog first (PostgresDdl.createSchemaIfMissing): a schema made for a user without CREATE
            // on the database is used as it is
            if (!schemaExists(st, targetSchema)) {
                String schema = PostgresDdl.createSchemaIfMissing(targetSchema);
                try {
                    st.execute(schema);
                } catch (SQLException e) {
                    // two tasks creating it at once: the loser's IF NOT EXISTS meets the winner's catalog row
                    if (!PostgresErrors.catalogRace(e)) throw e;
                }
                didNothing(st);
                ran.add(schema);
            }
        }
        List<String> didNothing = new ArrayList<>();
        for (String s : t.statements()) {
            st.execute(s);
            List<String> notes = didNothing(st);
            if (!notes.isEmpty()) didNothing.add(String.join("; ", notes));
        }
        ran.addAll(t.statements());
        // every statement of an ALTER TABLE acts on its table: absent ("relation ... does not exist, skipping"), the
        // guarded ones (DO blocks) did nothing either, without a notice of their own
        if (parsed.kind() == io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind.ALTER_TABLE && !didNothing.isEmpty()
                && didNothing.stream().anyMatch(n -> n.contains("does not exist, skipping"))) {
            while (didNothing.size() < ran.size()) didNothing.add(didNothing.get(0));
        }
        return new DdlRun(ran, didNothing, t.warnings());
    }

    /** PostgreSQL's notices of a skipped {@code IF [NOT] EXISTS}: "table \"t\" does not exist, skipping". */
    @Override
    public List<String> didNothing(Statement st) throws SQLException {
        List<String> notes = new ArrayList<>();
        for (java.sql.SQLWarning w = st.getWarnings(); w != null; w = w.getNextWarning()) {
            String m = w.getMessage();
            // not "is not an identity column, skipping": MODIFY's DROP IDENTITY IF EXISTS is one part of a change
            if (m != null && m.endsWith(", skipping") && !m.contains("is not an identity column")) notes.add(m);
        }
        st.clearWarnings();
        return notes;
    }

    /** MySQL index {@code k} of table {@code t} is {@code "t_k"} here ({@link PostgresDdl#indexName}). */
    @Override
    public boolean indexExists(Connection c, String schema, String table, String index) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_catalog.pg_indexes WHERE schemaname = ? "
                + "AND tablename = ? AND indexname = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            ps.setString(3, PostgresDdl.indexName(table, index));
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public ControlSql control(String schema) {
        return new PostgresControlSql(this, schema);
    }

    @Override
    public boolean retryable(SQLException e) {
        return PostgresErrors.retryable(e);
    }

    @Override
    public boolean duplicateKey(SQLException e) {
        return PostgresErrors.UNIQUE_VIOLATION.equals(PostgresErrors.state(e));
    }

    @Override
    public boolean rejectsRow(SQLException e, boolean upsert) {
        return Unrepresentable.causedBy(e) || PostgresErrors.rejectsRow(e, upsert);
    }

    /**
     * The foreign keys the sink creates are DEFERRABLE INITIALLY DEFERRED ({@link PostgresDdl}): checked at commit, a
     * row without its parent would fail the commit, not the row's statement, and could not be told from the others.
     */
    @Override
    public String rowByRowSetup() {
        return "SET CONSTRAINTS ALL IMMEDIATE";
    }

    /** 23503, also when a deferred foreign key fails the commit. */
    @Override
    public boolean foreignKeyRefused(SQLException e) {
        return PostgresErrors.FOREIGN_KEY_VIOLATION.equals(PostgresErrors.state(e));
    }

    @Override
    public String rejectedColumn(SQLException e) {
        return PostgresErrors.column(e);
    }

    @Override
    public boolean ddlAlreadyApplied(SQLException e) {
        return PostgresErrors.DDL_ALREADY_APPLIED.contains(PostgresErrors.state(e)) || PostgresErrors.catalogRace(e);
    }

    /** "error 23505: duplicate key value ...": PostgreSQL's vendor code is always 0, its SQLSTATE says it all. */
    @Override
    public String describe(SQLException e) {
        SQLException root = SqlFailures.rootOf(e);
        return "error " + root.getSQLState() + ": " + root.getMessage();
    }
}
