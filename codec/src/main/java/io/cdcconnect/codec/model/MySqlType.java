package io.cdcconnect.codec.model;

import java.util.Locale;

/**
 * MySQL column types, by the type byte that MySQL's protocol (and TiCDC's Open-protocol) uses.
 * Several SQL types share one byte (TINYTEXT/TEXT/BLOB...); {@link ColumnInfo#binary()} tells text from bytes.
 */
public enum MySqlType {
    DECIMAL(0), TINY(1), SHORT(2), LONG(3), FLOAT(4), DOUBLE(5), NULL(6), TIMESTAMP(7), LONGLONG(8), INT24(9),
    DATE(10), TIME(11), DATETIME(12), YEAR(13), NEWDATE(14), VARCHAR(15), BIT(16), JSON(245), NEWDECIMAL(246),
    ENUM(247), SET(248), TINY_BLOB(249), MEDIUM_BLOB(250), LONG_BLOB(251), BLOB(252), VAR_STRING(253), STRING(254),
    GEOMETRY(255);

    private static final MySqlType[] BY_CODE = new MySqlType[256];

    static {
        for (MySqlType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    MySqlType(int code) {
        this.code = code;
    }

    /** The MySQL type byte (0-255). */
    public int code() {
        return code;
    }

    public static MySqlType fromCode(int code) {
        MySqlType t = code >= 0 && code < 256 ? BY_CODE[code] : null;
        if (t == null) {
            throw new IllegalArgumentException("unknown MySQL type code " + code);
        }
        return t;
    }

    public boolean isInteger() {
        return this == TINY || this == SHORT || this == INT24 || this == LONG || this == LONGLONG;
    }

    public boolean isBlobFamily() {
        return this == TINY_BLOB || this == MEDIUM_BLOB || this == LONG_BLOB || this == BLOB;
    }

    public boolean isStringFamily() {
        return this == VARCHAR || this == VAR_STRING || this == STRING || isBlobFamily();
    }

    public boolean isTemporal() {
        return this == DATE || this == NEWDATE || this == TIME || this == DATETIME || this == TIMESTAMP;
    }

    /**
     * Maps a SQL type name as MySQL writes it in a column definition ("int", "bigint unsigned", "varchar(20)",
     * "mediumtext", "decimal(10,2)") to a type. Length, attributes and case are ignored.
     */
    public static MySqlType fromTypeName(String typeName) {
        String n = typeName.trim().toLowerCase(Locale.ROOT);
        int paren = n.indexOf('(');
        int space = n.indexOf(' ');
        int end = n.length();
        if (paren >= 0) end = Math.min(end, paren);
        if (space >= 0) end = Math.min(end, space);
        n = n.substring(0, end);
        switch (n) {
            case "tinyint": case "bool": case "boolean": return TINY;
            case "smallint": return SHORT;
            case "mediumint": return INT24;
            case "int": case "integer": return LONG;
            case "bigint": return LONGLONG;
            case "float": return FLOAT;
            case "double": case "real": return DOUBLE;
            case "decimal": case "numeric": case "dec": case "fixed": return NEWDECIMAL;
            case "date": return DATE;
            case "time": return TIME;
            case "datetime": return DATETIME;
            case "timestamp": return TIMESTAMP;
            case "year": return YEAR;
            case "bit": return BIT;
            case "json": return JSON;
            case "enum": return ENUM;
            case "set": return SET;
            case "char": case "binary": return STRING;
            case "varchar": case "varbinary": return VARCHAR;
            case "tinytext": case "tinyblob": return TINY_BLOB;
            case "mediumtext": case "mediumblob": return MEDIUM_BLOB;
            case "longtext": case "longblob": return LONG_BLOB;
            case "text": case "blob": return BLOB;
            case "geometry": case "point": case "linestring": case "polygon": case "multipoint":
            case "multilinestring": case "multipolygon": case "geometrycollection": return GEOMETRY;
            default: throw new IllegalArgumentException("unknown MySQL type name '" + typeName + "'");
        }
    }
}
