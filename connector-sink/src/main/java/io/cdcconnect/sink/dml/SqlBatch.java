package io.cdcconnect.sink.dml;

/**
 * One statement to execute: its text, its parameters (row after row, flattened), the number of rows it carries.
 *
 * @param sql    statement text with {@code ?} placeholders
 * @param params parameter values, already in the Java types the binder expects
 * @param rows   rows the statement writes or deletes
 * @param kind   what it does, for messages and metrics
 * @param table  the target table, quoted, for messages
 * @param bytes  what its parameters take, estimated as {@link DmlBuilder#estimate} does (what a statement that keeps
 *               them bound holds on to)
 */
public record SqlBatch(String sql, Object[] params, int rows, Kind kind, String table, long bytes) {

    /** With {@link #bytes} estimated from the parameters. */
    public SqlBatch(String sql, Object[] params, int rows, Kind kind, String table) {
        this(sql, params, rows, kind, table, DmlBuilder.estimate(params));
    }

    public enum Kind { INSERT, UPSERT, REPLACE, DELETE, UPDATE }

    @Override
    public String toString() {
        return kind + " of " + rows + " row(s) into " + table;
    }
}
