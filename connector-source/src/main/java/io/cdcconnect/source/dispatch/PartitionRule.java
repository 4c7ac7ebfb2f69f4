package io.cdcconnect.source.dispatch;

import java.util.Locale;

/** How rows are spread over a topic's partitions (TiCDC's dispatchers: table, index-value, ts, columns). */
public enum PartitionRule {
    TABLE, PK, TS, COLUMNS;

    public static String[] configNames() {
        return new String[] {"table", "pk", "ts", "columns"};
    }

    public static PartitionRule parse(String name) {
        switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
            case "": case "table": return TABLE;
            case "pk": case "index-value": return PK;
            case "ts": return TS;
            case "columns": return COLUMNS;
            default: throw new IllegalArgumentException("unknown partition.rule '" + name
                    + "' (expected table, pk, ts or columns)");
        }
    }
}
