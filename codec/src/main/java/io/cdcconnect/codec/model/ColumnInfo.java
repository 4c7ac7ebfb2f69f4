package io.cdcconnect.codec.model;

import java.util.List;
import java.util.Objects;

/**
 * One column's metadata.
 *
 * @param name       column name
 * @param type       MySQL type
 * @param flags      {@link ColumnFlags} bits (primary/unique key, nullable, unsigned, binary, ...)
 * @param charset    character set name ("utf8mb4", "binary"), or null when unknown
 * @param length     declared length or precision (VARCHAR(n), DECIMAL(p,s) precision, BIT(n)), -1 when unknown
 * @param scale      DECIMAL scale, -1 when unknown
 * @param fsp        fractional seconds precision of TIME/DATETIME/TIMESTAMP (0-6), -1 when unknown
 * @param elements   ENUM/SET elements in definition order, empty for other types or when unknown
 * @param columnType the full column type as MySQL prints it ("int(11) unsigned", "decimal(10,4)"), or null
 * @param uniqueKeyIds which unique keys (by index into the table's key list) this column belongs to; primary key is 0
 *                     when the table has one. Empty when the column is in no key.
 */
public record ColumnInfo(String name, MySqlType type, int flags, String charset, int length, int scale, int fsp,
                         List<String> elements, String columnType) {

    public ColumnInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        elements = elements == null ? List.of() : List.copyOf(elements);
    }

    public static ColumnInfo of(String name, MySqlType type, int flags) {
        return new ColumnInfo(name, type, flags, null, -1, -1, -1, List.of(), null);
    }

    public boolean primaryKey() {
        return ColumnFlags.has(flags, ColumnFlags.PRIMARY_KEY);
    }

    public boolean uniqueKey() {
        return ColumnFlags.has(flags, ColumnFlags.UNIQUE_KEY);
    }

    public boolean handleKey() {
        return ColumnFlags.has(flags, ColumnFlags.HANDLE_KEY);
    }

    public boolean nullable() {
        return ColumnFlags.has(flags, ColumnFlags.NULLABLE);
    }

    public boolean unsigned() {
        return ColumnFlags.has(flags, ColumnFlags.UNSIGNED);
    }

    /** True for binary strings (BINARY, VARBINARY, BLOB) whose values are {@code byte[]}. */
    public boolean binary() {
        return ColumnFlags.has(flags, ColumnFlags.BINARY);
    }

    public boolean generated() {
        return ColumnFlags.has(flags, ColumnFlags.GENERATED);
    }

    public ColumnInfo withFlags(int newFlags) {
        return new ColumnInfo(name, type, newFlags, charset, length, scale, fsp, elements, columnType);
    }
}
