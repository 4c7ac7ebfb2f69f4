package io.cdcconnect.source.dispatch;

import java.util.Locale;

/**
 * How rows are spread over a topic's partitions: TiCDC's dispatchers ({@code table}, {@code index-value}, {@code ts},
 * {@code columns}, hashed exactly as TiCDC hashes them so that a key lands on the partition a TiCDC changefeed puts it
 * on), and {@code pk}, ours: {@code index-value} with key values compared as the column's collation compares them.
 */
public enum PartitionRule {
    /** All rows of a table on one partition: TiCDC's {@code table} (and {@code default}). */
    TABLE("table"),
    /** Hash of the handle-key columns' names and values: TiCDC's {@code index-value} (formerly {@code rowid}). */
    INDEX_VALUE("index-value"),
    /**
     * {@link #INDEX_VALUE} with text values folded as most collations compare them (case, trailing spaces) and
     * decimals without trailing zeros, so keys equal to the database land together; integer and binary keys land
     * where TiCDC puts them.
     */
    PK("pk"),
    /** Commit ts modulo the partition count: a transaction stays on one partition. TiCDC's {@code ts}. */
    TS("ts"),
    /** Hash of the named columns' names and values: TiCDC's {@code columns}. */
    COLUMNS("columns");

    private final String configName;

    PartitionRule(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /** Whether rows of one table spread over partitions by their values (a key update may move a row). */
    public boolean hashesValues() {
        return this == INDEX_VALUE || this == PK || this == COLUMNS;
    }

    public static String[] configNames() {
        PartitionRule[] all = values();
        String[] names = new String[all.length];
        for (int i = 0; i < all.length; i++) names[i] = all[i].configName;
        return names;
    }

    /** The rule of that name; TiCDC's aliases {@code default} (table) and {@code rowid} (index-value) are accepted. */
    public static PartitionRule parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "": case "default": return TABLE;
            case "rowid": return INDEX_VALUE;
            default:
                for (PartitionRule r : values()) {
                    if (r.configName.equals(n)) return r;
                }
                throw new IllegalArgumentException("unknown partition rule '" + name + "' (expected "
                        + String.join(", ", configNames()) + ")");
        }
    }
}
