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
 * @param checked  what a consumer made of {@code query} when it checked it (the sink's parsed statement, which then
 *                 travels with the change so that nothing after the check reads the text again); null as decoders
 *                 and the source make it
 */
public record DdlChange(String schema, String table, String query, Kind kind, long commitTs, Checked checked)
        implements ChangeEvent {

    /** Canal-JSON's DDL event types. */
    public enum Kind { CREATE, RENAME, CINDEX, DINDEX, ALTER, ERASE, TRUNCATE, QUERY }

    /** A statement as a consumer read and checked it; its type is the consumer's own. */
    public interface Checked {
    }

    public DdlChange {
        schema = schema == null ? "" : schema;
        table = table == null ? "" : table;
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(kind, "kind");
    }

    /** A change as decoded: not checked yet. */
    public DdlChange(String schema, String table, String query, Kind kind, long commitTs) {
        this(schema, table, query, kind, commitTs, null);
    }

    /** This change as {@code checked} says it: its text written from the checked statement. */
    public DdlChange checkedAs(String query, Checked checked) {
        return new DdlChange(schema, table, query, kind, commitTs, Objects.requireNonNull(checked, "checked"));
    }
}
