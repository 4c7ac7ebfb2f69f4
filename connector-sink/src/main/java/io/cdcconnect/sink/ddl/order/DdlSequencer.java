package io.cdcconnect.sink.ddl.order;

import io.cdcconnect.sink.ddl.control.ControlStore;
import io.cdcconnect.sink.ddl.control.DdlCoordinator;
import io.cdcconnect.sink.ddl.control.ReplayRules;
import io.cdcconnect.sink.ddl.DdlApplier;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.apply.TableShapes;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.PendingRecord;
import io.cdcconnect.sink.txn.SourcePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where DDL statements go among the rows: the one owner of the statements waiting, their copies, claims and runs.
 * A statement with copies on several partitions waits until no partition can still deliver a row from before it,
 * holding back the partitions that passed it; with copies on other tasks' partitions too, the tasks agree through the
 * {@link DdlCoordinator}. It then runs once every earlier row is applied ({@link DdlApplier}), beside the task thread,
 * its position is made durable ({@code DdlCheckpoint}), and the partitions that waited for it flow again. The
 * partitions' records wait in their {@link PartitionHolds}, which this holds and releases. Used from the task thread
 * only.
 *
 * <p>Only data says a partition has passed a statement (docs/ordering.md):
 * <ul>
 *     <li>it delivers its copy of the statement;</li>
 *     <li>the sink's store says the partition's copy was handled by an earlier owner;</li>
 *     <li>for a statement whose producer did not count its copies (TiCDC: no {@code cdc-connect.ddl.partitions}
 *     header), also an event whose TiCDC commit ts is after the statement's, or a watermark at or after it: TiCDC
 *     writes every row committed before a DDL to every partition before the DDL, and a watermark says every change up
 *     to it has been written. A statement with counted copies (cdc-connect's source) waits for its copies only.</li>
 * </ul>
 * Silence is not evidence: a partition that delivers nothing holds the statement, however long (the sink warns after
 * {@code ddl.barrier.timeout.ms}, and never runs the statement without its partitions). Several statements of one
 * topic may wait at once: a partition that lags is still at an earlier statement while another has reached a later
 * one (after a rebalance or a restart, each resumes from its own committed offset); each partition is at most at one
 * of them, and a statement is complete when every assigned partition of its topic passed it.
 */
public final class DdlSequencer {

    /**
     * What the sequencer asks of the pipeline it orders (the pipeline itself: no function-valued wires).
     */
    public interface Pipeline {
        /** Dispatches everything held and waits until it is applied; false when {@code timeoutMillis} passed first. */
        boolean drain(long timeoutMillis);

        /** Highest offset per partition through which every record is committed downstream. */
        Map<SourcePartition, Long> appliedOffsets();

        /**
         * Where the record of a statement the target refuses for its content goes ({@code DdlRejectedException}),
         * when errors.tolerance lets it.
         */
        io.cdcconnect.sink.apply.RejectedRows rejections();
    }

    private static final Logger LOG = LoggerFactory.getLogger(DdlSequencer.class);

    private final SinkConfig config;
    private final Pipeline pipeline;
    private final DdlRunner runner;
    private final ControlStore control;
    /** Whether the connector keeps a control store ({@code ddl.checkpoint.database} set): asked once. */
    private final boolean stored;
    private final ReplayRules replays;
    private final TableShapes shapes;
    private final PartitionHolds gates;
    /** The partitions assigned to the task (or seen in records, before any assignment was announced). */
    private final Set<SourcePartition> assigned = new java.util.HashSet<>();
    /**
     * Per topic, the statements waiting, by {@link HeldDdl#pendingKey}, in the order their first copy came: the one
     * record of them (each knows the partitions that passed it).
     */
    private final Map<String, java.util.LinkedHashMap<String, HeldDdl>> pending = new HashMap<>();
    /**
     * Per topic, the last statement released by the barrier, and the partitions that passed it without their copy
     * (their data showed it): that copy, when it comes, has run. A copy from any other partition is the statement sent
     * again (a source or changefeed restart), which runs again in its place.
     */
    private final Map<String, String> lastReleased = new HashMap<>();
    private final Map<String, Set<SourcePartition>> passedWithoutCopy = new HashMap<>();
    /** When the last warning about a statement waiting past ddl.barrier.timeout.ms was logged, per statement. */
    private final Map<String, Long> warnedAt = new HashMap<>();
    /** Topics whose uncounted statements were warned about. */
    private final Set<String> uncountedWarned = new java.util.HashSet<>();
    private final SinkMetrics metrics;
    /** Where statements run (beside the task thread). */
    private final DdlRuns runs;
    /** The statement running now, or null. */
    private Running running;
    /** Statements that ran here or elsewhere and were released, since the task started. */
    private long finished;

    /** @param gates where the partitions that passed a waiting statement are held */
    public DdlSequencer(SinkConfig config, SinkMetrics metrics, ControlStore control, DdlExecutor executor,
                        TableShapes shapes, PartitionHolds gates, Pipeline pipeline) {
        this.config = config;
        this.gates = gates;
        this.pipeline = pipeline;
        this.metrics = metrics;
        this.control = control;
        this.stored = control.enabled();
        this.replays = new ReplayRules(control);
        this.shapes = shapes;
        this.runner = new DdlRunner(config, metrics, shapes, pipeline, executor, control, replays);
        this.runs = executor.runs("cdc-sink-" + config.originalsStrings().getOrDefault("name", "sink") + "-"
                + config.originalsStrings().getOrDefault("task.id", "0") + "-ddl");
    }

    /** A partition assigned to the task: a DDL barrier waits for it. */
    public void assign(SourcePartition p) {
        assigned.add(p);
        replays.assigned();
    }

    /** A record arrived from {@code p}. */
    public void delivered(SourcePartition p) {
        assigned.add(p);
    }

    /** The identity of a statement: copies of it on several partitions share it. */
    public static String key(long commitTs, String schema, String query) {
        return commitTs + "\u0000" + schema + "\u0000" + query;
    }

    /**
     * How many statements were released here (run here or by another task) since the task started: the pipeline
     * dispatches no record after one in the same {@code put()}, so that records held behind it go only to a task that
     * still holds their partitions (Connect closes the partitions a consumer lost before the next {@code put()}).
     */
    public long statementsRun() {
        return finished;
    }

    /** Whether a statement waits on any topic. */
    public boolean waiting() {
        return !pending.isEmpty();
    }

    /** Whether a statement waits on {@code topic}. */
    public boolean isPending(String topic) {
        return pending.containsKey(topic);
    }

    /** The statements waiting and which partitions passed them, for a failure's message. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (String topic : pendingTopics()) {
            for (HeldDdl held : pending.get(topic).values()) {
                b.append("[").append(held.pendingKey.replace('\u0000', ' ')).append(": passed ").append(held.passed)
                        .append(", missing ").append(missing(held)).append("] ");
            }
        }
        return b.isEmpty() ? "none" : b.toString().trim();
    }

    /**
     * Topics with a statement waiting, sorted: the order statements of several topics are looked at is the same in
     * every run (a hash set's order changes from one JVM to the next, and the simulation replays a seed exactly).
     */
    private List<String> pendingTopics() {
        return new java.util.ArrayList<>(new java.util.TreeSet<>(pending.keySet()));
    }

    /** The statements waiting on {@code topic}, in the order their first copy came (a copy: the caller may change it). */
    private List<HeldDdl> pendingOf(String topic) {
        Map<String, HeldDdl> held = pending.get(topic);
        return held == null ? List.of() : new java.util.ArrayList<>(held.values());
    }

    /** Assigned partitions of the statement's topic that have not passed it. */
    private Set<SourcePartition> missing(HeldDdl held) {
        Set<SourcePartition> out = new java.util.LinkedHashSet<>();
        for (SourcePartition p : assigned) {
            if (p.topic().equals(held.topic) && !held.passed.containsKey(p)) out.add(p);
        }
        return out;
    }

    /**
     * The uncounted statements waiting on {@code p}'s topic that an event committed at {@code ts} shows {@code p} has
     * passed: committed before it (for a watermark, at or before it). Unknown times (0) show nothing; statements with
     * counted copies are passed by their copies only.
     */
    private List<HeldDdl> shownPassed(SourcePartition p, long ts, boolean watermark) {
        if (ts <= 0) return List.of();
        List<HeldDdl> out = new java.util.ArrayList<>();
        for (HeldDdl s : pending.getOrDefault(p.topic(), EMPTY).values()) {
            long commitTs = s.ddl.commitTs();
            if (s.copies > 0 || commitTs <= 0 || s.passed.containsKey(p)) continue;
            if (watermark ? ts >= commitTs : ts > commitTs) out.add(s);
        }
        return out;
    }

    private static final java.util.LinkedHashMap<String, HeldDdl> EMPTY = new java.util.LinkedHashMap<>();

    /** Every replay decision ({@link ReplayRules}). */
    public ReplayRules replays() {
        return replays;
    }

    /** The events of {@code e}'s partition show it passed statements waiting on its topic (uncounted: TiCDC). */
    public boolean passes(SourcePartition p, ChangeEvent e) {
        return !shownPassed(p, e.commitTs(), e instanceof Watermark).isEmpty();
    }

    /**
     * The partition passed waiting statements of its topic (shown by {@code e}): {@code rest} of the record at
     * {@code offset} ({@code bytes} of it), and every later record of the partition, waits for them.
     */
    public void holdPassed(SourcePartition p, ChangeEvent e, long offset, List<ChangeEvent> rest, long bytes,
                           int ddlCopies) {
        List<String> keys = new java.util.ArrayList<>();
        for (HeldDdl held : shownPassed(p, e.commitTs(), e instanceof Watermark)) {
            held.passed.putIfAbsent(p, -1L);
            keys.add(held.pendingKey);
        }
        gates.hold(p, keys, new PendingRecord(p, offset, List.copyOf(rest), bytes, ddlCopies));
        releaseAll(p.topic());
    }

    /**
     * A DDL statement of the record at {@code offset}: skipped, run at once, or waited for. True when the partition is
     * now held behind it, with {@code rest} of the record ({@code restBytes} of it) and every later record.
     *
     * @param ddlCopies partitions the producer sent it to ({@link DdlCoordinator#COPIES_HEADER}; 0: unknown)
     */
    public boolean onDdl(DdlChange ddl, SourcePartition partition, long offset, int ddlCopies, List<ChangeEvent> rest,
                         long restBytes) {
        String topic = partition.topic();
        if (LOG.isTraceEnabled()) LOG.trace("DDL copy at {}@{}: {} ({} copies)", partition, offset, ddl.query(), ddlCopies);
        if (ddlCopies > 1 && !stored && config.taskCount() > 1) {
            // without a store each task would run it once its own partitions passed it: a TRUNCATE a second time,
            // after rows written since (validation refuses this configuration; this is for one that bypassed it)
            throw new io.cdcconnect.sink.apply.ApplyException("The DDL at " + partition + "@" + offset + " ("
                    + DdlApplier.redact(ddl.query()) + ") was sent to " + ddlCopies + " partitions of " + topic
                    + ", and this connector has " + config.taskCount() + " tasks but no "
                    + SinkConfig.DDL_CHECKPOINT_DATABASE + " to agree which of them runs it: it would run once "
                    + "per task. Set " + SinkConfig.DDL_CHECKPOINT_DATABASE + " (e.g. cdc_connect), or tasks.max=1 "
                    + "(docs/ordering.md)");
        }
        String key = key(ddl.commitTs(), ddl.schema(), ddl.query());
        if (ddlCopies > 1 && stored && copyRan(topic, key, partition, offset)) {
            // an earlier owner of the partition handled this copy, and its sending ran: nothing left to do
            LOG.warn("The DDL at {} skipped: its sending ran before this task received the copy again (an earlier "
                    + "owner of the partition handled it); counted in replays-skipped-total", partition + "@" + offset);
            runner.ranElsewhere(ddl, partition, offset);
            metrics.replaySkipped();
            return false;
        }
        if (ddlCopies == 0 && stored && uncountedCopyRan(topic, key, partition, offset)) {
            // the late copy of an uncounted statement that ran once every partition had passed it (this partition
            // by its events after it): the store says so, after a restart too
            LOG.warn("Late copy of the DDL at {} skipped: it ran when every partition had passed it (this partition's "
                    + "events after it showed so); counted in replays-skipped-total", partition + "@" + offset);
            metrics.replaySkipped();
            return false;
        }
        if (key.equals(lastReleased.get(topic))) {
            Set<SourcePartition> late = passedWithoutCopy.get(topic);
            if (late != null && late.remove(partition)) {
                // a copy from a partition whose data had shown it passed the statement before its copy came: it ran
                LOG.warn("Late copy of the DDL at {} skipped: it ran when every partition had passed it (their "
                        + "events after it showed so); counted in replays-skipped-total", partition + "@" + offset);
                metrics.replaySkipped();
                return false;
            }
            // otherwise the producer sent the statement again after the rows before it: it runs again, in its place
        }
        // (a statement the producer sent only here, where every row of its table is, waits for nothing but a statement
        // running now: it is held like any other, and released at once)
        if (ddlCopies == 0 && !config.uncountedDdlRunsAcrossTasks()) {
            // no task can tell when the other tasks' partitions have passed it: stop rather than misplace rows
            throw new io.cdcconnect.sink.apply.ApplyException("The DDL at " + partition + "@" + offset + " ("
                    + ddl.query() + ") came without a count of the partitions it was sent to (a TiCDC changefeed, or "
                    + "a Debezium TRUNCATE), and this connector has " + config.taskCount() + " tasks: they cannot "
                    + "agree when every partition of " + topic + " has passed it, so it is not run. Read such topics "
                    + "with tasks.max=1, or set " + SinkConfig.DDL_UNCOUNTED_ACROSS_TASKS + "="
                    + SinkConfig.UNCOUNTED_RUN + " if each of them has one partition (docs/ordering.md)");
        }
        if (ddlCopies == 0 && uncountedWarned.add(topic)) {
            LOG.warn("The DDL at {} came without a count of its copies (a TiCDC changefeed): it waits until every "
                    + "partition of {} this task holds delivers its copy, or an event or watermark after it. Such "
                    + "statements cannot be agreed between tasks: run one task per topic. TiCDC's Canal-JSON sends a "
                    + "DDL to partition 0 only, so a row after it on another partition can arrive first: use a "
                    + "single-partition topic, or the open protocol or Avro (docs/ordering.md)", partition + "@"
                    + offset, topic);
        }
        // a sending coordinated through the store waits under its own key: a partition that lags may still be at an
        // earlier sending of the same statement while another is at a later one
        ControlStore.Sending sending = ddlCopies > 1 && stored ? sending(topic, key, partition, offset) : null;
        String pendingKey = HeldDdl.pendingKey(key, sending);
        // the first copy starts its wait (the time only dates the warning after ddl.barrier.timeout.ms)
        pending.computeIfAbsent(topic, t -> new java.util.LinkedHashMap<>())
                .computeIfAbsent(pendingKey, k -> new HeldDdl(ddl, key, partition, offset, ddlCopies, sending,
                        System.currentTimeMillis()))
                .passed.merge(partition, offset, Math::max);
        // the rest of this record, and every later record of the partition, waits for the statement
        gates.hold(partition, List.of(pendingKey), new PendingRecord(partition, offset, List.copyOf(rest), restBytes, 0));
        releaseAll(topic);
        return true;
    }

    private ControlStore.Sending sending(String topic, String key, SourcePartition partition, long offset) {
        try {
            return control.sending(topic, key, Map.of(partition, offset));
        } catch (java.sql.SQLException e) {
            throw new io.cdcconnect.sink.apply.ApplyException("cannot record the copy of the DDL at " + partition + "@"
                    + offset + " in " + config.ddlCheckpointDatabase() + ": " + e.getMessage(), e);
        }
    }

    /**
     * An uncounted statement ran: its copies, and the copies still to come of the partitions that passed it without
     * theirs, are known as run, after a restart too (the statement's identity, not its commit ts, tells them).
     */
    private void uncountedRan(HeldDdl held, String topic, Map<SourcePartition, Long> passed) {
        if (held.copies != 0 || !stored) return;
        try {
            control.uncountedRan(topic, held.key, passed);
        } catch (java.sql.SQLException e) {
            throw new io.cdcconnect.sink.apply.ApplyException("the DDL at " + held.partition + "@" + held.offset
                    + " ran, but that it ran could not be recorded in " + config.ddlCheckpointDatabase() + ": "
                    + e.getMessage(), e);
        }
    }

    private boolean uncountedCopyRan(String topic, String key, SourcePartition partition, long offset) {
        try {
            return control.uncountedCopyRan(topic, key, partition, offset);
        } catch (java.sql.SQLException e) {
            throw new io.cdcconnect.sink.apply.ApplyException("cannot read whether the DDL at " + partition + "@"
                    + offset + " ran from " + config.ddlCheckpointDatabase() + ": " + e.getMessage(), e);
        }
    }

    private boolean copyRan(String topic, String key, SourcePartition partition, long offset) {
        try {
            return control.copyRan(topic, key, partition, offset);
        } catch (java.sql.SQLException e) {
            throw new io.cdcconnect.sink.apply.ApplyException("cannot read whether the DDL at " + partition + "@" + offset
                    + " ran from " + config.ddlCheckpointDatabase() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Partition revoked: no statement waits for it any more (its gate goes with it). A statement this task held for it
     * is held for another of its partitions that passed it, a copy's first; with none left, it goes when released
     * (its partitions' new owners run it). A task never claims a statement for a partition it does not hold.
     */
    public void unassign(SourcePartition p) {
        assigned.remove(p);
        for (HeldDdl held : pending.getOrDefault(p.topic(), EMPTY).values()) {
            held.passed.remove(p);
            if (!held.partition.equals(p)) continue;
            Map.Entry<SourcePartition, Long> home = null;
            for (Map.Entry<SourcePartition, Long> e : held.passed.entrySet()) {
                if (home == null || home.getValue() < 0 && e.getValue() >= 0) home = e;
            }
            if (home != null) held.rehome(home.getKey(), home.getValue());
        }
    }

    /** Revoked partitions' rows are applied: their checkpoint is forgotten; a statement may have waited only for them. */
    public void forgotten(Collection<SourcePartition> partitions) {
        for (SourcePartition p : partitions) control.forget(p);
        for (String topic : pendingTopics()) releaseAll(topic);
    }

    /** Runs every waiting statement of the topic that every assigned partition has passed, until none is left. */
    private void releaseAll(String topic) {
        boolean progress = true;
        while (progress) {
            if (finishRunning()) continue;
            if (running != null) return; // one statement at a time
            progress = false;
            for (HeldDdl held : pendingOf(topic)) {
                if (running != null) return;
                if (!releasable(held)) continue;
                if (release(held)) {
                    progress = true;
                    break;
                }
            }
        }
    }

    /**
     * Whether every assigned partition passed the statement (by its copy, its data or the store), and, for an
     * uncounted statement, no statement committed before it still waits (their order is their TiCDC commit ts).
     */
    private boolean releasable(HeldDdl held) {
        // sent only to the partition that holds every row of its table: it passed it
        if (held.copies == 1) return true;
        if (!missing(held).isEmpty() && !passedByStore(held)) return false;
        if (held.copies > 0) return true;
        for (HeldDdl other : pending.get(held.topic).values()) {
            if (other != held && other.ddl.commitTs() < held.ddl.commitTs()) return false;
        }
        return true;
    }

    /**
     * For a statement coordinated through the store: the partitions of this task that have not delivered their copy
     * but whose arrival the store already holds for this sending passed it (an earlier owner handled their copy, and
     * the checkpoint now skips it). They are held from here on, as if their copy had come.
     *
     * @return whether every assigned partition of the topic has now passed the statement
     */
    private boolean passedByStore(HeldDdl held) {
        if (held.copies <= 1 || !stored) return false;
        Set<SourcePartition> missing = missing(held);
        if (missing.isEmpty()) return false;
        try {
            Set<Integer> stored = control.arrivals(held.topic, held.sending.id());
            for (SourcePartition p : missing) {
                if (!stored.contains(p.partition())) continue;
                held.passed.putIfAbsent(p, -1L);
                gates.hold(p, held.pendingKey);
            }
        } catch (java.sql.SQLException e) {
            throw new io.cdcconnect.sink.apply.ApplyException("cannot read which partitions passed the DDL at "
                    + held.partition + "@" + held.offset + " from " + config.ddlCheckpointDatabase() + ": "
                    + e.getMessage(), e);
        }
        return missing(held).isEmpty();
    }

    /** Runs (or learns another task ran) a statement every partition passed; false while other tasks' still wait. */
    private boolean release(HeldDdl held) {
        if (running != null) return false; // one statement at a time
        String topic = held.topic;
        String key = held.pendingKey;
        if (held.passed.isEmpty()) {
            // every partition that held it was revoked: its new owner runs the statement
            forget(held);
            return true;
        }
        Map<SourcePartition, Long> copies = new HashMap<>();
        held.passed.forEach((p, o) -> {
            if (o >= 0) copies.put(p, o);
        });
        boolean run = true;
        if (held.copies > 1 && stored) {
            // copies went to several partitions, which may be (or, after a rebalance, may have been) other tasks':
            // all of them must pass it, and one task runs it, once (ddl_run), whichever task holds them
            DdlCoordinator.State state = held.coordinate(topic, Set.copyOf(assigned), control, runner, config);
            if (state == DdlCoordinator.State.WAIT) return false;
            run = state == DdlCoordinator.State.RUN;
        }
        if (!run) {
            // another task ran it: what follows is done here, now
            runner.ranByAnother(held.ddl, held.partition, held.offset, copies, held.copies == 0);
            released(topic, key, held);
            return true;
        }
        // it runs beside the task thread: put() keeps returning and the consumer keeps polling while it runs, its
        // partitions paused; the rest is done on the task thread once it returned (finishRunning)
        runner.begin(held.ddl, held.partition, held.offset);
        String targetSchema = shapes.targetSchema(held.ddl.schema());
        running = new Running(topic, key, held, runs.submit(() -> runner.execute(held.ddl, targetSchema,
                held.partition, held.offset)));
        return false;
    }

    /** The statement running now, if any (one at a time), and where its outcome will be. */
    private record Running(String topic, String key, HeldDdl held,
                           java.util.concurrent.Future<DdlRunner.Outcome> outcome) {
    }

    /** Whether a statement runs now (beside the task thread). */
    public boolean running() {
        return running != null;
    }

    /**
     * When the statement running now has returned: what follows it is done here, on the task thread (the store told,
     * the checkpoint written past its copies, its partitions released in order). A failure fails the task here.
     *
     * @return whether one finished
     */
    private boolean finishRunning() {
        Running r = running;
        if (r == null || !r.outcome().isDone()) return false;
        return finish(r);
    }

    /**
     * Partitions are about to be revoked: a statement running now that any of them passed is waited for and finished
     * first, so that what follows it (the store told, the checkpoint past the copies) is done while the task still
     * holds them, as when statements ran on the task thread. Their new owner then skips their copies.
     */
    public void beforeRevoke(Collection<SourcePartition> partitions) {
        Running r = running;
        if (r == null) return;
        boolean theirs = false;
        for (SourcePartition p : partitions) theirs |= p.topic().equals(r.topic());
        if (!theirs) return;
        LOG.info("Partitions {} are revoked while the DDL at {}@{} runs: waiting for it to return first", partitions,
                r.held().partition, r.held().offset);
        finish(r);
    }

    private boolean finish(Running r) {
        running = null;
        DdlRunner.Outcome outcome;
        try {
            outcome = r.outcome().get();
        } catch (java.util.concurrent.ExecutionException e) {
            runner.evict(r.held().ddl);
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) throw re;
            throw new io.cdcconnect.sink.apply.ApplyException(String.valueOf(cause.getMessage()), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.cdcconnect.sink.apply.ApplyException("interrupted while the DDL at " + r.held().partition
                    + "@" + r.held().offset + " ran", e);
        }
        HeldDdl held = r.held();
        String topic = r.topic();
        // the partitions that passed it and still are this task's (some may have been revoked, or given back, since)
        Map<SourcePartition, Long> passed = new java.util.LinkedHashMap<>(held.passed);
        Map<SourcePartition, Long> copies = new HashMap<>();
        passed.forEach((p, o) -> {
            if (o >= 0) copies.put(p, o);
        });
        // a coordinated statement is marked run before the checkpoint that skips its copies (DdlRunner.finish)
        runner.finish(held.ddl, held.partition, held.offset, copies, outcome, held.copies == 0,
                () -> uncountedRan(held, topic, passed), () -> {
                    if (held.arrived) held.ran(topic, control);
                });
        released(topic, r.key(), held);
        return true;
    }

    /** The statement with {@code key} ran (here or elsewhere): its partitions flow again, in order. */
    private void released(String topic, String key, HeldDdl held) {
        forget(held);
        Map<SourcePartition, Long> passed = held.passed;
        lastReleased.put(topic, held.key);
        // (only an uncounted statement is passed on evidence before its copy: a counted one's partition passes without
        // its copy only when an earlier owner handled the copy, which the checkpoint skips now)
        Set<SourcePartition> withoutCopy = new java.util.HashSet<>();
        passed.forEach((p, o) -> {
            if (o < 0 && held.copies == 0) withoutCopy.add(p);
        });
        passedWithoutCopy.put(topic, withoutCopy);
        warnedAt.remove(topic + '\u0000' + key);
        finished++;
        // each partition flows again once it waits for no other statement: its records go on in their order
        for (SourcePartition p : passed.keySet()) gates.unhold(p, key);
    }

    /** The statement no longer waits. */
    private void forget(HeldDdl held) {
        Map<String, HeldDdl> waiting = pending.get(held.topic);
        if (waiting == null) return;
        waiting.remove(held.pendingKey);
        if (waiting.isEmpty()) pending.remove(held.topic);
    }

    /**
     * The task stops: {@code then} (releasing the run locks, closing the pool) runs once the statement running now,
     * if any, has returned on its own thread.
     */
    public void close(Runnable then) {
        runs.close(then);
    }

    /**
     * After a poll: statements waiting on other tasks are asked about again, and one that has waited past
     * {@code ddl.barrier.timeout.ms} for partitions that show nothing is reported (a warning each time the timeout
     * passes again). Nothing here runs a statement out of order: only data lets a partition pass it
     * (docs/ordering.md).
     *
     * @return whether a statement still waits on other tasks (the task asks Connect to call again soon)
     */
    public boolean checkBarriers() {
        long now = System.currentTimeMillis();
        finishRunning();
        boolean ask = false;
        for (String topic : pendingTopics()) {
            releaseAll(topic);
            for (HeldDdl held : pendingOf(topic)) {
                if (held.arrived || running != null) ask = true;
                String id = topic + '\u0000' + held.pendingKey;
                long since = Math.max(held.since, warnedAt.getOrDefault(id, 0L));
                if (now - since <= config.ddlBarrierTimeoutMs()) continue;
                warnedAt.put(id, now);
                metrics.ddlWaitTimeout();
                LOG.warn("The DDL at {} has waited more than {} ms ({}) for partitions {} of this task to pass it{}. It "
                                + "runs only once every partition has delivered its copy{}: a partition that delivers "
                                + "nothing holds it (docs/ordering.md)", held.partition + "@" + held.offset,
                        config.ddlBarrierTimeoutMs(), SinkConfig.DDL_BARRIER_TIMEOUT_MS, missing(held),
                        held.arrived ? ", or the other tasks to pass it" : "",
                        held.copies > 0 ? "" : " or a later event or watermark");
            }
        }
        return ask;
    }
}
