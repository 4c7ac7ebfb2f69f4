package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.dialect.registry.Dialects;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one place that says which target schemas (MySQL databases, PostgreSQL schemas) a Kafka message may change: the
 * targets of {@code schema.map} and the schemas of {@code schema.include} (mapped to themselves). Every row change and
 * every DDL statement must resolve, after {@code schema.map}, to one of them; anything else refuses its record (the
 * dead-letter queue under {@code errors.tolerance=all}, or the task fails naming where the record is).
 *
 * <p>Never permitted, whatever the configuration: the server's system schemas ({@code mysql},
 * {@code information_schema}, {@code performance_schema}, {@code sys}, and the target dialect's own, e.g. PostgreSQL's
 * {@code pg_catalog} and {@code pg_toast}) and the sink's control database ({@code ddl.checkpoint.database}), where it
 * keeps the checkpoint that decides which records are replays; also any sink's: the default control database
 * ({@value #DEFAULT_CONTROL_DATABASE}) whatever this sink's setting, and every database in which the target holds
 * control tables ({@link #CONTROL_TABLES}, found when a task starts and when a configuration is validated), so that
 * no sink writes into another connector's checkpoint (issue 38: a second sink with {@code schema.include=cdc_connect}
 * moved the first one's checkpoint, and the first then skipped a valid row). A configuration naming one of those
 * fails validation.
 *
 * <p>Case: a protected schema is recognised whatever its case (a server compares database names case-insensitively on
 * Windows and macOS, and with {@code lower_case_table_names} set); a permitted one must be written exactly as it is
 * configured, since on a case-sensitive server {@code Shop} and {@code shop} are two databases. Strict both ways: a
 * case variant is never written into, and nothing protected slips through by its case.
 */
public final class SchemaAllowList {

    /** The MySQL family's own databases, protected on every target (a PostgreSQL target adds its own). */
    public static final Set<String> MYSQL_SYSTEM_SCHEMAS = Set.of("mysql", "information_schema",
            "performance_schema", "sys");

    /** {@code ddl.checkpoint.database}'s default: protected on every sink, whatever its own setting. */
    public static final String DEFAULT_CONTROL_DATABASE = "cdc_connect";

    /** The control store's tables: a database holding one of them is some sink's control database. */
    public static final java.util.List<String> CONTROL_TABLES = java.util.List.of("ddl_checkpoint", "ddl_run",
            "ddl_copy", "ddl_barrier", "written_through");

    private final Set<String> permitted;
    /** Lower case: databases found to hold control tables. */
    private final Set<String> controlHolding;
    /** Lower case. */
    private final Set<String> systemSchemas;
    /** Lower case, or empty when the checkpoint is off. */
    private final String controlDatabase;

    /**
     * @param permitted       the schemas rows and DDL may change, exactly as configured
     * @param systemSchemas   the target's own schemas
     * @param controlDatabase {@code ddl.checkpoint.database} (may be empty)
     */
    public SchemaAllowList(Collection<String> permitted, Collection<String> systemSchemas, String controlDatabase) {
        this(permitted, systemSchemas, controlDatabase, Set.of());
    }

    /** @param controlHolding databases the target was found to hold control tables in (any sink's) */
    public SchemaAllowList(Collection<String> permitted, Collection<String> systemSchemas, String controlDatabase,
                           Collection<String> controlHolding) {
        Set<String> holding = new java.util.HashSet<>();
        holding.add(DEFAULT_CONTROL_DATABASE);
        for (String s : controlHolding) holding.add(s.trim().toLowerCase(Locale.ROOT));
        this.controlHolding = Set.copyOf(holding);
        this.permitted = Set.copyOf(permitted);
        Set<String> system = new LinkedHashSet<>();
        for (String s : MYSQL_SYSTEM_SCHEMAS) system.add(s);
        for (String s : systemSchemas) system.add(s.toLowerCase(Locale.ROOT));
        this.systemSchemas = Set.copyOf(system);
        this.controlDatabase = controlDatabase == null ? "" : controlDatabase.trim().toLowerCase(Locale.ROOT);
    }

    /** The allow-list of {@code config}: {@code schema.map}'s targets and {@code schema.include}. */
    public static SchemaAllowList forConfig(SinkConfig config) {
        return forConfig(config, Set.of());
    }

    /** As {@link #forConfig(SinkConfig)}, with the databases the target holds control tables in. */
    public static SchemaAllowList forConfig(SinkConfig config, Collection<String> controlHolding) {
        return new SchemaAllowList(configured(config), Dialects.forUrl(config.connectionUrl()).systemSchemas(),
                config.ddlCheckpointDatabase(), controlHolding);
    }

    /**
     * Which of {@code schemas} hold one of the {@link #CONTROL_TABLES} on the target behind {@code c}: some sink's
     * control database.
     */
    public static Set<String> controlHolding(java.sql.Connection c, io.cdcconnect.sink.dialect.SqlDialect dialect,
                                             Collection<String> schemas) throws java.sql.SQLException {
        Set<String> out = new java.util.LinkedHashSet<>();
        for (String schema : schemas) {
            for (String table : CONTROL_TABLES) {
                if (dialect.tableExists(c, schema, table)) {
                    out.add(schema);
                    break;
                }
            }
        }
        return out;
    }

    /** The schemas {@code config} names for rows and DDL: {@code schema.map}'s targets, then {@code schema.include}. */
    public static Set<String> configured(SinkConfig config) {
        Set<String> out = new LinkedHashSet<>(config.schemaMap().values());
        out.addAll(config.schemaInclude());
        return out;
    }

    /** Whether a message may change {@code targetSchema} (a name after {@code schema.map}). */
    public boolean permits(String targetSchema) {
        return targetSchema != null && permitted.contains(targetSchema) && !isProtected(targetSchema);
    }

    /** Whether no configuration may permit {@code schema}: a system schema or the sink's control database. */
    public boolean isProtected(String schema) {
        if (schema == null) return false;
        String lower = schema.trim().toLowerCase(Locale.ROOT);
        return systemSchemas.contains(lower) || controlHolding.contains(lower)
                || (!controlDatabase.isEmpty() && lower.equals(controlDatabase));
    }

    /** Why {@code targetSchema} may not be changed (for a refusal; null when it {@link #permits} it). */
    public String refusal(String targetSchema) {
        if (permits(targetSchema)) return null;
        String named = "`" + targetSchema + "`";
        if (isProtected(targetSchema)) {
            String lower = targetSchema.trim().toLowerCase(Locale.ROOT);
            boolean control = !controlDatabase.isEmpty() && lower.equals(controlDatabase);
            boolean other = !control && controlHolding.contains(lower);
            return "schema " + named + " is " + (control ? "the sink's control database ("
                    + SinkConfig.DDL_CHECKPOINT_DATABASE + ")" : other ? "a sink's control database (it holds "
                    + "control tables, or is the default " + SinkConfig.DDL_CHECKPOINT_DATABASE + ")"
                    : "a system schema of the target") + ", which no message may change";
        }
        return "schema " + named + " is not one this sink may change: it is neither a target of "
                + SinkConfig.SCHEMA_MAP + " nor in " + SinkConfig.SCHEMA_INCLUDE + " (permitted: "
                + String.join(", ", new TreeSet<>(permitted)) + ")";
    }

    @Override
    public String toString() {
        return "SchemaAllowList" + new TreeSet<>(permitted);
    }
}
