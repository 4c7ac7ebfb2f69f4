package io.cdcconnect.source.convert;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;

import java.util.List;
import java.util.Locale;

/**
 * A column's SQL type as Debezium propagates it ({@code __debezium.source.column.type} such as "INT UNSIGNED",
 * "DECIMAL", "DATETIME", with length and scale beside it), turned into our {@link ColumnInfo}. Pure: no Connect types.
 */
public final class SourceColumnType {

    private SourceColumnType() {
    }

    /**
     * @param name     column name
     * @param typeName Debezium's source type name, e.g. "BIGINT UNSIGNED ZEROFILL"
     * @param length   declared length/precision/fsp, or -1 when absent
     * @param scale    declared scale, or -1
     * @param elements ENUM/SET elements (empty for other types)
     * @param nullable whether the column accepts NULL
     * @param key      whether the column is part of the primary key (Debezium's record key)
     */
    public static ColumnInfo column(String name, String typeName, int length, int scale, List<String> elements,
                                    boolean nullable, boolean key) {
        String upper = typeName.trim().toUpperCase(Locale.ROOT);
        boolean unsigned = upper.contains(" UNSIGNED");
        boolean zerofill = upper.contains(" ZEROFILL");
        String base = baseName(upper);
        MySqlType type = typeOf(base);
        int flags = 0;
        if (unsigned) flags |= ColumnFlags.UNSIGNED;
        if (nullable) flags |= ColumnFlags.NULLABLE;
        if (key) flags |= ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY;
        boolean binary = isBinary(base);
        if (binary) flags |= ColumnFlags.BINARY;
        int fsp = -1;
        if (type == MySqlType.TIME || type == MySqlType.DATETIME || type == MySqlType.TIMESTAMP) {
            // Debezium leaves the length out for fsp 0.
            fsp = length >= 0 && length <= 6 ? length : 0;
        }
        String charset = binary ? "binary" : null;
        String columnType = columnType(base.toLowerCase(Locale.ROOT), type, length, scale, fsp, elements, unsigned,
                zerofill);
        int declaredLength = type.isTemporal() ? -1 : length;
        return new ColumnInfo(name, type, flags, charset, declaredLength, scale, fsp, elements, columnType);
    }

    /** The type name without attributes: "BIGINT UNSIGNED ZEROFILL" → "BIGINT". */
    static String baseName(String upper) {
        String n = upper;
        int paren = n.indexOf('(');
        if (paren >= 0) n = n.substring(0, paren);
        n = n.replace(" UNSIGNED", "").replace(" ZEROFILL", "").trim();
        return n;
    }

    static MySqlType typeOf(String base) {
        switch (base) {
            // Names Debezium or MariaDB print that MySqlType.fromTypeName does not know.
            case "DOUBLE PRECISION": return MySqlType.DOUBLE;
            case "INT1": return MySqlType.TINY;
            case "INT2": return MySqlType.SHORT;
            case "INT3": case "MIDDLEINT": return MySqlType.INT24;
            case "INT4": return MySqlType.LONG;
            case "INT8": return MySqlType.LONGLONG;
            case "NCHAR": case "NATIONAL CHAR": case "CHARACTER": return MySqlType.STRING;
            case "NVARCHAR": case "NATIONAL VARCHAR": case "CHARACTER VARYING": return MySqlType.VARCHAR;
            case "LONG": case "LONG VARCHAR": return MySqlType.MEDIUM_BLOB;
            // MariaDB's own string-like types travel as text.
            case "INET4": case "INET6": case "UUID": return MySqlType.VARCHAR;
            default:
                try {
                    return MySqlType.fromTypeName(base);
                } catch (IllegalArgumentException e) {
                    return MySqlType.VARCHAR;
                }
        }
    }

    static boolean isBinary(String base) {
        switch (base) {
            case "BINARY": case "VARBINARY": case "TINYBLOB": case "BLOB": case "MEDIUMBLOB": case "LONGBLOB":
            case "GEOMETRY": case "POINT": case "LINESTRING": case "POLYGON": case "MULTIPOINT": case "MULTILINESTRING":
            case "MULTIPOLYGON": case "GEOMETRYCOLLECTION": case "GEOMCOLLECTION":
                return true;
            default:
                return false;
        }
    }

    /** The column type as MySQL prints it in information_schema.COLUMNS.COLUMN_TYPE, as near as the record tells. */
    static String columnType(String base, MySqlType type, int length, int scale, int fsp, List<String> elements,
                             boolean unsigned, boolean zerofill) {
        StringBuilder sb = new StringBuilder(base);
        switch (type) {
            case NEWDECIMAL:
            case DECIMAL:
                if (length > 0) sb.append('(').append(length).append(',').append(Math.max(scale, 0)).append(')');
                break;
            case ENUM:
            case SET:
                sb.append('(');
                for (int i = 0; i < elements.size(); i++) {
                    if (i > 0) sb.append(',');
                    sb.append('\'').append(elements.get(i).replace("'", "''")).append('\'');
                }
                sb.append(')');
                break;
            case TIME:
            case DATETIME:
            case TIMESTAMP:
                if (fsp > 0) sb.append('(').append(fsp).append(')');
                break;
            case TINY: case SHORT: case INT24: case LONG: case LONGLONG: case YEAR: case BIT:
            case STRING: case VARCHAR: case VAR_STRING:
                if (length > 0) sb.append('(').append(length).append(')');
                break;
            case FLOAT: case DOUBLE:
                if (length > 0 && scale >= 0) sb.append('(').append(length).append(',').append(scale).append(')');
                break;
            default:
                break;
        }
        if (unsigned) sb.append(" unsigned");
        if (zerofill) sb.append(" zerofill");
        return sb.toString();
    }
}
