package io.cdcconnect.sink.dialect;

import java.util.List;

/**
 * Produces the SQL text the sink sends; the apply flow decides what to write, the dialect how to say it.
 * Table names arrive already quoted; column names arrive raw and are quoted here.
 */
public interface SqlDialect {

    String name();

    /**
     * Session variables every connection sets ({@code name = value}, after the sink's time zone and sql_mode): what
     * the target needs to take the rows a changefeed writes.
     */
    default List<String> sessionSettings() {
        return List.of();
    }

    /** An identifier in backticks, backticks doubled. */
    default String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    /** {@code INSERT INTO t (cols) VALUES (?,..),..} for {@code rows} rows. */
    String insert(String table, List<String> columns, int rows);

    /** Multi-row insert that updates every non-key column of a row that already exists. */
    String upsert(String table, List<String> columns, List<String> keyColumns, int rows);

    /** Multi-row {@code REPLACE}: removes every row that clashes on any unique key, then inserts. */
    String replace(String table, List<String> columns, int rows);

    /** Deletes {@code rows} rows by key. */
    String deleteByKey(String table, List<String> keyColumns, int rows);

    /** Updates every column of one row found by key: parameters are the new values, then the old key. */
    String updateByKey(String table, List<String> columns, List<String> keyColumns);

    /** Deletes one row matched on every column (NULL-safe): for tables without a usable key. */
    String deleteByRow(String table, List<String> columns);

    /** Updates one row matched on every column (NULL-safe): new values, then old values. */
    String updateByRow(String table, List<String> columns);
}
