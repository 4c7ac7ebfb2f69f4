package io.cdcconnect.source.convert;

import io.cdcconnect.codec.model.ColumnInfo;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Edge cases of Debezium value → model value. */
class ValueConverterTest {

    private static ColumnInfo col(String type, int length) {
        return SourceColumnType.column("c", type, length, -1, List.of(), true, false);
    }

    @Test
    void timeSpansMysqlsWholeRangeWithTheColumnsFsp() {
        assertEquals("838:59:59", ValueConverter.convert(col("TIME", -1), "io.debezium.time.MicroTime", 3020399000000L));
        assertEquals("-00:00:01.000001", ValueConverter.convert(col("TIME", 6), "io.debezium.time.MicroTime", -1000001L));
        assertEquals("00:00:00.0", ValueConverter.convert(col("TIME", 1), "io.debezium.time.MicroTime", 0L));
        assertEquals("23:59:59.99", ValueConverter.convert(col("TIME", 2), "io.debezium.time.MicroTime", 86399990000L));
    }

    @Test
    void datetimeBeforeTheEpochAndAtTheExtremes() {
        assertEquals("1969-12-31 23:59:59.999999",
                ValueConverter.convert(col("DATETIME", 6), "io.debezium.time.MicroTimestamp", -1L));
        assertEquals("1000-01-01 00:00:00", ValueConverter.convert(col("DATETIME", -1), "io.debezium.time.Timestamp",
                -30610224000000L));
        assertEquals("9999-12-31 23:59:59.999",
                ValueConverter.convert(col("DATETIME", 3), "io.debezium.time.Timestamp", 253402300799999L));
        assertEquals("0001-01-01", ValueConverter.convert(col("DATE", -1), "io.debezium.time.Date", -719162));
    }

    @Test
    void timestampIsUtcTextPaddedOrCutToTheFsp() {
        assertEquals("2024-02-01 10:00:00.000000",
                ValueConverter.convert(col("TIMESTAMP", 6), "io.debezium.time.ZonedTimestamp", "2024-02-01T10:00:00Z"));
        assertEquals("2024-02-01 08:00:00",
                ValueConverter.convert(col("TIMESTAMP", -1), "io.debezium.time.ZonedTimestamp",
                        "2024-02-01T10:00:00+02:00"));
        assertEquals("1970-01-01 00:00:01.5",
                ValueConverter.convert(col("TIMESTAMP", 1), "io.debezium.time.ZonedTimestamp", "1970-01-01T00:00:01.5Z"));
    }

    @Test
    void unsignedAndBitValuesKeepTheir64BitPattern() {
        assertEquals(Long.MIN_VALUE, ValueConverter.convert(col("BIGINT UNSIGNED", 20), "org.apache.kafka.connect.data.Decimal",
                new BigDecimal("9223372036854775808")));
        assertEquals(-1L, ValueConverter.convert(col("BIT", 64), "io.debezium.data.Bits",
                new byte[] {-1, -1, -1, -1, -1, -1, -1, -1}));
        assertEquals(0x0102L, ValueConverter.convert(col("BIT", 16), "io.debezium.data.Bits", new byte[] {2, 1}));
        assertEquals(0L, ValueConverter.convert(col("BIT", 1), null, false));
    }

    @Test
    void emptyEnumIsIndexZeroAndEmptySetIsNoBits() {
        ColumnInfo e = SourceColumnType.column("e", "ENUM", 1, -1, List.of("a", "b"), true, false);
        assertEquals(0L, ValueConverter.convert(e, "io.debezium.data.Enum", ""));
        ColumnInfo s = SourceColumnType.column("s", "SET", 3, -1, List.of("a", "b"), true, false);
        assertEquals(0L, ValueConverter.convert(s, "io.debezium.data.EnumSet", ""));
        assertThrows(IllegalArgumentException.class, () -> ValueConverter.convert(s, "io.debezium.data.EnumSet", "a,z"));
    }

    @Test
    void binaryComesAsBytesFromBufferOrArray() {
        ColumnInfo b = col("BLOB", -1);
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(new byte[] {9, 1, 2, 3}, 1, 3);
        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) ValueConverter.convert(b, null, buf));
        assertEquals(3, buf.remaining(), "the buffer is not consumed");
    }

    @Test
    void floatColumnsAreFloatsAndDoublesDoubles() {
        assertEquals(0.1f, ValueConverter.convert(col("FLOAT", -1), null, 0.1d));
        assertEquals(0.1d, ValueConverter.convert(col("DOUBLE", -1), null, 0.1d));
    }
}
