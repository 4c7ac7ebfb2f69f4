package io.cdcconnect.codec.json;

import com.fasterxml.jackson.core.SerializableString;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Escapes text into UTF-8 JSON string content exactly as {@link GoJson}'s generator would, but into a reused byte
 * buffer, so hot paths can hand the result to {@code JsonGenerator.writeRawUTF8String} without Jackson's slower
 * custom-escape path and without making a String per value (binary values go byte by byte, integers digit by digit).
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
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    private void ascii(int c) {
        byte e = ESCAPE[c];
        if (e == 0) {
            buf[len++] = (byte) c;
        } else if (e != 'u') {
            buf[len++] = '\\';
            buf[len++] = e;
        } else {
            buf[len++] = '\\';
            buf[len++] = 'u';
            buf[len++] = '0';
            buf[len++] = '0';
            buf[len++] = HEX[c >> 4];
            buf[len++] = HEX[c & 0xF];
        }
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
        for (int i = 0; i < n; i++) {
            char c = cs[i];
            if (c < 0x80 && ESCAPE[c] == 0) {
                b[len++] = (byte) c;
            } else if (c < 0x80) {
                ascii(c);
            } else if (c < 0x800) {
                b[len++] = (byte) (0xC0 | (c >> 6));
                b[len++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(cs[i + 1])) {
                    int cp = Character.toCodePoint(c, cs[++i]);
                    b[len++] = (byte) (0xF0 | (cp >> 18));
                    b[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[len++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    b[len++] = (byte) 0xEF;
                    b[len++] = (byte) 0xBF;
                    b[len++] = (byte) 0xBD;
                }
            } else if (c == 0x2028 || c == 0x2029) {
                b[len++] = '\\';
                b[len++] = 'u';
                b[len++] = '2';
                b[len++] = '0';
                b[len++] = '2';
                b[len++] = (byte) (c == 0x2028 ? '8' : '9');
            } else {
                b[len++] = (byte) (0xE0 | (c >> 12));
                b[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[len++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return this;
    }

    /** Bytes read as ISO-8859-1 (one character per byte), then escaped and written as UTF-8. */
    public GoText appendLatin1(byte[] b) {
        ensure(b.length * 6);
        byte[] out = buf;
        for (byte x : b) {
            int c = x & 0xFF;
            if (c < 0x80 && ESCAPE[c] == 0) {
                out[len++] = x;
            } else if (c < 0x80) {
                ascii(c);
            } else {
                buf[len++] = (byte) (0xC0 | (c >> 6));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            }
        }
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

    /** Digits of a non-negative value, two at a time from the right (as Long.toString does). */
    private GoText appendPositive(long v) {
        int digits = 1;
        for (long p = 10; digits < 19 && v >= p; p *= 10) digits++;
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

    /** A live view of this buffer as raw JSON for {@code JsonGenerator.writeRawValue}; valid until the next change. */
    public SerializableString asRawValue() {
        return rawView;
    }

    private final SerializableString rawView = new SerializableString() {
        @Override
        public String getValue() {
            return new String(buf, 0, len, StandardCharsets.UTF_8);
        }

        @Override
        public int charLength() {
            return getValue().length();
        }

        @Override
        public char[] asQuotedChars() {
            return getValue().toCharArray();
        }

        @Override
        public byte[] asUnquotedUTF8() {
            return Arrays.copyOf(buf, len);
        }

        @Override
        public byte[] asQuotedUTF8() {
            return Arrays.copyOf(buf, len);
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            return appendUnquotedUTF8(buffer, offset);
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            return appendUnquoted(buffer, offset);
        }

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            if (offset + len > buffer.length) return -1;
            System.arraycopy(buf, 0, buffer, offset, len);
            return len;
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            String v = getValue();
            if (offset + v.length() > buffer.length) return -1;
            v.getChars(0, v.length(), buffer, offset);
            return v.length();
        }

        @Override
        public int writeQuotedUTF8(OutputStream out) throws IOException {
            return writeUnquotedUTF8(out);
        }

        @Override
        public int writeUnquotedUTF8(OutputStream out) throws IOException {
            out.write(buf, 0, len);
            return len;
        }

        @Override
        public int putQuotedUTF8(ByteBuffer buffer) {
            return putUnquotedUTF8(buffer);
        }

        @Override
        public int putUnquotedUTF8(ByteBuffer buffer) {
            if (buffer.remaining() < len) return -1;
            buffer.put(buf, 0, len);
            return len;
        }
    };

    /** Wraps ready-made JSON text so a generator can write it as a raw value ({@code writeRawValue}). */
    public static SerializableString raw(byte[] json) {
        return new PreEscaped(new String(json, StandardCharsets.UTF_8), json);
    }

    /** A name or constant pre-escaped the Go way (Jackson's SerializedString would escape it Jackson's way). */
    public static SerializableString name(String s) {
        GoText t = new GoText().appendString(s);
        return new PreEscaped(s, Arrays.copyOf(t.buf, t.len));
    }
}
