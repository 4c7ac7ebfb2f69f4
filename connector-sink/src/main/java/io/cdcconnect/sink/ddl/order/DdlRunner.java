package io.cdcconnect.sink.ddl.order;

import io.cdcconnect.sink.ddl.control.ControlStore;
import io.cdcconnect.sink.ddl.control.ReplayRules;
import io.cdcconnect.sink.ddl.DdlRejectedException;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.TableShapes;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.SourcePartition;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static io.cdcconnect.sink.config.SinkConfig.APPLY_DRAIN_TIMEOUT_MS;

/** Runs a DDL statement in its place: after every earlier row, then its position made durable ({@link DdlCheckpoint}). */
final class DdlRunner {
    private final SinkConfig config;
    private final SinkMetrics metrics;
    private final TableShapes shapes;
    private final DdlSequencer.Pipeline pipeline;
    private final DdlExecutor executor;
    private final ControlStore checkpoint;
    private final ReplayRules replays;

    DdlRunner(SinkConfig config, SinkMetrics metrics, TableShapes shapes, DdlSequencer.Pipeline pipeline,
              DdlExecutor executor, ControlStore checkpoint, ReplayRules replays) {
        this.replays = replays;
        this.config = config;
        this.metrics = metrics;
        this.shapes = shapes;
        this.pipeline = pipeline;
        this.executor = executor;
        this.checkpoint = checkpoint;
    }

    /**
     * Records that another task ran a statement (its sending is marked run): nothing runs here; the rows before it are
     * applied and how far every partition is applied is made durable, as after a run here.
     *
     * @param copies    partitions that delivered their own copy of the statement, and at which offset: those records
     *                  are done too
     * @param uncounted the producer did not count the statement's copies (TiCDC)
     */
    void ranByAnother(DdlChange ddl, SourcePartition partition, long offset, Map<SourcePartition, Long> copies,
                      boolean uncounted) {
        begin(ddl, partition, offset);
        finish(ddl, partition, offset, copies, null, uncounted, () -> { }, () -> { });
    }

    /**
     * Before a statement runs here: every earlier row, of every partition, is applied, and how far every partition is
     * applied is durable (so that a failure between the statement and its checkpoint never re-applies rows of the old
     * shape after it). On the task thread.
     */
    void begin(DdlChange ddl, SourcePartition partition, long offset) {
        drainBefore(partition, offset);
        checkpointApplied();
    }

    /** What running a statement came to (on the thread that ran it): run or skipped, or refused for what it says. */
    record Outcome(boolean applied, DdlRejectedException rejected) {
    }

    /**
     * Runs the statement, on the thread of {@link DdlRuns}: the target's refusal of what it says is its outcome; an
     * outage (after the executor's retries) throws.
     */
    Outcome execute(DdlChange ddl, String targetSchema, SourcePartition partition, long offset) throws SQLException {
        try {
            return new Outcome(executor.run(ddl, targetSchema, !targetSchema.equals(ddl.schema()),
                    partition + "@" + offset), null);
        } catch (DdlRejectedException e) {
            return new Outcome(false, e);
        }
    }

    /**
     * After a statement ran here ({@code outcome}) or by another task (null): on the task thread. A refusal goes, under
     * errors.tolerance=all, to the dead-letter queue with its record, and its place in the stream counts as passed (the
     * rows after it that no longer fit then follow the per-row rules); otherwise it fails the task. {@code ranHere}
     * records durably, first, that an uncounted statement ran for its copies; {@code ran} that a coordinated one ran (or
     * was refused and reported). Everything that says the statement ran (the table's last statement, {@code ran}) is
     * durable <em>before</em> the checkpoint past its copies: the checkpoint makes every later owner of those
     * partitions skip the copies, so a task that died between the checkpoint and the rest would leave a statement that
     * ran but that the store does not know ran. A claimant that died there left the other tasks waiting for a claim no
     * task could take over any more (the busy run's WorkerCrashTest, 2026-11-28); a task that died before the table's
     * statement was recorded left TiCDC's re-sent rows from before a DROP COLUMN failing as rows that do not fit
     * (CoreSimulationTest seed 124). The other way round, a task that dies after {@code ran} leaves copies that the
     * store says ran ({@link ControlStore#copyRan}), and one that dies before it leaves its claim to the new owner of
     * the claimed partition, which still receives its copy and runs the statement again (every partition still waits,
     * so nothing after it has been applied).
     *
     * @param copies partitions that delivered their own copy of the statement and still are the task's, and at which
     *               offset: those records are done too
     */
    void finish(DdlChange ddl, SourcePartition partition, long offset, Map<SourcePartition, Long> copies,
                Outcome outcome, boolean uncounted, Runnable ranHere, Runnable ran) {
        boolean run = outcome != null;
        String targetSchema = shapes.targetSchema(ddl.schema());
        try {
            if (run) {
                if (outcome.rejected() != null) {
                    io.cdcconnect.sink.apply.RejectedRows rejections = pipeline.rejections();
                    if (!rejections.tolerated()) {
                        throw new ApplyException(outcome.rejected().getMessage(), outcome.rejected());
                    }
                    rejections.report(partition, offset, "the target refused the DDL statement of the record at "
                            + partition.where(offset) + ": " + outcome.rejected().getMessage(), outcome.rejected());
                } else if (outcome.applied()) {
                    metrics.ddlApplied();
                }
                // first of all that says it ran (an uncounted statement's copies: nothing else identifies them)
                ranHere.run();
            }
            // run here or by another task: rows of its table committed before it are from before it
            if (!ddl.table().isEmpty()) {
                replays.ran(targetSchema + "." + ddl.table(), ddl.commitTs(), uncounted);
            }
            if (run) ran.run();
            // every record before it, of every partition, is committed downstream, and so is the DDL's own record:
            // make that durable before moving on, so a crash before Connect's next commit does not replay them
            // (last: once it is written, the copies are never seen again)
            Map<SourcePartition, Long> through = new HashMap<>(pipeline.appliedOffsets());
            // the statement's own record: the copies' (of partitions still this task's), or the one it came in
            if (copies.isEmpty()) through.merge(partition, offset, Math::max);
            copies.forEach((p, o) -> through.merge(p, o, Math::max));
            Set<SourcePartition> carriers = new HashSet<>(copies.keySet());
            if (copies.isEmpty()) carriers.add(partition);
            checkpoint.record(through, ddl.commitTs(), carriers);
        } finally {
            // run here or by another task, or failed part way: the workers' statements of its tables go
            evict(ddl);
        }
    }

    /** After a statement ran, failed or was run by another task: what the workers and the task know of it goes. */
    void evict(DdlChange ddl) {
        executor.evict(ddl, shapes.targetSchema(ddl.schema()));
        shapes.invalidateAll();
    }

    /**
     * A copy of a statement another task already ran (its sending ran after an earlier owner of this partition
     * handled the copy): nothing runs, but what this task knows of the statement's tables is stale. The rows before
     * the copy go first; then the workers' statements of those tables, the tables' definitions and their last
     * statement are forgotten, as when this task runs one (seed 12550 of CoreSimulationTest: a re-sent row from before
     * a DROP COLUMN that another task ran was then judged against the table as it was before).
     */
    void ranElsewhere(DdlChange ddl, SourcePartition partition, long offset) {
        drainBefore(partition, offset);
        String targetSchema = shapes.targetSchema(ddl.schema());
        if (!ddl.table().isEmpty()) replays.ranElsewhere(targetSchema + "." + ddl.table());
        executor.evict(ddl, targetSchema);
        shapes.invalidateAll();
    }

    /** Records durably how far every partition is committed downstream now (before a statement runs or is agreed). */
    void checkpointApplied() {
        Map<SourcePartition, Long> applied = pipeline.appliedOffsets();
        if (applied.isEmpty()) return;
        checkpoint.record(applied, 0, Set.of());
    }

    /** All earlier rows, of every partition, go first. */
    void drainBefore(SourcePartition partition, long offset) {
        if (!pipeline.drain(config.applyDrainTimeoutMs())) {
            throw new ApplyException("the DDL at " + partition + "@" + offset + " waited " + config.applyDrainTimeoutMs()
                    + " ms (" + APPLY_DRAIN_TIMEOUT_MS + ") for the rows before it to be applied: the target is not "
                    + "keeping up; raise " + APPLY_DRAIN_TIMEOUT_MS + " (below max.poll.interval.ms) or restart the "
                    + "task, which resumes from the committed offsets");
        }
    }
}
