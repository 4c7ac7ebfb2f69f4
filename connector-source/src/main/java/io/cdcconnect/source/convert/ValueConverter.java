package io.cdcconnect.source.convert;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Converts one value as Debezium delivers it (with the settings {@link io.cdcconnect.source.DebeziumSettings} forces)
 * into the Java type {@link io.cdcconnect.codec.model.RowChange} fixes for the column's MySQL type.
 *
 * <p>Debezium's representations, keyed by the field schema's name: {@code io.debezium.time.Date} days since epoch;
 * {@code MicroTime} microseconds (negative and beyond 24 h allowed); {@code Timestamp} / {@code MicroTimestamp}
 * DATETIME as milli/microseconds since epoch read as UTC; {@code ZonedTimestamp} TIMESTAMP as ISO-8601 text in UTC;
 * {@code Bits} little-endian bytes; {@code Enum}/{@code EnumSet} the text of the value; Connect's {@code Decimal}
 * a BigDecimal (also BIGINT UNSIGNED); bytes as ByteBuffer or byte[].
 */
public final class ValueConverter {

    private static final long MICROS_PER_SECOND = 1_000_000L;

    private ValueConverter() {
    }

    /**
     * @param column     the column the value belongs to (its type, fsp, elements)
     * @param schemaName the Connect schema name of the field (Debezium's logical type), or null
     * @param value      Debezium's value; null for SQL NULL
     */
    public static Object convert(ColumnInfo column, String schemaName, Object value) {
        if (value == null) return null;
        MySqlType type = column.type();
        switch (type) {
            case TINY: case SHORT: case INT24: case LONG: case LONGLONG: case YEAR:
                return toLong(column, value);
            case BIT:
                return bits(column, value);
            case FLOAT:
                return ((Number) value).floatValue();
            case DOUBLE:
                return ((Number) value).doubleValue();
            case DECIMAL: case NEWDECIMAL:
                return value instanceof BigDecimal bd ? bd : new BigDecimal(value.toString());
            case DATE: case NEWDATE:
                return date(value);
            case TIME:
                return time(column, schemaName, value);
            case DATETIME:
                return datetime(column, schemaName, value);
            case TIMESTAMP:
                return timestamp(column, value);
            case ENUM:
                return enumIndex(column, value);
            case SET:
                return setBits(column, value);
            case GEOMETRY:
                return geometry(value);
            default:
                if (column.binary()) return bytes(value);
                if (value instanceof ByteBuffer || value instanceof byte[]) {
                    return new String(bytes(value), java.nio.charset.StandardCharsets.UTF_8);
                }
                return value.toString();
        }
    }

    static Long toLong(ColumnInfo column, Object value) {
        if (value instanceof BigDecimal bd) {
            // BIGINT UNSIGNED arrives as a BigDecimal; the model holds its unsigned 64-bit pattern.
            return bd.toBigInteger().longValue();
        }
        if (value instanceof Boolean b) return b ? 1L : 0L;
        if (value instanceof Number n) return n.longValue();
        throw new IllegalArgumentException("column " + column.name() + " (" + column.type()
                + "): unexpected value type " + value.getClass().getName());
    }

    static Long bits(ColumnInfo column, Object value) {
        if (value instanceof Boolean b) return b ? 1L : 0L;
        if (value instanceof Number n) return n.longValue();
        byte[] le = bytes(value);
        long v = 0;
        for (int i = Math.min(le.length, 8) - 1; i >= 0; i--) {
            v = (v << 8) | (le[i] & 0xFFL);
        }
        return v;
    }

    static byte[] bytes(Object value) {
        if (value instanceof byte[] b) return b;
        if (value instanceof ByteBuffer buf) {
            ByteBuffer d = buf.duplicate();
            byte[] b = new byte[d.remaining()];
            d.get(b);
            return b;
        }
        if (value instanceof String s) return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        throw new IllegalArgumentException("unexpected binary value type " + value.getClass().getName());
    }

    static String date(Object value) {
        if (value instanceof java.util.Date d) {
            return LocalDate.ofInstant(d.toInstant(), ZoneOffset.UTC).toString();
        }
        return formatDate(LocalDate.ofEpochDay(((Number) value).longValue()));
    }

    private static String formatDate(LocalDate d) {
        int y = d.getYear();
        StringBuilder sb = new StringBuilder(10);
        pad(sb, y, 4).append('-');
        pad(sb, d.getMonthValue(), 2).append('-');
        pad(sb, d.getDayOfMonth(), 2);
        return sb.toString();
    }

    /** TIME from microseconds: "[-]HH:MM:SS[.fraction of fsp digits]", hours beyond 24 as MySQL prints them. */
    static String time(ColumnInfo column, String schemaName, Object value) {
        long micros;
        if (value instanceof java.util.Date d) {
            micros = d.getTime() * 1000L;
        } else if ("io.debezium.time.Time".equals(schemaName)) {
            micros = ((Number) value).longValue() * 1000L;
        } else if ("io.debezium.time.NanoTime".equals(schemaName)) {
            micros = ((Number) value).longValue() / 1000L;
        } else {
            micros = ((Number) value).longValue();
        }
        return formatTime(micros, Math.max(column.fsp(), 0));
    }

    public static String formatTime(long micros, int fsp) {
        StringBuilder sb = new StringBuilder(16);
        if (micros < 0) {
            sb.append('-');
            micros = -micros;
        }
        long seconds = micros / MICROS_PER_SECOND;
        long frac = micros % MICROS_PER_SECOND;
        pad(sb, seconds / 3600, 2).append(':');
        pad(sb, (seconds / 60) % 60, 2).append(':');
        pad(sb, seconds % 60, 2);
        fraction(sb, frac, fsp);
        return sb.toString();
    }

    static String datetime(ColumnInfo column, String schemaName, Object value) {
        long micros;
        if (value instanceof java.util.Date d) {
            micros = d.getTime() * 1000L;
        } else if ("io.debezium.time.MicroTimestamp".equals(schemaName)) {
            micros = ((Number) value).longValue();
        } else if ("io.debezium.time.NanoTimestamp".equals(schemaName)) {
            micros = Math.floorDiv(((Number) value).longValue(), 1000L);
        } else {
            micros = ((Number) value).longValue() * 1000L;
        }
        return formatDateTime(micros, Math.max(column.fsp(), 0));
    }

    /** DATETIME/TIMESTAMP text "YYYY-MM-DD HH:MM:SS[.fraction]" from microseconds since the epoch in UTC. */
    public static String formatDateTime(long epochMicros, int fsp) {
        long seconds = Math.floorDiv(epochMicros, MICROS_PER_SECOND);
        long frac = Math.floorMod(epochMicros, MICROS_PER_SECOND);
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder(26);
        sb.append(formatDate(t.toLocalDate())).append(' ');
        pad(sb, t.getHour(), 2).append(':');
        pad(sb, t.getMinute(), 2).append(':');
        pad(sb, t.getSecond(), 2);
        fraction(sb, frac, fsp);
        return sb.toString();
    }

    static String timestamp(ColumnInfo column, Object value) {
        Instant instant;
        if (value instanceof java.util.Date d) {
            instant = d.toInstant();
        } else if (value instanceof Number n) {
            instant = Instant.ofEpochMilli(n.longValue());
        } else {
            String text = value.toString();
            try {
                instant = OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("column " + column.name() + ": TIMESTAMP value '" + text
                        + "' is not ISO-8601", e);
            }
        }
        long micros = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), MICROS_PER_SECOND),
                instant.getNano() / 1000L);
        return formatDateTime(micros, Math.max(column.fsp(), 0));
    }

    static Long enumIndex(ColumnInfo column, Object value) {
        if (value instanceof Number n) return n.longValue();
        String v = value.toString();
        // MySQL stores an invalid ENUM value as index 0, which reads back as ''.
        if (v.isEmpty() && !column.elements().contains("")) return 0L;
        int i = column.elements().indexOf(v);
        if (i < 0) {
            throw new IllegalArgumentException("column " + column.name() + ": ENUM value is not among the column's "
                    + column.elements().size() + " elements");
        }
        return (long) (i + 1);
    }

    static Long setBits(ColumnInfo column, Object value) {
        if (value instanceof Number n) return n.longValue();
        String v = value.toString();
        if (v.isEmpty()) return 0L;
        List<String> elements = column.elements();
        long mask = 0;
        // SET members cannot contain commas (MySQL refuses such definitions), so the split is exact.
        for (String member : v.split(",", -1)) {
            int i = elements.indexOf(member);
            if (i < 0) {
                throw new IllegalArgumentException("column " + column.name() + ": SET member is not among the column's "
                        + elements.size() + " elements");
            }
            mask |= 1L << i;
        }
        return mask;
    }

    /** GEOMETRY in MySQL's internal layout: 4-byte little-endian SRID, then WKB. */
    static byte[] geometry(Object value) {
        if (value instanceof org.apache.kafka.connect.data.Struct s) {
            byte[] wkb = bytes(s.get("wkb"));
            Integer srid = s.schema().field("srid") == null ? null : s.getInt32("srid");
            int id = srid == null ? 0 : srid;
            byte[] out = new byte[wkb.length + 4];
            out[0] = (byte) id;
            out[1] = (byte) (id >>> 8);
            out[2] = (byte) (id >>> 16);
            out[3] = (byte) (id >>> 24);
            System.arraycopy(wkb, 0, out, 4, wkb.length);
            return out;
        }
        return bytes(value);
    }

    private static StringBuilder pad(StringBuilder sb, long v, int width) {
        String s = Long.toString(v);
        for (int i = s.length(); i < width; i++) sb.append('0');
        return sb.append(s);
    }

    private static void fraction(StringBuilder sb, long micros, int fsp) {
        if (fsp <= 0) return;
        String six = Long.toString(micros);
        sb.append('.');
        for (int i = six.length(); i < 6; i++) sb.append('0');
        sb.append(six);
        sb.setLength(sb.length() - (6 - Math.min(fsp, 6)));
    }
}
