package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Date;
import java.util.Map;

/**
 * Debezium's column representations (Connect types plus semantic schema names) mapped to the model's MySQL types
 * and Java values (see RowChange). Temporal values become the text MySQL prints; DATETIME values are taken as the
 * UTC wall clock (Debezium encodes them so), TIMESTAMP (ZonedTimestamp) values are shifted to {@code zone}, the zone
 * the sink's sessions use.
 */
final class DebeziumValues {

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuu-MM-dd");
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

    private final ZoneId zone;

    DebeziumValues(ZoneId zone) {
        this.zone = zone;
    }

    /** The MySQL type a field's values are given as. */
    static MySqlType typeOf(Schema s) {
        String name = s.name() == null ? "" : s.name();
        switch (name) {
            case "io.debezium.time.Date", "org.apache.kafka.connect.data.Date":
                return MySqlType.DATE;
            case "io.debezium.time.Time", "io.debezium.time.MicroTime", "io.debezium.time.NanoTime",
                 "org.apache.kafka.connect.data.Time":
                return MySqlType.TIME;
            case "io.debezium.time.Timestamp", "io.debezium.time.MicroTimestamp", "io.debezium.time.NanoTimestamp",
                 "org.apache.kafka.connect.data.Timestamp":
                return MySqlType.DATETIME;
            case "io.debezium.time.ZonedTimestamp":
                return MySqlType.TIMESTAMP;
            case "io.debezium.time.Year":
                return MySqlType.YEAR;
            case "org.apache.kafka.connect.data.Decimal", "io.debezium.data.VariableScaleDecimal":
                return MySqlType.NEWDECIMAL;
            case "io.debezium.data.Json":
                return MySqlType.JSON;
            case "io.debezium.data.Bits":
                return MySqlType.BIT;
            case "io.debezium.data.Enum", "io.debezium.data.EnumSet":
                // labels, not indexes: the model's VARCHAR carries them as text, which MySQL accepts for ENUM/SET
                return MySqlType.VARCHAR;
            default:
                break;
        }
        return switch (s.type()) {
            case INT8, BOOLEAN -> MySqlType.TINY;
            case INT16 -> MySqlType.SHORT;
            case INT32 -> MySqlType.LONG;
            case INT64 -> MySqlType.LONGLONG;
            case FLOAT32 -> MySqlType.FLOAT;
            case FLOAT64 -> MySqlType.DOUBLE;
            case STRING -> MySqlType.VARCHAR;
            case BYTES -> MySqlType.BLOB;
            default -> throw new IllegalArgumentException("unsupported Connect type " + s.type()
                    + (name.isEmpty() ? "" : " (" + name + ")"));
        };
    }

    /**
     * A column with what its schema says of its size, for {@code auto.create}: DECIMAL precision and scale, BIT width,
     * fractional seconds by the temporal semantic type, and the source column's length, scale and UNSIGNED when the
     * source propagated them ({@code column.propagate.source.type}, {@code __debezium.source.column.*}).
     */
    static ColumnInfo column(String name, Schema s, MySqlType type, int flags) {
        Map<String, String> p = s.parameters() == null ? Map.of() : s.parameters();
        String semantic = s.name() == null ? "" : s.name();
        int length = number(p.get("__debezium.source.column.length"));
        int scale = number(p.get("__debezium.source.column.scale"));
        int fsp = -1;
        switch (semantic) {
            case "org.apache.kafka.connect.data.Decimal" -> {
                scale = number(p.get("scale"));
                int precision = number(p.get("connect.decimal.precision"));
                if (precision > 0) length = precision;
            }
            case "io.debezium.data.Bits" -> length = number(p.get("length"));
            case "io.debezium.time.Time", "io.debezium.time.Timestamp", "org.apache.kafka.connect.data.Time",
                 "org.apache.kafka.connect.data.Timestamp" -> fsp = 3;
            case "io.debezium.time.MicroTime", "io.debezium.time.NanoTime", "io.debezium.time.MicroTimestamp",
                 "io.debezium.time.NanoTimestamp" -> fsp = 6;
            default -> {
            }
        }
        if (type.isTemporal()) {
            // the source's own fractional digits when propagated (DATETIME(2) arrives as a millisecond Timestamp)
            if (length >= 0 && scale >= 0 && scale <= 6) fsp = scale;
            length = -1;
            scale = -1;
        }
        String sourceType = p.get("__debezium.source.column.type");
        if (sourceType != null && sourceType.toUpperCase(java.util.Locale.ROOT).contains("UNSIGNED")) {
            flags |= ColumnFlags.UNSIGNED;
        }
        boolean bin = (flags & ColumnFlags.BINARY) != 0;
        return new ColumnInfo(name, type, flags, bin ? "binary" : null, length, scale, fsp, java.util.List.of(), null);
    }

    private static int number(String text) {
        if (text == null) return -1;
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static int flagsOf(Schema s) {
        int flags = s.isOptional() ? ColumnFlags.NULLABLE : 0;
        String name = s.name() == null ? "" : s.name();
        if (s.type() == Schema.Type.BYTES && !name.equals("org.apache.kafka.connect.data.Decimal")
                && !name.equals("io.debezium.data.Bits")) flags |= ColumnFlags.BINARY;
        return flags;
    }

    /** The model value of one field. */
    Object convert(Schema s, Object v) {
        if (v == null) return null;
        String name = s.name() == null ? "" : s.name();
        switch (name) {
            case "io.debezium.time.Date":
                return LocalDate.ofEpochDay(((Number) v).longValue()).format(DATE);
            case "org.apache.kafka.connect.data.Date":
                return LocalDate.ofInstant(((Date) v).toInstant(), ZoneOffset.UTC).format(DATE);
            case "io.debezium.time.Time":
                return time(((Number) v).longValue() * 1_000L, 3);
            case "io.debezium.time.MicroTime":
                return time(((Number) v).longValue(), 6);
            case "io.debezium.time.NanoTime":
                return time(((Number) v).longValue() / 1_000L, 6);
            case "org.apache.kafka.connect.data.Time":
                return time(((Date) v).getTime() * 1_000L, 3);
            case "io.debezium.time.Timestamp":
                return datetime(((Number) v).longValue() * 1_000L, 3);
            case "io.debezium.time.MicroTimestamp":
                return datetime(((Number) v).longValue(), 6);
            case "io.debezium.time.NanoTimestamp":
                return datetime(Math.floorDiv(((Number) v).longValue(), 1_000L), 6);
            case "org.apache.kafka.connect.data.Timestamp":
                return datetime(((Date) v).getTime() * 1_000L, 3);
            case "io.debezium.time.ZonedTimestamp":
                return zoned((String) v);
            case "io.debezium.data.VariableScaleDecimal": {
                Struct st = (Struct) v;
                return new BigDecimal(new BigInteger(bytes(st.get("value"))), st.getInt32("scale"));
            }
            case "io.debezium.data.Bits": {
                byte[] b = bytes(v);
                long bits = 0;
                // little-endian, as java.util.BitSet#toByteArray
                for (int i = Math.min(b.length, 8) - 1; i >= 0; i--) bits = (bits << 8) | (b[i] & 0xff);
                return bits;
            }
            default:
                break;
        }
        return switch (s.type()) {
            case INT8, INT16, INT32, INT64 -> ((Number) v).longValue();
            case BOOLEAN -> ((Boolean) v) ? 1L : 0L;
            case FLOAT32 -> ((Number) v).floatValue();
            case FLOAT64 -> ((Number) v).doubleValue();
            case STRING -> v.toString();
            case BYTES -> v instanceof BigDecimal d ? d : bytes(v);
            default -> throw new IllegalArgumentException("unsupported Connect type " + s.type());
        };
    }

    private static byte[] bytes(Object v) {
        if (v instanceof byte[] b) return b;
        if (v instanceof ByteBuffer bb) {
            byte[] b = new byte[bb.remaining()];
            bb.duplicate().get(b);
            return b;
        }
        throw new IllegalArgumentException("expected bytes, got " + v.getClass().getName());
    }

    /** MySQL TIME text from microseconds, which may be negative or beyond 24 hours. */
    static String time(long micros, int digits) {
        StringBuilder sb = new StringBuilder(16);
        if (micros < 0) {
            sb.append('-');
            micros = -micros;
        }
        long seconds = micros / 1_000_000L;
        long fraction = micros % 1_000_000L;
        long h = seconds / 3600;
        long m = (seconds / 60) % 60;
        long s = seconds % 60;
        if (h < 10) sb.append('0');
        sb.append(h).append(':');
        if (m < 10) sb.append('0');
        sb.append(m).append(':');
        if (s < 10) sb.append('0');
        sb.append(s);
        appendFraction(sb, fraction, digits);
        return sb.toString();
    }

    static String datetime(long epochMicros, int digits) {
        long seconds = Math.floorDiv(epochMicros, 1_000_000L);
        long fraction = Math.floorMod(epochMicros, 1_000_000L);
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder(26).append(t.format(DATETIME));
        appendFraction(sb, fraction, digits);
        return sb.toString();
    }

    private String zoned(String iso) {
        Instant instant = OffsetDateTime.parse(iso).toInstant();
        LocalDateTime local = LocalDateTime.ofInstant(instant, zone);
        StringBuilder sb = new StringBuilder(26).append(local.format(DATETIME));
        int nanos = local.getNano();
        if (nanos != 0) appendFraction(sb, nanos / 1_000L, 6);
        return sb.toString();
    }

    /** ".fff" or ".ffffff": {@code digits} places, or 6 when the value has sub-millisecond precision. */
    private static void appendFraction(StringBuilder sb, long micros, int digits) {
        String f = Long.toString(1_000_000L + micros).substring(1);
        int n = micros % 1000 != 0 ? 6 : digits;
        sb.append('.').append(f, 0, n);
    }
}
