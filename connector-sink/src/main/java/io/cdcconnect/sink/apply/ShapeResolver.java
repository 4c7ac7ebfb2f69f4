package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.table.TargetTable;
import io.cdcconnect.sink.txn.SourcePartition;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds the {@link RowShape} of an incoming table version on its target table (renamed by {@code schema.map}),
 * reading the target's definition once and keeping it until a DDL statement runs. Used by the task thread only.
 */
public final class ShapeResolver implements TableShapes {

    private final TargetTableCache tables;
    private final SqlDialect dialect;
    private final Map<String, String> schemaMap;
    private final Map<String, RowShape> shapes = new HashMap<>();
    /**
     * The shape each table version (decoders keep one {@link TableInfo} per version, so rows share it) last resolved
     * to: the per-row lookup is then one identity hash, with no key text built. Bounded; cleared with {@link #shapes}.
     */
    private final Map<TableInfo, RowShape> byVersion = new java.util.IdentityHashMap<>();
    private static final int MAX_VERSIONS = 4096;

    /** With the target's metadata reads retried under {@code retry}. */
    public ShapeResolver(DataSource dataSource, SqlDialect dialect, Map<String, String> schemaMap, RetryPolicy retry,
                         Runnable onRetry) {
        this.tables = new TargetTableCache(dataSource, dialect, retry, onRetry);
        this.dialect = dialect;
        this.schemaMap = schemaMap;
    }

    /** The target database of a source database. */
    @Override
    public String targetSchema(String sourceSchema) {
        return schemaMap.getOrDefault(sourceSchema, sourceSchema);
    }

    /**
     * The target cannot take a row for what it is: its table or one of its columns does not exist there, or a key
     * column is missing from the input. Like a row the server rejects ({@link SqlDialect#rejectsRow}), it goes to the
     * dead-letter queue when that is tolerated, or fails the task.
     */
    public static final class RowRejectedException extends ApplyException {
        public RowRejectedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * @param partition where the row came from, with {@code offset}: for the message when the target cannot take it
     *                  (the text is built only then, not for every row)
     * @throws RowRejectedException naming the table, column and origin when the target lacks the table or a column
     * @throws ApplyException       when the target's definition cannot be read (after the retries)
     */
    @Override
    public RowShape shapeOf(TableInfo table, SourcePartition partition, long offset) {
        RowShape known = byVersion.get(table);
        if (known != null) return known;
        RowShape s = resolve(table, partition, offset);
        if (byVersion.size() >= MAX_VERSIONS) byVersion.clear();
        byVersion.put(table, s);
        return s;
    }

    private RowShape resolve(TableInfo table, SourcePartition partition, long offset) {
        // a table may arrive in two shapes (Avro deletes carry only the key columns)
        String key = table.schema() + '\u0000' + table.table() + '\u0000' + table.columnCount();
        RowShape s = shapes.get(key);
        if (s != null && s.fits(table)) return s;
        String targetSchema = targetSchema(table.schema());
        try {
            try {
                s = RowShape.of(table, tables.get(targetSchema, table.table()), dialect);
            } catch (IllegalArgumentException stale) {
                // the table may have been altered outside the stream since it was read: read it again, once
                tables.invalidate(targetSchema, table.table());
                s = RowShape.of(table, tables.get(targetSchema, table.table()), dialect);
            }
        } catch (SQLException | IllegalArgumentException e) {
            throw unusable(table, partition, offset, targetSchema, e);
        }
        shapes.put(key, s);
        return s;
    }

    /** Why rows of {@code table} cannot be applied: the row's fault (rejected), or the target's (an outage). */
    private ApplyException unusable(TableInfo table, SourcePartition partition, long offset, String targetSchema,
                                    Exception e) {
        String message = "cannot apply rows of " + table + " from " + partition.where(offset) + " to "
                + dialect.qualified(targetSchema, table.table()) + ": " + e.getMessage();
        if (e instanceof IllegalArgumentException || dialect.rejectsRow((SQLException) e, false)) {
            return new RowRejectedException(message, e);
        }
        return new ApplyException(message, e);
    }

    @Override
    public RowShape projectedShapeOf(TableInfo table, SourcePartition partition, long offset) {
        String targetSchema = targetSchema(table.schema());
        try {
            return RowShape.projected(table, tables.get(targetSchema, table.table()), dialect);
        } catch (SQLException | IllegalArgumentException e) {
            throw unusable(table, partition, offset, targetSchema, e);
        }
    }

    /**
     * The target table of {@code table} read anew, bypassing (and refreshing) the cache; null when the target has no
     * such table. The shapes of the table are forgotten.
     */
    public TargetTable reread(TableInfo table) throws SQLException {
        String targetSchema = targetSchema(table.schema());
        String prefix = table.schema() + '\u0000' + table.table() + '\u0000';
        shapes.keySet().removeIf(k -> k.startsWith(prefix));
        byVersion.clear();
        return tables.reread(targetSchema, table.table());
    }

    /** Forgets every table definition: a DDL statement may have changed any of them. */
    @Override
    public void invalidateAll() {
        tables.invalidateAll();
        shapes.clear();
        byVersion.clear();
    }
}
