package io.cdcconnect.sink.conflict;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Turns a key value into a value that is equal for two inputs whenever the target database could consider them equal.
 *
 * <p>Over-normalising is safe (two different keys that look alike only cost a needless wait or merge), under-normalising
 * is not (two writes to one row could run out of order). So strings lose trailing spaces (PAD SPACE collations) and,
 * in case-insensitive columns, case and accents (utf8mb4_general_ci and unicode_ci ignore both); decimals lose
 * trailing zeros; byte arrays compare by content.
 */
public final class KeyNormalizer {

    private static final Pattern MARKS = Pattern.compile("\\p{M}+");

    private KeyNormalizer() {
    }

    public static Object normalize(Object value, boolean caseInsensitive) {
        if (value == null) return null;
        if (value instanceof String s) {
            String t = stripTrailingSpaces(s);
            if (caseInsensitive) {
                t = MARKS.matcher(Normalizer.normalize(t, Normalizer.Form.NFD)).replaceAll("");
                t = t.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
            }
            return t;
        }
        if (value instanceof byte[] b) return ByteBuffer.wrap(b);
        if (value instanceof BigDecimal d) {
            return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        }
        if (value instanceof Double d) return d == 0.0d ? 0.0d : d;
        if (value instanceof Float f) return f == 0.0f ? 0.0d : (double) f;
        if (value instanceof Integer i) return i.longValue();
        if (value instanceof Short s) return s.longValue();
        if (value instanceof Byte b) return b.longValue();
        return value;
    }

    static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') end--;
        return end == s.length() ? s : s.substring(0, end);
    }
}
