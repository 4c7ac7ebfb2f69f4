package io.cdcconnect.sink.dialect.postgres.types;

import io.cdcconnect.codec.model.ColumnInfo;

import java.util.Locale;

/**
 * The documented type rules of the PostgreSQL target: which PostgreSQL type a MySQL column becomes, and what kind of
 * target a PostgreSQL column is.
 *
 * <h2>MySQL column type to PostgreSQL type ({@link #pgType(String)})</h2>
 * The input is the column type as MySQL prints it in DDL or in {@code ColumnInfo.columnType()} ("int(11) unsigned",
 * "decimal(10,4)", "enum('a','b')"); case, display widths and {@code ZEROFILL} are ignored.
 * <table>
 *   <caption>Type mapping</caption>
 *   <tr><th>MySQL</th><th>PostgreSQL</th></tr>
 *   <tr><td>TINYINT, TINYINT UNSIGNED, TINYINT(1), BOOL, BOOLEAN, SMALLINT</td><td>smallint</td></tr>
 *   <tr><td>SMALLINT UNSIGNED, MEDIUMINT [UNSIGNED], INT/INTEGER</td><td>integer</td></tr>
 *   <tr><td>INT UNSIGNED, BIGINT</td><td>bigint</td></tr>
 *   <tr><td>BIGINT UNSIGNED</td><td>numeric(20,0)</td></tr>
 *   <tr><td>DECIMAL(p,s) / DECIMAL(p) / DECIMAL (also NUMERIC, DEC, FIXED)</td>
 *       <td>numeric(p,s) / numeric(p,0) / numeric(10,0)</td></tr>
 *   <tr><td>FLOAT, FLOAT(p) with p &le; 24</td><td>real</td></tr>
 *   <tr><td>DOUBLE, DOUBLE PRECISION, REAL, FLOAT(p) with p &gt; 24</td><td>double precision</td></tr>
 *   <tr><td>DATE</td><td>date</td></tr>
 *   <tr><td>DATETIME(n) (DATETIME: n = 0)</td><td>timestamp(n) without time zone</td></tr>
 *   <tr><td>TIMESTAMP(n) (TIMESTAMP: n = 0)</td><td>timestamptz(n); values are written as text in the session
 *       time zone the sink sets</td></tr>
 *   <tr><td>TIME(n)</td><td>interval: PostgreSQL's time cannot hold MySQL's -838:59:59..838:59:59</td></tr>
 *   <tr><td>YEAR</td><td>smallint</td></tr>
 *   <tr><td>BIT(n) (BIT: n = 1)</td><td>bit(n)</td></tr>
 *   <tr><td>CHAR(n) (CHAR: n = 1), NCHAR(n)</td><td>char(n)</td></tr>
 *   <tr><td>VARCHAR(n), NVARCHAR(n)</td><td>varchar(n)</td></tr>
 *   <tr><td>CHAR(0), VARCHAR(0)</td><td>text (PostgreSQL has no zero-length character types)</td></tr>
 *   <tr><td>TINYTEXT, TEXT, MEDIUMTEXT, LONGTEXT, LONG VARCHAR</td><td>text</td></tr>
 *   <tr><td>BINARY, VARBINARY, TINYBLOB, BLOB, MEDIUMBLOB, LONGBLOB, GEOMETRY and the other spatial types</td>
 *       <td>bytea</td></tr>
 *   <tr><td>JSON</td><td>jsonb</td></tr>
 *   <tr><td>ENUM, SET</td><td>text (values are written as their element names)</td></tr>
 * </table>
 * Any other type is refused with an {@link IllegalArgumentException} naming it.
 *
 * <h2>PostgreSQL column type to target kind ({@link #kindOf(String)})</h2>
 * The input is a type name as {@code information_schema.columns.udt_name} ({@code int4}, {@code bpchar}) or
 * {@code data_type} ({@code integer}, {@code character varying}) give it, optionally with a modifier
 * ({@code bit(5)}, {@code varchar(20)}). A name that is not a built-in type PostgreSQL's catalog lists (including
 * {@code data_type}'s {@code USER-DEFINED}) is taken to be a user-defined enum type, which takes text input.
 */
public final class PostgresTypes {

    /** What a PostgreSQL column is, as far as writing a value into it is concerned. */
    public enum PgKind {
        INT2, INT4, INT8, NUMERIC, FLOAT4, FLOAT8, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ, TIME, TIMETZ, INTERVAL,
        BIT, VARBIT, CHAR, VARCHAR, TEXT, BYTEA, JSON, JSONB, UUID,
        /** A user-defined enum type (or any other type PostgreSQL parses from its text form). */
        ENUM;

        /** Integer and numeric kinds: they take decimal text. */
        public boolean numeric() {
            return this == INT2 || this == INT4 || this == INT8 || this == NUMERIC || this == FLOAT4
                    || this == FLOAT8;
        }

        /** Kinds that store any text as given: char, varchar, text, user enums. */
        public boolean textual() {
            return this == CHAR || this == VARCHAR || this == TEXT || this == ENUM;
        }

        /** Bit strings: bit, bit varying. */
        public boolean bits() {
            return this == BIT || this == VARBIT;
        }
    }

    private PostgresTypes() {
    }

    /**
     * The PostgreSQL type for a MySQL column type as MySQL prints it (see the class comment).
     *
     * @throws IllegalArgumentException naming the type when it has no mapping
     */
    public static String pgType(String mysqlColumnType) {
        if (mysqlColumnType == null || mysqlColumnType.isBlank()) {
            throw new IllegalArgumentException("no MySQL column type given");
        }
        String t = normalize(mysqlColumnType.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " "));
        int end = 0;
        while (end < t.length() && t.charAt(end) != '(' && t.charAt(end) != ' ') end++;
        String base = t.substring(0, end);
        String rest = t.substring(end).trim();
        int[] args = {};
        if (rest.startsWith("(")) {
            int close = closingParen(rest, 0);
            if (close < 0) throw unknown(mysqlColumnType);
            if (!base.equals("enum") && !base.equals("set")) {
                args = numbers(rest.substring(1, close), mysqlColumnType);
            }
            rest = rest.substring(close + 1).trim();
        }
        boolean unsigned = false;
        for (String word : rest.split("\\s+")) {
            if (word.equals("unsigned")) unsigned = true;
        }
        switch (base) {
            case "tinyint", "int1", "bool", "boolean":
                return "smallint";
            case "smallint", "int2":
                return unsigned ? "integer" : "smallint";
            case "mediumint", "int3", "middleint":
                return "integer";
            case "int", "integer", "int4":
                return unsigned ? "bigint" : "integer";
            case "bigint", "int8":
                return unsigned ? "numeric(20,0)" : "bigint";
            case "decimal", "numeric", "dec", "fixed": {
                int p = args.length > 0 ? args[0] : 10;
                int s = args.length > 1 ? args[1] : 0;
                return "numeric(" + p + "," + s + ")";
            }
            case "float":
                return args.length == 1 && args[0] > 24 ? "double precision" : "real";
            case "double", "real", "float8":
                return "double precision";
            case "float4":
                return "real";
            case "date":
                return "date";
            case "datetime":
                return "timestamp(" + fsp(args) + ") without time zone";
            case "timestamp":
                return "timestamptz(" + fsp(args) + ")";
            case "time":
                return "interval";
            case "year":
                return "smallint";
            case "bit":
                return "bit(" + (args.length > 0 ? Math.max(1, args[0]) : 1) + ")";
            case "char", "character", "nchar":
                if (args.length > 0 && args[0] == 0) return "text";
                return "char(" + (args.length > 0 ? args[0] : 1) + ")";
            case "varchar", "nvarchar", "varcharacter":
                if (args.length == 0 || args[0] == 0) return "text";
                return "varchar(" + args[0] + ")";
            case "tinytext", "text", "mediumtext", "longtext":
                return "text";
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob", "geometry", "point",
                 "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection",
                 "geomcollection":
                return "bytea";
            case "json":
                return "jsonb";
            case "enum", "set":
                return "text";
            default:
                throw unknown(mysqlColumnType);
        }
    }

    /**
     * The PostgreSQL type for a column of the change-event model: {@link #pgType(String)} of
     * {@code columnType()} when the producer gave it, else derived from the type byte, flags, length, scale and fsp
     * with the same rules (a VARCHAR of unknown length becomes text, a DECIMAL of unknown precision numeric).
     */
    public static String pgType(ColumnInfo c) {
        if (c.columnType() != null && !c.columnType().isBlank()) return pgType(c.columnType());
        boolean unsigned = c.unsigned();
        switch (c.type()) {
            case TINY: return "smallint";
            case SHORT: return unsigned ? "integer" : "smallint";
            case INT24: return "integer";
            case LONG: return unsigned ? "bigint" : "integer";
            case LONGLONG: return unsigned ? "numeric(20,0)" : "bigint";
            case FLOAT: return "real";
            case DOUBLE: return "double precision";
            case DECIMAL, NEWDECIMAL:
                return c.length() > 0 ? "numeric(" + c.length() + "," + Math.max(0, c.scale()) + ")" : "numeric";
            case DATE, NEWDATE: return "date";
            case DATETIME: return "timestamp(" + (c.fsp() >= 0 ? c.fsp() : 6) + ") without time zone";
            case TIMESTAMP: return "timestamptz(" + (c.fsp() >= 0 ? c.fsp() : 6) + ")";
            case TIME: return "interval";
            case YEAR: return "smallint";
            case BIT: return "bit(" + (c.length() > 0 ? c.length() : 64) + ")";
            case JSON: return "jsonb";
            case ENUM, SET: return "text";
            case GEOMETRY: return "bytea";
            case STRING:
                if (c.binary()) return "bytea";
                return c.length() > 0 ? "char(" + c.length() + ")" : "text";
            case VARCHAR, VAR_STRING:
                if (c.binary()) return "bytea";
                return c.length() > 0 ? "varchar(" + c.length() + ")" : "text";
            case TINY_BLOB, BLOB, MEDIUM_BLOB, LONG_BLOB:
                return c.binary() ? "bytea" : "text";
            default:
                throw new IllegalArgumentException("MySQL type " + c.type() + " of column `" + c.name()
                        + "` has no PostgreSQL type");
        }
    }

    /**
     * The kind of a PostgreSQL column from its type name ({@code udt_name} or {@code data_type}, optionally with a
     * modifier such as {@code bit(5)}); any name that is not a built-in type listed in {@link PgKind} is taken as a
     * user-defined enum type ({@link PgKind#ENUM}).
     */
    public static PgKind kindOf(String pgTypeName) {
        String n = pgTypeName == null ? "" : pgTypeName.trim().toLowerCase(Locale.ROOT);
        int paren = n.indexOf('(');
        if (paren >= 0) {
            int close = closingParen(n, paren);
            n = (n.substring(0, paren) + (close >= 0 ? n.substring(close + 1) : "")).trim();
        }
        if (n.startsWith("pg_catalog.")) n = n.substring("pg_catalog.".length());
        return switch (n) {
            case "int2", "smallint", "smallserial" -> PgKind.INT2;
            case "int4", "integer", "int", "serial" -> PgKind.INT4;
            case "int8", "bigint", "bigserial" -> PgKind.INT8;
            case "numeric", "decimal" -> PgKind.NUMERIC;
            case "float4", "real" -> PgKind.FLOAT4;
            case "float8", "double precision" -> PgKind.FLOAT8;
            case "bool", "boolean" -> PgKind.BOOL;
            case "date" -> PgKind.DATE;
            case "timestamp", "timestamp without time zone" -> PgKind.TIMESTAMP;
            case "timestamptz", "timestamp with time zone" -> PgKind.TIMESTAMPTZ;
            case "time", "time without time zone" -> PgKind.TIME;
            case "timetz", "time with time zone" -> PgKind.TIMETZ;
            case "interval" -> PgKind.INTERVAL;
            case "bit" -> PgKind.BIT;
            case "varbit", "bit varying" -> PgKind.VARBIT;
            case "bpchar", "char", "character" -> PgKind.CHAR;
            case "varchar", "character varying" -> PgKind.VARCHAR;
            case "text", "name", "citext" -> PgKind.TEXT;
            case "bytea" -> PgKind.BYTEA;
            case "json" -> PgKind.JSON;
            case "jsonb" -> PgKind.JSONB;
            case "uuid" -> PgKind.UUID;
            default -> PgKind.ENUM;
        };
    }

    /** The length modifier of a type name such as {@code bit(5)} or {@code varchar(20)}, or -1 when it has none. */
    public static int lengthOf(String pgTypeName) {
        if (pgTypeName == null) return -1;
        int open = pgTypeName.indexOf('(');
        if (open < 0) return -1;
        int close = closingParen(pgTypeName, open);
        if (close < 0) return -1;
        String inner = pgTypeName.substring(open + 1, close);
        int comma = inner.indexOf(',');
        if (comma >= 0) inner = inner.substring(0, comma);
        try {
            return Integer.parseInt(inner.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Multi-word spellings to the one-word name: DOUBLE PRECISION, CHARACTER VARYING, NATIONAL CHAR, LONG ... */
    private static String normalize(String t) {
        if (t.startsWith("national ")) t = t.substring("national ".length());
        if (t.startsWith("double precision")) return "double" + t.substring("double precision".length());
        if (t.startsWith("character varying")) return "varchar" + t.substring("character varying".length());
        if (t.startsWith("char varying")) return "varchar" + t.substring("char varying".length());
        if (t.startsWith("long varbinary")) return "mediumblob" + t.substring("long varbinary".length());
        if (t.startsWith("long varchar")) return "mediumtext" + t.substring("long varchar".length());
        if (t.equals("long")) return "mediumtext";
        return t;
    }

    private static int fsp(int[] args) {
        return args.length > 0 ? args[0] : 0;
    }

    private static int closingParen(String s, int open) {
        if (open < 0) return -1;
        int depth = 0;
        char quote = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    if (i + 1 < s.length() && s.charAt(i + 1) == quote) {
                        i++;
                    } else {
                        quote = 0;
                    }
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (--depth == 0) return i;
            }
        }
        return -1;
    }

    private static int[] numbers(String inner, String whole) {
        String[] parts = inner.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw unknown(whole);
            }
        }
        return out;
    }

    private static IllegalArgumentException unknown(String type) {
        return new IllegalArgumentException("MySQL column type '" + type + "' has no PostgreSQL type");
    }

    private static final int SHOWN = 40;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** {@code b} as a bytea literal's text, {@code \\x...}. */
    public static String hex(byte[] b) {
        char[] out = new char[2 + b.length * 2];
        out[0] = '\\';
        out[1] = 'x';
        for (int i = 0; i < b.length; i++) {
            out[2 + 2 * i] = HEX[(b[i] >> 4) & 0xf];
            out[3 + 2 * i] = HEX[b[i] & 0xf];
        }
        return new String(out);
    }

    /** A value for a message: quoted, cut to 40 characters, NUL shown. */
    public static String show(String s) {
        String cut = s.length() > SHOWN ? s.substring(0, SHOWN) + "..." : s;
        return "'" + cut.replace("\0", "\\0") + "'";
    }

    /** Bytes for a message: hex, cut to 20 bytes. */
    public static String show(byte[] b) {
        int n = Math.min(b.length, SHOWN / 2);
        StringBuilder sb = new StringBuilder("0x");
        for (int i = 0; i < n; i++) sb.append(HEX[(b[i] >> 4) & 0xf]).append(HEX[b[i] & 0xf]);
        if (n < b.length) sb.append("...");
        return sb.toString();
    }
}
