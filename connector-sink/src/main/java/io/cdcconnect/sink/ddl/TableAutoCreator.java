package io.cdcconnect.sink.ddl;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.apply.ShapeResolver;
import io.cdcconnect.sink.apply.ShapeResolver.RowRejectedException;
import io.cdcconnect.sink.table.TargetTable;
import io.cdcconnect.sink.metrics.SinkMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code auto.create} and {@code auto.evolve}: when a row's target table is missing, creates it from the row's column
 * metadata; when the table lacks columns the row carries, adds them. Never drops, narrows or retypes a column, never
 * changes a key. The statement ({@link TableDefinition}) is MySQL text run by the {@link DdlApplier}, as the stream's
 * DDL is (the dialect translates it for PostgreSQL). Called on the task thread when a transaction is dispatched, so it
 * falls in its place among the stream's own DDL statements, which run on that thread after every earlier row.
 *
 * <p>Several tasks may create the same table, or add the same column, at once: a statement the target finds already
 * in effect is fine, and the table is read again afterwards in every case.
 */
public final class TableAutoCreator {

    private static final Logger LOG = LoggerFactory.getLogger(TableAutoCreator.class);

    private final boolean create;
    private final boolean evolve;
    private final DdlApplier applier;
    private final DdlPolicy policy;
    private final ShapeResolver shapes;
    private final SinkMetrics metrics;
    private final RetryPolicy retry;

    public TableAutoCreator(boolean create, boolean evolve, DdlApplier applier, DdlPolicy policy, ShapeResolver shapes,
                            SinkMetrics metrics, RetryPolicy retry) {
        this.create = create;
        this.evolve = evolve;
        this.applier = applier;
        this.policy = policy;
        this.shapes = shapes;
        this.metrics = metrics;
        this.retry = retry;
    }

    /** Whether either setting is on. */
    public boolean enabled() {
        return create || evolve;
    }

    /**
     * Makes the target able to take rows of {@code table}, if the settings allow it.
     *
     * @param commitTs the row's commit ts, for the log
     * @param origin   where the row came from (topic, partition, offset), for messages
     * @return true when the row's shape is to be looked up again: a table was created or columns added, here or (a
     * race) by another task; false when the settings do not allow what the target lacks
     * @throws RowRejectedException when the message cannot yield a valid table or column (the row's record goes to the
     *                              dead-letter queue, or the task fails naming it)
     * @throws ApplyException       when the target fails the statement or cannot be read
     */
    public boolean repair(TableInfo table, long commitTs, String origin) {
        String targetSchema = shapes.targetSchema(table.schema());
        try {
            TargetTable target = shapes.reread(table);
            if (target == null) {
                if (!create) return false;
                ParsedDdl sql = statement(table, targetSchema, origin, () -> TableDefinition.createTable(table));
                boolean ran;
                try {
                    ran = run(table, targetSchema, sql, DdlChange.Kind.CREATE, commitTs, origin);
                } catch (SQLException e) {
                    // another task's CREATE of the same table at the same moment can fail ours in ways the target
                    // does not call "already exists" (PostgreSQL: a unique violation in its catalog)
                    if (shapes.reread(table) == null) throw e;
                    LOG.info("Table of {} was created by another task at the same time: {}", table, e.getMessage());
                    ran = false;
                }
                TargetTable created = shapes.reread(table);
                if (created == null) {
                    // not run (ddl.unsupported=skip), or run yet not there under its name: never counted as created
                    throw new RowRejectedException("cannot create the target table of " + table + " from the row at "
                            + origin + ": after " + sql.canonical() + " the target has no such table "
                            + "(ddl.unsupported=skip may have skipped the statement)", null);
                }
                if (ran) {
                    metrics.tableCreated();
                    LOG.info("Created table {} from the columns of {} at {} (auto.create): {}", created.quotedName(),
                            table, origin, sql.canonical());
                }
                return true;
            }
            List<ColumnInfo> missing = new ArrayList<>();
            for (ColumnInfo c : table.columns()) {
                if (!c.generated() && target.column(c.name()) == null) missing.add(c);
            }
            // every column is there now: another task added it since the row's shape was looked up
            if (missing.isEmpty()) {
                // changed by another task: the workers' statements of the table go
                applier.evictStatements(targetSchema, table.table());
                return true;
            }
            if (!evolve) return false;
            for (ColumnInfo c : missing) {
                ParsedDdl sql = statement(table, targetSchema, origin, () -> TableDefinition.addColumn(table, c));
                boolean ran;
                try {
                    ran = run(table, targetSchema, sql, DdlChange.Kind.ALTER, commitTs, origin);
                } catch (SQLException e) {
                    TargetTable now = shapes.reread(table);
                    if (now == null || now.column(c.name()) == null) throw e;
                    LOG.info("Column {} of {} was added by another task at the same time: {}",
                            TableDefinition.quote(c.name()), table, e.getMessage());
                    ran = false;
                }
                if (ran) {
                    metrics.columnAdded();
                    LOG.info("Added column {} to {} from {} at {} (auto.evolve): {}", TableDefinition.quote(c.name()),
                            target.quotedName(), table, origin, sql.canonical());
                }
            }
            TargetTable evolved = shapes.reread(table);
            for (ColumnInfo c : missing) {
                if (evolved == null || evolved.column(c.name()) == null) {
                    throw new RowRejectedException("cannot add column " + TableDefinition.quote(c.name()) + " of "
                            + table + " from the row at " + origin + ": the target has no such column afterwards "
                            + "(ddl.unsupported=skip may have skipped the statement)", null);
                }
            }
            return true;
        } catch (DdlRejectedException e) {
            // the target refuses the statement the row's columns call for: the row's record is errant, not the target
            throw new RowRejectedException("cannot " + (create ? "create or " : "") + "evolve the target table of "
                    + table + " for the row at " + origin + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new ApplyException("cannot " + (create ? "create or " : "") + "evolve the target table of " + table
                    + " for the row at " + origin + ": " + e.getMessage(), e);
        }
    }

    /**
     * The statement, checked against the DDL policy's protected databases: parsed there, once, and carried to the
     * applier as parsed.
     */
    private ParsedDdl statement(TableInfo table, String targetSchema, String origin, Supplier<String> build) {
        String sql;
        try {
            sql = build.get();
        } catch (IllegalArgumentException e) {
            throw new RowRejectedException("cannot create or evolve the target table of " + table + " from the row at "
                    + origin + ": " + e.getMessage(), e);
        }
        DdlPolicy.Decision d = policy.decide(sql, targetSchema);
        // ddl.apply says which of the stream's statements run; auto.create/auto.evolve are their own permission. What
        // no message may ever change (system schemas, the checkpoint database) stays refused.
        if (d.verdict() == DdlPolicy.Verdict.REFUSE) {
            throw new RowRejectedException("cannot create or evolve the target table of " + table + " from the row at "
                    + origin + ": " + d.reason(), null);
        }
        return d.statement();
    }

    /** True when the target ran it; false when another task had done it first (or the target skipped it). */
    private boolean run(TableInfo table, String targetSchema, ParsedDdl statement, DdlChange.Kind kind, long commitTs,
                        String origin) throws SQLException {
        DdlChange ddl = new DdlChange(table.schema(), table.table(), statement.canonical(), kind, commitTs, statement);
        try {
            return applier.runWithRetry(ddl, targetSchema, origin, retry, metrics::retry) == DdlApplier.Outcome.APPLIED;
        } finally {
            // run, found done by another task, or failed: the workers' statements of the table go
            applier.evictStatements(targetSchema, table.table());
        }
    }
}
