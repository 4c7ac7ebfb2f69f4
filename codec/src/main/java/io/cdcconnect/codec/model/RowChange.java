package io.cdcconnect.codec.model;

import java.util.Objects;

/**
 * One row changed in one table.
 *
 * <p>Values are held in arrays indexed like {@link TableInfo#columns()}, one Java type per MySQL type:
 * <ul>
 *   <li>TINYINT .. BIGINT, YEAR, BIT: {@link Long} (BIGINT UNSIGNED and BIT(64) hold the unsigned 64-bit pattern;
 *       read them with {@link Long#toUnsignedString(long)})</li>
 *   <li>FLOAT: {@link Float}; DOUBLE: {@link Double}; DECIMAL: {@link java.math.BigDecimal}</li>
 *   <li>DATE, TIME, DATETIME, TIMESTAMP: {@link String} as MySQL prints it ("2024-01-31", "-838:59:59",
 *       "2024-01-31 23:59:59.123456"); TIMESTAMP in the time zone the producer documents (UTC for our source)</li>
 *   <li>CHAR, VARCHAR, TEXT (not binary), JSON: {@link String}</li>
 *   <li>BINARY, VARBINARY, BLOB, GEOMETRY: {@code byte[]}</li>
 *   <li>ENUM: {@link Long} 1-based index; SET: {@link Long} bitmask</li>
 *   <li>SQL NULL: {@code null}</li>
 * </ul>
 *
 * @param table    the table version the row belongs to
 * @param op       insert, update or delete
 * @param before   the row before the change (update, delete), else null
 * @param after    the row after the change (insert, update), else null
 * @param commitTs TSO of the transaction (physical ms &lt;&lt; 18 | logical); rows of one transaction share it
 */
public record RowChange(TableInfo table, Op op, Object[] before, Object[] after, long commitTs)
        implements ChangeEvent {

    public enum Op { INSERT, UPDATE, DELETE }

    public RowChange {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(op, "op");
        switch (op) {
            case INSERT -> require(after, table, "an insert needs an after image");
            case DELETE -> require(before, table, "a delete needs a before image");
            case UPDATE -> {
                require(before, table, "an update needs a before image");
                require(after, table, "an update needs an after image");
            }
        }
    }

    private static void require(Object[] image, TableInfo table, String what) {
        if (image == null) {
            throw new IllegalArgumentException(what + " (" + table + ")");
        }
        if (image.length != table.columnCount()) {
            throw new IllegalArgumentException("row image of " + image.length + " values for " + table.columnCount()
                    + " columns of " + table);
        }
    }

    public static RowChange insert(TableInfo table, Object[] after, long commitTs) {
        return new RowChange(table, Op.INSERT, null, after, commitTs);
    }

    public static RowChange update(TableInfo table, Object[] before, Object[] after, long commitTs) {
        return new RowChange(table, Op.UPDATE, before, after, commitTs);
    }

    public static RowChange delete(TableInfo table, Object[] before, long commitTs) {
        return new RowChange(table, Op.DELETE, before, null, commitTs);
    }

    public String schema() {
        return table.schema();
    }

    public String tableName() {
        return table.table();
    }

    /** The image that identifies the row now: after for insert/update, before for delete. */
    public Object[] current() {
        return after != null ? after : before;
    }

    @Override
    public String toString() {
        return op + " " + table + " @" + commitTs;
    }
}
