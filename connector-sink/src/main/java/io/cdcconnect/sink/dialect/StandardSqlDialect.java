package io.cdcconnect.sink.dialect;

import java.util.List;

/**
 * The DML that standard SQL says the same way everywhere (multi-row INSERT, DELETE and UPDATE by key); a family says
 * how it quotes, compares NULL-safely, limits a statement to one row and upserts.
 */
public abstract class StandardSqlDialect implements SqlDialect {

    /** The comparison of a column with a parameter that holds for two NULLs ({@code " <=> ?"}). */
    protected abstract String nullSafeEquals();

    /** The WHERE clause, with {@code condition}, of a DELETE or UPDATE of {@code table} that touches one row at most. */
    protected abstract String oneRowWhere(String table, String condition);

    @Override
    public String insert(String table, List<String> columns, int rows) {
        return insertLike("INSERT INTO ", table, columns, rows).toString();
    }

    @Override
    public String deleteByKey(String table, List<String> keyColumns, int rows) {
        StringBuilder sb = new StringBuilder(32 + rows * 8 * keyColumns.size());
        sb.append("DELETE FROM ").append(table).append(" WHERE ");
        if (keyColumns.size() == 1) {
            sb.append(quote(keyColumns.get(0))).append(" IN (");
            for (int r = 0; r < rows; r++) {
                if (r > 0) sb.append(',');
                sb.append('?');
            }
            sb.append(')');
        } else {
            for (int r = 0; r < rows; r++) {
                if (r > 0) sb.append(" OR ");
                sb.append('(');
                for (int k = 0; k < keyColumns.size(); k++) {
                    if (k > 0) sb.append(" AND ");
                    sb.append(quote(keyColumns.get(k))).append("=?");
                }
                sb.append(')');
            }
        }
        return sb.toString();
    }

    @Override
    public String updateByKey(String table, List<String> columns, List<String> keyColumns) {
        StringBuilder sb = new StringBuilder("UPDATE ").append(table).append(" SET ");
        appendAssignments(sb, columns);
        sb.append(" WHERE ");
        for (int k = 0; k < keyColumns.size(); k++) {
            if (k > 0) sb.append(" AND ");
            sb.append(quote(keyColumns.get(k))).append("=?");
        }
        return sb.toString();
    }

    @Override
    public String deleteByRow(String table, List<String> columns) {
        return "DELETE FROM " + table + oneRowWhere(table, nullSafeMatch(columns));
    }

    @Override
    public String updateByRow(String table, List<String> columns) {
        StringBuilder sb = new StringBuilder("UPDATE ").append(table).append(" SET ");
        appendAssignments(sb, columns);
        return sb.append(oneRowWhere(table, nullSafeMatch(columns))).toString();
    }

    /** {@code verb table (cols) VALUES (?,..),..} for {@code rows} rows. */
    protected StringBuilder insertLike(String verb, String table, List<String> columns, int rows) {
        StringBuilder sb = new StringBuilder(64 + columns.size() * 12 + rows * (columns.size() * 2 + 3));
        sb.append(verb).append(table).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append(quote(columns.get(i)));
        }
        sb.append(") VALUES ");
        for (int r = 0; r < rows; r++) {
            if (r > 0) sb.append(',');
            sb.append('(');
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) sb.append(',');
                sb.append('?');
            }
            sb.append(')');
        }
        return sb;
    }

    private void appendAssignments(StringBuilder sb, List<String> columns) {
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append(quote(columns.get(i))).append("=?");
        }
    }

    private String nullSafeMatch(List<String> columns) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) sb.append(" AND ");
            sb.append(quote(columns.get(i))).append(nullSafeEquals());
        }
        return sb.toString();
    }

    /** Whether {@code names} holds {@code name}, ignoring case (MySQL column names are case-insensitive). */
    protected static boolean containsIgnoreCase(List<String> names, String name) {
        for (String n : names) {
            if (n.equalsIgnoreCase(name)) return true;
        }
        return false;
    }
}
