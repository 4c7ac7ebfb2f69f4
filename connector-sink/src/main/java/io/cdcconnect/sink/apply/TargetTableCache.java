package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.table.TargetTable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Target tables' columns, collations and unique keys, read once through the dialect and kept until a DDL
 * statement invalidates them. The sink trusts the target's keys, not the input's: Canal-JSON carries only primary-key
 * names, while ordering and upsert choice need every unique key and its collation.
 */
public final class TargetTableCache {

    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final RetryPolicy retry;
    private final Runnable onRetry;
    private final Map<String, TargetTable> tables = new ConcurrentHashMap<>();
    /** Schemas whose tables were read together since the last invalidation (each is read so at most once). */
    private final java.util.Set<String> schemasRead = ConcurrentHashMap.newKeySet();

    /** Reads of the target's metadata retried as transactions are (a lost connection, a failover). */
    public TargetTableCache(DataSource dataSource, SqlDialect dialect, RetryPolicy retry, Runnable onRetry) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.retry = retry;
        this.onRetry = onRetry;
    }

    /**
     * The table's description, read on first use.
     *
     * @throws IllegalArgumentException when the table does not exist
     */
    public TargetTable get(String schema, String table) throws SQLException {
        String key = schema + '\u0000' + table;
        TargetTable t = tables.get(key);
        if (t == null && schemasRead.add(schema)) {
            // the first table of a schema: read all of them at once (a new task's first records touch many)
            Map<String, TargetTable> all = retry.run(() -> {
                try (Connection c = dataSource.getConnection()) {
                    Map<String, TargetTable> read = dialect.readTables(c, schema);
                    if (!c.getAutoCommit()) c.commit();
                    return read;
                }
            }, onRetry);
            if (all != null) all.forEach((name, read) -> tables.putIfAbsent(schema + '\u0000' + name, read));
            t = tables.get(key);
        }
        if (t == null) {
            t = retry.run(() -> load(schema, table), onRetry);
            tables.put(key, t);
        }
        return t;
    }

    /** The table's description read anew (and kept), or null when the target has no such table. */
    public TargetTable reread(String schema, String table) throws SQLException {
        String key = schema + '\u0000' + table;
        tables.remove(key);
        TargetTable t = retry.run(() -> {
            try (Connection c = dataSource.getConnection()) {
                TargetTable read = dialect.readTable(c, schema, table);
                if (!c.getAutoCommit()) c.commit();
                return read;
            }
        }, onRetry);
        if (t != null) tables.put(key, t);
        return t;
    }

    public void invalidate(String schema, String table) {
        tables.remove(schema + '\u0000' + table);
    }

    public void invalidateAll() {
        tables.clear();
        schemasRead.clear();
    }

    private TargetTable load(String schema, String table) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            TargetTable t = dialect.readTable(c, schema, table);
            if (!c.getAutoCommit()) c.commit();
            if (t == null) {
                throw new IllegalArgumentException("target table " + dialect.qualified(schema, table) + " does not exist"
                        + " (or has no columns visible to the connection's user)");
            }
            return t;
        }
    }
}
