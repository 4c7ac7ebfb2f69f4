package io.cdcconnect.codec.open;

import io.cdcconnect.codec.model.DdlChange;

import java.util.Locale;

/**
 * TiDB's DDL {@code ActionType} numbers, which Open-protocol carries in a DDL value's {@code t}: derived from the
 * statement for our own DDL events (MySQL binlog has no action type), and mapped to Canal's kinds when decoding.
 */
public final class DdlActionType {

    public static final int CREATE_SCHEMA = 1;
    public static final int DROP_SCHEMA = 2;
    public static final int CREATE_TABLE = 3;
    public static final int DROP_TABLE = 4;
    public static final int ADD_COLUMN = 5;
    public static final int DROP_COLUMN = 6;
    public static final int ADD_INDEX = 7;
    public static final int DROP_INDEX = 8;
    public static final int TRUNCATE_TABLE = 11;
    public static final int MODIFY_COLUMN = 12;
    public static final int RENAME_TABLE = 14;
    public static final int CREATE_VIEW = 21;
    public static final int DROP_VIEW = 24;
    public static final int ADD_PRIMARY_KEY = 32;
    public static final int DROP_PRIMARY_KEY = 33;
    public static final int MODIFY_SCHEMA_CHARSET = 26;
    public static final int MULTI_SCHEMA_CHANGE = 61;

    private DdlActionType() {
    }

    /** The action type of a statement, from its leading keywords, falling back to the event's kind. */
    public static int of(DdlChange ddl) {
        String q = ddl.query().trim().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
        q = q.replaceAll("/\\*.*?\\*/ ?", "");
        if (q.startsWith("CREATE DATABASE") || q.startsWith("CREATE SCHEMA")) return CREATE_SCHEMA;
        if (q.startsWith("DROP DATABASE") || q.startsWith("DROP SCHEMA")) return DROP_SCHEMA;
        if (q.startsWith("ALTER DATABASE") || q.startsWith("ALTER SCHEMA")) return MODIFY_SCHEMA_CHARSET;
        if (q.matches("^CREATE (OR REPLACE )?(ALGORITHM ?= ?\\w+ )?(DEFINER ?= ?\\S+ )?(SQL SECURITY \\w+ )?VIEW.*")) {
            return CREATE_VIEW;
        }
        if (q.startsWith("DROP VIEW")) return DROP_VIEW;
        if (q.matches("^CREATE (TEMPORARY )?TABLE.*")) return CREATE_TABLE;
        if (q.matches("^CREATE (UNIQUE |FULLTEXT |SPATIAL )?INDEX.*")) return ADD_INDEX;
        if (q.startsWith("DROP INDEX")) return DROP_INDEX;
        if (q.matches("^DROP (TEMPORARY )?TABLE.*")) return DROP_TABLE;
        if (q.startsWith("TRUNCATE")) return TRUNCATE_TABLE;
        if (q.startsWith("RENAME TABLE")) return RENAME_TABLE;
        if (q.startsWith("ALTER TABLE")) {
            if (q.contains(",")) return MULTI_SCHEMA_CHANGE;
            if (q.contains(" RENAME TO ") || q.matches(".* RENAME (AS )?[^ ]+$") && !q.contains(" COLUMN ")
                    && !q.contains(" INDEX ") && !q.contains(" KEY ")) return RENAME_TABLE;
            if (q.contains(" ADD PRIMARY KEY")) return ADD_PRIMARY_KEY;
            if (q.contains(" DROP PRIMARY KEY")) return DROP_PRIMARY_KEY;
            if (q.matches(".* ADD (UNIQUE |FULLTEXT |SPATIAL )?(INDEX|KEY|CONSTRAINT).*")) return ADD_INDEX;
            if (q.matches(".* DROP (INDEX|KEY).*")) return DROP_INDEX;
            if (q.contains(" ADD ")) return ADD_COLUMN;
            if (q.contains(" DROP ")) return DROP_COLUMN;
            return MODIFY_COLUMN;
        }
        switch (ddl.kind()) {
            case CREATE: return CREATE_TABLE;
            case ERASE: return DROP_TABLE;
            case TRUNCATE: return TRUNCATE_TABLE;
            case RENAME: return RENAME_TABLE;
            case CINDEX: return ADD_INDEX;
            case DINDEX: return DROP_INDEX;
            case ALTER: return MODIFY_COLUMN;
            default: return 0;
        }
    }

    /** Canal's kind for an action type (TiCDC's {@code convertDdlEventType}). */
    public static DdlChange.Kind kind(int actionType) {
        switch (actionType) {
            case CREATE_TABLE: return DdlChange.Kind.CREATE;
            case RENAME_TABLE: case 47: return DdlChange.Kind.RENAME; // 47 RenameTables
            case ADD_INDEX: case 9: case ADD_PRIMARY_KEY: return DdlChange.Kind.CINDEX; // 9 AddForeignKey
            case DROP_INDEX: case 10: case DROP_PRIMARY_KEY: return DdlChange.Kind.DINDEX; // 10 DropForeignKey
            case ADD_COLUMN: case DROP_COLUMN: case MODIFY_COLUMN: case 13: case 15: case 17: case 18: case 19:
            case 20: case 22: case 23: case 41: case MULTI_SCHEMA_CHANGE: case 64: case 71: case 72: case 37: case 38:
                // rebase auto id, set default, table comment, rename index, add/drop partition, table charset,
                // truncate partition, index visibility, multi-schema change, reorganize partition,
                // (remove) partitioning, add/drop columns
                return DdlChange.Kind.ALTER;
            case DROP_TABLE: return DdlChange.Kind.ERASE;
            case TRUNCATE_TABLE: return DdlChange.Kind.TRUNCATE;
            default: return DdlChange.Kind.QUERY;
        }
    }
}
