package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.dml.TargetColumn;
import io.cdcconnect.sink.dml.TargetTable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Target tables' columns, collations and unique keys, read from {@code information_schema} once and kept until a DDL
 * statement invalidates them. The sink trusts the target's keys, not the input's: Canal-JSON carries only primary-key
 * names, while ordering and upsert choice need every unique key and its collation.
 */
public final class TargetTableCache {

    private static final String COLUMNS_SQL = "SELECT COLUMN_NAME, COLUMN_TYPE, COLLATION_NAME, IS_NULLABLE, EXTRA "
            + "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";
    private static final String KEYS_SQL = "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS "
            + "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 "
            + "ORDER BY INDEX_NAME <> 'PRIMARY', INDEX_NAME, SEQ_IN_INDEX";

    private final DataSource dataSource;
    private final RetryPolicy retry;
    private final Runnable onRetry;
    private final Map<String, TargetTable> tables = new ConcurrentHashMap<>();

    public TargetTableCache(DataSource dataSource) {
        this(dataSource, RetryPolicy.NONE, () -> { });
    }

    /** Reads of the target's metadata retried as transactions are (a lost connection, a failover). */
    public TargetTableCache(DataSource dataSource, RetryPolicy retry, Runnable onRetry) {
        this.dataSource = dataSource;
        this.retry = retry;
        this.onRetry = onRetry;
    }

    /** The table's description, read on first use. */
    public TargetTable get(String schema, String table) throws SQLException {
        String key = schema + '\u0000' + table;
        TargetTable t = tables.get(key);
        if (t == null) {
            t = retry.run(() -> load(schema, table), onRetry);
            tables.put(key, t);
        }
        return t;
    }

    public void invalidate(String schema, String table) {
        tables.remove(schema + '\u0000' + table);
    }

    public void invalidateAll() {
        tables.clear();
    }

    private TargetTable load(String schema, String table) throws SQLException {
        List<TargetColumn> columns = new ArrayList<>();
        Map<String, List<String>> keys = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement(COLUMNS_SQL)) {
                ps.setString(1, schema);
                ps.setString(2, table);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String collation = rs.getString(3);
                        String extra = rs.getString(5) == null ? "" : rs.getString(5).toUpperCase(Locale.ROOT);
                        boolean generated = extra.contains("VIRTUAL") || extra.contains("STORED")
                                || extra.contains("PERSISTENT");
                        columns.add(new TargetColumn(rs.getString(1), rs.getString(2),
                                collation != null && collation.toLowerCase(Locale.ROOT).contains("_ci"), generated,
                                "YES".equalsIgnoreCase(rs.getString(4))));
                    }
                }
            }
            if (columns.isEmpty()) {
                throw new SQLException("target table `" + schema + "`.`" + table + "` does not exist (or has no "
                        + "columns visible to the connection's user)", "42S02", 1146);
            }
            try (PreparedStatement ps = c.prepareStatement(KEYS_SQL)) {
                ps.setString(1, schema);
                ps.setString(2, table);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        keys.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                    }
                }
            }
            if (!c.getAutoCommit()) c.commit();
        }
        boolean hasPk = keys.containsKey("PRIMARY");
        return new TargetTable(schema, table, columns, new ArrayList<>(keys.values()), hasPk);
    }
}
