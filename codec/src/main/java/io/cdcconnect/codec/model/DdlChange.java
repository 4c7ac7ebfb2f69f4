package io.cdcconnect.codec.model;

import java.util.Objects;

/**
 * A schema change.
 *
 * @param schema   database the statement runs in (may be empty for statements such as CREATE DATABASE)
 * @param table    table it changes, or empty
 * @param query    the statement text
 * @param kind     the Canal-JSON event type it maps to
 * @param commitTs TSO of the statement
 */
public record DdlChange(String schema, String table, String query, Kind kind, long commitTs) implements ChangeEvent {

    /** Canal-JSON's DDL event types. */
    public enum Kind { CREATE, RENAME, CINDEX, DINDEX, ALTER, ERASE, TRUNCATE, QUERY }

    public DdlChange {
        schema = schema == null ? "" : schema;
        table = table == null ? "" : table;
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(kind, "kind");
    }
}
