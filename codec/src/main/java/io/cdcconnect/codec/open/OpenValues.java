package io.cdcconnect.codec.open;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonToken;
import io.cdcconnect.codec.json.GoText;
import io.cdcconnect.codec.json.NumberText;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Open-protocol column values ({@code "v"}): integers, floats, year, enum, set and bit as JSON numbers; decimal,
 * temporal and JSON as strings; CHAR/VARCHAR as UTF-8 text, or Go-quoted bytes when binary; every BLOB/TEXT type
 * (249-252) and geometry as standard base64.
 */
final class OpenValues {

    private OpenValues() {
    }

    /** Writes a string value through the fast escaper (same bytes as the generator's own escaping). */
    private static void string(JsonGenerator g, GoText t, String s) throws IOException {
        t.reset().appendString(s);
        g.writeRawUTF8String(t.buffer(), 0, t.length());
    }

    static void write(JsonGenerator g, GoText t, ColumnInfo c, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
            return;
        }
        if (v instanceof String s && !stringType(c.type())) {
            // A producer may hand a numeric column its text (TiCDC's decoder keeps such strings too).
            string(g, t, s);
            return;
        }
        switch (c.type()) {
            case TINY: case SHORT: case INT24: case LONG: case LONGLONG:
                if (v instanceof Long l) {
                    if (c.unsigned() && l < 0) g.writeNumber(Long.toUnsignedString(l));
                    else g.writeNumber(l);
                } else {
                    writeInteger(g, v, c.unsigned());
                }
                return;
            case YEAR:
                g.writeNumber(((Number) v).longValue());
                return;
            case BIT: case ENUM: case SET:
                writeInteger(g, v, true);
                return;
            case FLOAT:
                g.writeNumber(v instanceof Float f ? NumberText.goJson(f) : NumberText.goJson(((Number) v).floatValue()));
                return;
            case DOUBLE:
                g.writeNumber(v instanceof Double d ? NumberText.goJson(d) : NumberText.goJson(((Number) v).doubleValue()));
                return;
            case DECIMAL: case NEWDECIMAL:
                string(g, t, v instanceof BigDecimal d ? d.toPlainString() : v.toString());
                return;
            case TINY_BLOB: case MEDIUM_BLOB: case LONG_BLOB: case BLOB: case GEOMETRY: {
                byte[] b64 = Base64.getEncoder().encode(bytes(v)); // [A-Za-z0-9+/=]: nothing to escape
                g.writeRawUTF8String(b64, 0, b64.length);
                return;
            }
            case VARCHAR: case VAR_STRING: case STRING:
                if (c.binary()) {
                    string(g, t, GoQuote.quote(bytes(v)));
                } else {
                    string(g, t, v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v.toString());
                }
                return;
            default:
                string(g, t, v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v.toString());
        }
    }

    private static boolean stringType(MySqlType t) {
        return t.isStringFamily() || t == MySqlType.JSON || t == MySqlType.GEOMETRY || t.isTemporal()
                || t == MySqlType.DECIMAL || t == MySqlType.NEWDECIMAL;
    }

    private static void writeInteger(JsonGenerator g, Object v, boolean unsigned) throws IOException {
        if (v instanceof Long l) {
            g.writeNumber(unsigned ? Long.toUnsignedString(l) : Long.toString(l));
        } else if (v instanceof BigInteger b) {
            g.writeNumber(b);
        } else if (v instanceof Number n) {
            g.writeNumber(n.longValue());
        } else if (v instanceof Boolean b) {
            g.writeNumber(b ? 1 : 0);
        } else {
            throw new IllegalArgumentException("expected an integer, got " + v.getClass().getSimpleName());
        }
    }

    private static byte[] bytes(Object v) {
        if (v instanceof byte[] b) return b;
        if (v instanceof String s) return s.getBytes(StandardCharsets.UTF_8);
        throw new IllegalArgumentException("expected bytes or text, got " + v.getClass().getSimpleName());
    }

    /**
     * The model value of a {@code "v"} given as its JSON token and text.
     *
     * @throws IllegalArgumentException when it does not fit the column type
     */
    static Object parse(ColumnInfo c, JsonToken token, String text) {
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        boolean number = token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT;
        switch (c.type()) {
            case TINY: case SHORT: case INT24: case LONG: case LONGLONG: case YEAR:
            case BIT: case ENUM: case SET:
                if (token == JsonToken.VALUE_NUMBER_FLOAT) {
                    // very old producers: a float64 in an integer column
                    return new BigDecimal(text).toBigInteger().longValue();
                }
                try {
                    boolean unsigned = c.unsigned() || c.type() == MySqlType.BIT || c.type() == MySqlType.ENUM
                            || c.type() == MySqlType.SET;
                    if (unsigned && !text.startsWith("-")) return Long.parseUnsignedLong(text);
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    if (!number) {
                        return text; // kept as sent, like TiCDC's decoder: the data is made up, not ours to judge
                    }
                    throw new IllegalArgumentException("not a 64-bit integer", e);
                }
            case FLOAT:
                return Float.parseFloat(text);
            case DOUBLE:
                return Double.parseDouble(text);
            case DECIMAL: case NEWDECIMAL:
                return new BigDecimal(text);
            case TINY_BLOB: case MEDIUM_BLOB: case LONG_BLOB: case BLOB: case GEOMETRY: {
                byte[] b;
                try {
                    b = Base64.getDecoder().decode(text);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("not standard base64", e);
                }
                return c.binary() || c.type() == MySqlType.GEOMETRY ? b : new String(b, StandardCharsets.UTF_8);
            }
            case VARCHAR: case VAR_STRING: case STRING:
                return c.binary() ? GoQuote.unquote(text) : text;
            default:
                return text;
        }
    }
}
