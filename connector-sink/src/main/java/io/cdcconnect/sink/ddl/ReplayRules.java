package io.cdcconnect.sink.ddl;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.txn.SourcePartition;

/**
 * Every decision that something arriving is a replay of what the target already has, in one place
 * (docs/ordering.md, "replays"), from the sink's stored state ({@link ControlStore}):
 * <ul>
 *     <li>a record at or below its partition's checkpoint was committed downstream before a DDL statement ran: it is
 *     skipped, whatever it holds;</li>
 *     <li>a row that no longer fits its table (a column or the table is gone), committed at or before the last
 *     statement that ran on that table, is from before that statement: a producer restart sent it again;</li>
 *     <li>for a table whose statements came without a count of their copies (TiCDC), whose commit ts orders a
 *     changefeed's events, a row committed before the last statement on its table, and a statement committed at or
 *     before it, are a changefeed restart's re-sends (TiCDC's own consumer drops them the same way);</li>
 *     <li>a statement with counted copies (cdc-connect's source) is never a replay by its commit ts: its sending is
 *     told apart by the offsets of its copies ({@link ControlStore#sending}), since MariaDB's commit times are
 *     seconds, two producers may share a topic and a clock may step back.</li>
 * </ul>
 * Safe mode makes every other re-applied row harmless; a duplicate key without it is re-planned in safe mode.
 */
public final class ReplayRules {

    private final ControlStore control;
    /** What the store says of each table, read once (this task records every statement it learns ran). */
    private final java.util.Map<String, ControlStore.TableDdl> tables = new java.util.HashMap<>();

    public ReplayRules(ControlStore control) {
        this.control = control;
    }

    private ControlStore.TableDdl table(String targetTable) {
        ControlStore.TableDdl t = tables.get(targetTable);
        if (t == null) {
            if (tables.size() >= 65_536) tables.clear();
            t = control.tableDdl(targetTable);
            tables.put(targetTable, t);
        }
        return t;
    }

    /**
     * Partitions were assigned: statements may have run on their tables by the task that held them before, so what
     * was read of the tables is read again.
     */
    public void assigned() {
        tables.clear();
    }

    /** A statement committed at {@code commitTs} ran on {@code targetTable} (here, or by another task). */
    void ran(String targetTable, long commitTs, boolean uncounted) {
        control.recordTableDdl(targetTable, commitTs, uncounted);
        tables.remove(targetTable);
    }

    /**
     * Another task ran a statement on {@code targetTable} (this task skipped its copy, an earlier owner having handled
     * it): what this task read of the table is read from the store again.
     */
    void ranElsewhere(String targetTable) {
        tables.remove(targetTable);
    }

    /** Whether the record at {@code offset} was committed downstream before a DDL statement ran (the checkpoint). */
    public boolean applied(SourcePartition partition, long offset) {
        return offset <= control.appliedThrough(partition);
    }

    /**
     * Whether a row of {@code targetTable} committed at {@code commitTs} is a re-send of one the target had before the
     * last statement on its table ran.
     *
     * @param fits whether the row fits the target table as it is now
     */
    public boolean rowReplayed(String targetTable, long commitTs, boolean fits) {
        if (commitTs <= 0) return false;
        ControlStore.TableDdl last = table(targetTable);
        if (last.commitTs() <= 0) return false;
        if (!fits) return commitTs <= last.commitTs();
        return last.uncounted() && commitTs < last.commitTs();
    }

    /** Whether an uncounted statement (TiCDC) on {@code targetTable} is a re-send of one that ran. */
    public boolean statementReplayed(DdlChange ddl, String targetTable, int ddlCopies) {
        if (ddlCopies > 0 || ddl.table().isEmpty() || ddl.commitTs() <= 0) return false;
        ControlStore.TableDdl last = table(targetTable);
        return last.uncounted() && ddl.commitTs() <= last.commitTs();
    }
}
