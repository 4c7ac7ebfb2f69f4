package io.cdcconnect.verify;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A table as one side sees it: its columns (as a query's result reports them) and the key rows are compared by. */
record TableMeta(SqlFamily family, String schema, String table, List<Column> columns, List<String> key) {

    record Column(String name, int jdbcType, String typeName) {
        ValueKind kind() {
            return ValueKind.of(jdbcType, typeName);
        }
    }

    String qualified() {
        return family.qualified(schema, table);
    }

    /** Whether {@code schema.table} exists on this connection. */
    static boolean exists(SqlFamily family, Connection c, String schema, String table) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(family.catalog(schema), family.schemaPattern(schema), table, null)) {
            while (rs.next()) {
                if (rs.getString("TABLE_NAME").equals(table)) return true;
            }
        }
        return false;
    }

    /** Reads the table; {@code withKey}: also its primary key, else its first unique key of NOT NULL columns. */
    static TableMeta read(SqlFamily family, Connection c, String schema, String table, boolean withKey)
            throws SQLException {
        List<Column> columns = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + family.qualified(schema, table) + " WHERE 1 = 0")) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.add(new Column(md.getColumnName(i), md.getColumnType(i), md.getColumnTypeName(i)));
            }
        }
        return new TableMeta(family, schema, table, columns, withKey ? key(family, c, schema, table) : List.of());
    }

    private static List<String> key(SqlFamily family, Connection c, String schema, String table) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        TreeMap<Short, String> pk = new TreeMap<>();
        try (ResultSet rs = md.getPrimaryKeys(family.catalog(schema), family.schemaPattern(schema), table)) {
            while (rs.next()) pk.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME"));
        }
        if (!pk.isEmpty()) return new ArrayList<>(pk.values());
        Map<String, Boolean> nullable = new LinkedHashMap<>();
        try (ResultSet rs = md.getColumns(family.catalog(schema), family.schemaPattern(schema), table, "%")) {
            while (rs.next()) {
                nullable.put(rs.getString("COLUMN_NAME"), rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls);
            }
        }
        Map<String, TreeMap<Short, String>> unique = new TreeMap<>();
        try (ResultSet rs = md.getIndexInfo(family.catalog(schema), family.schemaPattern(schema), table, true, false)) {
            while (rs.next()) {
                String index = rs.getString("INDEX_NAME");
                String column = rs.getString("COLUMN_NAME");
                if (index == null || column == null) continue;
                unique.computeIfAbsent(index, k -> new TreeMap<>()).put(rs.getShort("ORDINAL_POSITION"), column);
            }
        }
        for (TreeMap<Short, String> cols : unique.values()) {
            if (cols.values().stream().noneMatch(col -> nullable.getOrDefault(col, true))) {
                return new ArrayList<>(cols.values());
            }
        }
        return List.of();
    }

    /** The column named {@code name} (case-insensitively), or null. */
    Column column(String name) {
        for (Column col : columns) {
            if (col.name().equalsIgnoreCase(name)) return col;
        }
        return null;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
