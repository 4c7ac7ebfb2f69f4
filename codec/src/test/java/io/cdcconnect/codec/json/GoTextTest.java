package io.cdcconnect.codec.json;

import com.fasterxml.jackson.core.JsonGenerator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The fast escaper writes the same bytes as the Jackson generator set up with Go's escapes. */
class GoTextTest {

    private static String viaGenerator(String s) throws Exception {
        ByteSink sink = new ByteSink(64);
        try (JsonGenerator g = GoJson.generator(sink)) {
            g.writeString(s);
        }
        return new String(sink.toByteArray(), StandardCharsets.UTF_8);
    }

    private static String viaGoText(GoText t) throws Exception {
        ByteSink sink = new ByteSink(64);
        try (JsonGenerator g = GoJson.generator(sink)) {
            g.writeRawUTF8String(t.buffer(), 0, t.length());
        }
        return new String(sink.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void randomTextIsEscapedLikeTheGenerator() throws Exception {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        GoText t = new GoText();
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(40);
            for (int k = 0; k < n; k++) {
                int cp;
                do {
                    cp = r.nextInt(4) == 0 ? r.nextInt(0x110000) : r.nextInt(0x100);
                } while (cp >= 0xD800 && cp <= 0xDFFF);
                sb.appendCodePoint(cp);
            }
            if (r.nextInt(10) == 0) sb.append('\u2028').append('\u2029');
            String s = sb.toString();
            assertEquals(viaGenerator(s), viaGoText(t.reset().appendString(s)), "seed " + seed);
        }
    }

    @Test
    void bytesAsLatin1AndNumbers() throws Exception {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) all[i] = (byte) i;
        GoText t = new GoText();
        assertEquals(viaGenerator(new String(all, StandardCharsets.ISO_8859_1)), viaGoText(t.reset().appendLatin1(all)));
        for (long v : new long[] {0, 1, -1, 9, 10, Long.MAX_VALUE, Long.MIN_VALUE, 1234567890123L}) {
            assertEquals(Long.toString(v), new String(Arrays.copyOf(t.reset().appendLong(v).buffer(), t.length()), StandardCharsets.US_ASCII));
            assertEquals(Long.toUnsignedString(v),
                    new String(Arrays.copyOf(t.reset().appendUnsigned(v).buffer(), t.length()), StandardCharsets.US_ASCII));
        }
    }

    private static String text(GoText t) {
        return new String(t.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void digitCountsAtEveryPowerOfTen() {
        GoText t = new GoText();
        for (long p = 1; p <= 1_000_000_000_000_000_000L; p *= 10) { // 10^0 .. 10^18; 5 * 10^18 still fits
            for (long v : new long[] {p - 1, p, p + 1, p * 2 - 1, p * 5}) {
                assertEquals(Long.toString(v).length(), GoText.digits(v), "digits of " + v);
                assertEquals(Long.toString(v), text(t.reset().appendLong(v)));
            }
            if (p == 1_000_000_000_000_000_000L) break;
        }
        assertEquals(19, GoText.digits(Long.MAX_VALUE));
        Random r = new Random(11);
        for (int i = 0; i < 100_000; i++) {
            long v = r.nextLong() >>> r.nextInt(64);
            assertEquals(Long.toString(v), text(t.reset().appendLong(v)));
            assertEquals(Long.toString(-v), text(t.reset().appendLong(-v)));
        }
    }

    @Test
    void plainDecimalsAsBigDecimalWritesThem() {
        GoText t = new GoText();
        Random r = new Random(5);
        for (int i = 0; i < 100_000; i++) {
            long unscaled = (r.nextLong() % 1_000_000_000_000_000_000L) >> r.nextInt(60);
            int scale = 1 + r.nextInt(i % 10 == 0 ? 40 : 12);
            String expected = java.math.BigDecimal.valueOf(unscaled, scale).toPlainString();
            assertEquals(expected, text(t.reset().appendPlainDecimal(unscaled, scale)), unscaled + " scale " + scale);
        }
        assertEquals("0.000000", text(t.reset().appendPlainDecimal(0, 6)));
        assertEquals("-0.01", text(t.reset().appendPlainDecimal(-1, 2)));
        assertEquals("-99999999999999999.9", text(t.reset().appendPlainDecimal(-999_999_999_999_999_999L, 1)));
    }

    @Test
    void quotedTextAndNull() {
        GoText t = new GoText();
        assertEquals("\"a\\\"b\\u003c\"", text(t.reset().appendQuoted("a\"b<")));
        assertEquals("null", text(t.reset().appendQuoted(null)));
        assertEquals("id", text(t.reset().appendAscii("the id", 4, 6)));
    }
}
