package io.cdcconnect.sink.dialect;

import java.util.List;

/**
 * SQL shared by MySQL, MariaDB and TiDB; subclasses say only how an upsert refers to the row being inserted.
 */
public abstract class MySqlFamilyDialect implements SqlDialect {

    /** Text between the VALUES list and {@code ON DUPLICATE KEY UPDATE} (a row alias), or empty. */
    protected String rowAlias() {
        return "";
    }

    /** How the update clause names the inserted value of {@code quotedColumn}. */
    protected abstract String insertedValue(String quotedColumn);

    @Override
    public String insert(String table, List<String> columns, int rows) {
        return insertLike("INSERT INTO ", table, columns, rows).toString();
    }

    @Override
    public String replace(String table, List<String> columns, int rows) {
        return insertLike("REPLACE INTO ", table, columns, rows).toString();
    }

    @Override
    public String upsert(String table, List<String> columns, List<String> keyColumns, int rows) {
        StringBuilder sb = insertLike("INSERT INTO ", table, columns, rows);
        sb.append(rowAlias()).append(" ON DUPLICATE KEY UPDATE ");
        boolean first = true;
        for (String c : columns) {
            if (containsIgnoreCase(keyColumns, c)) continue;
            if (!first) sb.append(',');
            String q = quote(c);
            sb.append(q).append('=').append(insertedValue(q));
            first = false;
        }
        if (first) {
            // every column is a key column: nothing to update, but the clause needs one assignment
            String q = quote(columns.get(0));
            sb.append(q).append('=').append(q);
        }
        return sb.toString();
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
        StringBuilder sb = new StringBuilder("DELETE FROM ").append(table).append(" WHERE ");
        appendNullSafeMatch(sb, columns);
        return sb.append(" LIMIT 1").toString();
    }

    @Override
    public String updateByRow(String table, List<String> columns) {
        StringBuilder sb = new StringBuilder("UPDATE ").append(table).append(" SET ");
        appendAssignments(sb, columns);
        sb.append(" WHERE ");
        appendNullSafeMatch(sb, columns);
        return sb.append(" LIMIT 1").toString();
    }

    private StringBuilder insertLike(String verb, String table, List<String> columns, int rows) {
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

    private void appendNullSafeMatch(StringBuilder sb, List<String> columns) {
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) sb.append(" AND ");
            sb.append(quote(columns.get(i))).append(" <=> ?");
        }
    }

    private static boolean containsIgnoreCase(List<String> names, String name) {
        for (String n : names) {
            if (n.equalsIgnoreCase(name)) return true;
        }
        return false;
    }
}
