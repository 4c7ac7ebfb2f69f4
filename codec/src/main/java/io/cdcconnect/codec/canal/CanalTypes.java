package io.cdcconnect.codec.canal;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Canal-JSON's two type descriptions of a column: {@code mysqlType} (a type name) and {@code sqlType} (a
 * {@code java.sql.Types} code), both ways.
 */
public final class CanalTypes {

    public static final int BIT = -7;
    public static final int TINYINT = -6;
    public static final int SMALLINT = 5;
    public static final int INTEGER = 4;
    public static final int BIGINT = -5;
    public static final int REAL = 7;
    public static final int DOUBLE = 8;
    public static final int DECIMAL = 3;
    public static final int CHAR = 1;
    public static final int VARCHAR = 12;
    public static final int DATE = 91;
    public static final int TIME = 92;
    public static final int TIMESTAMP = 93;
    public static final int BINARY = -2;
    public static final int NULL = 0;
    public static final int BLOB = 2004;
    public static final int CLOB = 2005;

    private CanalTypes() {
    }

    /** Binary string or blob: the column's values are bytes, sent one character per byte. */
    static boolean binaryString(ColumnInfo c) {
        return c.type().isStringFamily() && (c.binary() || "binary".equalsIgnoreCase(c.charset()));
    }

    /**
     * The {@code mysqlType} of a column: the type name plus " unsigned" / " zerofill" ({@code full} false), or the
     * full column definition when it is known ({@code full} true, TiCDC's content-compatible mode).
     */
    public static String mysqlType(ColumnInfo c, boolean full) {
        if (full && c.columnType() != null && !c.columnType().isEmpty()) {
            return c.columnType();
        }
        String name = typeName(c);
        if (c.unsigned() && c.type() != MySqlType.BIT && c.type() != MySqlType.YEAR) {
            name += " unsigned";
        }
        if (c.columnType() != null && c.columnType().toLowerCase(Locale.ROOT).contains("zerofill")
                && c.type() != MySqlType.YEAR) {
            name += " zerofill";
        }
        return name;
    }

    /** TiDB's {@code types.TypeToStr}: the bare type name, telling binary strings from text by the binary flag. */
    static String typeName(ColumnInfo c) {
        boolean bin = binaryString(c);
        switch (c.type()) {
            case TINY: return "tinyint";
            case SHORT: return "smallint";
            case INT24: return "mediumint";
            case LONG: return "int";
            case LONGLONG: return "bigint";
            case FLOAT: return "float";
            case DOUBLE: return "double";
            case DECIMAL: case NEWDECIMAL: return "decimal";
            case DATE: case NEWDATE: return "date";
            case TIME: return "time";
            case DATETIME: return "datetime";
            case TIMESTAMP: return "timestamp";
            case YEAR: return "year";
            case BIT: return "bit";
            case JSON: return "json";
            case ENUM: return "enum";
            case SET: return "set";
            case STRING: return bin ? "binary" : "char";
            case VARCHAR: case VAR_STRING: return bin ? "varbinary" : "varchar";
            case TINY_BLOB: return bin ? "tinyblob" : "tinytext";
            case BLOB: return bin ? "blob" : "text";
            case MEDIUM_BLOB: return bin ? "mediumblob" : "mediumtext";
            case LONG_BLOB: return bin ? "longblob" : "longtext";
            case GEOMETRY: return "geometry";
            case NULL: return "null";
            default: throw new IllegalStateException("no canal type name for " + c.type());
        }
    }

    /** The {@code sqlType} of a column before any promotion of large unsigned values. */
    public static int baseSqlType(ColumnInfo c) {
        boolean bin = binaryString(c);
        switch (c.type()) {
            case TINY: return TINYINT;
            case SHORT: return SMALLINT;
            case INT24: case LONG: return INTEGER;
            case LONGLONG: return BIGINT;
            case FLOAT: return REAL;
            case DOUBLE: return DOUBLE;
            case NULL: return NULL;
            case DECIMAL: case NEWDECIMAL: return DECIMAL;
            case TIMESTAMP: case DATETIME: return TIMESTAMP;
            case DATE: case NEWDATE: return DATE;
            case TIME: return TIME;
            case YEAR: return VARCHAR;
            case ENUM: return INTEGER;
            case SET: return BIT;
            case TINY_BLOB: case MEDIUM_BLOB: case LONG_BLOB: case BLOB: return bin ? BLOB : CLOB;
            case VARCHAR: case VAR_STRING: return bin ? BLOB : VARCHAR;
            case STRING: return bin ? BLOB : CHAR;
            case GEOMETRY: return BINARY;
            case BIT: return BIT;
            case JSON: return VARCHAR;
            default: return VARCHAR;
        }
    }

    /**
     * The {@code sqlType} for one value: an unsigned TINYINT/SMALLINT/INT/BIGINT whose value does not fit the
     * signed type moves up one type (as Canal does). MEDIUMINT, YEAR and BIT never move.
     */
    public static int sqlType(ColumnInfo c, int base, Object value) {
        if (!c.unsigned() || value == null) {
            return base;
        }
        long threshold;
        int promoted;
        switch (c.type()) {
            case TINY: threshold = Byte.MAX_VALUE; promoted = SMALLINT; break;
            case SHORT: threshold = Short.MAX_VALUE; promoted = INTEGER; break;
            case LONG: threshold = Integer.MAX_VALUE; promoted = BIGINT; break;
            case LONGLONG: threshold = Long.MAX_VALUE; promoted = DECIMAL; break;
            default: return base;
        }
        long v;
        if (value instanceof Long l) {
            v = l;
        } else if (value instanceof Number n) {
            v = n.longValue();
        } else {
            try {
                v = Long.parseUnsignedLong(value.toString());
            } catch (NumberFormatException e) {
                return base;
            }
        }
        return Long.compareUnsigned(v, threshold) > 0 ? promoted : base;
    }

    /**
     * Reads a column back from its {@code mysqlType} (short name or full definition) and, when that is missing, its
     * {@code sqlType}. Sets UNSIGNED, BINARY (binary strings, blobs) and the key flags from {@code primaryKey}.
     */
    public static ColumnInfo parseColumn(String name, String mysqlType, Integer sqlType, boolean primaryKey) {
        int flags = primaryKey ? ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY : 0;
        if (mysqlType == null || mysqlType.isBlank()) {
            MySqlType t = fromSqlType(sqlType);
            if (sqlType != null && (sqlType == BLOB || sqlType == BINARY)) {
                flags |= ColumnFlags.BINARY;
            }
            return new ColumnInfo(name, t, flags, (flags & ColumnFlags.BINARY) != 0 ? "binary" : null,
                    -1, -1, -1, List.of(), null);
        }
        String lower = mysqlType.trim().toLowerCase(Locale.ROOT);
        MySqlType type;
        try {
            type = MySqlType.fromTypeName(lower);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown mysqlType '" + mysqlType + "'", e);
        }
        int paren = lower.indexOf('(');
        String base = lower.substring(0, paren >= 0 ? paren : lower.indexOf(' ') >= 0 ? lower.indexOf(' ')
                : lower.length()).trim();
        String attributes = lower.substring(paren >= 0 ? closing(lower, paren) + 1 : base.length());
        if (attributes.contains("unsigned")) {
            flags |= ColumnFlags.UNSIGNED;
        }
        boolean bin = base.contains("blob") || base.contains("binary");
        if (bin) {
            flags |= ColumnFlags.BINARY;
        }
        if (type == MySqlType.BIT) {
            flags |= ColumnFlags.UNSIGNED; // bit values are unsigned; TiCDC sets both flags on bit columns
        }
        int length = -1;
        int scale = -1;
        int fsp = -1;
        List<String> elements = List.of();
        if (paren >= 0) {
            String args = mysqlType.trim().substring(paren + 1, closing(lower, paren));
            if (type == MySqlType.ENUM || type == MySqlType.SET) {
                elements = parseElements(args);
            } else {
                String[] parts = args.split(",");
                try {
                    int first = Integer.parseInt(parts[0].trim());
                    if (type.isTemporal() && type != MySqlType.DATE) {
                        fsp = first;
                    } else {
                        length = first;
                    }
                    if (parts.length > 1) {
                        scale = Integer.parseInt(parts[1].trim());
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad length in mysqlType '" + mysqlType + "'", e);
                }
            }
        }
        return new ColumnInfo(name, type, flags, bin ? "binary" : null, length, scale, fsp, elements, mysqlType);
    }

    private static int closing(String s, int open) {
        boolean quoted = false;
        for (int i = open + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'') {
                if (quoted && i + 1 < s.length() && s.charAt(i + 1) == '\'') {
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ')' && !quoted) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced parenthesis in mysqlType '" + s + "'");
    }

    /** 'a','b''c' -> [a, b'c]. */
    static List<String> parseElements(String args) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        for (int i = 0; i < args.length(); i++) {
            char c = args.charAt(i);
            if (cur == null) {
                if (c == '\'') cur = new StringBuilder();
            } else if (c == '\'') {
                if (i + 1 < args.length() && args.charAt(i + 1) == '\'') {
                    cur.append('\'');
                    i++;
                } else {
                    out.add(cur.toString());
                    cur = null;
                }
            } else if (c == '\\' && i + 1 < args.length()) {
                cur.append(args.charAt(++i));
            } else {
                cur.append(c);
            }
        }
        return out;
    }

    static MySqlType fromSqlType(Integer sqlType) {
        if (sqlType == null) {
            return MySqlType.VARCHAR;
        }
        switch (sqlType) {
            case TINYINT: return MySqlType.TINY;
            case SMALLINT: return MySqlType.SHORT;
            case INTEGER: return MySqlType.LONG;
            case BIGINT: return MySqlType.LONGLONG;
            case REAL: return MySqlType.FLOAT;
            case DOUBLE: return MySqlType.DOUBLE;
            case DECIMAL: return MySqlType.NEWDECIMAL;
            case DATE: return MySqlType.DATE;
            case TIME: return MySqlType.TIME;
            case TIMESTAMP: return MySqlType.DATETIME;
            case CHAR: return MySqlType.STRING;
            case CLOB: case BLOB: return MySqlType.BLOB;
            case BIT: return MySqlType.BIT;
            case BINARY: return MySqlType.VARCHAR;
            default: return MySqlType.VARCHAR;
        }
    }
}
