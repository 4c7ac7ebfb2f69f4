package io.cdcconnect.verify;

import org.junit.jupiter.api.Test;

import java.sql.Types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The normalisation rules alone, with the texts each driver gives. */
class ValueKindTest {

    @Test
    void numbersCompareByValueNotByScale() {
        assertEquals("1.5", ValueKind.number("1.5000"));
        assertEquals("0", ValueKind.number("0.000"));
        assertEquals("18446744073709551615", ValueKind.number("18446744073709551615"));
        assertEquals("100", ValueKind.number("100"));
        assertNull(ValueKind.number(null));
    }

    @Test
    void dateTimesLoseTrailingZerosAndTheT() {
        assertEquals("2024-01-02 03:04:05.12", ValueKind.dateTime("2024-01-02 03:04:05.120000"));
        assertEquals("2024-01-02 03:04:05.12", ValueKind.dateTime("2024-01-02T03:04:05.12"));
        assertEquals("2024-01-02 03:04:00", ValueKind.dateTime("2024-01-02T03:04"));
        assertEquals("2024-01-02 03:04:05", ValueKind.dateTime("2024-01-02 03:04:05.0"));
    }

    @Test
    void mysqlTimeAndPostgresIntervalReadAlike() {
        assertEquals("-12:34:56.5", ValueKind.duration("-12:34:56.50"));
        assertEquals("838:59:59", ValueKind.duration("838:59:59"));
        assertEquals("26:00:00", ValueKind.duration("1 day 02:00:00"));
        assertEquals("-22:00:00", ValueKind.duration("-1 days +02:00:00"));
    }

    @Test
    void jsonIsComparedWithSortedKeysAndNoSpaces() {
        assertEquals("{\"a\":[1,2],\"b\":{\"c\":\"x y\"}}", JsonText.canonical("{\"b\": {\"c\": \"x y\"}, \"a\": [1, 2]}"));
        assertEquals("{\"a\":1.5}", JsonText.canonical("{\"a\":1.50}"));
        assertEquals("not json {", JsonText.canonical("not json {"));
    }

    @Test
    void aColumnPairIsReadByOneRule() {
        assertEquals(ValueKind.JSON, ValueKind.common(ValueKind.of(Types.LONGVARCHAR, "LONGTEXT"), ValueKind.of(Types.OTHER, "jsonb")));
        assertEquals(ValueKind.TIME, ValueKind.common(ValueKind.of(Types.TIME, "TIME"), ValueKind.of(Types.OTHER, "interval")));
        assertEquals(ValueKind.BITS, ValueKind.common(ValueKind.of(Types.BIT, "BIT"), ValueKind.of(Types.BIT, "bit")));
        assertEquals(ValueKind.BOOL, ValueKind.of(Types.BIT, "bool"));
        assertEquals(ValueKind.NUMBER, ValueKind.common(ValueKind.of(Types.BIGINT, "BIGINT UNSIGNED"), ValueKind.of(Types.NUMERIC, "numeric")));
        assertEquals(ValueKind.CHAR, ValueKind.common(ValueKind.of(Types.CHAR, "CHAR"), ValueKind.of(Types.VARCHAR, "text")));
        assertEquals(ValueKind.FLOAT4, ValueKind.common(ValueKind.of(Types.REAL, "FLOAT"), ValueKind.of(Types.DOUBLE, "float8")));
    }
}
