package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.TableInfo;

/**
 * Column default values for Avro schemas. The model carries no defaults, so a producer that knows them (from the
 * table definition) supplies them here; TiCDC writes a non-null default as the field's {@code default}, and a
 * nullable column with a non-null default as the union {@code [T, "null"]}.
 */
@FunctionalInterface
public interface ColumnDefaults {

    /** No column has a default (every nullable field is {@code ["null", T]} with default null). */
    ColumnDefaults NONE = (table, column) -> null;

    /** The column's default in the model's Java type, or null when it has none or its default is NULL. */
    Object defaultValue(TableInfo table, ColumnInfo column);
}
