package io.cdcconnect.source.dispatch;

import io.cdcconnect.codec.json.NumberText;
import io.cdcconnect.codec.model.ColumnInfo;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * TiCDC's partition hash ({@code pkg/hash.PositionInertia}): the XOR of one CRC-32 (IEEE) per write, where a write is
 * the concatenated bytes of its parts. Dispatchers write the schema and table name, then each hashed column's name and
 * its value as TiCDC's {@code model.ColumnValueString} prints it; the partition is the unsigned sum modulo the
 * partition count. Being an XOR, the column order does not matter.
 */
public final class PartitionHash {
    private final CRC32 crc = new CRC32();
    private int value;

    /** The hash of a table alone: TiCDC's {@code table} dispatcher, and where keyless rows go. */
    public static PartitionHash ofTable(String schema, String table) {
        PartitionHash h = new PartitionHash();
        h.write(utf8(schema), utf8(table));
        return h;
    }

    /** A new hash starting from this one's value (a table's hash, computed once, then each row's columns). */
    public PartitionHash copy() {
        PartitionHash h = new PartitionHash();
        h.value = value;
        return h;
    }

    /** One column: its name, then its value as TiCDC prints it ({@code folded}: as the collation compares it). */
    public PartitionHash column(ColumnInfo column, Object value, boolean folded) {
        write(utf8(column.name()), folded ? foldedText(column, value) : ticdcText(column, value));
        return this;
    }

    public int partition(int partitions) {
        return (int) (Integer.toUnsignedLong(value) % partitions);
    }

    /** The unsigned 32-bit sum, as TiCDC's Sum32. */
    public long sum32() {
        return Integer.toUnsignedLong(value);
    }

    private void write(byte[]... parts) {
        crc.reset();
        for (byte[] p : parts) crc.update(p);
        value ^= (int) crc.getValue();
    }

    /**
     * A value as TiCDC's {@code model.ColumnValueString} prints the value its mounter made: integers, YEAR, BIT, ENUM
     * and SET as decimal numbers (unsigned where the column is), FLOAT/DOUBLE as Go's shortest plain decimal, DECIMAL
     * with the column's scale, temporal values and JSON as MySQL prints them, text as its UTF-8 bytes, binary as is,
     * NULL as "null".
     */
    static byte[] ticdcText(ColumnInfo column, Object v) {
        if (v == null) return utf8("null");
        if (v instanceof byte[] b) return b;
        if (v instanceof Long l) {
            boolean unsigned = column.unsigned() || switch (column.type()) {
                case BIT, ENUM, SET -> true;
                default -> false;
            };
            return utf8(unsigned ? Long.toUnsignedString(l) : Long.toString(l));
        }
        if (v instanceof Float f) return utf8(NumberText.plain(f));
        if (v instanceof Double d) return utf8(NumberText.plain(d));
        if (v instanceof BigDecimal bd) return utf8(bd.toPlainString());
        return utf8(v.toString());
    }

    /**
     * As {@link #ticdcText}, but equal under the column's comparison: non-binary text lower-cased and without
     * trailing spaces (most collations compare so), decimals without trailing zeros.
     */
    static byte[] foldedText(ColumnInfo column, Object v) {
        if (v instanceof BigDecimal bd) return utf8(plain(bd));
        if (v instanceof String s && !column.binary()) return utf8(s.stripTrailing().toLowerCase(Locale.ROOT));
        return ticdcText(column, v);
    }

    /** A decimal's digits without trailing zeros, never an exponent. */
    private static String plain(BigDecimal d) {
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
