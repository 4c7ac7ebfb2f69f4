package io.cdcconnect.source.dispatch;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Values printed as TiCDC's model.ColumnValueString prints what its mounter makes of them, and hashes against an
 * independent computation (Python's zlib.crc32, the same IEEE CRC-32 as Go's hash/crc32: XOR of
 * crc32(schema + table) and crc32(name + value) per column).
 */
class PartitionHashTest {
    private static final ColumnInfo BIGINT_UNSIGNED = ColumnInfo.of("k", MySqlType.LONGLONG, ColumnFlags.UNSIGNED);
    private static final ColumnInfo TEXT = ColumnInfo.of("k", MySqlType.VARCHAR, 0);

    private static String ticdc(ColumnInfo c, Object v) {
        return new String(PartitionHash.ticdcText(c, v), StandardCharsets.UTF_8);
    }

    @Test
    void valuesArePrintedAsTicdcPrintsThem() {
        assertEquals("18446744073709551615", ticdc(BIGINT_UNSIGNED, -1L));
        assertEquals("-1", ticdc(ColumnInfo.of("k", MySqlType.LONGLONG, 0), -1L));
        assertEquals("2", ticdc(ColumnInfo.of("e", MySqlType.ENUM, 0), 2L));
        assertEquals("18446744073709551614", ticdc(ColumnInfo.of("b", MySqlType.BIT, 0), -2L));
        assertEquals("1.5", ticdc(ColumnInfo.of("f", MySqlType.FLOAT, 0), 1.5f));
        assertEquals("100", ticdc(ColumnInfo.of("f", MySqlType.FLOAT, 0), 100f), "Go's 'f' format: no exponent");
        assertEquals("0.1", ticdc(ColumnInfo.of("d", MySqlType.DOUBLE, 0), 0.1d));
        assertEquals("0.000001", ticdc(ColumnInfo.of("d", MySqlType.DOUBLE, 0), 1e-6d));
        assertEquals("1.50", ticdc(ColumnInfo.of("n", MySqlType.NEWDECIMAL, 0), new BigDecimal("1.50")),
                "TiDB's decimal keeps the column's scale");
        assertEquals("null", ticdc(TEXT, null));
        assertEquals("2024-01-31 23:59:59.500", ticdc(ColumnInfo.of("t", MySqlType.DATETIME, 0),
                "2024-01-31 23:59:59.500"));
        assertArrayEquals(new byte[] {(byte) 0xff, 0}, PartitionHash.ticdcText(TEXT, new byte[] {(byte) 0xff, 0}));
    }

    @Test
    void foldedValuesCompareAsCollationsDo() {
        assertEquals("abc", new String(PartitionHash.foldedText(TEXT, "ABC  "), StandardCharsets.UTF_8));
        assertEquals("1.5", new String(PartitionHash.foldedText(ColumnInfo.of("n", MySqlType.NEWDECIMAL, 0),
                new BigDecimal("1.50")), StandardCharsets.UTF_8));
        ColumnInfo binary = ColumnInfo.of("b", MySqlType.VARCHAR, ColumnFlags.BINARY);
        assertEquals("ABC", new String(PartitionHash.foldedText(binary, "ABC"), StandardCharsets.UTF_8));
    }

    @Test
    void hashesAgreeWithAnIndependentComputation() {
        assertEquals(2132218961L, PartitionHash.ofTable("test", "t1").column(TEXT, "Abc", false).sum32());
        assertEquals(1, PartitionHash.ofTable("test", "t1").column(TEXT, "Abc", false).partition(16));
        assertEquals(15, PartitionHash.ofTable("test", "t1").column(BIGINT_UNSIGNED, -1L, false).partition(16));
        assertEquals(9, PartitionHash.ofTable("shop", "orders")
                .column(ColumnInfo.of("id", MySqlType.LONG, 0), 7L, false)
                .column(ColumnInfo.of("region", MySqlType.VARCHAR, 0), "Zürich", false).partition(10));
    }
}
