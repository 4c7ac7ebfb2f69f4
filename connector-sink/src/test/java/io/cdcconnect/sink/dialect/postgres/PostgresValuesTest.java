package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.sink.dialect.ValueConverter;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PostgresValuesTest {

    private static ValueConverter conv(MySqlType type, int flags, String targetType) {
        return PostgresValues.converter(ColumnInfo.of("c", type, flags), "c", targetType, true);
    }

    private static ColumnInfo col(String name, MySqlType type, int flags, int length, List<String> elements) {
        return new ColumnInfo(name, type, flags, null, length, -1, -1, elements, null);
    }

    private static String error(ValueConverter c, Object v) {
        return assertThrows(IllegalArgumentException.class, () -> c.convert(v)).getMessage();
    }

    @Test
    void integersAreDecimalText() {
        assertEquals("-5", conv(MySqlType.TINY, 0, "int2").convert(-5L));
        assertEquals("2147483647", conv(MySqlType.LONG, 0, "int4").convert(2147483647L));
        assertEquals("4294967295", conv(MySqlType.LONG, ColumnFlags.UNSIGNED, "int8").convert(4294967295L));
        assertEquals("-9223372036854775808", conv(MySqlType.LONGLONG, 0, "int8").convert(Long.MIN_VALUE));
        assertEquals("18446744073709551615", conv(MySqlType.LONGLONG, ColumnFlags.UNSIGNED, "numeric")
                .convert(-1L));
        assertEquals("9223372036854775808", conv(MySqlType.LONGLONG, ColumnFlags.UNSIGNED, "numeric(20,0)")
                .convert(Long.MIN_VALUE));
        assertEquals("18446744073709551615", conv(MySqlType.BIT, 0, "numeric").convert(-1L));
        assertEquals("7", conv(MySqlType.LONG, 0, "text").convert(7L));
    }

    @Test
    void integersIntoBoolAreNonZero() {
        ValueConverter c = conv(MySqlType.TINY, 0, "bool");
        assertEquals("true", c.convert(1L));
        assertEquals("true", c.convert(-3L));
        assertEquals("false", c.convert(0L));
        assertEquals("true", conv(MySqlType.BIT, 0, "bool").convert(1L));
        assertEquals("true", conv(MySqlType.LONGLONG, ColumnFlags.UNSIGNED, "bool").convert(-1L));
    }

    @Test
    void bitsAreZerosAndOnesOfTheColumnsLength() {
        ValueConverter fromSource = PostgresValues.converter(col("b", MySqlType.BIT, 0, 5, List.of()), "b", "bit",
                true);
        assertEquals("00101", fromSource.convert(5L));
        assertEquals("00000", fromSource.convert(0L));
        assertEquals("11111", fromSource.convert(31L));
        // the target's own length wins
        ValueConverter fromTarget = PostgresValues.converter(col("b", MySqlType.BIT, 0, 5, List.of()), "b",
                "bit(8)", true);
        assertEquals("00000101", fromTarget.convert(5L));
        assertEquals("1" + "0".repeat(63), PostgresValues.converter(col("b", MySqlType.BIT, 0, 64, List.of()),
                "b", "varbit", true).convert(Long.MIN_VALUE));
        // no length known: as many digits as the value needs
        assertEquals("101", conv(MySqlType.BIT, 0, "varbit").convert(5L));
        assertEquals("column `b`: BIT value 37 needs 6 bits, more than the column's 5", error(fromSource, 37L));
    }

    @Test
    void enumIndexesBecomeNames() {
        ValueConverter c = PostgresValues.converter(col("e", MySqlType.ENUM, 0, -1, List.of("small", "large")),
                "e", "text", true);
        assertEquals("small", c.convert(1L));
        assertEquals("large", c.convert(2L));
        assertEquals("", c.convert(0L));
        assertEquals("column `e`: ENUM index 3 is outside the column's 2 elements", error(c, 3L));
        assertEquals("column `e`: ENUM index -1 is outside the column's 2 elements", error(c, -1L));
        ValueConverter unknown = PostgresValues.converter(col("e", MySqlType.ENUM, 0, -1, List.of()), "e",
                "mood", true);
        assertEquals("column `e`: ENUM index 2 cannot be named: the column's elements are unknown",
                error(unknown, 2L));
        assertEquals("", unknown.convert(0L));
        // a producer that gives the label passes it on
        assertEquals("large", c.convert("large"));
        // into a numeric column: the index
        assertEquals("2", PostgresValues.converter(col("e", MySqlType.ENUM, 0, -1, List.of("a", "b")), "e",
                "int2", true).convert(2L));
    }

    @Test
    void setBitmasksBecomeCommaJoinedNames() {
        ValueConverter c = PostgresValues.converter(col("s", MySqlType.SET, 0, -1, List.of("x", "y", "z")), "s",
                "text", true);
        assertEquals("x,z", c.convert(5L));
        assertEquals("x,y,z", c.convert(7L));
        assertEquals("y", c.convert(2L));
        assertEquals("", c.convert(0L));
        assertEquals("column `s`: SET bitmask 9 has bits beyond the column's 3 elements", error(c, 9L));
        ValueConverter unknown = PostgresValues.converter(col("s", MySqlType.SET, 0, -1, List.of()), "s", "text",
                true);
        assertEquals("column `s`: SET bitmask 1 cannot be named: the column's elements are unknown",
                error(unknown, 1L));
        assertEquals("5", PostgresValues.converter(col("s", MySqlType.SET, 0, -1, List.of("x", "y", "z")), "s",
                "int8", true).convert(5L));
    }

    @Test
    void yearsAreDecimalText() {
        assertEquals("2024", conv(MySqlType.YEAR, 0, "int2").convert(2024L));
        assertEquals("0", conv(MySqlType.YEAR, 0, "int2").convert(0L));
    }

    @Test
    void zeroDatesAreNullOrRefused() {
        ValueConverter nullable = PostgresValues.converter(ColumnInfo.of("d", MySqlType.DATE, 0), "d", "date",
                true);
        ValueConverter notNull = PostgresValues.converter(ColumnInfo.of("d", MySqlType.DATE, 0), "d", "date",
                false);
        assertEquals("2024-01-31", nullable.convert("2024-01-31"));
        assertEquals("0001-01-01", notNull.convert("0001-01-01"));
        assertNull(nullable.convert("0000-00-00"));
        assertEquals("column `d`: zero date '0000-00-00' has no PostgreSQL value and the column is NOT NULL",
                error(notNull, "0000-00-00"));
        assertEquals("column `d`: date '2024-00-15' has a zero year, month or day, which PostgreSQL has no value "
                + "for", error(nullable, "2024-00-15"));
        assertEquals("column `d`: date '2024-05-00' has a zero year, month or day, which PostgreSQL has no value "
                + "for", error(nullable, "2024-05-00"));
        assertEquals("column `d`: date '0000-01-01' has a zero year, month or day, which PostgreSQL has no value "
                + "for", error(nullable, "0000-01-01"));

        ValueConverter dt = PostgresValues.converter(ColumnInfo.of("t", MySqlType.DATETIME, 0), "t", "timestamp",
                true);
        assertEquals("2024-01-31 23:59:59.123456", dt.convert("2024-01-31 23:59:59.123456"));
        assertNull(dt.convert("0000-00-00 00:00:00"));
        assertNull(dt.convert("0000-00-00 00:00:00.000"));
        assertEquals("column `t`: date '0000-00-00 10:00:00' has a zero year, month or day, which PostgreSQL has "
                + "no value for", error(dt, "0000-00-00 10:00:00"));
        ValueConverter ts = PostgresValues.converter(ColumnInfo.of("ts", MySqlType.TIMESTAMP, 0), "ts",
                "timestamptz", false);
        assertEquals("2024-01-31 10:00:00", ts.convert("2024-01-31 10:00:00"));
        assertEquals("column `ts`: zero date '0000-00-00 00:00:00' has no PostgreSQL value and the column is NOT "
                + "NULL", error(ts, "0000-00-00 00:00:00"));
        // a text column holds them as they are
        assertEquals("0000-00-00", PostgresValues.converter(ColumnInfo.of("d", MySqlType.DATE, 0), "d", "varchar",
                false).convert("0000-00-00"));
    }

    @Test
    void timesIntoIntervalPassAndIntoTimeMustBeATimeOfDay() {
        ValueConverter interval = conv(MySqlType.TIME, 0, "interval");
        assertEquals("-838:59:59", interval.convert("-838:59:59"));
        assertEquals("838:59:59.000000", interval.convert("838:59:59.000000"));
        assertEquals("-00:00:00.5", interval.convert("-00:00:00.5"));
        ValueConverter time = PostgresValues.converter(ColumnInfo.of("t", MySqlType.TIME, 0), "t", "time", true);
        assertEquals("00:00:00", time.convert("00:00:00"));
        assertEquals("23:59:59.999999", time.convert("23:59:59.999999"));
        assertEquals("column `t`: time '24:00:00' is outside a PostgreSQL time's 00:00:00..23:59:59.999999; make "
                + "the column an interval", error(time, "24:00:00"));
        assertEquals("column `t`: time '-00:00:01' is outside a PostgreSQL time's 00:00:00..23:59:59.999999; make "
                + "the column an interval", error(time, "-00:00:01"));
        assertEquals("column `t`: time '838:59:59' is outside a PostgreSQL time's 00:00:00..23:59:59.999999; make "
                + "the column an interval", error(time, "838:59:59"));
    }

    @Test
    void textWithNulIsRefused() {
        ValueConverter c = PostgresValues.converter(ColumnInfo.of("s", MySqlType.VARCHAR, 0), "s", "varchar", true);
        assertEquals("it's \\ fine", c.convert("it's \\ fine"));
        assertEquals("column `s`: text 'a\\0b' contains U+0000, which PostgreSQL text cannot hold",
                error(c, "a\0b"));
        String longText = "x".repeat(100) + "\0";
        assertEquals("column `s`: text '" + "x".repeat(40) + "...' contains U+0000, which PostgreSQL text cannot "
                + "hold", error(c, longText));
    }

    @Test
    void jsonIntoJsonbCannotHoldTheNulEscape() {
        ValueConverter jsonb = PostgresValues.converter(ColumnInfo.of("j", MySqlType.JSON, 0), "j", "jsonb", true);
        assertEquals("{\"a\": [1, 2]}", jsonb.convert("{\"a\": [1, 2]}"));
        assertEquals("{\"a\": \"\\\\u0000\"}", jsonb.convert("{\"a\": \"\\\\u0000\"}")); // an escaped backslash
        assertEquals("column `j`: JSON '{\"a\": \"\\u0000\"}' contains \\u0000, which PostgreSQL jsonb cannot hold "
                + "(a json column can)", error(jsonb, "{\"a\": \"\\u0000\"}"));
        ValueConverter json = PostgresValues.converter(ColumnInfo.of("j", MySqlType.JSON, 0), "j", "json", true);
        assertEquals("{\"a\": \"\\u0000\"}", json.convert("{\"a\": \"\\u0000\"}"));
    }

    @Test
    void bytesAreHexOrStrictUtf8() {
        ValueConverter bytea = conv(MySqlType.BLOB, ColumnFlags.BINARY, "bytea");
        assertEquals("\\x00ff10ab", bytea.convert(new byte[] {0, (byte) 0xff, 0x10, (byte) 0xab}));
        assertEquals("\\x", bytea.convert(new byte[0]));
        ValueConverter text = PostgresValues.converter(ColumnInfo.of("b", MySqlType.VARCHAR, ColumnFlags.BINARY),
                "b", "text", true);
        assertEquals("héllo", text.convert("héllo".getBytes(StandardCharsets.UTF_8)));
        assertEquals("column `b`: bytes 0xc328 are not valid UTF-8, which a PostgreSQL text column needs",
                error(text, new byte[] {(byte) 0xc3, 0x28}));
        assertEquals("column `b`: bytes 0x610062 contain NUL, which a PostgreSQL text column cannot hold",
                error(text, new byte[] {'a', 0, 'b'}));
        ValueConverter uuid = PostgresValues.converter(ColumnInfo.of("u", MySqlType.STRING, ColumnFlags.BINARY),
                "u", "uuid", true);
        byte[] u = new byte[16];
        for (int i = 0; i < 16; i++) u[i] = (byte) (i * 17);
        assertEquals("00112233-4455-6677-8899-aabbccddeeff", uuid.convert(u));
        assertEquals("column `u`: 3 bytes 0x010203 are not a 16-byte UUID", error(uuid, new byte[] {1, 2, 3}));
        // text into bytea: its UTF-8 bytes
        assertEquals("\\x6162", PostgresValues.converter(ColumnInfo.of("s", MySqlType.VARCHAR, 0), "s", "bytea",
                true).convert("ab"));
    }

    @Test
    void numbersKeepTheirExactText() {
        assertEquals("12345678901234567890.000001", conv(MySqlType.NEWDECIMAL, 0, "numeric")
                .convert(new BigDecimal("12345678901234567890.000001")));
        assertEquals("10000000000", conv(MySqlType.NEWDECIMAL, 0, "numeric").convert(new BigDecimal("1E+10")));
        assertEquals("0.1", conv(MySqlType.FLOAT, 0, "float4").convert(0.1f));
        assertEquals("0.1", conv(MySqlType.DOUBLE, 0, "float8").convert(0.1d));
        assertEquals("1.0E20", conv(MySqlType.DOUBLE, 0, "float8").convert(1e20d));
        assertEquals("NaN", conv(MySqlType.DOUBLE, 0, "float8").convert(Double.NaN));
        assertEquals("Infinity", conv(MySqlType.FLOAT, 0, "float4").convert(Float.POSITIVE_INFINITY));
        assertEquals("-Infinity", conv(MySqlType.DOUBLE, 0, "float8").convert(Double.NEGATIVE_INFINITY));
    }

    @Test
    void otherJavaTypesAreConvertedByTheirOwnType() {
        assertEquals("true", conv(MySqlType.TINY, 0, "bool").convert(Boolean.TRUE));
        assertEquals("1", conv(MySqlType.TINY, 0, "int2").convert(Boolean.TRUE));
        assertEquals("false", conv(MySqlType.VARCHAR, 0, "text").convert(Boolean.FALSE));
        assertEquals("42", conv(MySqlType.LONG, 0, "int4").convert(42));
        assertEquals("123456789012345678901234567890", conv(MySqlType.NEWDECIMAL, 0, "numeric")
                .convert(new java.math.BigInteger("123456789012345678901234567890")));
        assertEquals("x", conv(MySqlType.VARCHAR, 0, "text").convert(new StringBuilder("x")));
    }
}
