package io.cdcconnect.sink.table;

/**
 * One column of a target table, as the target database describes it.
 *
 * @param name            column name as defined
 * @param columnType      the full type ("bigint(20) unsigned", "bit(64)", "varchar(10)")
 * @param caseInsensitive true when the column's collation compares case-insensitively (e.g. utf8mb4_general_ci)
 * @param generated       true for generated (virtual or stored) columns, which are never written
 * @param nullable        true when the column accepts NULL
 */
public record TargetColumn(String name, String columnType, boolean caseInsensitive, boolean generated,
                           boolean nullable) {

    public boolean unsignedBigint() {
        String t = columnType.toLowerCase(java.util.Locale.ROOT);
        return t.startsWith("bigint") && t.contains("unsigned");
    }

    public boolean bit() {
        return columnType.toLowerCase(java.util.Locale.ROOT).startsWith("bit");
    }
}
