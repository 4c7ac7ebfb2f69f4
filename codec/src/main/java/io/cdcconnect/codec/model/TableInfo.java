package io.cdcconnect.codec.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A table's identity and columns, in table order. Shared by every row of one table version: build it once, not per row.
 *
 * @param schema     database name
 * @param table      table name
 * @param columns    columns in definition order
 * @param uniqueKeys every unique key as column positions, the primary key first when there is one; empty when the
 *                   table has no key (then rows cannot be told apart and the sink applies them one transaction at a time)
 */
public record TableInfo(String schema, String table, List<ColumnInfo> columns, List<int[]> uniqueKeys) {

    public TableInfo {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        uniqueKeys = uniqueKeys == null ? List.of() : List.copyOf(uniqueKeys);
    }

    /** Builds the table with keys derived from the columns' flags: the primary-key columns form key 0. */
    public static TableInfo of(String schema, String table, List<ColumnInfo> columns) {
        List<Integer> pk = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).primaryKey()) pk.add(i);
        }
        List<int[]> keys = new ArrayList<>();
        if (!pk.isEmpty()) keys.add(pk.stream().mapToInt(Integer::intValue).toArray());
        return new TableInfo(schema, table, columns, keys);
    }

    public int columnCount() {
        return columns.size();
    }

    public ColumnInfo column(int i) {
        return columns.get(i);
    }

    /** Position of a column by exact name, or -1. */
    public int indexOf(String columnName) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(columnName)) return i;
        }
        return -1;
    }

    /** Names of the primary-key columns, in table order; empty when there is no primary key. */
    public List<String> primaryKeyNames() {
        List<String> names = new ArrayList<>();
        for (ColumnInfo c : columns) {
            if (c.primaryKey()) names.add(c.name());
        }
        return Collections.unmodifiableList(names);
    }

    public boolean hasPrimaryKey() {
        for (ColumnInfo c : columns) {
            if (c.primaryKey()) return true;
        }
        return false;
    }

    /** "`schema`.`table`" with backticks doubled, for messages and SQL. */
    public String quotedName() {
        return '`' + schema.replace("`", "``") + "`.`" + table.replace("`", "``") + '`';
    }

    public Map<String, Integer> positions() {
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) m.put(columns.get(i).name(), i);
        return m;
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
