package io.cdcconnect.sink.ddl;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.TableInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * MySQL-syntax {@code CREATE TABLE} and {@code ALTER TABLE ... ADD COLUMN} text built from a message's column metadata
 * ({@code auto.create}, {@code auto.evolve}). The text then takes the path of the stream's own DDL (the target dialect
 * runs it, or translates it: PostgreSQL), so the type mapping per target stays in the dialect.
 *
 * <p>Everything here comes from a message: names are checked and quoted, and a type is written only from the model's
 * {@link io.cdcconnect.codec.model.MySqlType} and its numbers (length, scale, fsp, ENUM/SET elements as quoted
 * literals), never from free text such as {@link ColumnInfo#columnType()}. What a format does not carry is filled in
 * so that no value is cut: unknown VARCHAR length → TEXT (VARCHAR(255) in a key), unknown DECIMAL → DECIMAL(65,30),
 * unknown fractional seconds → 6, unknown BIT width → 64. ENUM and SET without their elements cannot be created.
 *
 * <p>Key columns (primary-key flags, else handle-key flags) are NOT NULL and form the PRIMARY KEY; a table whose
 * message names no key gets none. Every other column is NULL (Canal-JSON does not say; and a column added to a table
 * with rows must take NULL there). Generated columns are left out: the message does not carry their expression.
 */
public final class TableDefinition {

    /** MySQL's limit on identifier length (PostgreSQL's is 63 bytes; the dialect's server says so if it is hit). */
    static final int MAX_IDENTIFIER = 64;
    private static final int KEY_VARCHAR = 255;

    private TableDefinition() {
    }

    /**
     * {@code CREATE TABLE `table` (...) DEFAULT CHARSET=utf8mb4}, unqualified: it runs in the mapped target database.
     *
     * @throws IllegalArgumentException naming the table and column when the message cannot yield a valid table
     */
    public static String createTable(TableInfo t) {
        name(t.table(), "table name of " + t);
        List<ColumnInfo> key = keyColumns(t);
        List<String> defs = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            if (c.generated()) continue;
            defs.add(columnDefinition(t, c, key.contains(c)));
        }
        if (defs.isEmpty()) throw new IllegalArgumentException(t + " has no columns to create");
        if (!key.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (ColumnInfo c : key) names.add(quote(c.name()));
            defs.add("PRIMARY KEY (" + String.join(", ", names) + ")");
        }
        return "CREATE TABLE " + quote(t.table()) + " (" + String.join(", ", defs) + ") DEFAULT CHARSET=utf8mb4";
    }

    /**
     * {@code ALTER TABLE `table` ADD COLUMN ...} for one column, always NULL (rows already there take NULL). Never a
     * key: a key is never changed.
     */
    public static String addColumn(TableInfo t, ColumnInfo c) {
        name(t.table(), "table name of " + t);
        return "ALTER TABLE " + quote(t.table()) + " ADD COLUMN " + columnDefinition(t, c, false);
    }

    /** The columns of the key the table is created with: primary-key flags, else handle-key flags, else none. */
    static List<ColumnInfo> keyColumns(TableInfo t) {
        List<ColumnInfo> pk = new ArrayList<>();
        List<ColumnInfo> handle = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            if (c.generated()) continue;
            if (c.primaryKey()) pk.add(c);
            if (c.handleKey()) handle.add(c);
        }
        return pk.isEmpty() ? handle : pk;
    }

    private static String columnDefinition(TableInfo t, ColumnInfo c, boolean key) {
        name(c.name(), "column name of " + t);
        String type;
        try {
            type = columnType(c, key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("column " + quote(c.name()) + " of " + t + ": " + e.getMessage(), e);
        }
        return quote(c.name()) + ' ' + type + (key ? " NOT NULL" : " NULL");
    }

    /** The MySQL column type of {@code c}; {@code key}: the column is part of the primary key (no TEXT/BLOB there). */
    static String columnType(ColumnInfo c, boolean key) {
        boolean bin = c.binary() || "binary".equalsIgnoreCase(c.charset());
        String unsigned = c.unsigned() ? " UNSIGNED" : "";
        int len = c.length();
        return switch (c.type()) {
            case TINY -> "TINYINT" + unsigned;
            case SHORT -> "SMALLINT" + unsigned;
            case INT24 -> "MEDIUMINT" + unsigned;
            case LONG -> "INT" + unsigned;
            case LONGLONG -> "BIGINT" + unsigned;
            case FLOAT -> "FLOAT";
            case DOUBLE -> "DOUBLE";
            case DECIMAL, NEWDECIMAL -> decimal(len, c.scale());
            case DATE, NEWDATE -> "DATE";
            case TIME -> "TIME(" + fsp(c.fsp()) + ")";
            case DATETIME -> "DATETIME(" + fsp(c.fsp()) + ")";
            case TIMESTAMP -> "TIMESTAMP(" + fsp(c.fsp()) + ")";
            case YEAR -> "YEAR";
            case BIT -> "BIT(" + (len >= 1 && len <= 64 ? len : 64) + ")";
            case JSON -> "JSON";
            case ENUM -> elements("ENUM", c, 65_535);
            case SET -> elements("SET", c, 64);
            case STRING -> len >= 0 && len <= 255 ? (bin ? "BINARY(" : "CHAR(") + len + ")"
                    : (bin ? "VARBINARY(" : "VARCHAR(") + KEY_VARCHAR + ")";
            case VARCHAR, VAR_STRING -> varchar(bin, len, key);
            case TINY_BLOB -> key ? varchar(bin, 255, true) : bin ? "TINYBLOB" : "TINYTEXT";
            case BLOB -> key ? varchar(bin, len, true) : bin ? "BLOB" : "TEXT";
            case MEDIUM_BLOB -> key ? varchar(bin, len, true) : bin ? "MEDIUMBLOB" : "MEDIUMTEXT";
            case LONG_BLOB -> key ? varchar(bin, len, true) : bin ? "LONGBLOB" : "LONGTEXT";
            case GEOMETRY -> "GEOMETRY";
            case NULL -> throw new IllegalArgumentException("type NULL names no column type");
        };
    }

    private static String varchar(boolean bin, int len, boolean key) {
        if (key) return (bin ? "VARBINARY(" : "VARCHAR(") + (len >= 1 && len <= KEY_VARCHAR ? len : KEY_VARCHAR) + ")";
        if (len >= 1 && len <= 4096) return (bin ? "VARBINARY(" : "VARCHAR(") + len + ")";
        // unknown, or long enough that a few of them would pass MySQL's 65,535-byte row limit
        if (len < 0 || len <= 16_383) return bin ? "BLOB" : "TEXT";
        return bin ? "MEDIUMBLOB" : "MEDIUMTEXT";
    }

    private static String decimal(int precision, int scale) {
        if (precision < 1) return "DECIMAL(65,30)";
        if (precision > 65) throw new IllegalArgumentException("DECIMAL precision " + precision + " is above 65");
        int s = scale < 0 ? 0 : scale;
        if (s > 30 || s > precision) {
            throw new IllegalArgumentException("DECIMAL(" + precision + "," + scale + ") has no valid scale");
        }
        return "DECIMAL(" + precision + "," + s + ")";
    }

    private static int fsp(int fsp) {
        return fsp >= 0 && fsp <= 6 ? fsp : 6;
    }

    private static String elements(String type, ColumnInfo c, int max) {
        if (c.elements().isEmpty()) {
            throw new IllegalArgumentException(type + " without its elements (this format does not carry them: "
                    + "create the table by hand, or use a format that does, e.g. Canal-JSON with content-compatible)");
        }
        if (c.elements().size() > max) {
            throw new IllegalArgumentException(type + " with " + c.elements().size() + " elements (at most " + max
                    + ")");
        }
        List<String> quoted = new ArrayList<>(c.elements().size());
        for (String e : c.elements()) {
            for (int i = 0; i < e.length(); i++) {
                if (e.charAt(i) == 0) throw new IllegalArgumentException(type + " element with a NUL character");
            }
            // a string literal: the quote doubled, the backslash escaped (MySQL's default sql_mode reads escapes)
            quoted.add('\'' + e.replace("\\", "\\\\").replace("'", "''") + '\'');
        }
        return type + "(" + String.join(",", quoted) + ")";
    }

    /** Checks a name from a message: 1 to 64 characters, no control character, no trailing space (MySQL's rules). */
    static void name(String name, String what) {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException(what + " is empty");
        if (name.length() > MAX_IDENTIFIER) {
            throw new IllegalArgumentException(what + " is longer than " + MAX_IDENTIFIER + " characters");
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < 0x20 || name.charAt(i) == 0x7f) {
                throw new IllegalArgumentException(what + " contains a control character");
            }
        }
        if (name.endsWith(" ")) throw new IllegalArgumentException(what + " ends with a space");
    }

    /** MySQL's identifier quoting (the statement is MySQL text whatever the target: its dialect translates it). */
    static String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }
}
