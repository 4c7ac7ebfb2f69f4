package io.cdcconnect.sink.table;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A target table's columns and unique keys, read from the target database.
 *
 * @param schema        database
 * @param name          table
 * @param quotedName    schema and table as the dialect quotes them, for SQL text and messages
 * @param columns       columns in table order
 * @param uniqueKeys    every unique key by column names, the primary key first when there is one
 * @param hasPrimaryKey whether {@code uniqueKeys.get(0)} is the primary key
 * @param foreignKeys   the table's foreign keys (this table the child)
 */
public record TargetTable(String schema, String name, String quotedName, List<TargetColumn> columns,
                          List<List<String>> uniqueKeys,
                          boolean hasPrimaryKey, List<ForeignKey> foreignKeys) {

    /**
     * A foreign key: {@code columns} of this table reference {@code parentColumns} of {@code parentSchema}.{@code
     * parentTable}, in the same order.
     */
    public record ForeignKey(List<String> columns, String parentSchema, String parentTable,
                             List<String> parentColumns) {
        public ForeignKey {
            columns = List.copyOf(columns);
            parentColumns = List.copyOf(parentColumns);
        }
    }

    public TargetTable {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(quotedName, "quotedName");
        columns = List.copyOf(columns);
        uniqueKeys = uniqueKeys.stream().map(List::copyOf).toList();
        foreignKeys = foreignKeys == null ? List.of() : List.copyOf(foreignKeys);
    }

    /** A table without foreign keys. */
    public TargetTable(String schema, String name, String quotedName, List<TargetColumn> columns,
                       List<List<String>> uniqueKeys, boolean hasPrimaryKey) {
        this(schema, name, quotedName, columns, uniqueKeys, hasPrimaryKey, List.of());
    }

    /** The column of that name (MySQL column names are case-insensitive), or null. */
    public TargetColumn column(String columnName) {
        String lower = columnName.toLowerCase(Locale.ROOT);
        for (TargetColumn c : columns) {
            if (c.name().toLowerCase(Locale.ROOT).equals(lower)) return c;
        }
        return null;
    }

    /**
     * The key that identifies a row for deletes and updates: the primary key, else the first unique key whose columns
     * are all NOT NULL, else null (rows are then matched on every column).
     */
    public List<String> identityKey() {
        if (hasPrimaryKey) return uniqueKeys.get(0);
        for (List<String> key : uniqueKeys) {
            boolean notNull = true;
            for (String c : key) {
                TargetColumn col = column(c);
                if (col == null || col.nullable()) {
                    notNull = false;
                    break;
                }
            }
            if (notNull) return key;
        }
        return null;
    }

    /**
     * True when an upsert could match a row through a key other than the identity key, which
     * {@code INSERT ... ON DUPLICATE KEY UPDATE} would then update in place: such tables get {@code REPLACE}.
     */
    public boolean needsReplace() {
        return uniqueKeys.size() > 1;
    }

    public Map<String, TargetColumn> byLowerName() {
        Map<String, TargetColumn> m = new HashMap<>();
        for (TargetColumn c : columns) m.put(c.name().toLowerCase(Locale.ROOT), c);
        return m;
    }

    /**
     * From the name alone (equal tables have equal names, so this agrees with the record's equals): the workers key
     * maps by table for every row, and the record's own hash would walk every column each time.
     */
    @Override
    public int hashCode() {
        return 31 * schema.hashCode() + name.hashCode();
    }

    @Override
    public String toString() {
        return schema + "." + name;
    }
}
