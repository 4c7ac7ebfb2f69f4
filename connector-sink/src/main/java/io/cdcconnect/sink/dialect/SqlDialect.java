package io.cdcconnect.sink.dialect;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Everything the sink says or reads that depends on the target database: the connection (driver, its properties,
 * the session), the server's limits, table metadata, identifier quoting, the DML text, how a DDL statement from the
 * stream is applied, the SQL of the sink's own control tables, and what an error means. The rest of the sink speaks
 * only to this interface; one implementation per database family, registered in
 * {@link io.cdcconnect.sink.dialect.registry.Dialects}.
 *
 * <p>Column names arrive raw and are quoted here; table names arrive as {@link #qualified} made them.
 */
public interface SqlDialect {

    /** The name {@code dialect} accepts and the logs show. */
    String name();

    // ---- connection -----------------------------------------------------------------------------------------------

    /** The JDBC driver class, named explicitly: under Connect's plugin loader DriverManager may not know it. */
    String driverClass();

    /**
     * Driver properties every connection of the pool gets: server-side prepared statements cached by the sink's own
     * bounded cache (never by the driver), character set, keep-alive, and {@code socketTimeoutMillis} (0: none).
     */
    Properties driverProperties(long socketTimeoutMillis);

    /**
     * The statement each new connection runs: session time zone {@code timeZone} ("+00:00", "SYSTEM" or a zone
     * name, validated by the config) and whatever session settings the target needs to take a changefeed's rows.
     */
    String sessionInitSql(String timeZone);

    /**
     * As {@link #sessionInitSql(String)}, with the target's foreign key checks off when {@code foreignKeyChecks} says
     * so ({@link ForeignKeyChecks#sessionOff}, already resolved by {@link ForeignKeyChecks#on}).
     */
    default String sessionInitSql(String timeZone, ForeignKeyChecks foreignKeyChecks) {
        return sessionInitSql(timeZone);
    }

    /** Whether a session can turn the target's foreign key checks (and actions) off. */
    default boolean canTurnForeignKeyChecksOff() {
        return false;
    }

    /**
     * {@code dml} (a DELETE or an UPDATE) written so that it runs with the target's foreign key checks and actions on
     * in a session where they are off, or null when the target cannot say so for one statement.
     */
    default String withForeignKeyChecks(String dml) {
        return null;
    }

    /** Reads the server's version and the limits the sink must respect. */
    ServerLimits readLimits(Connection c) throws SQLException;

    /** The dialect this server needs within the family ({@code configured} is the {@code dialect} setting). */
    default SqlDialect refine(String configured, String serverVersion) {
        return this;
    }

    /**
     * This dialect with the JDBC driver it serves {@code url} through, chosen by measurement within the family
     * ({@code setting}: {@code connection.driver}); {@code probe} is a connection the family's first driver made to
     * the server, with {@code connection.ssl.mode} {@code sslMode}. The default keeps the one driver.
     */
    default SqlDialect chooseDriver(Connection probe, String setting, String url, String sslMode)
            throws SQLException {
        return this;
    }

    /** This dialect over the family's first driver (the one {@link #chooseDriver}'s probe came through). */
    default SqlDialect firstDriver() {
        return this;
    }

    /**
     * What to connect with when this dialect's driver settings cannot connect although {@link #firstDriver} could:
     * fewer of its own choices, down to {@link #firstDriver} itself.
     */
    default SqlDialect fallbackDriver() {
        return firstDriver();
    }

    /** The TLS cipher the connections mostly use, for the start-up warm-up to compile. */
    default io.cdcconnect.codec.util.TlsCipherWarmup.Suite tlsCipher() {
        return io.cdcconnect.codec.util.TlsCipherWarmup.Suite.AES_GCM;
    }

    /** The driver's name for logs and messages. */
    default String driverName() {
        return driverClass();
    }

    /** The driver and, where the family has a choice, why this one: for the task's start line. */
    default String describeDriver() {
        return driverName();
    }

    /** The URL the driver is given for the configured {@code url} (the same unless the driver spells it otherwise). */
    default String driverUrl(String url) {
        return url;
    }

    /** Sets {@code millis} as the connection's socket timeout (0: none), e.g. around a long DDL statement. */
    default void setNetworkTimeout(Connection c, int millis) throws SQLException {
        c.setNetworkTimeout(Runnable::run, millis);
    }

    /** Bounds connecting with {@code driverProperties} to {@code millis}: for a check that must answer quickly. */
    void limitConnectTime(Properties driverProperties, int millis);

    /**
     * Adds {@code connection.ssl.mode} {@code mode} (disabled, preferred, required, verify-ca, verify-identity) to
     * {@code driverProperties} in the driver's own words, unless {@code url} chooses TLS itself: the URL wins.
     */
    void applySslMode(Properties driverProperties, String url, String mode);

    /**
     * The TLS mode connections to {@code url} get, in {@code connection.ssl.mode}'s words: what the URL chooses if
     * it does, else {@code mode}.
     */
    String effectiveSslMode(String url, String mode);

    // ---- validation -----------------------------------------------------------------------------------------------

    /**
     * Null when a server reporting {@code serverVersion} can be served with the {@code dialect} setting
     * {@code configured}; otherwise why not and what to choose.
     */
    default String serverMismatch(String configured, String serverVersion) {
        return null;
    }

    /**
     * What the connected user lacks for the sink's work, one message each (naming the grant that fixes it); empty
     * when nothing is missing or the server does not say (privileges through roles, say): a check must never refuse
     * a user that may be able to do the work.
     *
     * @param dataSchemas   the schemas rows and DDL go to, as far as the configuration names them (may be empty)
     * @param ddl           the kinds of DDL statement the sink may run there
     * @param controlSchema the sink's own schema (DDL checkpoint, coordination), or empty for none
     */
    List<String> missingPrivileges(Connection c, java.util.Set<String> dataSchemas,
                                   java.util.Set<io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind> ddl, String controlSchema)
            throws SQLException;

    // ---- metadata -------------------------------------------------------------------------------------------------

    /** The table's columns and unique keys, or null when it does not exist. */
    TargetTable readTable(Connection c, String schema, String table) throws SQLException;

    /**
     * Every table of {@code schema} with its columns and unique keys, read in one go (a new task reads the tables its
     * first records touch with a couple of queries, not two per table), or null when the dialect reads tables only one
     * by one. Tables are keyed by name.
     */
    default Map<String, TargetTable> readTables(Connection c, String schema) throws SQLException {
        return null;
    }

    /** Whether {@code schema.table} exists. */
    boolean tableExists(Connection c, String schema, String table) throws SQLException;

    /** Databases (schemas) of the server itself, which no statement from the stream may touch. */
    java.util.Set<String> systemSchemas();

    // ---- identifiers and values -----------------------------------------------------------------------------------

    /** An identifier quoted for the target. */
    String quote(String identifier);

    /** {@code schema.table}, both quoted. */
    default String qualified(String schema, String table) {
        return quote(schema) + '.' + quote(table);
    }

    /**
     * How values of {@code source} are turned into what is bound for {@code target}, or null when the model's value
     * is bound as it is.
     */
    ValueConverter converter(ColumnInfo source, TargetColumn target);

    /** Binds one converted value (or null) as parameter {@code index}. */
    void bind(PreparedStatement ps, int index, Object value) throws SQLException;

    // ---- DML ------------------------------------------------------------------------------------------------------

    /** {@code INSERT INTO t (cols) VALUES (?,..),..} for {@code rows} rows. */
    String insert(String table, List<String> columns, int rows);

    /** Multi-row insert that updates every non-key column of a row that already exists. */
    String upsert(String table, List<String> columns, List<String> keyColumns, int rows);

    /**
     * Whether {@link #replace} exists: without it, rows of a table with several unique keys are upserted on the
     * identity key, and a clash on another unique key fails as a duplicate key (a rejected row).
     */
    default boolean hasReplace() {
        return true;
    }

    /** Multi-row insert that first removes every row that clashes on any unique key (see {@link #hasReplace}). */
    String replace(String table, List<String> columns, int rows);

    /** The most bind parameters one statement may carry. */
    default int maxParameters() {
        return 65_535;
    }

    /** Deletes {@code rows} rows by key. */
    String deleteByKey(String table, List<String> keyColumns, int rows);

    /** Updates every column of one row found by key: parameters are the new values, then the old key. */
    String updateByKey(String table, List<String> columns, List<String> keyColumns);

    /** Deletes one row matched on every column (NULL-safe): for tables without a usable key. */
    String deleteByRow(String table, List<String> columns);

    /** Updates one row matched on every column (NULL-safe): new values, then old values. */
    String updateByRow(String table, List<String> columns);

    // ---- DDL ------------------------------------------------------------------------------------------------------

    /**
     * Runs {@code statement}, read from the text of {@code ddl}, in {@code targetSchema}: written out by the sink for
     * this target (translated where it speaks another language), qualified names rewritten by {@code schemaMap}. The
     * message's text itself never runs.
     *
     * @return the statements run, what the target said did nothing, and what the translation left out
     * @throws UnsupportedDdlException when the target has no translation for the statement
     */
    DdlRun applyDdl(Statement st, DdlChange ddl, io.cdcconnect.sink.ddl.sql.ParsedDdl statement,
                    String targetSchema, Map<String, String> schemaMap)
            throws SQLException;

    /**
     * What running one DDL statement came to.
     *
     * @param statements the statements run, for the log
     * @param didNothing the target's own notes, one entry per statement of {@code statements} that changed nothing
     *                   ({@link #didNothing}): IF EXISTS on an absent table, IF NOT EXISTS on an existing one
     * @param dropped    what a translation left out of the statement on purpose, each with its reason
     */
    record DdlRun(List<String> statements, List<String> didNothing, List<String> dropped) {
        public DdlRun {
            statements = List.copyOf(statements);
            didNothing = List.copyOf(didNothing);
            dropped = List.copyOf(dropped);
        }
    }

    /**
     * The target's note that the statement {@code st} last ran changed nothing (a skipped {@code IF [NOT] EXISTS}),
     * from its warnings; empty when it did something.
     */
    default List<String> didNothing(Statement st) throws SQLException {
        return List.of();
    }

    /**
     * Whether index {@code index} (its MySQL name, as the stream's statement names it) of {@code schema.table} exists:
     * for {@code io.cdcconnect.sink.ddl.DdlEffect}, which checks a statement's intended result after an error.
     */
    boolean indexExists(Connection c, String schema, String table, String index) throws SQLException;

    /** Whether constraint {@code name} (a foreign key or a CHECK) of {@code schema.table} exists. */
    default boolean constraintExists(Connection c, String schema, String table, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM information_schema.table_constraints WHERE "
                + "constraint_schema = ? AND table_name = ? AND constraint_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            ps.setString(3, name);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Whether schema (a MySQL database) {@code schema} exists. */
    default boolean schemaExists(Connection c, String schema) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM information_schema.schemata WHERE "
                + "schema_name = ?")) {
            ps.setString(1, schema);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Whether the target's column has the type a MySQL column definition names ({@code mysqlType}, e.g.
     * {@code int(11) unsigned}), as far as this target can tell: for the "already in effect" check.
     */
    default boolean columnTypeMatches(TargetColumn column, String mysqlType) {
        return true;
    }

    /** The SQL of the sink's own tables (DDL checkpoint, cross-task coordination) in {@code schema}. */
    ControlSql control(String schema);

    // ---- errors ---------------------------------------------------------------------------------------------------

    /** Worth retrying the whole transaction: deadlock, lock wait, lost connection, a failover's transient errors. */
    boolean retryable(SQLException e);

    /** The connection is unusable and must be discarded. */
    default boolean connectionLost(SQLException e) {
        return SqlFailures.connectionLost(e);
    }

    /** A unique key clash. */
    boolean duplicateKey(SQLException e);

    /**
     * Whether the target rejected a row for its data (too long, out of range, NULL in a NOT NULL column, unknown
     * column, a bad value, a constraint) rather than the statement or the server failing.
     *
     * @param upsert whether the failing statement already wrote the row idempotently: then a duplicate key is one
     *               that an upsert cannot absorb, a rejection too; otherwise it means a replay
     */
    boolean rejectsRow(SQLException e, boolean upsert);

    /**
     * Whether {@code e} is a foreign key's refusal (a child row without its parent, a parent row deleted under its
     * children) that a row of an earlier source transaction, still being applied by another worker, may clear:
     * rows of different tables go through the workers in no order between them.
     */
    default boolean foreignKeyRefused(SQLException e) {
        return false;
    }

    /**
     * A statement that begins a transaction applied one row at a time to find the rows the target rejects, or null:
     * what makes each row's own statement fail for it, rather than the commit for all of them.
     */
    default String rowByRowSetup() {
        return null;
    }

    /** The column the server names in its message, or null. */
    String rejectedColumn(SQLException e);

    /**
     * A DDL error that may mean "already done" (a replayed statement): only a candidate, which
     * {@code io.cdcconnect.sink.ddl.DdlEffect} confirms by reading the target's catalog.
     */
    boolean ddlAlreadyApplied(SQLException e);

    /** "error 1213 (40001): Deadlock found ...": for messages. */
    default String describe(SQLException e) {
        return SqlFailures.describe(e);
    }
}
