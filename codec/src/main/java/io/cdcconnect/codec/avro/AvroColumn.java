package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.model.ColumnInfo;
import org.apache.avro.io.BinaryEncoder;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One column as an Avro field: its name, kind and nullability, and the conversion of its values between the model's
 * Java types (see {@link io.cdcconnect.codec.model.RowChange}) and Avro.
 *
 * @param index     position of the column in the table (encoder) or in the decoded table (decoder)
 * @param fieldName the sanitised field name
 * @param column    the column (for the decoder: as reconstructed from the schema)
 * @param kind      how its values travel
 * @param nullable  the field is a union with null
 * @param nullFirst the union is {@code ["null", T]} (else {@code [T, "null"]})
 * @param precision DECIMAL precision of a {@link AvroColumnKind#DECIMAL_BYTES} field
 * @param scale     DECIMAL scale of a {@link AvroColumnKind#DECIMAL_BYTES} field
 * @param elements  ENUM/SET elements
 */
record AvroColumn(int index, String fieldName, ColumnInfo column, AvroColumnKind kind, boolean nullable,
                  boolean nullFirst, int precision, int scale, List<String> elements) {

    /** Writes one value, union branch included. {@code where} names the table for errors. */
    void write(BinaryEncoder out, Object value, String where) throws IOException {
        if (nullable) {
            if (value == null) {
                out.writeIndex(nullFirst ? 0 : 1);
                return;
            }
            out.writeIndex(nullFirst ? 1 : 0);
        } else if (value == null) {
            throw new CodecException("column " + column.name() + " of " + where
                    + " is NULL but the column is not nullable");
        }
        try {
            writeValue(out, value);
        } catch (ClassCastException | IllegalArgumentException | ArithmeticException e) {
            throw new CodecException("column " + column.name() + " (" + column.type() + ") of " + where
                    + " cannot be written as Avro " + kind.avroType + ": " + e.getMessage(), e);
        }
    }

    private void writeValue(BinaryEncoder out, Object v) throws IOException {
        switch (kind) {
            case INT, YEAR -> out.writeInt(toInt(v));
            case UNSIGNED_INT_AS_LONG, LONG -> out.writeLong(((Number) v).longValue());
            case UNSIGNED_LONG_AS_STRING -> out.writeString(Long.toUnsignedString(((Number) v).longValue()));
            case FLOAT -> out.writeFloat(((Number) v).floatValue());
            case DOUBLE -> out.writeDouble(((Number) v).doubleValue());
            case BIT -> out.writeBytes(v instanceof byte[] b ? b : bitBytes(((Number) v).longValue()));
            case DECIMAL_BYTES -> out.writeBytes(unscaledBytes(toDecimal(v)));
            case DECIMAL_STRING -> out.writeString(toDecimal(v).toPlainString());
            case TEXT, TEXTUAL -> out.writeString(v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8)
                    : v.toString());
            case BLOB -> out.writeBytes(v instanceof byte[] b ? b : v.toString().getBytes(StandardCharsets.UTF_8));
            case ENUM -> out.writeString(v instanceof Number n ? enumName(n.longValue()) : v.toString());
            case SET -> out.writeString(v instanceof Number n ? setNames(n.longValue()) : v.toString());
        }
    }

    /** The Avro JSON form of a column default (model Java type), for the schema's {@code default}. */
    Object defaultJson(Object v) {
        return switch (kind) {
            case INT, YEAR -> toInt(v);
            case UNSIGNED_INT_AS_LONG, LONG -> ((Number) v).longValue();
            case UNSIGNED_LONG_AS_STRING -> Long.toUnsignedString(((Number) v).longValue());
            case FLOAT -> ((Number) v).floatValue();
            case DOUBLE -> ((Number) v).doubleValue();
            // Avro writes a bytes default as a string of ISO-8859-1 characters, one per byte.
            case BIT -> new String(v instanceof byte[] b ? b : bitBytes(((Number) v).longValue()),
                    StandardCharsets.ISO_8859_1);
            case BLOB -> new String(v instanceof byte[] b ? b : v.toString().getBytes(StandardCharsets.UTF_8),
                    StandardCharsets.ISO_8859_1);
            case DECIMAL_BYTES -> throw new IllegalStateException("TiCDC writes no default for a decimal field");
            case DECIMAL_STRING -> toDecimal(v).toPlainString();
            case TEXT, TEXTUAL -> v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v.toString();
            case ENUM -> v instanceof Number n ? enumName(n.longValue()) : v.toString();
            case SET -> v instanceof Number n ? setNames(n.longValue()) : v.toString();
        };
    }

    /** Converts a value read by Avro's generic reader into the model's Java type. */
    Object toModel(Object avro, String where) {
        if (avro == null) {
            return null;
        }
        try {
            return switch (kind) {
                case INT, YEAR, UNSIGNED_INT_AS_LONG, LONG -> ((Number) avro).longValue();
                case UNSIGNED_LONG_AS_STRING -> Long.parseUnsignedLong(avro.toString());
                case FLOAT -> ((Number) avro).floatValue();
                case DOUBLE -> ((Number) avro).doubleValue();
                case BIT -> bitValue(bytes(avro));
                case DECIMAL_BYTES -> new BigDecimal(new BigInteger(bytes(avro)), scale);
                case DECIMAL_STRING -> new BigDecimal(avro.toString());
                case TEXT, TEXTUAL -> avro.toString();
                case BLOB -> bytes(avro);
                case ENUM -> enumIndex(avro.toString());
                case SET -> setBits(avro.toString());
            };
        } catch (ClassCastException | IllegalArgumentException | ArithmeticException e) {
            throw new CodecException("field " + fieldName + " of " + where + " cannot be read as "
                    + column.type() + ": " + e.getMessage(), e);
        }
    }

    /** The two's complement unscaled value at the schema's scale; never rounds, so no digit is lost silently. */
    private byte[] unscaledBytes(BigDecimal d) {
        BigDecimal scaled;
        try {
            scaled = d.setScale(scale, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the value has more fraction digits than the schema's scale " + scale
                    + " (declare the column's scale, or use decimal handling STRING)");
        }
        if (scaled.precision() - scaled.scale() > precision - scale) {
            throw new IllegalArgumentException("the value has more integer digits than DECIMAL(" + precision + ","
                    + scale + ") allows");
        }
        return scaled.unscaledValue().toByteArray();
    }

    private static int toInt(Object v) {
        long l = ((Number) v).longValue();
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("value out of the range of an Avro int");
        }
        return (int) l;
    }

    private static BigDecimal toDecimal(Object v) {
        if (v instanceof BigDecimal d) return d;
        if (v instanceof BigInteger i) return new BigDecimal(i);
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        return new BigDecimal(v.toString());
    }

    /** The shortest big-endian bytes of an unsigned 64-bit value, at least one byte (TiCDC's BinaryLiteral). */
    static byte[] bitBytes(long v) {
        int n = Math.max(1, 8 - Long.numberOfLeadingZeros(v) / 8);
        byte[] b = new byte[n];
        for (int i = n - 1; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    static long bitValue(byte[] b) {
        if (b.length > 8) {
            // MySQL's BIT is at most 64 bits: longer values may only carry leading zero bytes.
            for (int i = 0; i < b.length - 8; i++) {
                if (b[i] != 0) throw new IllegalArgumentException("a BIT value of " + b.length + " bytes");
            }
        }
        long v = 0;
        for (int i = Math.max(0, b.length - 8); i < b.length; i++) {
            v = (v << 8) | (b[i] & 0xFF);
        }
        return v;
    }

    private static byte[] bytes(Object avro) {
        if (avro instanceof ByteBuffer bb) {
            ByteBuffer d = bb.duplicate();
            byte[] out = new byte[d.remaining()];
            d.get(out);
            return out;
        }
        if (avro instanceof byte[] b) return b;
        if (avro instanceof org.apache.avro.generic.GenericFixed f) return f.bytes();
        throw new IllegalArgumentException("expected bytes, found " + avro.getClass().getSimpleName());
    }

    private String enumName(long index) {
        if (index == 0) {
            return ""; // MySQL's error value of an ENUM
        }
        if (index < 0 || index > elements.size()) {
            throw new IllegalArgumentException("ENUM index " + index + " outside 1.." + elements.size());
        }
        return elements.get((int) index - 1);
    }

    private long enumIndex(String name) {
        int i = elements.indexOf(name);
        if (i >= 0) return i + 1;
        if (name.isEmpty()) return 0;
        // MySQL compares ENUM names without regard to case (for the usual collations).
        for (int j = 0; j < elements.size(); j++) {
            if (elements.get(j).equalsIgnoreCase(name)) return j + 1;
        }
        throw new IllegalArgumentException("a value is not one of the ENUM's " + elements.size() + " elements");
    }

    private String setNames(long bits) {
        if (elements.size() < 64 && (bits >>> elements.size()) != 0) {
            throw new IllegalArgumentException("SET bitmask has bits beyond its " + elements.size() + " elements");
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < elements.size(); i++) {
            if ((bits & (1L << i)) != 0) {
                if (sb.length() > 0) sb.append(',');
                sb.append(elements.get(i));
            }
        }
        return sb.toString();
    }

    private long setBits(String names) {
        if (names.isEmpty()) return 0;
        long bits = 0;
        for (String name : names.split(",", -1)) {
            int i = elements.indexOf(name);
            if (i < 0) {
                for (int j = 0; j < elements.size() && i < 0; j++) {
                    if (elements.get(j).equalsIgnoreCase(name)) i = j;
                }
            }
            if (i < 0) {
                throw new IllegalArgumentException("a member is not one of the SET's " + elements.size() + " elements");
            }
            bits |= 1L << i;
        }
        return bits;
    }
}
