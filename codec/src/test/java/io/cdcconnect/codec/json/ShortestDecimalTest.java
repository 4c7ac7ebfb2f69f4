package io.cdcconnect.codec.json;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import com.fasterxml.jackson.core.io.schubfach.FloatToDecimal;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link ShortestDecimal} (its Java 17/18 path {@code shortened}, and {@code of}, which is that same path on Java 17/18
 * and the JDK's own text on Java 19+: run the test on both to cover both) against an independent implementation
 * of the same rule: jackson-core's Schubfach, used here
 * as the oracle only (the production code must not depend on Jackson's internals). Compared by value and digit count,
 * since the two spell the same number differently at times ("100.0" vs "100"). One rule differs on purpose: where one
 * digit reads back, Java (and Schubfach) still print two, the closest two-digit decimal, and Go prints one: Java's
 * 4.9E-324 is Go's 5e-324 ({@link #goShortest}).
 */
class ShortestDecimalTest {

    private static final double[] HARD = {
            1.0E23, 2.0E-3, 5.0E-324, Double.MIN_NORMAL, Double.MAX_VALUE, 0.1, 0.3, 1.0 / 3, 2.0 / 3,
            Math.scalb(1.0, -44), 9007199254740993.0, 4.35, 0.000001, 1e-7, 1e21, 1.5e21, 123456789012345680.0,
            2.2250738585072012e-308, 1.7976931348623157e308, 4.9e-324, 1.0E22, 8.41E21, 5.0E-5, 100, -0.0, 3.0
    };

    @Test
    void bothPathsMatchSchubfachOnHardDoubles() {
        for (double v : HARD) {
            assertSame(goShortest(v), ShortestDecimal.shortened(v), v);
            assertSame(goShortest(v), ShortestDecimal.of(v), v);
            assertSame(goShortest(-v), ShortestDecimal.shortened(-v), -v);
        }
    }

    @Test
    void bothPathsMatchSchubfachOn200kRandomDoublesMoneyValuesAndFloats() {
        SplittableRandom random = new SplittableRandom(20261125);
        for (int i = 0; i < 200_000; i++) {
            double d = Double.longBitsToDouble(random.nextLong());
            if (!Double.isFinite(d)) continue;
            assertSame(goShortest(d), ShortestDecimal.shortened(d), d);
            // values with few digits, as stored in DECIMAL-like DOUBLE columns
            double money = random.nextInt(1_000_000_000) / 100.0;
            assertSame(goShortest(money), ShortestDecimal.shortened(money), money);
            float f = Float.intBitsToFloat(random.nextInt());
            if (Float.isFinite(f)) {
                assertSame(goShortest(f), new BigDecimal(ShortestDecimal.shortened(f)), f);
                assertSame(goShortest(f), new BigDecimal(ShortestDecimal.of(f)), f);
            }
        }
    }

    @Test
    void goTextsOfTheHardCases() {
        assertEquals("100000000000000000000000", NumberText.plain(1.0E23));
        assertEquals("1e+23", NumberText.goJson(1.0E23));
        assertEquals("0.00000000000005684341886080802", NumberText.plain(Math.scalb(1.0, -44)));
        assertEquals("0.002", NumberText.plain(2.0E-3));
        assertEquals("1e-7", NumberText.goJson(1e-7));
        assertEquals("0.1", NumberText.plain(0.1f));
    }

    /** Schubfach's digits, but one digit where one reads back (Go's rule). */
    static String goShortest(double v) {
        String schubfach = DoubleToDecimal.toString(v);
        if (v == 0) return schubfach;
        BigDecimal one = new BigDecimal(v).round(new java.math.MathContext(1, java.math.RoundingMode.HALF_EVEN));
        return one.doubleValue() == v ? one.toString() : schubfach;
    }

    static BigDecimal goShortest(float v) {
        String schubfach = FloatToDecimal.toString(v);
        if (v == 0) return new BigDecimal(schubfach);
        BigDecimal one = new BigDecimal(v).round(new java.math.MathContext(1, java.math.RoundingMode.HALF_EVEN));
        return one.floatValue() == v ? one : new BigDecimal(schubfach);
    }

    @Test
    void oneDigitWhereOneReadsBackAsGoPrintsIt() {
        assertEquals("5E-324", ShortestDecimal.of(Double.MIN_VALUE));
        assertEquals("1E-45", ShortestDecimal.of(Float.MIN_VALUE));
        assertEquals("5E-324", ShortestDecimal.shortened(Double.MIN_VALUE));
    }

    private static void assertSame(String expected, String actual, double v) {
        assertSame(new BigDecimal(expected), new BigDecimal(actual), v);
    }

    private static void assertSame(BigDecimal e, BigDecimal a, double v) {
        assertEquals(0, e.compareTo(a), () -> "value " + v + ": expected " + e + ", ours " + a);
        assertEquals(e.stripTrailingZeros().precision(), a.stripTrailingZeros().precision(), () -> "digits of " + v);
    }
}
