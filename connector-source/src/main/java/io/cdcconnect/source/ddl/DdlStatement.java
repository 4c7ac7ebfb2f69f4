package io.cdcconnect.source.ddl;

import io.cdcconnect.codec.model.DdlChange;

import java.util.List;

/**
 * A statement to forward, with the tables it touches ({@link DdlTables}): its copies go to the topics of those tables,
 * or, when it names none, to the database's topics.
 *
 * @param change the statement, naming the first of its tables that is in the statement's database
 * @param tables the tables it touches, in the order it names them; empty for a statement about a database
 */
public record DdlStatement(DdlChange change, List<TableRef> tables) {
    public DdlStatement {
        tables = List.copyOf(tables);
    }

    /** Whether the statement concerns a database rather than tables. */
    public boolean databaseLevel() {
        return tables.isEmpty();
    }

    /**
     * The change as sent on the topic of {@code table}: naming that table when it is in the statement's database
     * (the model carries one database, the one the statement runs in), else naming no table.
     */
    public DdlChange on(TableRef table) {
        String name = table.schema().equals(change.schema()) ? table.table() : "";
        if (name.equals(change.table())) return change;
        return new DdlChange(change.schema(), name, change.query(), change.kind(), change.commitTs());
    }

    /** The table the statement names for {@code schema}: the first of {@code tables} in it, or none. */
    static String tableIn(String schema, List<TableRef> tables) {
        for (TableRef t : tables) {
            if (t.schema().equals(schema)) return t.table();
        }
        return "";
    }
}
