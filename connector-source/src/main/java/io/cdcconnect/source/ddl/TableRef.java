package io.cdcconnect.source.ddl;

import java.util.Objects;

/**
 * A table a DDL statement names: its database (the statement's own when the name is not qualified) and its name, both
 * unquoted.
 */
public record TableRef(String schema, String table) {
    public TableRef {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
