package io.cdcconnect.sink.dialect;

/**
 * Turns one value of the change-event model (see {@code io.cdcconnect.codec.model.RowChange} for the Java type of
 * each MySQL type) into what the target's dialect binds for one target column. Built once per column of a table
 * version by {@link SqlDialect#converter}, then applied to every row.
 */
@FunctionalInterface
public interface ValueConverter {

    /**
     * @param value a non-null model value
     * @throws IllegalArgumentException naming the column when the target cannot represent the value
     */
    Object convert(Object value);
}
