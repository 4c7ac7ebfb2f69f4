package io.cdcconnect.it;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Compares every row of a table in two databases, by primary key, column by column (values read as the server
 * prints them, bytes as hex). The result names the rows that are missing, extra or different.
 */
public final class TableComparison {

    /** The outcome for one table. */
    public record Result(String table, int sourceRows, int targetRows, List<String> differences, int differenceCount) {
        public boolean matches() {
            return differenceCount == 0;
        }

        @Override
        public String toString() {
            return table + ": " + sourceRows + " rows upstream, " + targetRows + " downstream, " + differenceCount
                    + " differing" + (differences.isEmpty() ? "" : " e.g. " + differences);
        }
    }

    private static final int SHOWN = 5;

    private TableComparison() {
    }

    public static List<Result> compareAll(Connection source, String sourceDb, Connection target, String targetDb,
                                          List<String> tables) throws SQLException {
        List<Result> results = new ArrayList<>();
        for (String t : tables) results.add(compare(source, sourceDb, target, targetDb, t));
        return results;
    }

    public static Result compare(Connection source, String sourceDb, Connection target, String targetDb, String table)
            throws SQLException {
        List<String> key = primaryKey(source, sourceDb, table);
        Map<String, List<String>> up = rows(source, sourceDb, table, key);
        Map<String, List<String>> down;
        try {
            down = rows(target, targetDb, table, key);
        } catch (SQLException e) {
            if (e.getErrorCode() != 1146) throw e; // ER_NO_SUCH_TABLE: not created downstream yet
            return new Result(table, up.size(), 0, List.of("table missing downstream"), Math.max(1, up.size()));
        }
        List<String> diffs = new ArrayList<>();
        int count = 0;
        for (Map.Entry<String, List<String>> e : up.entrySet()) {
            List<String> other = down.get(e.getKey());
            if (other == null) {
                count++;
                if (diffs.size() < SHOWN) diffs.add("missing downstream: " + e.getKey());
            } else if (!Objects.equals(other, e.getValue())) {
                count++;
                if (diffs.size() < SHOWN) diffs.add("differs at " + e.getKey() + ": " + e.getValue() + " vs " + other);
            }
        }
        for (String k : down.keySet()) {
            if (!up.containsKey(k)) {
                count++;
                if (diffs.size() < SHOWN) diffs.add("extra downstream: " + k);
            }
        }
        return new Result(table, up.size(), down.size(), diffs, count);
    }

    private static List<String> primaryKey(Connection c, String db, String table) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        TreeMap<Short, String> cols = new TreeMap<>();
        try (ResultSet rs = md.getPrimaryKeys(db, null, table)) {
            while (rs.next()) cols.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME"));
        }
        if (cols.isEmpty()) throw new SQLException("table " + db + "." + table + " has no primary key to compare by");
        return new ArrayList<>(cols.values());
    }

    private static Map<String, List<String>> rows(Connection c, String db, String table, List<String> key)
            throws SQLException {
        Map<String, List<String>> out = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM `" + db + "`.`" + table + "`")) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            int[] keyPos = new int[key.size()];
            for (int k = 0; k < key.size(); k++) {
                for (int i = 1; i <= n; i++) {
                    if (md.getColumnName(i).equalsIgnoreCase(key.get(k))) keyPos[k] = i;
                }
            }
            while (rs.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) row.add(value(rs, md, i));
                String[] k = new String[keyPos.length];
                for (int j = 0; j < keyPos.length; j++) k[j] = row.get(keyPos[j] - 1);
                out.put(Arrays.toString(k), row);
            }
        }
        return out;
    }

    private static String value(ResultSet rs, ResultSetMetaData md, int i) throws SQLException {
        switch (md.getColumnType(i)) {
            case java.sql.Types.BINARY, java.sql.Types.VARBINARY, java.sql.Types.LONGVARBINARY, java.sql.Types.BLOB -> {
                byte[] b = rs.getBytes(i);
                return b == null ? null : "0x" + java.util.HexFormat.of().formatHex(b);
            }
            default -> {
                return rs.getString(i);
            }
        }
    }
}
