package io.cdcconnect.codec.json;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import com.fasterxml.jackson.core.io.schubfach.FloatToDecimal;

/**
 * Floating-point numbers as Go's {@code strconv.FormatFloat(v, 'f', -1, bits)} writes them: the shortest digits
 * that read back to the same value, never an exponent ("3.14", "100", "0.00001", "-0").
 *
 * <p>Java 17's {@code Double.toString} is not always the shortest (JDK-4511638); Jackson's Schubfach is.
 */
public final class NumberText {

    private NumberText() {
    }

    public static String plain(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return special(v);
        }
        return plain(DoubleToDecimal.toString(v));
    }

    public static String plain(float v) {
        if (Float.isNaN(v) || Float.isInfinite(v)) {
            return special(v);
        }
        return plain(FloatToDecimal.toString(v));
    }

    private static String special(double v) {
        return Double.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
    }

    /** Rewrites Java's "1.5E-5" / "100.0" form without exponent and without a trailing ".0". */
    static String plain(String s) {
        int e = s.indexOf('E');
        if (e < 0) {
            return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
        }
        boolean neg = s.charAt(0) == '-';
        int start = neg ? 1 : 0;
        int exp = Integer.parseInt(s.substring(e + 1));
        StringBuilder digits = new StringBuilder(e);
        int dot = -1;
        for (int i = start; i < e; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                dot = i - start;
            } else {
                digits.append(c);
            }
        }
        if (dot < 0) {
            dot = digits.length();
        }
        while (digits.length() > 1 && digits.charAt(digits.length() - 1) == '0') {
            digits.setLength(digits.length() - 1);
        }
        int point = dot + exp; // decimal point position within digits
        StringBuilder out = new StringBuilder(digits.length() + Math.abs(exp) + 3);
        if (neg) out.append('-');
        if (point <= 0) {
            out.append("0.");
            for (int i = point; i < 0; i++) out.append('0');
            out.append(digits);
        } else if (point >= digits.length()) {
            out.append(digits);
            for (int i = digits.length(); i < point; i++) out.append('0');
        } else {
            out.append(digits, 0, point).append('.').append(digits, point, digits.length());
        }
        return out.toString();
    }
}
