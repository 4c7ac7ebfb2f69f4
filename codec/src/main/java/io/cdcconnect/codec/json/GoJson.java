package io.cdcconnect.codec.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Jackson set up to write strings the way TiCDC's Go encoders do (easyjson / encoding/json with HTML escaping):
 * {@code \"} {@code \\} {@code \n} {@code \r} {@code \t} short, every other byte below 0x20 as <code>&#92;u00xx</code> in
 * lower-case hex, {@code <} {@code >} {@code &} as <code>&#92;u003c</code> <code>&#92;u003e</code> <code>&#92;u0026</code>, U+2028 and U+2029
 * escaped, and characters outside the BMP as raw 4-byte UTF-8.
 */
public final class GoJson {

    /** Shared, thread-safe factory; generators and parsers from it are not thread-safe. */
    public static final JsonFactory FACTORY = build();

    private static JsonFactory build() {
        JsonFactoryBuilder b = new JsonFactoryBuilder();
        b.disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE);
        b.enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);
        b.disable(StreamWriteFeature.AUTO_CLOSE_TARGET);
        b.disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION); // values may be confidential: keep them out of errors
        b.characterEscapes(GoEscapes.INSTANCE);
        b.rootValueSeparator((String) null);
        return b.build();
    }

    private GoJson() {
    }

    /** A generator writing UTF-8 to {@code out}, with no separator between root values. */
    public static JsonGenerator generator(OutputStream out) {
        try {
            return FACTORY.createGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonParser parser(byte[] data, int off, int len) throws IOException {
        return FACTORY.createParser(data, off, len);
    }

    static final class GoEscapes extends CharacterEscapes {
        static final GoEscapes INSTANCE = new GoEscapes();
        private static final long serialVersionUID = 1L;

        private final int[] ascii = standardAsciiEscapesForJSON();
        private final SerializableString[] custom = new SerializableString[128];
        private static final SerializableString LS = new SerializedString("\\u2028");
        private static final SerializableString PS = new SerializedString("\\u2029");

        private GoEscapes() {
            for (int c = 0; c < 0x20; c++) {
                if (c == '\n' || c == '\r' || c == '\t') {
                    continue; // Jackson's standard short escapes
                }
                // Jackson would write \b and \f short; Go writes \u0008 and \u000c.
                custom[c] = new SerializedString(String.format("\\u%04x", c));
                ascii[c] = ESCAPE_CUSTOM;
            }
            for (char c : new char[] {'<', '>', '&'}) {
                custom[c] = new SerializedString(String.format("\\u%04x", (int) c));
                ascii[c] = ESCAPE_CUSTOM;
            }
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch < 128) {
                return custom[ch];
            }
            if (ch == 0x2028) return LS;
            if (ch == 0x2029) return PS;
            return null;
        }
    }
}
