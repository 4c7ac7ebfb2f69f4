package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;

/**
 * How one MySQL column travels in Avro: the Avro type, and how the model's Java value maps to it.
 * The mapping follows TiCDC's Avro encoder ({@code pkg/sink/codec/avro}).
 */
enum AvroColumnKind {
    /** TINYINT, SMALLINT, MEDIUMINT (signed or not) and signed INT: Avro int. */
    INT("int"),
    /** INT UNSIGNED: Avro long, because its range passes 2^31-1. */
    UNSIGNED_INT_AS_LONG("long"),
    /** BIGINT, and BIGINT UNSIGNED in {@code LONG} mode (the unsigned 64-bit pattern). */
    LONG("long"),
    /** BIGINT UNSIGNED in {@code STRING} mode: base-10 text. */
    UNSIGNED_LONG_AS_STRING("string"),
    FLOAT("float"),
    DOUBLE("double"),
    /** BIT(n): the value's shortest big-endian bytes. */
    BIT("bytes"),
    /** DECIMAL in {@code PRECISE} mode: bytes with logical type decimal (two's complement unscaled value). */
    DECIMAL_BYTES("bytes"),
    /** DECIMAL in {@code STRING} mode: plain text. */
    DECIMAL_STRING("string"),
    /** CHAR, VARCHAR and TEXT of a character set. */
    TEXT("string"),
    /** BINARY, VARBINARY, BLOB (and GEOMETRY, which TiCDC does not write at all). */
    BLOB("bytes"),
    /** ENUM: the element's name. */
    ENUM("string"),
    /** SET: the names of the members, joined with commas. */
    SET("string"),
    /** DATE, DATETIME, TIMESTAMP, TIME, JSON: text as MySQL prints it. */
    TEXTUAL("string"),
    YEAR("int");

    final String avroType;

    AvroColumnKind(String avroType) {
        this.avroType = avroType;
    }

    /** The kind of a column for the encoder. */
    static AvroColumnKind of(ColumnInfo column, AvroOptions options) {
        MySqlType t = column.type();
        switch (t) {
            case TINY: case SHORT: case INT24:
                return INT;
            case LONG:
                return column.unsigned() ? UNSIGNED_INT_AS_LONG : INT;
            case LONGLONG:
                return column.unsigned() && options.bigintUnsignedHandling() == AvroOptions.BigintUnsignedHandling.STRING
                        ? UNSIGNED_LONG_AS_STRING : LONG;
            case FLOAT: return FLOAT;
            case DOUBLE: return DOUBLE;
            case BIT: return BIT;
            case DECIMAL: case NEWDECIMAL:
                return options.decimalHandling() == AvroOptions.DecimalHandling.PRECISE ? DECIMAL_BYTES : DECIMAL_STRING;
            case VARCHAR: case VAR_STRING: case STRING:
            case TINY_BLOB: case MEDIUM_BLOB: case LONG_BLOB: case BLOB:
                return column.binary() ? BLOB : TEXT;
            case GEOMETRY: return BLOB;
            case ENUM: return ENUM;
            case SET: return SET;
            case JSON: case DATE: case NEWDATE: case DATETIME: case TIMESTAMP: case TIME:
                return TEXTUAL;
            case YEAR: return YEAR;
            default:
                throw new IllegalArgumentException("MySQL type " + t + " cannot be written in Avro");
        }
    }

    /** The {@code connect.parameters.tidb_type} TiCDC writes for a column. */
    static String tidbType(ColumnInfo column) {
        switch (column.type()) {
            case TINY: case SHORT: case INT24: case LONG:
                return column.unsigned() ? "INT UNSIGNED" : "INT";
            case LONGLONG:
                return column.unsigned() ? "BIGINT UNSIGNED" : "BIGINT";
            case FLOAT: return "FLOAT";
            case DOUBLE: return "DOUBLE";
            case BIT: return "BIT";
            case DECIMAL: case NEWDECIMAL: return "DECIMAL";
            case VARCHAR: case VAR_STRING: case STRING:
            case TINY_BLOB: case MEDIUM_BLOB: case LONG_BLOB: case BLOB:
                return column.binary() ? "BLOB" : "TEXT";
            case GEOMETRY: return "BLOB";
            case ENUM: return "ENUM";
            case SET: return "SET";
            case JSON: return "JSON";
            case DATE: case NEWDATE: return "DATE";
            case DATETIME: return "DATETIME";
            case TIMESTAMP: return "TIMESTAMP";
            case TIME: return "TIME";
            case YEAR: return "YEAR";
            default:
                throw new IllegalArgumentException("MySQL type " + column.type() + " cannot be written in Avro");
        }
    }

    /**
     * The MySQL type a decoder gives a column, from its {@code tidb_type} (TiCDC's decoder makes the same choices:
     * every integer narrower than BIGINT comes back as INT, text as VARCHAR, binary as LONGBLOB). Null if unknown.
     */
    static MySqlType mysqlTypeOf(String tidbType) {
        switch (tidbType) {
            case "INT": case "INT UNSIGNED": return MySqlType.LONG;
            case "BIGINT": case "BIGINT UNSIGNED": return MySqlType.LONGLONG;
            case "FLOAT": return MySqlType.FLOAT;
            case "DOUBLE": return MySqlType.DOUBLE;
            case "BIT": return MySqlType.BIT;
            case "DECIMAL": return MySqlType.NEWDECIMAL;
            case "TEXT": return MySqlType.VARCHAR;
            case "BLOB": return MySqlType.LONG_BLOB;
            case "ENUM": return MySqlType.ENUM;
            case "SET": return MySqlType.SET;
            case "JSON": return MySqlType.JSON;
            case "DATE": return MySqlType.DATE;
            case "DATETIME": return MySqlType.DATETIME;
            case "TIMESTAMP": return MySqlType.TIMESTAMP;
            case "TIME": return MySqlType.TIME;
            case "YEAR": return MySqlType.YEAR;
            // TiDB's vector type has no counterpart in the model: its text form is kept.
            case "TiDBVECTORFloat32": return MySqlType.VARCHAR;
            default: return null;
        }
    }

    /** The decoder's kind for a field, from its tidb_type and the Avro type actually written. */
    static AvroColumnKind forDecoding(String tidbType, String avroType) {
        switch (tidbType) {
            case "INT": return "long".equals(avroType) ? LONG : INT;
            case "INT UNSIGNED": return "long".equals(avroType) ? UNSIGNED_INT_AS_LONG : INT;
            case "BIGINT": return LONG;
            case "BIGINT UNSIGNED": return "string".equals(avroType) ? UNSIGNED_LONG_AS_STRING : LONG;
            case "FLOAT": return FLOAT;
            case "DOUBLE": return DOUBLE;
            case "BIT": return BIT;
            case "DECIMAL": return "string".equals(avroType) ? DECIMAL_STRING : DECIMAL_BYTES;
            case "TEXT": case "TiDBVECTORFloat32": return TEXT;
            case "BLOB": return BLOB;
            case "ENUM": return ENUM;
            case "SET": return SET;
            case "YEAR": return YEAR;
            default: return TEXTUAL;
        }
    }
}
