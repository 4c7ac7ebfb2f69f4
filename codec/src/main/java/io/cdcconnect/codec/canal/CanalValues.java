package io.cdcconnect.codec.canal;

import io.cdcconnect.codec.json.GoText;
import io.cdcconnect.codec.json.NumberText;
import io.cdcconnect.codec.json.ShortestDecimal;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.ColumnInfo;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Model values to Canal-JSON's strings and back (TiCDC's {@code formatValue} and its decoder's inverse). */
final class CanalValues {

    private CanalValues() {
    }

    /** The text a non-null value travels as. */
    static String format(ColumnInfo c, Object v) {
        switch (c.type()) {
            case TINY: case SHORT: case INT24: case LONG: case LONGLONG:
                if (v instanceof Long l) {
                    return c.unsigned() ? Long.toUnsignedString(l) : Long.toString(l);
                }
                return integerText(v, c.unsigned());
            case YEAR:
                return v instanceof Number n ? Long.toString(n.longValue()) : v.toString();
            case BIT: case ENUM: case SET:
                return integerText(v, true);
            case FLOAT:
                if (v instanceof Float f) return NumberText.plain(f);
                if (v instanceof Double d) return NumberText.plain(d.floatValue());
                return v.toString();
            case DOUBLE:
                if (v instanceof Double d) return NumberText.plain(d);
                if (v instanceof Float f) return NumberText.plain(f.doubleValue());
                return v.toString();
            case DECIMAL: case NEWDECIMAL:
                return v instanceof BigDecimal d ? d.toPlainString() : v.toString();
            default:
                if (v instanceof String s) return s;
                if (v instanceof byte[] b) {
                    // Binary strings go one character per byte (Canal's ISO-8859-1 reading); text is UTF-8.
                    return new String(b, CanalTypes.binaryString(c) || c.type() == MySqlType.GEOMETRY
                            ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
                }
                return v.toString();
        }
    }

    /** Appends the text of a non-null value, escaped, to {@code out}: digits and bytes without a String between. */
    static void append(GoText out, ColumnInfo c, Object v) {
        switch (c.type()) {
            case TINY: case SHORT: case INT24: case LONG: case LONGLONG:
                if (v instanceof Long l) {
                    if (c.unsigned()) out.appendUnsigned(l);
                    else out.appendLong(l);
                    return;
                }
                break;
            case YEAR:
                if (v instanceof Long l) {
                    out.appendLong(l);
                    return;
                }
                break;
            case BIT: case ENUM: case SET:
                if (v instanceof Long l) {
                    out.appendUnsigned(l);
                    return;
                }
                break;
            case DECIMAL: case NEWDECIMAL:
                // up to 18 digits the unscaled value fits a long: digits straight into the buffer
                if (v instanceof BigDecimal d && d.scale() > 0 && d.precision() <= 18) {
                    out.appendPlainDecimal(d.unscaledValue().longValue(), d.scale());
                    return;
                }
                break;
            case FLOAT:
                if (v instanceof Float f && Float.isFinite(f)) {
                    NumberText.appendPlain(out, ShortestDecimal.of(f));
                    return;
                }
                break;
            case DOUBLE:
                if (v instanceof Double d && Double.isFinite(d)) {
                    NumberText.appendPlain(out, ShortestDecimal.of(d));
                    return;
                }
                break;
            default:
                if (v instanceof byte[] b && (CanalTypes.binaryString(c) || c.type() == MySqlType.GEOMETRY)) {
                    out.appendLatin1(b);
                    return;
                }
        }
        out.appendString(format(c, v));
    }

    private static String integerText(Object v, boolean unsigned) {
        if (v instanceof Long l) return unsigned ? Long.toUnsignedString(l) : Long.toString(l);
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) return v.toString();
        if (v instanceof BigInteger b) return b.toString();
        if (v instanceof Boolean b) return b ? "1" : "0";
        return v.toString();
    }

    /**
     * Parses a Canal-JSON string into the model's Java type for the column ({@link io.cdcconnect.codec.model.RowChange}).
     *
     * @throws IllegalArgumentException when the text does not fit the type (the caller adds where it came from)
     */
    static Object parse(ColumnInfo c, String s) {
        switch (c.type()) {
            case TINY: case SHORT: case INT24: case LONG: case LONGLONG:
                return c.unsigned() ? parseUnsigned(s) : parseSigned(s);
            case YEAR:
                return parseSigned(s);
            case BIT:
                return parseUnsigned(s);
            case ENUM: case SET:
                return enumOrSet(c, s);
            case FLOAT:
                return Float.parseFloat(s);
            case DOUBLE:
                return Double.parseDouble(s);
            case DECIMAL: case NEWDECIMAL:
                return new BigDecimal(s);
            case GEOMETRY:
                return s.getBytes(StandardCharsets.ISO_8859_1);
            default:
                if (CanalTypes.binaryString(c)) {
                    return latin1(s);
                }
                return s;
        }
    }

    /**
     * TiCDC sends an ENUM's index and a SET's bitmask; Alibaba Canal sends their text. Text is mapped through the
     * elements of the column definition ("enum('a','b')"), which content-compatible and Canal messages carry.
     */
    private static Long enumOrSet(ColumnInfo c, String s) {
        if (!s.isEmpty() && Character.isDigit(s.charAt(0))) {
            try {
                return Long.parseUnsignedLong(s);
            } catch (NumberFormatException ignored) {
                // an element that starts with a digit: fall through to the names
            }
        }
        List<String> elements = c.elements();
        if (elements.isEmpty()) {
            throw new IllegalArgumentException("not a number, and the column type lists no elements to look it up in");
        }
        if (c.type() == MySqlType.ENUM) {
            if (s.isEmpty()) return 0L; // MySQL's error value
            for (int i = 0; i < elements.size(); i++) {
                if (elements.get(i).equalsIgnoreCase(s)) return (long) (i + 1);
            }
            throw new IllegalArgumentException("not one of the enum's " + elements.size() + " elements");
        }
        long mask = 0;
        if (!s.isEmpty()) {
            for (String part : s.split(",", -1)) {
                int i = indexOfIgnoreCase(elements, part);
                if (i < 0 || i >= 64) {
                    throw new IllegalArgumentException("not a member of the set's " + elements.size() + " elements");
                }
                mask |= 1L << i;
            }
        }
        return mask;
    }

    private static int indexOfIgnoreCase(List<String> elements, String s) {
        for (int i = 0; i < elements.size(); i++) {
            if (elements.get(i).equalsIgnoreCase(s)) return i;
        }
        return -1;
    }

    private static Long parseSigned(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an integer", e);
        }
    }

    private static Long parseUnsigned(String s) {
        try {
            if (!s.isEmpty() && s.charAt(0) == '-') {
                // A signed producer may send -1 for a BIT(64)/BIGINT UNSIGNED pattern; keep the bits.
                return Long.parseLong(s);
            }
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an unsigned 64-bit integer", e);
        }
    }

    /** One byte per character; a character above U+00FF cannot come from a binary column. */
    private static byte[] latin1(String s) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            char ch = s.charAt(i);
            if (ch > 0xFF) {
                throw new IllegalArgumentException("binary value holds character U+" + Integer.toHexString(ch)
                        + " above U+00FF at position " + i);
            }
            b[i] = (byte) ch;
        }
        return b;
    }
}
