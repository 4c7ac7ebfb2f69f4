package io.cdcconnect.verify;

import java.util.List;

/** Every table's outcome, and the exit status the command gives for them. */
public record VerifyReport(String sourceServer, String targetServer, List<TableResult> tables, long millis) {

    public static final int EQUAL = 0;
    public static final int DIFFERENT = 1;
    public static final int ERROR = 2;

    public boolean equal() {
        return exitStatus() == EQUAL;
    }

    /** 2 when a table could not be compared, else 1 when one differs, else 0. */
    public int exitStatus() {
        if (tables.stream().anyMatch(t -> t.status() == TableResult.Status.ERROR)) return ERROR;
        if (tables.stream().anyMatch(t -> t.status() == TableResult.Status.DIFFERENT)) return DIFFERENT;
        return EQUAL;
    }

    public TableResult table(String sourceTable) {
        for (TableResult t : tables) {
            if (t.source().equals(sourceTable) || t.source().endsWith("." + sourceTable)) return t;
        }
        throw new IllegalArgumentException("no table " + sourceTable + " in " + tables.stream().map(TableResult::source).toList());
    }
}
