package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.sink.dialect.ControlSql;
import io.cdcconnect.sink.dialect.ServerLimits;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dialect.StandardSqlDialect;
import io.cdcconnect.sink.dialect.Unrepresentable;
import io.cdcconnect.sink.dialect.ValueBinder;
import io.cdcconnect.sink.dialect.ValueConverter;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL, MariaDB and TiDB, reached through MySQL Connector/J: everything they share; subclasses say only how an
 * upsert refers to the row being inserted and which session settings they need.
 */
public abstract class MySqlFamilyDialect extends StandardSqlDialect {

    /** URL prefixes of the driver the sink bundles for this family. */
    public static final List<String> URL_PREFIXES = List.of("jdbc:mysql:", "jdbc:mysql+srv:");

    private static final Pattern MYSQL_VERSION = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    private static final String COLUMNS_SQL = "SELECT COLUMN_NAME, COLUMN_TYPE, COLLATION_NAME, IS_NULLABLE, EXTRA "
            + "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";
    private static final String KEYS_SQL = "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS "
            + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 "
            + "ORDER BY INDEX_NAME <> 'PRIMARY', INDEX_NAME, SEQ_IN_INDEX";

    /** A table's foreign keys, a row per column, in order (the sink orders a child's rows after its parent's). */
    private static final String FOREIGN_KEYS_SQL = "SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, "
            + "REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM "
            + "information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL";
    private static final String FOREIGN_KEYS_ORDER = " ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION";

    /** The same for every table of a schema ({@link #readTables}): table first, then as above. */
    private static final String SCHEMA_COLUMNS_SQL = "SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, COLLATION_NAME, "
            + "IS_NULLABLE, EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? "
            + "ORDER BY TABLE_NAME, ORDINAL_POSITION";
    private static final String SCHEMA_TABLE_COUNT_SQL = "SELECT COUNT(*) FROM information_schema.TABLES "
            + "WHERE TABLE_SCHEMA = ?";
    /** Most tables a schema may have for {@link #readTables} to read them together. */
    static final int MAX_TABLES_READ_TOGETHER = 256;
    private static final String SCHEMA_KEYS_SQL = "SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME FROM "
            + "information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND NON_UNIQUE = 0 "
            + "ORDER BY TABLE_NAME, INDEX_NAME <> 'PRIMARY', INDEX_NAME, SEQ_IN_INDEX";

    private static final Set<String> SYSTEM_SCHEMAS = Set.of("mysql", "information_schema", "performance_schema",
            "sys", "metrics_schema");

    /**
     * The dialect of a server of this family: {@code configured} is auto, mariadb, mysql57, mysql8 or tidb; auto
     * reads {@code serverVersion} ("10.11.19-MariaDB-0+deb12u1", "8.0.36", "5.7.44-log", "8.0.11-TiDB-v7.5.0").
     */
    public static MySqlFamilyDialect choose(String configured, String serverVersion) {
        String name = configured == null ? "auto" : configured.toLowerCase(Locale.ROOT);
        return switch (name) {
            case "mariadb" -> new MariaDbDialect();
            case "mysql57" -> new MySql57Dialect(serverVersion);
            case "mysql8" -> new MySql8Dialect();
            case "tidb" -> new TiDbDialect();
            case "auto" -> fromVersion(serverVersion);
            default -> throw new IllegalArgumentException("dialect '" + configured + "' is not one of the MySQL "
                    + "family (auto, mariadb, mysql57, mysql8, tidb)");
        };
    }

    /** The dialect a version string names. */
    public static MySqlFamilyDialect fromVersion(String version) {
        String v = version == null ? "" : version;
        String lower = v.toLowerCase(Locale.ROOT);
        if (lower.contains("mariadb")) return new MariaDbDialect();
        if (lower.contains("tidb")) return new TiDbDialect();
        Matcher m = MYSQL_VERSION.matcher(v);
        if (m.find()) {
            int major = Integer.parseInt(m.group(1));
            int minor = Integer.parseInt(m.group(2));
            int patch = Integer.parseInt(m.group(3));
            if (major > 8 || (major == 8 && (minor > 0 || patch >= 20))) return new MySql8Dialect();
        }
        return new MySql57Dialect(v);
    }

    @Override
    public SqlDialect refine(String configured, String serverVersion) {
        return choose(configured, serverVersion);
    }

    /**
     * Session variables every connection sets ({@code name = value}, after the time zone and sql_mode): what the
     * target needs to take the rows a changefeed writes.
     */
    protected List<String> sessionSettings() {
        return List.of();
    }

    @Override
    public String driverClass() {
        return "com.mysql.cj.jdbc.Driver";
    }

    @Override
    public String driverName() {
        return "mysql-connector-j";
    }

    @Override
    public Properties driverProperties(long socketTimeoutMillis) {
        Properties p = new Properties();
        // server-side statements, cached by the sink's own bounded cache, never by the driver
        p.setProperty("useServerPrepStmts", "true");
        p.setProperty("cachePrepStmts", "false");
        // report a failed prepare instead of silently emulating it, so the fallback is counted
        p.setProperty("emulateUnsupportedPstmts", "false");
        p.setProperty("characterEncoding", "UTF-8");
        p.setProperty("rewriteBatchedStatements", "false");
        p.setProperty("nullDatabaseMeansCurrent", "true");
        p.setProperty("useLocalSessionState", "true");
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("connectTimeout", "30000");
        if (socketTimeoutMillis > 0) p.setProperty("socketTimeout", Long.toString(socketTimeoutMillis));
        return p;
    }

    @Override
    public void limitConnectTime(Properties driverProperties, int millis) {
        driverProperties.setProperty("connectTimeout", Integer.toString(millis));
    }

    /** connection.ssl.mode's values as Connector/J's sslMode spells them. */
    private static final Map<String, String> SSL_MODES = Map.of("disabled", "DISABLED", "preferred", "PREFERRED",
            "required", "REQUIRED", "verify-ca", "VERIFY_CA", "verify-identity", "VERIFY_IDENTITY");

    /**
     * Connector/J lets the properties it is given override the URL's, so sslMode is only given when the URL says
     * nothing of TLS (sslMode, or the older useSSL, requireSSL, verifyServerCertificate).
     */
    @Override
    public void applySslMode(Properties driverProperties, String url, String mode) {
        if (mode == null || !urlTlsSettings(url).isEmpty()) return;
        String sslMode = SSL_MODES.get(mode.toLowerCase(Locale.ROOT));
        if (sslMode == null) throw new IllegalArgumentException("unknown TLS mode '" + mode + "'");
        driverProperties.setProperty("sslMode", sslMode);
    }

    @Override
    public String effectiveSslMode(String url, String mode) {
        Map<String, String> tls = urlTlsSettings(url);
        if (tls.isEmpty()) return mode;
        String sslMode = tls.get("sslmode");
        if (sslMode != null) {
            for (Map.Entry<String, String> e : SSL_MODES.entrySet()) {
                if (e.getValue().equalsIgnoreCase(sslMode.trim())) return e.getKey();
            }
            return mode;
        }
        // Connector/J's older properties, as it maps them to sslMode
        if ("false".equalsIgnoreCase(tls.get("usessl"))) return "disabled";
        if ("true".equalsIgnoreCase(tls.get("verifyservercertificate"))) return "verify-ca";
        if ("true".equalsIgnoreCase(tls.get("requiressl"))) return "required";
        return "preferred";
    }

    /** The URL's TLS settings (names in lower case), as Connector/J reads them: the main host's over the URL's. */
    static Map<String, String> urlTlsSettings(String url) {
        Map<String, String> out = new LinkedHashMap<>();
        if (url == null) return out;
        com.mysql.cj.conf.ConnectionUrlParser parsed;
        try {
            parsed = com.mysql.cj.conf.ConnectionUrlParser.parseConnectionString(url.trim());
        } catch (RuntimeException e) {
            return out; // the driver refuses the URL itself when it connects, and says why
        }
        List<Map<String, String>> levels = new ArrayList<>();
        levels.add(parsed.getProperties());
        if (!parsed.getHosts().isEmpty()) levels.add(parsed.getHosts().get(0).getHostProperties());
        for (Map<String, String> level : levels) {
            if (level == null) continue;
            level.forEach((k, v) -> {
                String key = k.toLowerCase(Locale.ROOT);
                if (v != null && Set.of("sslmode", "usessl", "requiressl", "verifyservercertificate").contains(key)) {
                    out.put(key, v);
                }
            });
        }
        return out;
    }

    /**
     * auto serves every server of the family; mariadb and tidb only their own; mysql57 any MySQL; mysql8 MySQL 8.0.20
     * and later (the row alias of its upserts).
     */
    @Override
    public String serverMismatch(String configured, String serverVersion) {
        String name = configured == null ? "auto" : configured.toLowerCase(Locale.ROOT);
        if (name.equals("auto")) return null;
        MySqlFamilyDialect server = fromVersion(serverVersion);
        boolean fits = switch (name) {
            case "mariadb" -> server instanceof MariaDbDialect;
            case "tidb" -> server instanceof TiDbDialect;
            case "mysql57" -> server instanceof MySql57Dialect || server instanceof MySql8Dialect;
            case "mysql8" -> server instanceof MySql8Dialect;
            default -> false;
        };
        return fits ? null : "dialect '" + configured + "' does not fit the server, version " + serverVersion
                + ": set auto (which chooses " + server.name() + " for it)";
    }

    @Override
    public List<String> missingPrivileges(Connection c, Set<String> dataSchemas,
                                          Set<io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind> ddl, String controlSchema)
            throws SQLException {
        return MySqlPrivileges.missing(c, dataSchemas, ddl, controlSchema);
    }

    /**
     * The SQL modes a sink session never runs under, whatever the server's (or the URL's) default. Its quoting assumes
     * none of them: identifiers in backticks and strings in single quotes (ANSI_QUOTES would make a double-quoted
     * default text a name), backslash escapes in the string literals of the DDL it replays (NO_BACKSLASH_ESCAPES
     * would make {@code 'it\'s'} end early), {@code ||} as OR (PIPES_AS_CONCAT), '' as a value (MariaDB's
     * EMPTY_STRING_IS_NULL), and zero dates the source accepted under its own sql_mode. The combination modes that
     * imply some of these (ANSI, ORACLE, ...) go too: left in, they would set them again.
     */
    static final List<String> SESSION_MODES_REMOVED = List.of("ANSI", "ORACLE", "DB2", "MSSQL", "POSTGRESQL",
            "MAXDB", "ANSI_QUOTES", "NO_BACKSLASH_ESCAPES", "PIPES_AS_CONCAT", "EMPTY_STRING_IS_NULL",
            "NO_ZERO_IN_DATE", "NO_ZERO_DATE");

    /**
     * The server's sql_mode without {@link #SESSION_MODES_REMOVED}: every other mode (STRICT_TRANS_TABLES, ...) is the
     * server's to choose. Each mode is removed whole, between commas, so that no comma is left dangling and no mode
     * whose name contains another's is cut.
     */
    static String sessionSqlMode() {
        String expr = "CONCAT(',', @@SESSION.sql_mode, ',')";
        for (String mode : SESSION_MODES_REMOVED) expr = "REPLACE(" + expr + ", '," + mode + ",', ',')";
        return "TRIM(BOTH ',' FROM " + expr + ")";
    }

    @Override
    public String sessionInitSql(String timeZone) {
        StringBuilder sb = new StringBuilder("SET SESSION time_zone = '").append(timeZone)
                .append("', SESSION sql_mode = ").append(sessionSqlMode());
        for (String v : sessionSettings()) sb.append(", SESSION ").append(v);
        return sb.toString();
    }

    /** With {@code foreign_key_checks = 0}, as a replica's applier runs, when {@code foreignKeyChecks} says so. */
    @Override
    public String sessionInitSql(String timeZone, io.cdcconnect.sink.dialect.ForeignKeyChecks foreignKeyChecks) {
        String base = sessionInitSql(timeZone);
        return foreignKeyChecks.sessionOff() ? base + ", SESSION foreign_key_checks = 0" : base;
    }

    @Override
    public boolean canTurnForeignKeyChecksOff() {
        return true;
    }

    @Override
    public ServerLimits readLimits(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT VERSION(), @@max_allowed_packet, @@max_prepared_stmt_count")) {
            rs.next();
            return new ServerLimits(rs.getString(1), rs.getLong(2), rs.getLong(3));
        }
    }

    @Override
    public TargetTable readTable(Connection c, String schema, String table) throws SQLException {
        List<TargetColumn> columns = new ArrayList<>();
        Map<String, List<String>> keys = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(COLUMNS_SQL)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) columns.add(column(rs, 1));
            }
        }
        if (columns.isEmpty()) return null;
        try (PreparedStatement ps = c.prepareStatement(KEYS_SQL)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keys.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                }
            }
        }
        Map<String, List<TargetTable.ForeignKey>> fks = foreignKeys(c, schema, table);
        return table(schema, table, columns, keys, fks.getOrDefault(table, List.of()));
    }

    /** The foreign keys of {@code table} (null: of every table of {@code schema}), by table. */
    private static Map<String, List<TargetTable.ForeignKey>> foreignKeys(Connection c, String schema, String table)
            throws SQLException {
        Map<String, Map<String, List<String[]>>> rows = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(FOREIGN_KEYS_SQL
                + (table == null ? "" : " AND TABLE_NAME = ?") + FOREIGN_KEYS_ORDER)) {
            ps.setString(1, schema);
            if (table != null) ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>())
                            .computeIfAbsent(rs.getString(2), k -> new ArrayList<>())
                            .add(new String[]{rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6)});
                }
            }
        }
        Map<String, List<TargetTable.ForeignKey>> out = new LinkedHashMap<>();
        rows.forEach((t, byName) -> byName.values().forEach(cols -> out.computeIfAbsent(t, k -> new ArrayList<>())
                .add(new TargetTable.ForeignKey(cols.stream().map(x -> x[0]).toList(), cols.get(0)[1], cols.get(0)[2],
                        cols.stream().map(x -> x[3]).toList()))));
        return out;
    }

    @Override
    public Map<String, TargetTable> readTables(Connection c, String schema) throws SQLException {
        // a schema of many tables is read table by table: its columns all at once could take the server seconds
        try (PreparedStatement ps = c.prepareStatement(SCHEMA_TABLE_COUNT_SQL)) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getLong(1) > MAX_TABLES_READ_TOGETHER) return null;
            }
        }
        Map<String, List<TargetColumn>> columns = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(SCHEMA_COLUMNS_SQL)) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) columns.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(column(rs, 2));
            }
        }
        Map<String, Map<String, List<String>>> keys = new java.util.HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(SCHEMA_KEYS_SQL)) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keys.computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>())
                            .computeIfAbsent(rs.getString(2), k -> new ArrayList<>()).add(rs.getString(3));
                }
            }
        }
        Map<String, List<TargetTable.ForeignKey>> fks = foreignKeys(c, schema, null);
        Map<String, TargetTable> out = new LinkedHashMap<>();
        columns.forEach((table, cols) -> out.put(table, table(schema, table, cols,
                keys.getOrDefault(table, Map.of()), fks.getOrDefault(table, List.of()))));
        return out;
    }

    /** A column from the row of COLUMNS_SQL (or SCHEMA_COLUMNS_SQL) whose name is at {@code from}. */
    private static TargetColumn column(ResultSet rs, int from) throws SQLException {
        String collation = rs.getString(from + 2);
        String extra = rs.getString(from + 4) == null ? "" : rs.getString(from + 4).toUpperCase(Locale.ROOT);
        boolean generated = extra.contains("VIRTUAL") || extra.contains("STORED") || extra.contains("PERSISTENT");
        return new TargetColumn(rs.getString(from), rs.getString(from + 1),
                collation != null && collation.toLowerCase(Locale.ROOT).contains("_ci"), generated,
                "YES".equalsIgnoreCase(rs.getString(from + 3)));
    }

    private TargetTable table(String schema, String table, List<TargetColumn> columns, Map<String, List<String>> keys,
                              List<TargetTable.ForeignKey> foreignKeys) {
        return new TargetTable(schema, table, qualified(schema, table), columns, new ArrayList<>(keys.values()),
                keys.containsKey("PRIMARY"), foreignKeys);
    }

    @Override
    public boolean tableExists(Connection c, String schema, String table) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(schema, null, table, null)) {
            return rs.next();
        }
    }

    @Override
    public Set<String> systemSchemas() {
        return SYSTEM_SCHEMAS;
    }

    /** An identifier in backticks, backticks doubled. */
    @Override
    public String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    /**
     * BIGINT UNSIGNED above 2^63 - 1 is bound as a decimal; BIT(64) with the top bit set as the big-endian byte
     * string that assigns the same bits. Everything else is bound as the model holds it.
     */
    @Override
    public ValueConverter converter(ColumnInfo source, TargetColumn target) {
        if (target.bit() || source.type() == MySqlType.BIT) {
            return v -> {
                if (v instanceof Long l && l < 0) {
                    byte[] b = new byte[8];
                    for (int j = 0; j < 8; j++) b[j] = (byte) (l >>> (56 - 8 * j));
                    return b;
                }
                return v;
            };
        }
        if (target.unsignedBigint() || (source.type() == MySqlType.LONGLONG && source.unsigned())) {
            return v -> v instanceof Long l && l < 0 ? new BigDecimal(Long.toUnsignedString(l)) : v;
        }
        return null;
    }

    @Override
    public void bind(PreparedStatement ps, int index, Object value) throws SQLException {
        ValueBinder.bind(ps, index, value);
    }

    @Override
    public DdlRun applyDdl(Statement st, DdlChange ddl, ParsedDdl parsed, String targetSchema,
                           Map<String, String> schemaMap) throws SQLException {
        if (!targetSchema.isEmpty()) {
            try {
                st.execute("USE " + quote(targetSchema));
            } catch (SQLException e) {
                if (e.getErrorCode() != MySqlErrors.UNKNOWN_DATABASE) throw e;
                // unknown database: only a statement that creates it can run
            }
        }
        ParsedDdl toRun = parsed;
        List<String> leftOut = List.of();
        if (!dropsConstraintsByName() || !keepsCheckConstraints()) {
            MySqlDropConstraint.Rewrite r = MySqlDropConstraint.rewrite(parsed, dropsConstraintsByName(),
                    keepsCheckConstraints(), serverName(), name -> constraintTypes(st.getConnection(), parsed,
                            targetSchema, schemaMap, name));
            leftOut = r.leftOut();
            if (r.statement() == null) return new DdlRun(List.of(), List.of(), leftOut); // no clause left to run
            toRun = r.statement();
        }
        String statement = toRun.mysql(db -> schemaMap.getOrDefault(db, db), writesTiDbFeatures());
        st.execute(statement);
        return new DdlRun(List.of(statement), didNothing(st), leftOut);
    }

    /**
     * Whether the server runs {@code ALTER TABLE ... DROP CONSTRAINT c} (MariaDB; MySQL from 8.0.19): where not, the
     * sink writes the clause as what the target's catalog says {@code c} is ({@link MySqlDropConstraint}).
     */
    protected boolean dropsConstraintsByName() {
        return true;
    }

    /**
     * Whether the server keeps CHECK constraints (MariaDB 10.2+; MySQL from 8.0.16, which also added
     * {@code DROP CHECK}): before, MySQL reads a CHECK clause and ignores it.
     */
    protected boolean keepsCheckConstraints() {
        return true;
    }

    /** The server as the sink's messages name it ("MySQL 8.0.15"). */
    protected String serverName() {
        return name();
    }

    /** The types of the constraints named {@code name} of the table an ALTER TABLE changes, from the catalog. */
    private static List<String> constraintTypes(Connection c, ParsedDdl parsed, String targetSchema,
                                                Map<String, String> schemaMap, String name) throws SQLException {
        ParsedDdl.Qualified table = null;
        for (ParsedDdl.Piece p : parsed.pieces()) {
            if (p instanceof ParsedDdl.Qualified q) {
                table = q;
                break;
            }
        }
        if (table == null) return List.of();
        String schema = table.schema() == null ? targetSchema : schemaMap.getOrDefault(table.schema(), table.schema());
        List<String> types = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT CONSTRAINT_TYPE FROM information_schema.TABLE_CONSTRAINTS "
                + "WHERE CONSTRAINT_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_NAME = ? ORDER BY CONSTRAINT_TYPE")) {
            ps.setString(1, schema);
            ps.setString(2, table.name());
            ps.setString(3, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) types.add(rs.getString(1));
            }
        }
        return types;
    }

    /**
     * The notes a statement that changed nothing leaves (DROP TABLE IF EXISTS of an absent table: note 1051; CREATE
     * TABLE IF NOT EXISTS of an existing one: 1050; MariaDB's ADD COLUMN IF NOT EXISTS, DROP ... IF EXISTS: 1060,
     * 1061, 1091; databases: 1007, 1008): the codes of {@link MySqlErrors#DDL_ALREADY_APPLIED}.
     */
    @Override
    public List<String> didNothing(Statement st) throws SQLException {
        List<String> notes = new ArrayList<>();
        for (java.sql.SQLWarning w = st.getWarnings(); w != null; w = w.getNextWarning()) {
            if (MySqlErrors.DDL_ALREADY_APPLIED.contains(w.getErrorCode())) {
                notes.add("note " + w.getErrorCode() + ": " + w.getMessage());
            }
        }
        return notes;
    }

    @Override
    public boolean indexExists(Connection c, String schema, String table, String index) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM information_schema.STATISTICS WHERE "
                + "TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            ps.setString(3, index);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * The type's name and arguments as the server lists them ({@code int(11) unsigned}, {@code varchar(20)}): the
     * display width of integers and {@code zerofill} aside, they must be the same.
     */

    private static final Pattern INT_WIDTH = Pattern.compile(
            "^(tinyint|smallint|mediumint|int|integer|bigint)\\(\\d+\\)");

    static String normalType(String type) {
        String t = type.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").trim().replace(", ", ",");
        if (t.endsWith(" zerofill")) {
            t = t.substring(0, t.length() - " zerofill".length());
            if (!t.endsWith(" unsigned")) t += " unsigned"; // ZEROFILL implies UNSIGNED
        }
        t = INT_WIDTH.matcher(t).replaceFirst("$1");
        // the server's spelling of the synonyms a statement may write
        for (String[] alias : TYPE_ALIASES) {
            if (t.equals(alias[0]) || t.startsWith(alias[0] + " ") || t.startsWith(alias[0] + "(")) {
                t = alias[1] + t.substring(alias[0].length());
                break;
            }
        }
        return t;
    }

    private static final String[][] TYPE_ALIASES = {{"integer", "int"}, {"boolean", "tinyint"}, {"bool", "tinyint"},
            {"dec", "decimal"}, {"numeric", "decimal"}, {"fixed", "decimal"}, {"double precision", "double"},
            {"real", "double"}, {"json", "longtext"}}; // MariaDB lists a JSON column as longtext

    @Override
    public boolean columnTypeMatches(TargetColumn column, String mysqlType) {
        String target = normalType(column.columnType());
        String stated = normalType(mysqlType);
        if (target.equals(stated)) return true;
        // a type without its size: the server's default size
        return switch (stated) {
            case "char", "binary", "bit" -> target.equals(stated + "(1)");
            case "decimal" -> target.equals("decimal(10,0)");
            case "decimal unsigned" -> target.equals("decimal(10,0) unsigned");
            default -> false;
        };
    }

    @Override
    public ControlSql control(String schema) {
        return new MySqlControlSql(this, schema);
    }

    @Override
    public boolean retryable(SQLException e) {
        return MySqlErrors.retryable(e);
    }

    @Override
    public boolean connectionLost(SQLException e) {
        return MySqlErrors.connectionLost(e);
    }

    @Override
    public boolean duplicateKey(SQLException e) {
        return MySqlErrors.duplicateKey(e);
    }

    @Override
    public boolean rejectsRow(SQLException e, boolean upsert) {
        return Unrepresentable.causedBy(e) || MySqlErrors.rejectsRow(e, upsert);
    }

    /** 1451 (a parent row with children) and 1452 (a child row without its parent). */
    @Override
    public boolean foreignKeyRefused(SQLException e) {
        int code = io.cdcconnect.sink.dialect.SqlFailures.rootOf(e).getErrorCode();
        return code == 1451 || code == 1452;
    }

    @Override
    public String rejectedColumn(SQLException e) {
        return MySqlErrors.column(e);
    }

    @Override
    public boolean ddlAlreadyApplied(SQLException e) {
        return MySqlErrors.DDL_ALREADY_APPLIED.contains(e.getErrorCode());
    }

    /** Whether DDL keeps TiDB's feature comments ({@code /*T![clustered_index] ...}): for TiDB targets only. */
    protected boolean writesTiDbFeatures() {
        return false;
    }

    /** Text between the VALUES list and {@code ON DUPLICATE KEY UPDATE} (a row alias), or empty. */
    protected String rowAlias() {
        return "";
    }

    /** How the update clause names the inserted value of {@code quotedColumn}. */
    protected abstract String insertedValue(String quotedColumn);

    @Override
    public String upsert(String table, List<String> columns, List<String> keyColumns, int rows) {
        StringBuilder sb = insertLike("INSERT INTO ", table, columns, rows);
        sb.append(rowAlias()).append(" ON DUPLICATE KEY UPDATE ");
        boolean first = true;
        for (String c : columns) {
            if (containsIgnoreCase(keyColumns, c)) continue;
            if (!first) sb.append(',');
            String q = quote(c);
            sb.append(q).append('=').append(insertedValue(q));
            first = false;
        }
        if (first) {
            // every column is a key column: nothing to update, but the clause needs one assignment
            String q = quote(columns.get(0));
            sb.append(q).append('=').append(q);
        }
        return sb.toString();
    }

    @Override
    public String replace(String table, List<String> columns, int rows) {
        return insertLike("REPLACE INTO ", table, columns, rows).toString();
    }

    @Override
    protected String nullSafeEquals() {
        return " <=> ?";
    }

    @Override
    protected String oneRowWhere(String table, String condition) {
        return " WHERE " + condition + " LIMIT 1";
    }
}
