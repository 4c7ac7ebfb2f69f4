package io.cdcconnect.sink.ddl.control;

import io.cdcconnect.sink.offset.RecordFingerprints;
import io.cdcconnect.sink.txn.SourcePartition;

import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * The sink's own state, the one place that decides what is a replay and who runs a coordinated statement
 * (docs/ordering.md): per partition, the offset through which everything is committed downstream when a DDL statement
 * ran (the checkpoint), and per statement sent to several partitions, which partitions passed it, which task claimed
 * it and whether it ran. {@link JdbcControlStore} keeps it in the target ({@code ddl.checkpoint.database});
 * {@link InMemoryControlStore} keeps it in memory (the deterministic simulation of the core, and tests).
 *
 * <p>One instance per task; an implementation may cache what it read for the partitions the task holds, until
 * {@link #forget}.
 */
public interface ControlStore {

    /** Whether the store keeps anything (a JDBC store with an empty database name keeps nothing). */
    boolean enabled();

    /** The offset through which a DDL left {@code partition} committed downstream, or -1. */
    long appliedThrough(SourcePartition partition);

    /**
     * The records a checkpoint was written at: its offset, and the fingerprints ({@link RecordFingerprints#of}) of the
     * record there and the few before it. A topic recreated under the same name holds other records there, or none
     * (docs/ordering.md, "topic recreation").
     */
    record CheckpointRecord(long offset, RecordFingerprints.Window window) {
    }

    /**
     * The record at {@code partition}'s checkpoint, or null when none is known (no checkpoint, or one written by a
     * version that kept no fingerprint, or one capped since).
     */
    CheckpointRecord checkpointRecord(SourcePartition partition);

    /**
     * {@code partition}'s topic is not the one its checkpoint was written for (it was recreated, or moved). Durably:
     * the checkpoint goes, so no record of the partition is skipped for it any more; and the copies of statements the
     * partition delivered move below every offset of the new topic ({@link #COPIES_SHIFT}), so that a statement sent
     * again into the new topic is a later sending of it, as on every other partition of the topic.
     */
    void recreated(SourcePartition partition);

    /**
     * How far a recreated topic's partition moves its recorded copies down: below any offset a partition reaches
     * (2^40), and below those of each earlier incarnation, which move again.
     */
    long COPIES_SHIFT = 1L << 40;

    /**
     * Where the store finds the fingerprint of the record at an offset when it writes a checkpoint there (set once by
     * the pipeline, which takes the records in).
     */
    void fingerprints(RecordFingerprints fingerprints);

    /**
     * Records durably that every record through {@code offsets} (per partition) is committed downstream; a statement
     * with commit ts {@code ddlCommitTs} came from {@code ddlPartitions} (none: a checkpoint between statements).
     */
    void record(Map<SourcePartition, Long> offsets, long ddlCommitTs, Set<SourcePartition> ddlPartitions);

    /**
     * The last DDL statement that ran on a target table: its commit ts (0: none known), and whether its producer did
     * not count its copies (TiCDC, whose commit ts order the rows of a table; docs/ordering.md, "replays").
     */
    record TableDdl(long commitTs, boolean uncounted) {
        public static final TableDdl NONE = new TableDdl(0, false);
    }

    /** The last DDL statement that ran on {@code table} (the target's schema.table). */
    TableDdl tableDdl(String table);

    /** Records durably that a statement committed at {@code ddlCommitTs} ran on {@code table}. */
    void recordTableDdl(String table, long ddlCommitTs, boolean uncounted);

    /**
     * The offset above which no record of {@code partition} was written to the target, by any task of the connector,
     * or -1 (none known: nothing was). Read anew on every call.
     */
    long writtenThrough(SourcePartition partition);

    /**
     * Records durably, before records of {@code partition} up to {@code offset} are written to the target, that they
     * may be: {@link #writtenThrough} is at least {@code offset} from now on.
     */
    void raiseWrittenThrough(SourcePartition partition, long offset);

    /** Forgets what was read for a revoked partition (its next owner reads it again). */
    void forget(SourcePartition partition);

    /** Which sending of a statement a copy belongs to: its number (1 the first time), and its id in the tables. */
    record Sending(long number, String id) {
    }

    /**
     * The sending of a statement that this task's {@code copies} (partition to offset) belong to. The producer sends
     * a statement again after a restart (the rows and statements since its last committed position); every partition
     * receives each sending once, in its order, and every copy a task handles is recorded before the statement can
     * run. So a copy's number is one more than the copies of its partition recorded at lower offsets; a redelivered
     * copy finds its own. The id is the statement's for the first sending, a new one for each later sending.
     */
    Sending sending(String topic, String ddlKey, Map<SourcePartition, Long> copies) throws SQLException;

    /**
     * Whether the copy at {@code offset} of {@code partition} belongs to a sending of the statement that has already
     * run: a task handled the copy (it recorded the copy, and the statement ran) before this one received it again.
     */
    boolean copyRan(String topic, String ddlKey, SourcePartition partition, long offset) throws SQLException;

    /**
     * An uncounted statement (TiCDC's, Debezium's TRUNCATE) ran: {@code copies} are the copies it ran for, by
     * partition and offset, and -1 for a partition whose later events showed it had passed the statement before its
     * copy came. Those copies, when they come again or late (after a restart too), ran: {@link #uncountedCopyRan}.
     * Recorded right after the statement ran, before anything else says so.
     */
    void uncountedRan(String topic, String ddlKey, Map<SourcePartition, Long> copies) throws SQLException;

    /**
     * Whether the copy at {@code offset} of {@code partition} is one of an uncounted statement that ran
     * ({@link #uncountedRan}) for that partition: a copy it ran for, delivered again; the late copy of a partition
     * that passed it without; or the statement sent again (a changefeed restart, which TiCDC's own consumer drops the
     * same way). Each is recorded at its offset. Decided by the statement's identity (commit ts, database and text,
     * all equal) and its partition, never by comparing commit ts: a statement with another text or commit ts runs.
     */
    boolean uncountedCopyRan(String topic, String ddlKey, SourcePartition partition, long offset) throws SQLException;

    /** The partitions recorded as having passed a sending of a statement ({@code ddl_barrier}). */
    Set<Integer> arrivals(String topic, String ddlId) throws SQLException;

    /** Records that {@code partitions} passed the statement and everything before it is applied from them. */
    void arrive(String topic, String ddlId, Collection<SourcePartition> partitions) throws SQLException;

    /**
     * Where a sending of the statement with {@code ddlKey} stands. DONE when a task ran it: it is marked run, or the
     * claimed partition's checkpoint is at or past that partition's copy of the sending (the claimant ran it and wrote
     * its checkpoint but stopped before marking it run, which sink versions before 2026-11-29 could: it is then marked
     * run). RUN when this task must run it now: every copy arrived and this task claimed it, or it took over the claim
     * of a task that lost the claimed partition, still before its copy, to this one and whose run lock is free (its
     * session ended: it died, or stopped). RUN always comes with the sending's run lock, a server-side session lock
     * held until {@link #done}; a claimant that is alive holds it, however long its statement runs. WAIT otherwise.
     *
     * @param claimant the partition this task claims it for (its first copy here)
     */
    DdlCoordinator.State state(String topic, String ddlKey, Sending sending, int copies, Set<SourcePartition> assigned,
                               SourcePartition claimant) throws SQLException;

    /** Marks the statement run, and releases its run lock. */
    void done(String topic, String ddlId) throws SQLException;

    /**
     * The task stops (or, in the simulation, dies): the run locks it holds go, as they go with a dead task's
     * session, and a task that holds a claimed partition may take the claim over.
     */
    default void close() {
    }
}
