package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dml.DmlBuilder;
import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.dml.SqlBatch;
import io.cdcconnect.sink.table.TargetTable;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.stmtcache.ConnectionStatementCache;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes one transaction on one connection: statements per table, then commit. Retries are the caller's. */
public final class TransactionApplier {

    private final DmlBuilder builder;
    private final SinkMetrics metrics;

    public TransactionApplier(DmlBuilder builder, SinkMetrics metrics) {
        this.builder = builder;
        this.metrics = metrics;
    }

    /** The target's dialect. */
    public SqlDialect dialect() {
        return builder.dialect();
    }

    /** The statements for a work item, table by table in order of first appearance. */
    public List<SqlBatch> plan(WorkItem item) {
        List<SqlBatch> out = new ArrayList<>();
        plan(item.transaction().rows(), item.shapes(), item.safe(), out);
        return out;
    }

    /**
     * The statements for several independent work items (no key in common, so any order is right) written in one
     * downstream transaction: their rows per table are merged into the same multi-row statements.
     */
    public List<SqlBatch> plan(List<WorkItem> items) {
        if (items.size() == 1) return plan(items.get(0));
        List<SqlBatch> out = new ArrayList<>();
        for (boolean safe : new boolean[]{true, false}) {
            List<RowChange> rows = new ArrayList<>();
            List<RowShape> shapes = new ArrayList<>();
            for (WorkItem item : items) {
                if (item.safe() != safe) continue;
                rows.addAll(item.transaction().rows());
                shapes.addAll(java.util.Arrays.asList(item.shapes()));
            }
            if (!rows.isEmpty()) plan(rows, shapes.toArray(new RowShape[0]), safe, out);
        }
        return out;
    }

    /** Consecutive rows of one target table written through one shape. */
    private record Run(RowShape shape, List<RowChange> rows) {
    }

    /**
     * Groups rows per target table (tables are independent, so their order does not matter) and, within a table,
     * into runs of one shape in source order: a table may arrive in two shapes (Avro deletes carry only the key),
     * and an insert, delete and re-insert of one key must not be reordered by shape. In safe mode the runs of a table
     * are written together when every shape has the table's identity key: the net effect per key is taken across
     * them ({@link DmlBuilder#buildSafe}), so a change of shape does not end a multi-row statement.
     */
    private void plan(List<RowChange> rows, RowShape[] shapes, boolean safe, List<SqlBatch> out) {
        Map<TargetTable, List<Run>> byTable = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            RowShape s = shapes[i];
            List<Run> runs = byTable.computeIfAbsent(s.target(), k -> new ArrayList<>(1));
            Run last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last == null || last.shape() != s) {
                last = new Run(s, new ArrayList<>());
                runs.add(last);
            }
            last.rows().add(rows.get(i));
        }
        for (List<Run> runs : byTable.values()) {
            if (safe && runs.size() > 1 && mergeable(runs)) {
                // in safe mode the net effect per key is taken over the whole table, whatever each row's shape
                List<RowShape> rowShapes = new ArrayList<>();
                List<RowChange> tableRows = new ArrayList<>();
                for (Run run : runs) {
                    rowShapes.addAll(java.util.Collections.nCopies(run.rows().size(), run.shape()));
                    tableRows.addAll(run.rows());
                }
                builder.buildSafe(rowShapes, tableRows, out);
            } else {
                for (Run run : runs) builder.build(run.shape(), run.rows(), safe, out);
            }
        }
    }

    private static boolean mergeable(List<Run> runs) {
        List<RowShape> shapes = new ArrayList<>(runs.size());
        for (Run run : runs) shapes.add(run.shape());
        return DmlBuilder.canMergeShapes(shapes);
    }

    /** One row the target rejected for its data, while the rest of its transaction was applied. */
    public record Rejection(int row, TargetTable table, SQLException error) {
    }

    /**
     * Writes a work item one row at a time, in source order, in one downstream transaction, each row behind a savepoint:
     * a row the target rejects for its data ({@link SqlDialect#rejectsRow}) is rolled back to its savepoint and left
     * out, the others are committed. Used after the item's multi-row statements failed that way, to find the rows at
     * fault without giving up the others; per-key order holds, since the rows go in their source order.
     *
     * @param stopAtFirst roll everything back at the first rejected row instead of committing the rest (rejections
     *                    are not tolerated: the caller fails the task naming that row)
     * @return the rejected rows (empty when none was: the failure was one of the multi-row statement as a whole)
     * @throws SQLException any other error, with the transaction not committed (the caller rolls back and retries)
     */
    public List<Rejection> applyRowByRow(Connection connection, ConnectionStatementCache cache, WorkItem item,
                                         boolean stopAtFirst) throws SQLException {
        List<RowChange> rows = item.transaction().rows();
        List<Rejection> rejected = new ArrayList<>(1);
        List<SqlBatch> batches = new ArrayList<>(2);
        String setup = builder.dialect().rowByRowSetup();
        if (setup != null) {
            try (java.sql.Statement st = connection.createStatement()) {
                st.execute(setup);
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            RowShape shape = item.shapes()[i];
            batches.clear();
            builder.build(shape, List.of(rows.get(i)), item.safe(), batches);
            // an update that changes a key is two statements: both go, or neither
            Savepoint savepoint = connection.setSavepoint();
            try {
                execute(cache, batches);
            } catch (SQLException e) {
                if (!builder.dialect().rejectsRow(e, item.safe())) throw e;
                connection.rollback(savepoint);
                rejected.add(new Rejection(i, shape.target(), e));
                if (stopAtFirst) {
                    connection.rollback();
                    return rejected;
                }
                continue;
            }
            connection.releaseSavepoint(savepoint);
        }
        connection.commit();
        return rejected;
    }

    /**
     * Executes the statements and commits.
     *
     * @throws SQLException with the failing statement's description in its message and the server's code and state
     */
    public void apply(Connection connection, ConnectionStatementCache cache, List<SqlBatch> batches)
            throws SQLException {
        execute(cache, batches);
        connection.commit();
    }

    /**
     * Executes the statements; their parameters stay bound up to the cache's budget once all of them ran
     * ({@link ConnectionStatementCache#trimHeld}), and are all cleared when one failed.
     */
    private void execute(ConnectionStatementCache cache, List<SqlBatch> batches) throws SQLException {
        try {
            for (SqlBatch batch : batches) {
                executeOne(cache, batch);
            }
        } catch (SQLException | RuntimeException e) {
            try {
                cache.clearHeld();
            } catch (SQLException ignored) {
                // the statement's own failure is what the caller reports
            }
            throw e;
        }
        cache.trimHeld();
    }

    private void executeOne(ConnectionStatementCache cache, SqlBatch batch) throws SQLException {
        ConnectionStatementCache.Lease lease = null;
        try {
            lease = cache.acquire(batch.table(), batch.sql());
            PreparedStatement ps = lease.statement();
            Object[] params = batch.params();
            SqlDialect dialect = builder.dialect();
            for (int i = 0; i < params.length; i++) dialect.bind(ps, i + 1, params[i]);
            int changed = ps.executeUpdate();
            metrics.executed();
            if (changed == 0 && batch.kind() == SqlBatch.Kind.UPDATE) {
                // outside safe mode (safe mode writes upserts): the row is not there, and the count says so
                lease.release();
                lease = null;
                throw new MissingRowException("no row of " + batch.table() + " matched the update");
            }
            lease.release(batch.bytes());
        } catch (SQLException e) {
            // the connection goes on (a rejected row is left out and the next written): free the statement
            if (lease != null && !builder.dialect().connectionLost(e)) releaseQuietly(lease);
            throw new SQLException(batch + ": " + builder.dialect().describe(e), e.getSQLState(), e.getErrorCode(),
                    e);
        }
    }

    private static void releaseQuietly(ConnectionStatementCache.Lease lease) {
        try {
            lease.release();
        } catch (SQLException ignored) {
            // the statement's own failure is what the caller reports
        }
    }
}
