package io.cdcconnect.sink.ddl.control;

import io.cdcconnect.sink.txn.SourcePartition;

/**
 * Every decision that something arriving is a replay of what the target already has, in one place
 * (docs/ordering.md, "replays"), from the sink's stored state ({@link ControlStore}):
 * <ul>
 *     <li>a record at or below its partition's checkpoint was committed downstream before a DDL statement ran: it is
 *     skipped, whatever it holds;</li>
 *     <li>a row that no longer fits its table (a column or the table is gone), committed at or before the last
 *     statement that ran on that table, is from before that statement: a producer restart sent it again;</li>
 *     <li>for a table whose statements came without a count (TiCDC), a fitting row committed before the last
 *     statement on the table is a changefeed restart's re-send (TiCDC's commit ts orders a changefeed's events, and
 *     its own consumer drops re-sends the same way);</li>
 *     <li>a statement is never skipped for its commit ts, counted or not. A counted statement's sendings are told
 *     apart by the offsets of its copies ({@link ControlStore#sending}); an uncounted one that ran is known by its
 *     identity (commit ts, database and text all equal) and partition ({@link ControlStore#uncountedCopyRan}). Until
 *     2026-12-07 an uncounted statement committed at or before the last one that ran on its table was skipped
 *     silently, so ten ALTERs sharing a commit ts ran once, and one message with a large commit ts made every later
 *     statement of the table vanish.</li>
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
    public void ran(String targetTable, long commitTs, boolean uncounted) {
        control.recordTableDdl(targetTable, commitTs, uncounted);
        tables.remove(targetTable);
    }

    /**
     * Another task ran a statement on {@code targetTable} (this task skipped its copy, an earlier owner having handled
     * it): what this task read of the table is read from the store again.
     */
    public void ranElsewhere(String targetTable) {
        tables.remove(targetTable);
    }

    /** The offset through which a DDL statement left {@code partition} committed downstream, or -1. */
    public long checkpoint(SourcePartition partition) {
        return control.appliedThrough(partition);
    }

    /** Whether the record at {@code offset} was committed downstream before a DDL statement ran (the checkpoint). */
    public boolean applied(SourcePartition partition, long offset) {
        return offset <= control.appliedThrough(partition);
    }

    /**
     * Whether a row of {@code targetTable} committed at {@code commitTs} is a re-send of one the target had before the
     * last statement on its table ran. One that no longer fits the table is then written as that statement left it.
     * One that fits is a replay only on a table whose statements came without a count (TiCDC's): a changefeed that
     * restarts sends its rows and statements again from its checkpoint, its statements are then skipped by their
     * identity ({@link ControlStore#uncountedCopyRan}), and the rows before them must be too, or a row a re-sent
     * TRUNCATE had removed would come back (CoreSimulationTest seed 51). TiCDC's commit ts orders one changefeed's
     * events, and its own consumer drops re-sent rows the same way; every such row is counted and reported.
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
}
