package io.cdcconnect.codec.json;

import com.fasterxml.jackson.core.SerializableString;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes JSON text into a reused byte buffer, escaping strings exactly as {@link GoJson}'s generator (and TiCDC's Go
 * code) would: the Canal-JSON encoder writes whole messages with it, the Open-protocol encoder values it hands to
 * {@code JsonGenerator.writeRawUTF8String}. No String is made per value: binary values go byte by byte, integers
 * digit by digit.
 *
 * <p>Not thread-safe; one per encoder.
 */
public final class GoText {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** For each ASCII byte: 0 = as is, else the character after a backslash ('u': six-character hex escape). */
    private static final byte[] ESCAPE = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) ESCAPE[c] = 'u';
        ESCAPE['\n'] = 'n';
        ESCAPE['\r'] = 'r';
        ESCAPE['\t'] = 't';
        ESCAPE['"'] = '"';
        ESCAPE['\\'] = '\\';
        ESCAPE['<'] = 'u';
        ESCAPE['>'] = 'u';
        ESCAPE['&'] = 'u';
    }

    private byte[] buf = new byte[512];
    private char[] chars = new char[256];
    private int len;

    public byte[] buffer() {
        return buf;
    }

    public int length() {
        return len;
    }

    public GoText reset() {
        len = 0;
        return this;
    }

    /** Drops buffers that grew for one huge value, so an encoder does not keep them (call between messages). */
    public void trim() {
        if (buf.length > (1 << 20)) buf = new byte[512];
        if (chars.length > (1 << 19)) chars = new char[256];
        len = 0;
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            grow(n); // out of line, so every append inlines small
        }
    }

    private void grow(int n) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }

    /** Writes ASCII character {@code c} at {@code p}, escaped if it must be; gives the position after it. */
    private static int ascii(byte[] b, int p, int c) {
        byte e = ESCAPE[c];
        if (e == 0) {
            b[p++] = (byte) c;
        } else if (e != 'u') {
            b[p++] = '\\';
            b[p++] = e;
        } else {
            b[p++] = '\\';
            b[p++] = 'u';
            b[p++] = '0';
            b[p++] = '0';
            b[p++] = HEX[c >> 4];
            b[p++] = HEX[c & 0xF];
        }
        return p;
    }

    /** Text as UTF-8 with Go's escaping; a lone surrogate becomes U+FFFD as Go writes invalid UTF-8. */
    public GoText appendString(String s) {
        int n = s.length();
        ensure(n * 6);
        if (chars.length < n) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        // one bulk copy (vectorized for Latin-1 strings) instead of charAt's per-call coder and bounds checks
        s.getChars(0, n, chars, 0);
        char[] cs = chars;
        byte[] b = buf;
        int p = len;
        // the usual case first: a run of ASCII that needs no escape, in a loop with nothing else in it
        int i = 0;
        while (i < n) {
            char c = cs[i];
            if (c >= 0x80 || ESCAPE[c] != 0) break;
            b[p++] = (byte) c;
            i++;
        }
        len = p;
        if (i < n) {
            appendRest(cs, i, n);
        }
        return this;
    }

    private void appendRest(char[] cs, int from, int n) {
        byte[] b = buf;
        int p = len;
        for (int i = from; i < n; i++) {
            char c = cs[i];
            if (c < 0x80) {
                p = ascii(b, p, c);
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(cs[i + 1])) {
                    int cp = Character.toCodePoint(c, cs[++i]);
                    b[p++] = (byte) (0xF0 | (cp >> 18));
                    b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[p++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    b[p++] = (byte) 0xEF;
                    b[p++] = (byte) 0xBF;
                    b[p++] = (byte) 0xBD;
                }
            } else if (c == 0x2028 || c == 0x2029) {
                b[p++] = '\\';
                b[p++] = 'u';
                b[p++] = '2';
                b[p++] = '0';
                b[p++] = '2';
                b[p++] = (byte) (c == 0x2028 ? '8' : '9');
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        len = p;
    }

    /** A JSON string: the text quoted and escaped as {@link #appendString}; {@code null} for null. */
    public GoText appendQuoted(String s) {
        if (s == null) {
            ensure(4);
            buf[len++] = 'n';
            buf[len++] = 'u';
            buf[len++] = 'l';
            buf[len++] = 'l';
            return this;
        }
        appendByte('"');
        appendString(s);
        return appendByte('"');
    }

    /** Text known to be ASCII that needs no escaping (field names, enum constants), as it is. */
    public GoText appendAscii(String s) {
        int n = s.length();
        ensure(n);
        s.getBytes(0, n, buf, len); // the deprecated form copies the low byte of each char: exact for ASCII
        len += n;
        return this;
    }

    /** Characters {@code from} to {@code to} of a text known to be ASCII that needs no escaping, as they are. */
    public GoText appendAscii(String s, int from, int to) {
        int n = to - from;
        ensure(n);
        s.getBytes(from, to, buf, len);
        len += n;
        return this;
    }

    /** A copy of what was written since the last reset. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    /** Bytes read as ISO-8859-1 (one character per byte), then escaped and written as UTF-8. */
    public GoText appendLatin1(byte[] bytes) {
        ensure(bytes.length * 6);
        byte[] b = buf;
        int p = len;
        for (byte x : bytes) {
            if (x < 0) {
                int c = x & 0xFF;
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (ESCAPE[x] == 0) {
                b[p++] = x;
            } else {
                p = ascii(b, p, x);
            }
        }
        len = p;
        return this;
    }

    public GoText appendLong(long v) {
        ensure(20);
        if (v == Long.MIN_VALUE) {
            byte[] s = "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(s, 0, buf, len, s.length);
            len += s.length;
            return this;
        }
        if (v < 0) {
            buf[len++] = '-';
            v = -v;
        }
        return appendPositive(v);
    }

    public GoText appendUnsigned(long v) {
        if (v >= 0) {
            ensure(20);
            return appendPositive(v);
        }
        // above 2^63: split off the last digit with unsigned division
        long q = Long.divideUnsigned(v, 10);
        int r = (int) Long.remainderUnsigned(v, 10);
        ensure(21);
        appendPositive(q);
        buf[len++] = (byte) ('0' + r);
        return this;
    }

    private static final byte[] TENS = new byte[100];
    private static final byte[] ONES = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            TENS[i] = (byte) ('0' + i / 10);
            ONES[i] = (byte) ('0' + i % 10);
        }
    }

    private static final long[] POW10 = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < POW10.length; i++, p *= 10) POW10[i] = p;
    }

    /** Decimal digits of a non-negative value: log10 estimated from the bit length, corrected by one comparison. */
    static int digits(long v) {
        int d = ((64 - Long.numberOfLeadingZeros(v)) * 1233) >>> 12;
        return d < 19 && v >= POW10[d] ? d + 1 : Math.max(d, 1);
    }

    /**
     * A decimal {@code unscaled / 10^scale} in plain notation, as {@code BigDecimal.toPlainString} writes it
     * (scale digits after the point, leading "0." when below one), without making a String.
     */
    public GoText appendPlainDecimal(long unscaled, int scale) {
        if (scale <= 0 || unscaled == Long.MIN_VALUE) {
            throw new IllegalArgumentException("expected a positive scale and an unscaled value above Long.MIN_VALUE");
        }
        ensure(scale + 22);
        if (unscaled < 0) {
            buf[len++] = '-';
            unscaled = -unscaled;
        }
        int digits = digits(unscaled);
        if (digits <= scale) {
            buf[len++] = '0';
            buf[len++] = '.';
            for (int i = digits; i < scale; i++) buf[len++] = '0';
            return appendPositive(unscaled);
        }
        // write all digits, then open a gap for the point
        appendPositive(unscaled);
        int point = len - scale;
        System.arraycopy(buf, point, buf, point + 1, scale);
        buf[point] = '.';
        len++;
        return this;
    }

    /** Digits of a non-negative value, two at a time from the right (as Long.toString does). */
    private GoText appendPositive(long v) {
        int digits = digits(v);
        int pos = len + digits;
        len = pos;
        while (v > Integer.MAX_VALUE) {
            int r = (int) (v % 100);
            v /= 100;
            buf[--pos] = ONES[r];
            buf[--pos] = TENS[r];
        }
        int iv = (int) v; // int division is cheaper than long
        while (iv >= 100) {
            int r = iv % 100;
            iv /= 100;
            buf[--pos] = ONES[r];
            buf[--pos] = TENS[r];
        }
        int r = iv;
        buf[--pos] = ONES[r];
        if (r >= 10) buf[--pos] = TENS[r];
        return this;
    }

    /** Appends bytes as they are (already escaped JSON). */
    public GoText appendRaw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    public GoText appendByte(char c) {
        ensure(1);
        buf[len++] = (byte) c;
        return this;
    }

    /** A name or constant pre-escaped the Go way (Jackson's SerializedString would escape it Jackson's way). */
    public static SerializableString name(String s) {
        GoText t = new GoText().appendString(s);
        return new PreEscaped(s, Arrays.copyOf(t.buf, t.len));
    }
}
