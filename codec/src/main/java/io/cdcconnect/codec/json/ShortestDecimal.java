package io.cdcconnect.codec.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.function.Predicate;

/**
 * The shortest decimal text that reads back to the same {@code double} or {@code float}, and of those the closest to
 * its exact value: what Go's {@code strconv.FormatFloat(v, 'g', -1, bits)} picks, so what TiCDC writes.
 * <p>
 * From Java 19 on, {@link Double#toString(double)} and {@link Float#toString(float)} are specified to give exactly
 * that (JDK-4511638, the Schubfach algorithm). Java 17 and 18 sometimes give one digit more than needed (2.0E-3 is
 * fine, but {@code 2^-44} prints as 5.6843418860808015E-14 where 5.684341886080802E-14 reads back). There the
 * JDK's text is shortened here, one digit at a time, for as long as a decimal of that length reads back; a length
 * with none ends the search, as no shorter one can have any. Java's rule also keeps two digits
 * where one would do and a different two-digit decimal is closer (only among the smallest subnormals: Java prints
 * {@code Double.MIN_VALUE} as 4.9E-324, Go as 5e-324); such texts go through the same shortening on every Java.
 * <p>
 * This replaces jackson-core's internal {@code io.schubfach} classes, which the plugins must not depend on: Jackson
 * comes from the Connect worker, and workers before Jackson 2.14 do not have them. The price on Java 17, timed once
 * against Schubfach with a throwaway loop (not a benchmark kept in the repository; shared 2-core machine): about the JDK's own cost (80 ns) for values of up to 15 digits (money, counters,
 * most stored measurements), 1.4 µs for a double of ordinary magnitude that needs 16–17 digits (random values in
 * [0, 1000)), 6–7 µs across the whole exponent range; from Java 19 on, the JDK's cost. {@code ShortestDecimalTest} checks
 * both paths against Schubfach over 600,000 random values and the classic hard cases.
 */
public final class ShortestDecimal {

    /** Java's own text is already shortest from Java 19 on. */
    private static final boolean JDK_SHORTEST = Runtime.version().feature() >= 19;

    private ShortestDecimal() {
    }

    /** Java-style text ("1.5E21", "0.001", "3.0") of the shortest closest digits of a finite {@code v}. */
    public static String of(double v) {
        if (!JDK_SHORTEST) return shortened(v);
        String s = Double.toString(v);
        // Java's two-digit rule differs from Go's only among subnormals; a normal value's text is already Go's
        return Math.abs(v) < Double.MIN_NORMAL && significantDigits(s) == 2 ? shortened(v) : s;
    }

    /** As {@link #of(double)}, for a {@code float}. */
    public static String of(float v) {
        if (!JDK_SHORTEST) return shortened(v);
        String s = Float.toString(v);
        return Math.abs(v) < Float.MIN_NORMAL && significantDigits(s) == 2 ? shortened(v) : s;
    }

    /** The Java 17/18 path, also run by the tests on any Java. */
    static String shortened(double v) {
        String jdk = Double.toString(v);
        if (v == 0 || !Double.isFinite(v)) return jdk;
        // Any two decimals of at most 15 significant digits read back as two different normal doubles, so a JDK
        // text that short is the only decimal of its length that reads back, and no shorter one does either.
        if (Math.abs(v) >= Double.MIN_NORMAL && significantDigits(jdk) <= 15) return jdk;
        return shortest(jdk, new BigDecimal(v), d -> d.doubleValue() == v);
    }

    /** The Java 17/18 path for a {@code float}. */
    static String shortened(float v) {
        String jdk = Float.toString(v);
        if (v == 0 || !Float.isFinite(v)) return jdk;
        if (Math.abs(v) >= Float.MIN_NORMAL && significantDigits(jdk) <= 6) return jdk; // as above, 6 for float
        return shortest(jdk, new BigDecimal(v), d -> d.floatValue() == v);
    }

    /**
     * Fewer digits than the JDK's text for as long as some decimal of that length reads back. Both neighbours of the
     * exact value are tried at each length, not only the nearest: below a power of two the interval that reads back
     * is narrower on one side (2^-44's nearest 16 digits, ...801E-14, reads back to another double; ...802E-14 is
     * the answer).
     */
    private static String shortest(String jdk, BigDecimal exact, Predicate<BigDecimal> readsBack) {
        int digits = significantDigits(jdk);
        BigDecimal best = null;
        for (int p = digits - 1; p >= 1; p--) {
            BigDecimal c = candidate(exact, p, readsBack);
            if (c == null) break;
            best = c;
        }
        if (best != null) return best.toString();
        BigDecimal c = candidate(exact, digits, readsBack);
        return c == null || c.compareTo(new BigDecimal(jdk)) == 0 ? jdk : c.toString();
    }

    /** The decimal of {@code p} digits nearest {@code exact} that reads back, or null when neither neighbour does. */
    private static BigDecimal candidate(BigDecimal exact, int p, Predicate<BigDecimal> readsBack) {
        BigDecimal down = exact.round(new MathContext(p, RoundingMode.DOWN));
        BigDecimal up = exact.round(new MathContext(p, RoundingMode.UP));
        boolean downReads = readsBack.test(down);
        boolean upReads = down.compareTo(up) == 0 ? downReads : readsBack.test(up);
        if (downReads && upReads) return exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
        return downReads ? down : upReads ? up : null;
    }

    /** Significant digits in Java's text: leading zeros, the point and the exponent do not count, nor a lone ".0". */
    private static int significantDigits(String s) {
        int end = s.indexOf('E');
        if (end < 0) end = s.length();
        int first = -1;
        int last = -1;
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            if (c >= '1' && c <= '9') {
                if (first < 0) first = i;
                last = i;
            }
        }
        if (first < 0) return 1;
        int n = 0;
        for (int i = first; i <= last; i++) if (s.charAt(i) != '.') n++;
        return n;
    }
}
