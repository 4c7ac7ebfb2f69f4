package io.cdcconnect.codec.json;


/**
 * Floating-point numbers written as TiCDC's Go code writes them, from the shortest digits that read back to the same
 * value ({@link ShortestDecimal}).
 * <ul>
 *   <li>{@link #plain}: Go's {@code strconv.FormatFloat(v, 'f', -1, bits)}, never an exponent ("3.14", "100",
 *       "0.0000001"), used by Canal-JSON;</li>
 *   <li>{@link #goJson}: Go's {@code encoding/json} number, which switches to an exponent below 1e-6 and from 1e21
 *       ("1e-7", "1.5e+21"), used by Open-protocol.</li>
 * </ul>
 */
public final class NumberText {

    private NumberText() {
    }

    public static String plain(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return special(v);
        return plain(ShortestDecimal.of(v));
    }

    public static String plain(float v) {
        if (Float.isNaN(v) || Float.isInfinite(v)) return special(v);
        return plain(ShortestDecimal.of(v));
    }

    public static String goJson(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("JSON has no " + v);
        }
        double abs = Math.abs(v);
        String s = ShortestDecimal.of(v);
        return abs != 0 && (abs < 1e-6 || abs >= 1e21) ? exponent(s) : plain(s);
    }

    public static String goJson(float v) {
        if (Float.isNaN(v) || Float.isInfinite(v)) {
            throw new IllegalArgumentException("JSON has no " + v);
        }
        float abs = Math.abs(v);
        String s = ShortestDecimal.of(v);
        return abs != 0 && (abs < 1e-6f || abs >= 1e21f) ? exponent(s) : plain(s);
    }

    private static String special(double v) {
        return Double.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
    }

    /** Java's "d.dddE-n" / "ddd.ddd" text split into sign, significant digits and the decimal point's position. */
    private record Parts(boolean negative, String digits, int point) {
        static Parts of(String s) {
            boolean neg = s.charAt(0) == '-';
            int start = neg ? 1 : 0;
            int e = s.indexOf('E');
            int end = e < 0 ? s.length() : e;
            int exp = e < 0 ? 0 : Integer.parseInt(s.substring(e + 1));
            StringBuilder digits = new StringBuilder(end - start);
            int dot = -1;
            for (int i = start; i < end; i++) {
                char c = s.charAt(i);
                if (c == '.') dot = digits.length();
                else digits.append(c);
            }
            if (dot < 0) dot = digits.length();
            int point = dot + exp;
            int lead = 0;
            while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
                lead++;
                point--;
            }
            int trail = digits.length();
            while (trail > lead + 1 && digits.charAt(trail - 1) == '0') trail--;
            return new Parts(neg, digits.substring(lead, trail), point);
        }
    }

    /**
     * Appends {@link #plain(String)} of Java's shortest text of a finite number ({@link ShortestDecimal#of}),
     * without making a second String when there is no exponent (the usual case).
     */
    public static void appendPlain(GoText out, String javaText) {
        if (javaText.indexOf('E') >= 0) {
            out.appendAscii(plain(javaText));
        } else {
            int n = javaText.length();
            out.appendAscii(javaText, 0, javaText.endsWith(".0") ? n - 2 : n);
        }
    }

    /** Rewrites Java's form without exponent and without a trailing ".0". */
    static String plain(String s) {
        if (s.indexOf('E') < 0) {
            return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
        }
        Parts p = Parts.of(s);
        String digits = p.digits();
        int point = p.point();
        StringBuilder out = new StringBuilder(digits.length() + Math.abs(point) + 3);
        if (p.negative()) out.append('-');
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

    /** Go's 'e' format with Go's JSON clean-up: "1e-07" becomes "1e-7"; "1.5e+21" stays. */
    static String exponent(String s) {
        Parts p = Parts.of(s);
        String digits = p.digits();
        int exp = p.point() - 1;
        StringBuilder out = new StringBuilder(digits.length() + 8);
        if (p.negative()) out.append('-');
        out.append(digits.charAt(0));
        if (digits.length() > 1) out.append('.').append(digits, 1, digits.length());
        out.append('e').append(exp < 0 ? '-' : '+');
        int a = Math.abs(exp);
        if (a < 10 && exp >= 0) out.append('0'); // Go pads to two digits; JSON clean-up removes it for negatives
        out.append(a);
        return out.toString();
    }
}
