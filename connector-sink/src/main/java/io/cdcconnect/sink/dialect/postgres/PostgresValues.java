package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.sink.dialect.postgres.types.PostgresTypes;

import static io.cdcconnect.sink.dialect.postgres.types.PostgresTypes.hex;
import static io.cdcconnect.sink.dialect.postgres.types.PostgresTypes.show;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.sink.dialect.ValueConverter;
import io.cdcconnect.sink.dialect.postgres.types.PostgresTypes.PgKind;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The documented value rules of the PostgreSQL target: how one value of the change-event model (see
 * {@code io.cdcconnect.codec.model.RowChange} for the Java type of each MySQL type) is written into one PostgreSQL
 * column.
 *
 * <p>Every converter returns a {@link String} in PostgreSQL's input syntax for the target column's type, or
 * {@code null} for SQL NULL. The sink binds every parameter as text of unspecified type
 * ({@code stringtype=unspecified}): the server types it by the column, and a server-side prepared statement keeps one
 * parameter signature whatever the values. A value the target cannot represent is refused with an
 * {@link IllegalArgumentException} whose message names the column, the value (cut to about 40 characters) and the
 * rule.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li><b>Integers</b> (TINYINT .. BIGINT, {@link Long}): decimal text; BIGINT UNSIGNED (type LONGLONG with the
 *   unsigned flag) as its unsigned value ({@link Long#toUnsignedString(long)}). Into a {@code bool} column: any
 *   non-zero value is {@code true}, zero {@code false}. Into a {@code bit}/{@code varbit} column: as BIT below.</li>
 *   <li><b>YEAR</b>: decimal text (YEAR 0 stays 0).</li>
 *   <li><b>BIT(n)</b> ({@link Long}): into {@code bit}/{@code varbit}, a string of '0'/'1' exactly as long as the
 *   column (the length in {@code targetType} such as {@code bit(5)} when given, else the source column's length,
 *   else as many digits as the value needs), padded on the left with zeros; a value needing more bits than that is
 *   refused. Into a {@code bool} column: non-zero is {@code true}. Into any other column: the unsigned decimal value
 *   (BIT(64) holds the unsigned 64-bit pattern).</li>
 *   <li><b>ENUM</b> ({@link Long} 1-based index): the element's name from {@code ColumnInfo.elements()}; index 0
 *   (MySQL's empty string for an invalid value) is {@code ""}; an index beyond the elements, or any non-zero index
 *   when the elements are unknown, is refused. Into a numeric column: the index as decimal text.</li>
 *   <li><b>SET</b> ({@link Long} bitmask): the names of the set bits' elements, comma-joined in definition order
 *   ({@code ""} for 0); a bit beyond the elements (or any bit when they are unknown) is refused. Into a numeric column:
 *   the bitmask as unsigned decimal text.</li>
 *   <li><b>DATE, DATETIME, TIMESTAMP</b> (text as MySQL prints it): an all-zero value ({@code 0000-00-00},
 *   {@code 0000-00-00 00:00:00[.000000]}) is written as NULL when the target column is nullable and refused when it
 *   is NOT NULL; a value with a zero month or day or year 0000 ({@code 2024-00-15}, {@code 2024-05-00},
 *   {@code 0000-00-00 10:00:00}) is refused, PostgreSQL having no such date. Other values pass unchanged (a
 *   TIMESTAMP's text is read by the server in the session time zone the sink sets). Into a text-like column
 *   (char, varchar, text, user enum) every value passes unchanged, zero dates included.</li>
 *   <li><b>TIME</b> (text, {@code -838:59:59.000000 .. 838:59:59.000000}): into an {@code interval} column, passed
 *   unchanged: PostgreSQL reads {@code -838:59:59.5} as minus (838 h 59 min 59.5 s), the sign applying to the whole
 *   {@code h:m:s} field under every {@code IntervalStyle}, which is MySQL's meaning. Into a {@code time} or
 *   {@code timetz} column only values from {@code 00:00:00} to {@code 23:59:59.999999} pass; others are refused with
 *   a hint to make the column an interval. Into a text-like column: unchanged.</li>
 *   <li><b>Text</b> (CHAR, VARCHAR, TEXT, JSON, {@link String}): unchanged, but a value containing U+0000 is refused
 *   (PostgreSQL text cannot hold NUL). Into a {@code jsonb} column a JSON text with the escape {@code \u0000} is
 *   refused as well (jsonb cannot hold it; a {@code json} column can). Into a {@code bytea} column: the UTF-8 bytes
 *   as below.</li>
 *   <li><b>Bytes</b> (BINARY, VARBINARY, BLOB, GEOMETRY, {@code byte[]}): into {@code bytea}, {@code \x} followed by
 *   lowercase hex. Into a {@code uuid} column, 16 bytes are written as the UUID they hold
 *   ({@code 8-4-4-4-12} hex), other lengths are refused. Into any other column: decoded as strict UTF-8, refused
 *   when not valid UTF-8 or when containing NUL.</li>
 *   <li><b>DECIMAL</b> ({@link BigDecimal}): {@link BigDecimal#toPlainString()}.</li>
 *   <li><b>FLOAT, DOUBLE</b> ({@link Float}, {@link Double}): {@link Float#toString(float)} /
 *   {@link Double#toString(double)} (the shortest text that reads back to the same value; {@code 1.0E10} is valid
 *   input); NaN is {@code NaN}, the infinities {@code Infinity} and {@code -Infinity}.</li>
 *   <li><b>Boolean</b>: {@code true}/{@code false}; into a numeric column {@code 1}/{@code 0}.</li>
 *   <li>Anything else: {@code toString()}.</li>
 * </ul>
 * A value of another Java type than the source column's type promises is converted by its own Java type with the
 * rules above, so a converter never fails on a producer's choice of representation alone.
 */
public final class PostgresValues {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PostgresValues() {
    }

    /**
     * The converter for values of {@code source} written into the PostgreSQL column {@code targetColumn}.
     *
     * @param source         the column of the change-event model
     * @param targetColumn   the target column's name, for messages
     * @param targetType     the target column's type name ({@code udt_name} or {@code data_type}, see
     *                       {@link PostgresTypes#kindOf(String)}); may carry a length, {@code bit(5)}
     * @param targetNullable whether the target column takes NULL (decides the all-zero dates)
     */
    public static ValueConverter converter(ColumnInfo source, String targetColumn, String targetType,
                                           boolean targetNullable) {
        PgKind kind = PostgresTypes.kindOf(targetType);
        int width = PostgresTypes.lengthOf(targetType);
        if (width <= 0 && source.type() == MySqlType.BIT && source.length() > 0) width = source.length();
        boolean unsigned64 = (source.type() == MySqlType.LONGLONG && source.unsigned())
                || source.type() == MySqlType.BIT;
        Target t = new Target("column `" + targetColumn + "`", kind, width, targetNullable, unsigned64);
        return switch (source.type()) {
            case TINY, SHORT, INT24, LONG, LONGLONG, BIT, YEAR -> integer(t);
            case ENUM -> kind.numeric() ? integer(t) : new EnumConverter(t, source.elements());
            case SET -> {
                if (kind.numeric()) {
                    yield integer(new Target(t.label, kind, width, targetNullable, true));
                }
                yield new SetConverter(t, source.elements());
            }
            case DATE, NEWDATE, DATETIME, TIMESTAMP -> kind.textual() ? t::general : new DateConverter(t);
            case TIME -> kind == PgKind.TIME || kind == PgKind.TIMETZ ? new TimeOfDayConverter(t) : t::general;
            case DECIMAL, NEWDECIMAL -> v -> v instanceof BigDecimal d ? d.toPlainString() : t.general(v);
            case FLOAT, DOUBLE -> t::general;
            default -> t::general; // strings, blobs, JSON, GEOMETRY: by the value's type and the target's kind
        };
    }

    private static ValueConverter integer(Target t) {
        if (t.kind == PgKind.BOOL) {
            return v -> v instanceof Long l ? (l != 0 ? "true" : "false") : t.general(v);
        }
        if (t.kind.bits()) {
            return v -> v instanceof Long l ? t.bits(l) : t.general(v);
        }
        if (t.unsigned64) {
            return v -> v instanceof Long l ? Long.toUnsignedString(l) : t.general(v);
        }
        return v -> v instanceof Long l ? l.toString() : t.general(v);
    }

    /** What every converter knows about its target column; {@link #general} converts by the value's Java type. */
    private record Target(String label, PgKind kind, int width, boolean nullable, boolean unsigned64) {

        String general(Object v) {
            if (v instanceof String s) return text(s);
            if (v instanceof byte[] b) return bytes(b);
            if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                long l = ((Number) v).longValue();
                if (kind == PgKind.BOOL) return l != 0 ? "true" : "false";
                if (kind.bits()) return bits(l);
                return unsigned64 ? Long.toUnsignedString(l) : Long.toString(l);
            }
            if (v instanceof BigDecimal d) return d.toPlainString();
            if (v instanceof Double || v instanceof Float) return v.toString(); // NaN, Infinity, -Infinity
            if (v instanceof Boolean b) {
                if (kind.numeric()) return b ? "1" : "0";
                if (kind.bits()) return bits(b ? 1 : 0);
                return b ? "true" : "false";
            }
            if (v instanceof BigInteger i) return i.toString();
            if (v instanceof ByteBuffer bb) {
                byte[] copy = new byte[bb.remaining()];
                bb.duplicate().get(copy);
                return bytes(copy);
            }
            return text(v.toString());
        }

        String text(String s) {
            if (kind == PgKind.BYTEA) return hex(s.getBytes(StandardCharsets.UTF_8));
            if (s.indexOf('\0') >= 0) {
                throw fail("text " + show(s) + " contains U+0000, which PostgreSQL text cannot hold");
            }
            if (kind == PgKind.JSONB && hasNulEscape(s)) {
                throw fail("JSON " + show(s) + " contains \\u0000, which PostgreSQL jsonb cannot hold (a json "
                        + "column can)");
            }
            return s;
        }

        String bytes(byte[] b) {
            if (kind == PgKind.BYTEA) return hex(b);
            if (kind == PgKind.UUID) {
                if (b.length != 16) {
                    throw fail(b.length + " bytes " + show(b) + " are not a 16-byte UUID");
                }
                return uuid(b);
            }
            String s;
            try {
                CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
                CharBuffer cb = dec.decode(ByteBuffer.wrap(b));
                s = cb.toString();
            } catch (CharacterCodingException e) {
                throw fail("bytes " + show(b) + " are not valid UTF-8, which a PostgreSQL " + kindName()
                        + " column needs");
            }
            if (s.indexOf('\0') >= 0) {
                throw fail("bytes " + show(b) + " contain NUL, which a PostgreSQL " + kindName()
                        + " column cannot hold");
            }
            if (kind == PgKind.JSONB && hasNulEscape(s)) {
                throw fail("JSON " + show(s) + " contains \\u0000, which PostgreSQL jsonb cannot hold (a json "
                        + "column can)");
            }
            return s;
        }

        String bits(long l) {
            int needed = 64 - Long.numberOfLeadingZeros(l);
            int w = width > 0 ? width : Math.max(1, needed);
            if (needed > w) {
                throw fail("BIT value " + Long.toUnsignedString(l) + " needs " + needed + " bits, more than the "
                        + "column's " + w);
            }
            char[] out = new char[w];
            for (int i = 0; i < w; i++) {
                out[w - 1 - i] = i < 64 && ((l >>> i) & 1) != 0 ? '1' : '0';
            }
            return new String(out);
        }

        private String kindName() {
            return kind.name().toLowerCase(java.util.Locale.ROOT);
        }

        IllegalArgumentException fail(String what) {
            return new IllegalArgumentException(label + ": " + what);
        }
    }

    private static final class EnumConverter implements ValueConverter {
        private final Target t;
        private final String[] names;

        EnumConverter(Target t, List<String> elements) {
            this.t = t;
            this.names = elements.toArray(new String[0]);
        }

        @Override
        public Object convert(Object v) {
            if (!(v instanceof Long l)) return t.general(v);
            long i = l;
            if (i == 0) return "";
            if (names.length == 0) {
                throw t.fail("ENUM index " + i + " cannot be named: the column's elements are unknown");
            }
            if (i < 0 || i > names.length) {
                throw t.fail("ENUM index " + i + " is outside the column's " + names.length + " elements");
            }
            return t.text(names[(int) i - 1]);
        }
    }

    private static final class SetConverter implements ValueConverter {
        private final Target t;
        private final String[] names;
        private final long allowed;

        SetConverter(Target t, List<String> elements) {
            this.t = t;
            this.names = elements.toArray(new String[0]);
            this.allowed = names.length >= 64 ? -1L : (1L << names.length) - 1;
        }

        @Override
        public Object convert(Object v) {
            if (!(v instanceof Long l)) return t.general(v);
            long mask = l;
            if (mask == 0) return "";
            if ((mask & ~allowed) != 0) {
                throw t.fail(names.length == 0
                        ? "SET bitmask " + Long.toUnsignedString(mask) + " cannot be named: the column's elements "
                                + "are unknown"
                        : "SET bitmask " + Long.toUnsignedString(mask) + " has bits beyond the column's "
                                + names.length + " elements");
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < names.length; i++) {
                if ((mask & (1L << i)) != 0) {
                    if (sb.length() > 0) sb.append(',');
                    sb.append(names[i]);
                }
            }
            return t.text(sb.toString());
        }
    }

    /** DATE, DATETIME, TIMESTAMP into a date/time column: zero dates. */
    private static final class DateConverter implements ValueConverter {
        private final Target t;

        DateConverter(Target t) {
            this.t = t;
        }

        @Override
        public Object convert(Object v) {
            if (!(v instanceof String s)) return t.general(v);
            if (s.length() < 10 || s.charAt(4) != '-' || s.charAt(7) != '-') return t.text(s);
            boolean y0 = s.charAt(0) == '0' && s.charAt(1) == '0' && s.charAt(2) == '0' && s.charAt(3) == '0';
            boolean m0 = s.charAt(5) == '0' && s.charAt(6) == '0';
            boolean d0 = s.charAt(8) == '0' && s.charAt(9) == '0';
            if (!y0 && !m0 && !d0) return t.text(s);
            if (y0 && m0 && d0 && zeroTime(s)) {
                if (t.nullable) return null;
                throw t.fail("zero date " + show(s) + " has no PostgreSQL value and the column is NOT NULL");
            }
            throw t.fail("date " + show(s) + " has a zero year, month or day, which PostgreSQL has no value for");
        }

        private static boolean zeroTime(String s) {
            for (int i = 10; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c != '0' && c != ' ' && c != ':' && c != '.' && c != 'T') return false;
            }
            return true;
        }
    }

    /** TIME into a time/timetz column: only a time of day. */
    private static final class TimeOfDayConverter implements ValueConverter {
        private final Target t;

        TimeOfDayConverter(Target t) {
            this.t = t;
        }

        @Override
        public Object convert(Object v) {
            if (!(v instanceof String s)) return t.general(v);
            int colon = s.indexOf(':');
            boolean ok = colon > 0 && s.charAt(0) != '-';
            if (ok) {
                int hours = 0;
                for (int i = 0; i < colon && ok; i++) {
                    char c = s.charAt(i);
                    if (c < '0' || c > '9') {
                        ok = false;
                    } else {
                        hours = hours * 10 + (c - '0');
                        if (hours > 23) ok = false;
                    }
                }
            }
            if (!ok) {
                throw t.fail("time " + show(s) + " is outside a PostgreSQL time's 00:00:00..23:59:59.999999; "
                        + "make the column an interval");
            }
            return t.text(s);
        }
    }

    /** True when JSON text holds the escape {@code \u0000} (a backslash that is not itself escaped). */
    static boolean hasNulEscape(String s) {
        int from = 0;
        while (true) {
            int i = s.indexOf("u0000", from);
            if (i < 0) return false;
            int slashes = 0;
            for (int j = i - 1; j >= 0 && s.charAt(j) == '\\'; j--) slashes++;
            if ((slashes & 1) == 1) return true;
            from = i + 1;
        }
    }

    private static String uuid(byte[] b) {
        StringBuilder sb = new StringBuilder(36);
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) sb.append('-');
            sb.append(HEX[(b[i] >> 4) & 0xf]).append(HEX[b[i] & 0xf]);
        }
        return sb.toString();
    }

    /** A value for a message: quoted, NUL shown as \0, cut to about 40 characters. */
}
