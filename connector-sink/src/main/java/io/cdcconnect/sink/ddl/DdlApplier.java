package io.cdcconnect.sink.ddl;

import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dialect.UnsupportedDdlException;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.sink.stmtcache.TableChanges;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Runs DDL statements in the mapped target database through the dialect (which translates them where the target
 * speaks another language), harmless on replay: an error that may mean "already done"
 * ({@link SqlDialect#ddlAlreadyApplied}) is swallowed only when the statement's result is provably in the target
 * ({@link DdlEffect}), and then logged at WARN and counted, as is a statement the target says did nothing (a skipped
 * {@code IF [NOT] EXISTS}); any other error is a refusal ({@link DdlRejectedException}). A statement sent again runs
 * again: after a sink restart the DDL checkpoint skips the records it covers; after a source restart the statements
 * come again in their order, with the rows between them, and converge to the same end as the first time.
 */
public final class DdlApplier {

    private static final Logger LOG = LoggerFactory.getLogger(DdlApplier.class);
    private static final Pattern SECRET = Pattern.compile(
            "(?i)(IDENTIFIED\\s+(?:WITH\\s+\\S+\\s+)?(?:BY|AS)\\s+(?:PASSWORD\\s*)?|PASSWORD\\s*\\(\\s*)('(?:[^'\\\\]|\\\\.|'')*'|\"(?:[^\"\\\\]|\\\\.)*\")");

    private final DataSource dataSource;
    private final TableChanges tableChanges;
    private final SqlDialect dialect;
    private final boolean skipUnsupported;
    private final Runnable onUnsupported;
    private final Runnable onNoEffect;
    private final Runnable onDropped;

    /**
     * @param skipUnsupported {@code ddl.unsupported=skip}: a statement the target has no translation for is skipped
     *                        with a warning (and {@code onUnsupported} counts it) instead of failing the task
     */
    public DdlApplier(DataSource dataSource, SqlDialect dialect, boolean skipUnsupported, Runnable onUnsupported) {
        this(dataSource, dialect, skipUnsupported, onUnsupported, new TableChanges());
    }

    /** @param tableChanges what the workers' statement caches learn of the tables a statement changed */
    public DdlApplier(DataSource dataSource, SqlDialect dialect, boolean skipUnsupported, Runnable onUnsupported,
                      TableChanges tableChanges) {
        this(dataSource, dialect, skipUnsupported, onUnsupported, tableChanges, () -> { }, () -> { });
    }

    /**
     * @param onNoEffect counts a statement that changed nothing on purpose: the target skipped it ({@code IF
     *                   [NOT] EXISTS}), or its error was proved a replay ({@link DdlEffect})
     * @param onDropped  counts a part of a statement the target's translation left out on purpose
     */
    public DdlApplier(DataSource dataSource, SqlDialect dialect, boolean skipUnsupported, Runnable onUnsupported,
                      TableChanges tableChanges, Runnable onNoEffect, Runnable onDropped) {
        this.onNoEffect = onNoEffect;
        this.onDropped = onDropped;
        this.tableChanges = tableChanges;
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.skipUnsupported = skipUnsupported;
        this.onUnsupported = onUnsupported;
    }

    /** The statement with passwords (IDENTIFIED BY '...', PASSWORD('...')) masked, for messages. */
    public static String redact(String sql) {
        return SECRET.matcher(sql).replaceAll("$1'***'");
    }

    /**
     * Executes {@code ddl} in {@code targetSchema}, retrying a metadata lock wait or a lost connection with backoff;
     * anything else is the statement's fault and is thrown at once.
     *
     * @param renamed   true when schema.map maps the DDL's database to another name: database-level statements
     *                  (CREATE/DROP/ALTER DATABASE) would then name the wrong database and are skipped
     * @param schemaMap rewrites database-qualified names in the statement
     * @return false when the statement was skipped (database-level under a rename, or unsupported and skipped)
     */
    public boolean applyWithRetry(DdlChange ddl, String targetSchema, boolean renamed, Map<String, String> schemaMap,
                                  String origin, RetryPolicy retry, Runnable onRetry) throws SQLException {
        return retry.run(() -> apply(ddl, targetSchema, renamed, schemaMap, origin), onRetry);
    }

    /** What running a statement came to. */
    public enum Outcome {
        /** the target ran it */
        APPLIED,
        /** the target said it was already in effect ({@link SqlDialect#ddlAlreadyApplied}) */
        ALREADY_APPLIED,
        /** not run: database-level under a rename, or unsupported by the target and skipped */
        SKIPPED
    }

    /**
     * As {@link #applyWithRetry} for a statement the sink wrote itself (unqualified names), saying whether the target
     * ran it or found it already in effect. Its caller logs what it did: the statement is logged here at DEBUG only.
     */
    public Outcome runWithRetry(DdlChange ddl, String targetSchema, String origin, RetryPolicy retry, Runnable onRetry)
            throws SQLException {
        return retry.run(() -> run(ddl, targetSchema, false, Map.of(), origin, true), onRetry);
    }

    /**
     * Tells the workers' statement caches (every connection of the pool) that {@code ddl} changed its tables: each
     * worker closes and drops their cached statements before it writes its next transaction. Every table counts as
     * changed when the statement's tables cannot be told (a database-level statement). Called after the statement
     * ran (or failed, or another task ran it), before any later row is dispatched.
     */
    public void evictStatements(DdlChange ddl, String targetSchema, Map<String, String> schemaMap) {
        tableChanges.ddlRan(ParsedDdl.of(ddl).changedTables(), targetSchema, db -> schemaMap.getOrDefault(db, db),
                dialect::qualified);
    }

    /** As {@link #evictStatements(DdlChange, String, Map)} for a statement known to change {@code table} only. */
    public void evictStatements(String targetSchema, String table) {
        tableChanges.tablesChanged(List.of(dialect.qualified(targetSchema, table)));
    }

    /** As {@link #applyWithRetry}, once. */
    public boolean apply(DdlChange ddl, String targetSchema, boolean renamed, Map<String, String> schemaMap,
                         String origin) throws SQLException {
        return run(ddl, targetSchema, renamed, schemaMap, origin, false) != Outcome.SKIPPED;
    }

    private Outcome run(DdlChange ddl, String targetSchema, boolean renamed, Map<String, String> schemaMap,
                        String origin, boolean quiet) throws SQLException {
        // read once, where it was checked (the record screen, or auto-create's policy check)
        ParsedDdl statement = ParsedDdl.of(ddl);
        String named = statement.database();
        // CREATE/DROP/ALTER DATABASE of a renamed database would act on the source's name, not the target's
        if (named != null && (renamed || (schemaMap.containsKey(named) && !schemaMap.get(named).equals(named)))) {
            onNoEffect.run();
            LOG.warn("Skipped database-level DDL {} of renamed database {} (schema.map -> {}) from {}: it would act on "
                    + "the source's name", ddl.kind(), ddl.schema(), targetSchema, origin);
            return Outcome.SKIPPED;
        }
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            // no socket timeout for DDL: an ALTER TABLE of a large table may run for hours (the pool restores it);
            // each statement commits on its own (a failed one must not leave a transaction open: PostgreSQL)
            dialect.setNetworkTimeout(c, 0);
            c.setAutoCommit(true);
            try {
                SqlDialect.DdlRun run = dialect.applyDdl(st, ddl, statement, targetSchema, schemaMap);
                List<String> ran = run.statements();
                for (String d : run.dropped()) {
                    onDropped.run();
                    LOG.warn("DDL {} in {} (commitTs {}, from {}): {}", ddl.kind(), dialect.quote(targetSchema),
                            ddl.commitTs(), origin, d);
                }
                // every statement it came to was skipped by the target (a translation's several statements may
                // each skip a part, e.g. DROP INDEX's constraint or index, without the whole doing nothing)
                if (!ran.isEmpty() && run.didNothing().size() >= ran.size()) {
                    onNoEffect.run();
                    LOG.warn("DDL {} in {} (commitTs {}, from {}) did nothing: the target says {} -- ran {}",
                            ddl.kind(), dialect.quote(targetSchema), ddl.commitTs(), origin,
                            String.join("; ", run.didNothing()), redact(String.join("; ", ran)));
                    return Outcome.ALREADY_APPLIED;
                }
                if (quiet) {
                    LOG.debug("Ran {} in {} as {}", redact(ddl.query()), dialect.quote(targetSchema),
                            redact(String.join("; ", ran)));
                } else {
                    LOG.info("Applied DDL {} in {} (commitTs {}, from {}){}", ddl.kind(), dialect.quote(targetSchema),
                            ddl.commitTs(), origin, ran.size() == 1 && ran.get(0).equals(ddl.query()) ? ""
                                    : ran.isEmpty() ? ": nothing left to run once the clauses above were left out"
                                    : " as " + redact(String.join("; ", ran)));
                }
            } catch (UnsupportedDdlException e) {
                if (!skipUnsupported) {
                    // what the statement says, not an outage: a refusal (the dead-letter queue under
                    // errors.tolerance=all), never a retry
                    throw new DdlRejectedException("DDL from " + origin + " cannot be applied to the " + dialect.name()
                            + " target: " + e.getMessage() + " -- statement: " + redact(ddl.query()) + ". Apply it by "
                            + "hand and set ddl.unsupported=skip, or skip such statements with ddl.unsupported=skip",
                            e.getSQLState(), 0);
                }
                onUnsupported.run();
                LOG.warn("Skipped DDL {} from {} (ddl.unsupported=skip): {} -- statement: {}", ddl.kind(), origin,
                        e.getMessage(), redact(ddl.query()));
                return Outcome.SKIPPED;
            } catch (SQLException e) {
                if (!dialect.ddlAlreadyApplied(e) || !inEffect(c, statement, targetSchema, schemaMap)) {
                    // the server's own message may quote the statement: keep only the masked copy, not the cause
                    String message = "DDL from " + origin + " in " + dialect.quote(targetSchema) + " failed: "
                            + redact(dialect.describe(e)) + " -- statement: " + redact(ddl.query());
                    if (dialect.retryable(e) || dialect.connectionLost(e)) {
                        throw new SQLException(message, e.getSQLState(), e.getErrorCode());
                    }
                    // what the statement says, not an outage: no retry changes it
                    throw new DdlRejectedException(message, e.getSQLState(), e.getErrorCode());
                }
                onNoEffect.run();
                LOG.warn("DDL {} in {} (commitTs {}, from {}) did nothing: its result is in the target already "
                                + "(a replay; the target said {})", ddl.kind(), dialect.quote(targetSchema),
                        ddl.commitTs(), origin, dialect.describe(e));
                return Outcome.ALREADY_APPLIED;
            }
        }
        return Outcome.APPLIED;
    }

    /**
     * {@link DdlEffect#inEffect}. An outage while reading the catalog is thrown (the statement is retried); any other
     * failure to read it proves nothing.
     */
    private boolean inEffect(Connection c, ParsedDdl statement, String targetSchema, Map<String, String> schemaMap)
            throws SQLException {
        try {
            return DdlEffect.inEffect(c, dialect, statement, targetSchema, schemaMap);
        } catch (SQLException e) {
            if (dialect.retryable(e) || dialect.connectionLost(e)) throw e;
            LOG.warn("Could not read the target's catalog to tell whether DDL {} is in effect: {}", statement,
                    dialect.describe(e));
            return false;
        }
    }
}
