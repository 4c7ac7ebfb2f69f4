package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The simulation's model of a database: tables of a few columns ({@code id} the primary key), rows by id. The same
 * class is the source's model (what the target must end up equal to) and the in-memory target the sink's core applies
 * to. Values are kept as text, as the decoders may hand a number back as another type.
 */
final class SimWorld {

    /** One table: its columns in order, its rows by id (column name to value, text or null). */
    public static final class Table {
        final Set<String> columns = new LinkedHashSet<>(List.of("id", "v"));
        final TreeMap<Long, Map<String, String>> rows = new TreeMap<>();

        @Override
        public boolean equals(Object o) {
            return o instanceof Table t && columns.equals(t.columns) && normalised().equals(t.normalised());
        }

        @Override
        public int hashCode() {
            return Objects.hash(columns, normalised());
        }

        /** Rows with every column present (a column a row does not carry is NULL). */
        TreeMap<Long, Map<String, String>> normalised() {
            TreeMap<Long, Map<String, String>> out = new TreeMap<>();
            rows.forEach((id, row) -> {
                Map<String, String> full = new TreeMap<>();
                for (String c : columns) full.put(c, row.get(c));
                out.put(id, full);
            });
            return out;
        }

        @Override
        public String toString() {
            return columns + " " + normalised();
        }
    }

    final Map<String, Table> tables = new TreeMap<>();

    SimWorld(List<String> tableNames) {
        for (String t : tableNames) tables.put(t, new Table());
    }

    Table table(String name) {
        return tables.get(name);
    }

    /** The source's definition of a table now, as its binlog would describe its rows. */
    TableInfo info(String schema, String table) {
        List<ColumnInfo> cols = new ArrayList<>();
        for (String c : tables.get(table).columns) {
            cols.add(switch (c) {
                case "id" -> ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY);
                case "v" -> ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE);
                default -> ColumnInfo.of(c, MySqlType.LONG, ColumnFlags.NULLABLE);
            });
        }
        return TableInfo.of(schema, table, cols);
    }

    /**
     * Applies a row change as safe mode does: an insert or update writes the whole new image (replacing the old key's
     * row when the key changed), a delete removes the key's row if any.
     *
     * @return null, or what is wrong: a column of the row that the table lacks (the row met its table on the wrong
     *         side of a DDL statement)
     */
    String apply(RowChange row) {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < row.table().columnCount(); i++) all.add(row.table().column(i).name());
        return apply(row, all);
    }

    /** As {@link #apply(RowChange)}, writing only {@code columns} of the row (the shape the sink bound). */
    String apply(RowChange row, List<String> columns) {
        Table t = tables.get(row.table().table());
        if (t == null) return "table " + row.table().table() + " does not exist";
        for (String c : columns) {
            if (!t.columns.contains(c)) return "column " + c + " of a row of " + row.table() + " is not in " + t.columns;
        }
        if (row.op() != RowChange.Op.INSERT) t.rows.remove(id(row.before()));
        if (row.op() != RowChange.Op.DELETE) {
            Map<String, String> values = new TreeMap<>();
            Object[] after = row.after();
            for (int i = 0; i < row.table().columnCount(); i++) {
                String c = row.table().column(i).name();
                if (columns.contains(c)) values.put(c, after[i] == null ? null : String.valueOf(after[i]));
            }
            t.rows.put(id(after), values);
        }
        return null;
    }

    private static long id(Object[] image) {
        return ((Number) image[0]).longValue();
    }

    /**
     * Runs one of the statements the simulation generates: ALTER TABLE t ADD COLUMN c INT, ALTER TABLE t DROP COLUMN
     * c, TRUNCATE TABLE t. A change already in effect does nothing, as the sink treats one on a real target.
     */
    void run(String query) {
        // the sink writes the statement out itself: names in backquotes
        String[] w = query.replace("`", "").split(" ");
        if (w[0].equals("TRUNCATE")) {
            tables.get(w[2]).rows.clear();
        } else if (w[3].equals("ADD")) {
            tables.get(w[2]).columns.add(w[5]);
        } else if (w[3].equals("DROP")) {
            Table t = tables.get(w[2]);
            t.columns.remove(w[5]);
            for (Map<String, String> row : t.rows.values()) row.remove(w[5]);
        } else {
            throw new IllegalArgumentException(query);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimWorld w && tables.equals(w.tables);
    }

    @Override
    public int hashCode() {
        return tables.hashCode();
    }

    @Override
    public String toString() {
        return tables.toString();
    }
}
