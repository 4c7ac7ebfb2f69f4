package io.cdcconnect.sink.validate;

import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.ddl.DdlPolicy;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.dialect.ServerLimits;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.stmtcache.StatementCachePolicy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The live half of validation: connects to the target once, bounded by {@link #TIMEOUT_MS}, and reports what a task
 * would meet there. Reachable (else on {@code connection.url}, with the driver's own words, passwords masked); the
 * session time zone accepted; the server's product and version fitting {@code dialect}; the privileges the sink
 * needs on the databases {@code schema.map} names and on its own ({@code ddl.checkpoint.database}); and a share of
 * the server's prepared statements for every connection. What each database says and how is its dialect's.
 */
public final class TargetCheck {

    /** Connecting and each answer: a REST call that validates must stay responsive. */
    public static final int TIMEOUT_MS = 5_000;

    private TargetCheck() {
    }

    /**
     * @param tasks how many tasks of the connector will share the server ({@code tasks.max})
     */
    public static List<ConfigProblem> check(SinkConfig config, int tasks) {
        List<ConfigProblem> out = new ArrayList<>();
        String url = config.connectionUrl();
        SqlDialect dialect = Dialects.forUrl(url);
        Connection c;
        try {
            c = DataSources.connect(dialect, url, config.connectionUser(), config.connectionPassword(),
                    config.connectionSslMode(), TIMEOUT_MS);
        } catch (SQLException | RuntimeException e) {
            out.add(new ConfigProblem(SinkConfig.CONNECTION_URL, "cannot connect to " + DataSources.redact(url)
                    + " as " + config.connectionUser() + ": " + mask(config, e.getMessage()) + " (check host, port, "
                    + "connection.user and connection.password, and that the target accepts connections from the "
                    + "Connect workers)"));
            return out;
        }
        try (c) {
            try (Statement st = c.createStatement()) {
                st.execute(dialect.sessionInitSql(config.timestampTimeZone()));
            } catch (SQLException e) {
                out.add(new ConfigProblem(SinkConfig.TIMESTAMP_TIME_ZONE, "the target refuses the session time "
                        + "zone '" + config.timestampTimeZone() + "': " + mask(config, e.getMessage()) + " (use an "
                        + "offset such as +00:00, or load the target's time zone tables)"));
            }
            ServerLimits limits = dialect.readLimits(c);
            String mismatch = dialect.serverMismatch(config.dialect(), limits.version());
            if (mismatch != null) {
                out.add(new ConfigProblem(SinkConfig.DIALECT, mismatch));
                return out;
            }
            SqlDialect server = dialect.refine(config.dialect(), limits.version());
            DdlPolicy policy = DdlPolicy.parse(config.ddlApply(), config.ddlCheckpointDatabase());
            for (String m : server.missingPrivileges(c, ConfigRules.mappedSchemas(config), policy.allowed(),
                    config.ddlCheckpointDatabase())) {
                out.add(new ConfigProblem(SinkConfig.CONNECTION_USER, m));
            }
            for (String schema : io.cdcconnect.sink.apply.SchemaAllowList.controlHolding(c, server,
                    ConfigRules.mappedSchemas(config))) {
                out.add(new ConfigProblem(config.schemaInclude().contains(schema) ? SinkConfig.SCHEMA_INCLUDE
                        : SinkConfig.SCHEMA_MAP, "'" + schema + "' holds a sink's control tables (ddl_checkpoint, "
                        + "ddl_run, ...: another connector's " + SinkConfig.DDL_CHECKPOINT_DATABASE + "), which no "
                        + "message may change: list the databases of your data"));
            }
            ConfigProblem statements = statementBudget(config, limits, tasks);
            if (statements != null) out.add(statements);
            if (!c.getAutoCommit()) c.rollback();
        } catch (SQLException | RuntimeException e) {
            out.add(new ConfigProblem(SinkConfig.CONNECTION_URL, "connected to " + DataSources.redact(url)
                    + ", but could not read what the sink needs to know: " + mask(config, e.getMessage())));
        }
        return out;
    }

    /**
     * Null when every connection of the connector gets a share of the server's prepared statements; otherwise the
     * problem on {@code statement.cache.size}: the cache would be off and every statement sent as text.
     */
    static ConfigProblem statementBudget(SinkConfig config, ServerLimits limits, int tasks) {
        int configured = config.statementCacheSize();
        int connections = config.workerCount() + 1;
        if (configured == 0 || StatementCachePolicy.perConnection(configured, limits.maxPreparedStmtCount(),
                connections, tasks) > 0) {
            return null;
        }
        return new ConfigProblem(SinkConfig.STATEMENT_CACHE_SIZE, "the target's max_prepared_stmt_count is "
                + limits.maxPreparedStmtCount() + ", and the sink keeps half of it for other clients: "
                + tasks + " task(s) x " + connections + " connections (worker.count + 1) leave no prepared statement "
                + "per connection, so every statement would be sent as text. Raise max_prepared_stmt_count to at "
                + "least " + 2L * tasks * connections + " (better " + 2L * tasks * connections * configured
                + "), lower tasks.max or worker.count, or set statement.cache.size=0 to choose text statements");
    }

    /** The text with every password of the configuration masked: drivers may echo what they were given. */
    static String mask(SinkConfig config, String text) {
        if (text == null) return "(no message)";
        return DataSources.scrub(text, config.connectionUrl(), config.connectionPassword());
    }
}
