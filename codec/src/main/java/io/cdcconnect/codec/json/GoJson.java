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

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GoJson.class);

    /**
     * Jackson's {@code COMBINE_UNICODE_SURROGATES_IN_UTF8} (Jackson 2.18+), which writes a character outside the BMP as
     * raw 4-byte UTF-8 as Go does. The plugin archives leave Jackson out and use the worker's: a Kafka 3.x worker's is
     * older (3.9's is 2.16) and lacks the feature, and there each half of the surrogate pair is written as a
     * <code>&#92;uXXXX</code> escape instead: the same JSON string, other bytes than TiCDC's. The name is looked up, not
     * referenced: a reference to a missing constant fails the class's initialisation (NoSuchFieldError), and with it
     * every task that touches JSON.
     */
    public static final boolean RAW_SUPPLEMENTARY_CHARACTERS;

    /** Shared, thread-safe factory; generators and parsers from it are not thread-safe. */
    public static final JsonFactory FACTORY;

    static {
        JsonWriteFeature combine = feature("COMBINE_UNICODE_SURROGATES_IN_UTF8");
        RAW_SUPPLEMENTARY_CHARACTERS = combine != null;
        if (combine == null) {
            LOG.warn("Jackson {} has no COMBINE_UNICODE_SURROGATES_IN_UTF8 (2.18+): characters outside the BMP are "
                    + "written as \\uXXXX surrogate escapes, not as raw UTF-8 like TiCDC; the JSON values are the same",
                    com.fasterxml.jackson.core.json.PackageVersion.VERSION);
        }
        FACTORY = build(combine);
    }

    private static JsonWriteFeature feature(String name) {
        try {
            return JsonWriteFeature.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static JsonFactory build(JsonWriteFeature combineSurrogates) {
        JsonFactoryBuilder b = new JsonFactoryBuilder();
        b.disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE);
        if (combineSurrogates != null) b.enable(combineSurrogates);
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
