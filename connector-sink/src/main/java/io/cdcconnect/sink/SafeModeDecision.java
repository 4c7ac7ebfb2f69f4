package io.cdcconnect.sink;

import io.cdcconnect.sink.ddl.control.ControlStore;
import io.cdcconnect.sink.dml.SafeMode;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.txn.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * Whether a transaction is written in safe mode (as upserts, harmless if its rows are already there): always, never,
 * or, with {@code auto}, while its records may already be in the target. That is decided by data
 * (docs/ordering.md, "what a replay is"): before a task writes records of a partition above the offset stored in
 * {@code written_through} ({@link ControlStore#writtenThrough}), it raises that offset durably, {@link #RESERVE}
 * offsets ahead. When a task is given the partition (a start, a restart, a rebalance), the records up to the stored
 * offset may have been written by the task before it, and Connect delivers again those it had not committed: they are
 * written in safe mode. The records above it never reached the target, and are written plainly.
 *
 * <p>A transaction whose every table is identified by one key alone (a primary key, or a NOT NULL unique key, and no
 * other unique key) is written in safe mode under {@code auto} whatever the stored offsets say: there a safe write
 * (delete by key, upsert of the full image) ends in the same rows as the plain one would, or as the plain one and its
 * re-plan would when the row is, or is not, already there; and it goes as one multi-row statement where plain updates
 * go one row each. The stored offsets decide for the rest: tables with more than one unique key, where safe mode
 * writes {@code REPLACE} (which deletes every row a new one clashes with), and tables without a key.
 *
 * <p>Without a store ({@code ddl.checkpoint.database} empty) nothing says what was written: {@code auto} writes every
 * row in safe mode. A row whose commit ts is unknown (0) is written in safe mode too. Replays the producer sends
 * (a source restart, a re-snapshot) come at offsets above it; their duplicate keys and missing rows are re-planned
 * in safe mode when applied ({@code MissingRowException}, the duplicate-key re-plan).
 */
final class SafeModeDecision {

    private static final Logger LOG = LoggerFactory.getLogger(SafeModeDecision.class);

    /** How far ahead of the records being written the stored offset is raised: one write per this many offsets. */
    static final long RESERVE = 10_000;

    private final SafeMode mode;
    private final ControlStore control;
    /** Per partition assigned: the stored offset when it was assigned (what earlier tasks may have written). */
    private final Map<SourcePartition, Long> writtenBefore = new HashMap<>();
    /** Per partition assigned: the offset this task raised the stored one to. */
    private final Map<SourcePartition, Long> reserved = new HashMap<>();

    SafeModeDecision(CdcSinkConfig config, ControlStore control) {
        // A format that cannot tell an update from an insert (Avro) makes every write an upsert
        this.mode = config.inputWireFormat().tellsUpdatesFromInserts() ? config.safeMode() : SafeMode.ALWAYS;
        this.control = control;
        if (config.originals().containsKey(CdcSinkConfig.SAFE_MODE_REPLAY_MARGIN_MS)) {
            LOG.warn("{} is no longer used: with safe.mode=auto, the records a task may already have written are told "
                    + "by the offsets stored in written_through, not by the clock (docs/ordering.md)",
                    CdcSinkConfig.SAFE_MODE_REPLAY_MARGIN_MS);
        }
        if (mode == SafeMode.AUTO && !control.enabled()) {
            LOG.info("safe.mode=auto without ddl.checkpoint.database: nothing records what was written, so every row "
                    + "is written in safe mode");
        }
    }

    SafeMode mode() {
        return mode;
    }

    /** A partition assigned or revoked: what earlier tasks may have written is read again. */
    void reset(SourcePartition partition) {
        writtenBefore.remove(partition);
        reserved.remove(partition);
    }

    /**
     * Whether {@code txn} is written in safe mode. Called on the task thread before the transaction goes to the
     * workers: under {@code auto}, the stored offset covers it durably before it can be written.
     *
     * @param upsertsExact whether every table of the transaction is identified by one key alone (see above)
     */
    boolean safe(Transaction txn, boolean upsertsExact) {
        return switch (mode) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> {
                if (!control.enabled()) yield true;
                SourcePartition p = txn.partition();
                Long before = writtenBefore.get(p);
                if (before == null) {
                    before = control.writtenThrough(p);
                    writtenBefore.put(p, before);
                    reserved.put(p, before);
                }
                long last = txn.lastOffset();
                if (last > reserved.get(p)) {
                    long next = last + RESERVE;
                    control.raiseWrittenThrough(p, next);
                    reserved.put(p, next);
                }
                yield upsertsExact || txn.commitTs() == 0 || txn.firstOffset() <= before;
            }
        };
    }
}
