package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.DdlChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Runs DDL statements in the mapped target database, harmless on replay: errors that mean "already done" (see
 * {@link SqlErrors#DDL_ALREADY_APPLIED}) are logged at INFO and swallowed. A statement sent again runs again: after
 * a sink restart the DDL checkpoint skips the records it covers; after a source restart the statements come again
 * in their order, with the rows between them, and converge to the same end as the first time.
 */
public final class DdlApplier {

    private static final Logger LOG = LoggerFactory.getLogger(DdlApplier.class);
    private static final Pattern DATABASE_DDL = Pattern.compile(
            "^\\s*(/\\*.*?\\*/\\s*)*(CREATE|DROP|ALTER)\\s+(DATABASE|SCHEMA)\\b(\\s+IF\\s+(NOT\\s+)?EXISTS)?"
                    + "\\s*(`((?:[^`]|``)+)`|([^\\s;`]+))?", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private static final Pattern SECRET = Pattern.compile(
            "(?i)(IDENTIFIED\\s+(?:WITH\\s+\\S+\\s+)?(?:BY|AS)\\s+(?:PASSWORD\\s*)?|PASSWORD\\s*\\(\\s*)('(?:[^'\\\\]|\\\\.|'')*'|\"(?:[^\"\\\\]|\\\\.)*\")");

    private final DataSource dataSource;

    public DdlApplier(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Executes {@code ddl} in {@code targetSchema}.
     *
     * @param renamed true when schema.map maps the DDL's database to another name: database-level statements
     *                (CREATE/DROP/ALTER DATABASE) would then name the wrong database and are skipped
     * @return false when the statement was skipped (database-level under a rename)
     */
    public boolean apply(DdlChange ddl, String targetSchema, boolean renamed, String origin) throws SQLException {
        return apply(ddl, targetSchema, renamed, Map.of(), origin);
    }

    /** The statement with passwords (IDENTIFIED BY '...', PASSWORD('...')) masked, for messages. */
    static String redact(String sql) {
        return SECRET.matcher(sql).replaceAll("$1'***'");
    }

    /**
     * As {@link #apply(DdlChange, String, boolean, Map, String)}, retrying a metadata lock wait or a lost connection
     * with backoff; anything else is the statement's fault and is thrown at once.
     */
    public boolean applyWithRetry(DdlChange ddl, String targetSchema, boolean renamed, Map<String, String> schemaMap,
                                  String origin, RetryPolicy retry, Runnable onRetry) throws SQLException {
        return retry.run(() -> apply(ddl, targetSchema, renamed, schemaMap, origin), onRetry);
    }

    /** As above, with {@code schemaMap} rewriting database-qualified names in the statement. */
    public boolean apply(DdlChange ddl, String targetSchema, boolean renamed, Map<String, String> schemaMap,
                         String origin) throws SQLException {
        java.util.regex.Matcher db = DATABASE_DDL.matcher(ddl.query());
        boolean databaseLevel = db.find();
        String named = !databaseLevel ? null : db.group(7) != null ? db.group(7).replace("``", "`") : db.group(8);
        // CREATE/DROP/ALTER DATABASE of a renamed database would act on the source's name, not the target's
        if (databaseLevel && (renamed || (named != null && schemaMap.containsKey(named)
                && !schemaMap.get(named).equals(named)))) {
            LOG.info("Skipped database-level DDL of renamed database {} (schema.map -> {}) from {}", ddl.schema(),
                    targetSchema, origin);
            return false;
        }
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            // no socket timeout for DDL: an ALTER TABLE of a large table may run for hours (the pool restores it)
            c.setNetworkTimeout(Runnable::run, 0);
            if (!targetSchema.isEmpty()) {
                try {
                    st.execute("USE `" + targetSchema.replace("`", "``") + "`");
                } catch (SQLException e) {
                    if (e.getErrorCode() != 1049) throw e;
                    // unknown database: only a statement that creates it can run
                }
            }
            String statement = DdlRewriter.renameSchemas(ddl.query(), schemaMap);
            try {
                st.execute(statement);
                LOG.info("Applied DDL {} in `{}` (commitTs {}, from {})", ddl.kind(), targetSchema, ddl.commitTs(),
                        origin);
            } catch (SQLException e) {
                if (!SqlErrors.DDL_ALREADY_APPLIED.contains(e.getErrorCode())) {
                    // the server's own message may quote the statement: keep only the masked copy, not the cause
                    throw new SQLException("DDL from " + origin + " in `" + targetSchema + "` failed: "
                            + redact(SqlErrors.describe(e)) + " -- statement: " + redact(statement), e.getSQLState(),
                            e.getErrorCode());
                }
                LOG.info("DDL {} in `{}` (commitTs {}, from {}) already in effect: {}", ddl.kind(), targetSchema,
                        ddl.commitTs(), origin, SqlErrors.describe(e));
            }
            if (!c.getAutoCommit()) c.commit();
        }
        return true;
    }
}
