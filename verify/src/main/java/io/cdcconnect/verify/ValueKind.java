package io.cdcconnect.verify;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a column's values are read and written down for comparison, so that one value stored by MySQL, MariaDB, TiDB or
 * PostgreSQL reads the same on both sides: numbers without trailing zeros, CHAR without its padding, date-times as
 * {@code yyyy-MM-dd HH:mm:ss[.fraction]} in UTC, TIME and PostgreSQL intervals as {@code [-]H:MM:SS[.fraction]}, bits
 * as their unsigned number, bytes as hex, JSON with sorted keys and no spaces. NULL stays null (never "").
 * Every cross-database rule of the verifier lives here.
 */
enum ValueKind {
    NUMBER, FLOAT4, FLOAT8, BOOL, BITS, DATE, DATETIME, TIME, CHAR, TEXT, JSON, BYTES;

    private static final Pattern DURATION =
            Pattern.compile("(?:([-+]?\\d+) days? ?)?([-+])?(\\d+):(\\d{1,2}):(\\d{1,2})(?:\\.(\\d{1,9}))?");

    /** A column's kind from its JDBC type and the type name its driver reports. */
    static ValueKind of(int jdbcType, String typeName) {
        String n = typeName == null ? "" : typeName.toUpperCase(Locale.ROOT);
        if (n.equals("JSON") || n.equals("JSONB")) return JSON;
        if (n.equals("INTERVAL")) return TIME;
        if (n.equals("YEAR")) return NUMBER;
        if (n.equals("BOOL") || n.equals("BOOLEAN")) return BOOL;
        if (n.equals("BIT") || n.equals("VARBIT") || n.equals("BIT VARYING")) return BITS;
        return switch (jdbcType) {
            case Types.BOOLEAN -> BOOL;
            case Types.BIT -> BITS;
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DECIMAL, Types.NUMERIC -> NUMBER;
            case Types.REAL -> FLOAT4;
            case Types.FLOAT, Types.DOUBLE -> FLOAT8;
            case Types.DATE -> DATE;
            case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> DATETIME;
            case Types.TIME, Types.TIME_WITH_TIMEZONE -> TIME;
            case Types.CHAR, Types.NCHAR -> CHAR;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BYTES;
            default -> TEXT;
        };
    }

    /** The rule both sides of a column pair are read by (the same kind on both sides is the common case). */
    static ValueKind common(ValueKind a, ValueKind b) {
        if (a == b) return a;
        if (a == JSON || b == JSON) return JSON;
        if (a == TIME || b == TIME) return TIME;
        if (a == BITS || b == BITS) return BITS;
        if (a == FLOAT4 || b == FLOAT4) return isNumeric(a) && isNumeric(b) ? FLOAT4 : TEXT;
        if (a == FLOAT8 || b == FLOAT8) return isNumeric(a) && isNumeric(b) ? FLOAT8 : TEXT;
        if (isNumeric(a) && isNumeric(b)) return NUMBER; // NUMBER and BOOL
        if ((a == CHAR && b == TEXT) || (a == TEXT && b == CHAR)) return CHAR;
        if (a == BYTES || b == BYTES) return BYTES;
        return TEXT;
    }

    private static boolean isNumeric(ValueKind k) {
        return k == NUMBER || k == BOOL || k == FLOAT4 || k == FLOAT8;
    }

    /**
     * Column {@code i} of the current row read by this rule, {@code side} being the column's own kind on this side,
     * {@code typeName} its driver's type name. Null for SQL NULL.
     */
    String read(ResultSet rs, int i, ValueKind side, String typeName) throws SQLException {
        switch (this) {
            case NUMBER, BITS -> {
                if (side == BOOL) {
                    boolean b = rs.getBoolean(i);
                    return rs.wasNull() ? null : b ? "1" : "0";
                }
                if (side == BITS) return bits(rs, i, typeName);
                return number(rs.getString(i));
            }
            case FLOAT4 -> {
                float f = rs.getFloat(i);
                return rs.wasNull() ? null : Float.toString(f);
            }
            case FLOAT8 -> {
                double d = rs.getDouble(i);
                return rs.wasNull() ? null : Double.toString(d);
            }
            case DATETIME -> {
                if ("TIMESTAMPTZ".equalsIgnoreCase(typeName)) {
                    OffsetDateTime t = rs.getObject(i, OffsetDateTime.class);
                    return t == null ? null : dateTime(t.atZoneSameInstant(ZoneOffset.UTC).toLocalDateTime().toString());
                }
                return dateTime(rs.getString(i));
            }
            case TIME -> {
                return duration(rs.getString(i));
            }
            case CHAR -> {
                return rtrim(rs.getString(i));
            }
            case JSON -> {
                return JsonText.canonical(rs.getString(i));
            }
            case BYTES -> {
                if (side == BYTES) {
                    byte[] b = rs.getBytes(i);
                    return b == null ? null : HexFormat.of().formatHex(b);
                }
                String s = rs.getString(i);
                return s == null ? null : HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
            }
            default -> {
                return rs.getString(i);
            }
        }
    }

    /** An exact number without trailing zeros ("1.50" and "1.5" are one value); text that is no number as it is. */
    static String number(String s) {
        if (s == null) return null;
        try {
            return new BigDecimal(s.trim()).stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return s;
        }
    }

    /** MySQL's BIT(n) arrives as bytes, PostgreSQL's bit(n) as a string of 0 and 1: both become the unsigned number. */
    private static String bits(ResultSet rs, int i, String typeName) throws SQLException {
        if (typeName != null && (typeName.equals("bit") || typeName.equals("varbit"))) {
            String s = rs.getString(i); // PostgreSQL
            if (s == null) return null;
            return s.isEmpty() ? "0" : new BigInteger(s, 2).toString();
        }
        byte[] b = rs.getBytes(i);
        return b == null ? null : new BigInteger(1, b).toString();
    }

    /** "2024-01-02T03:04:05.120" and "2024-01-02 03:04:05.12" become "2024-01-02 03:04:05.12". */
    static String dateTime(String s) {
        if (s == null) return null;
        String t = s.replace('T', ' ');
        if (t.length() == 16 && t.charAt(13) == ':') t = t + ":00"; // LocalDateTime.toString() drops zero seconds
        return trimFraction(t);
    }

    /** MySQL's TIME ("-838:59:59.5") and PostgreSQL's time and interval ("1 day 02:00:00") as [-]H:MM:SS[.f]. */
    static String duration(String s) {
        if (s == null) return null;
        Matcher m = DURATION.matcher(s.trim());
        if (!m.matches()) return s;
        long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
        boolean negative = "-".equals(m.group(2));
        String frac = m.group(6) == null ? "" : m.group(6);
        long micros = ((Long.parseLong(m.group(3)) * 3600 + Long.parseLong(m.group(4)) * 60 + Long.parseLong(m.group(5)))
                * 1_000_000L) + Long.parseLong((frac + "000000").substring(0, 6));
        long total = days * 86_400_000_000L + (negative ? -micros : micros);
        long abs = Math.abs(total);
        String out = String.format(Locale.ROOT, "%s%d:%02d:%02d.%06d", total < 0 ? "-" : "", abs / 3_600_000_000L,
                abs / 60_000_000L % 60, abs / 1_000_000L % 60, abs % 1_000_000L);
        return trimFraction(out);
    }

    private static String trimFraction(String t) {
        int dot = t.lastIndexOf('.');
        if (dot < 0 || dot < t.lastIndexOf(':')) return t;
        int end = t.length();
        while (end > dot + 1 && t.charAt(end - 1) == '0') end--;
        if (end == dot + 1) end = dot;
        return t.substring(0, end);
    }

    private static String rtrim(String s) {
        if (s == null) return null;
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') end--;
        return s.substring(0, end);
    }
}
