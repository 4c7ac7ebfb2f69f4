package io.cdcconnect.sink;

import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.ApplyWorker;
import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.apply.DdlApplier;
import io.cdcconnect.sink.apply.DdlCheckpoint;
import io.cdcconnect.sink.apply.DdlCoordinator;
import io.cdcconnect.sink.apply.RejectedRows;
import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.dialect.ServerLimits;
import io.cdcconnect.sink.apply.ShapeResolver;
import io.cdcconnect.sink.apply.TransactionApplier;
import io.cdcconnect.sink.apply.WorkItem;
import io.cdcconnect.sink.apply.WorkerPool;
import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.dialect.Dialects;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dml.DmlBuilder;
import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.dml.SafeMode;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.offset.OffsetTracker;
import io.cdcconnect.sink.stmtcache.StatementCachePolicy;
import io.cdcconnect.sink.txn.DdlBarrier;
import io.cdcconnect.sink.txn.PartitionControl;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.txn.Transaction;
import io.cdcconnect.sink.txn.TransactionAssembler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import static io.cdcconnect.sink.CdcSinkConfig.APPLY_DRAIN_TIMEOUT_MS;

/**
 * The sink below Connect: decoded events in, rows committed downstream, applied offsets out.
 *
 * <p>events → {@link TransactionAssembler} → {@link ConflictDetector} (keys of every unique key, old and new image) →
 * {@link ApplyWorker}s (one pooled connection each) → commit → {@link OffsetTracker}. The calling thread (Connect's task
 * thread) dispatches and never waits for a dependency; it waits only when the byte buffer is full or a DDL statement
 * needs all earlier rows applied. Knows nothing of Connect types, so tests drive it with plain values.
 */
public final class SinkPipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SinkPipeline.class);
    /** How long a partition must have delivered nothing, while a DDL waits, to count as having nothing before it. */
    static final long IDLE_MILLIS = 2_000;
    /** ... and over how many polls at least. */
    static final int IDLE_POLLS = 3;

    private final CdcSinkConfig config;
    private final SinkMetrics metrics;
    private final HikariDataSource dataSource;
    private final Map<String, String> schemaMap;
    private final SafeMode safeMode;
    private final TransactionAssembler assembler;
    private final OffsetTracker tracker = new OffsetTracker();
    private final LinkedBlockingQueue<ConflictDetector.Node<WorkItem>> ready = new LinkedBlockingQueue<>();
    private final ConflictDetector<WorkItem> detector = new ConflictDetector<>(ready::add);
    private final DdlApplier ddlApplier;
    private final DdlCheckpoint ddlCheckpoint;
    private final DdlCoordinator coordinator;
    private final ShapeResolver shapes;
    private final AtomicLong buffered = new AtomicLong();
    private final Object bufferSignal = new Object();
    private WorkerPool workers;
    private final StatementCachePolicy cachePolicy;
    private final DmlBuilder builder;
    private final RetryPolicy retry;
    private final String serverVersion;
    private volatile RuntimeException failure;
    private volatile long safeUntilMillis;
    private String currentOrigin = "";
    private final DdlBarrier barrier = new DdlBarrier();
    private final Map<String, HeldDdl> heldDdls = new HashMap<>();
    private final Map<SourcePartition, ArrayDeque<Held>> stashed = new HashMap<>();
    /** When each partition last delivered a record while a DDL waited. */
    private final Map<SourcePartition, Long> lastDelivery = new HashMap<>();
    private int pollsWhileWaiting;
    /** Tables whose replayed rows of an older shape were reported once. */
    private final Set<String> replayWarned = new java.util.HashSet<>();
    /** Per topic, the last statement released by the barrier: a copy of it that comes later has run. */
    private final Map<String, String> lastReleased = new HashMap<>();
    private PartitionControl partitionControl = PartitionControl.NONE;
    private volatile RejectedRows rejectedRows = RejectedRows.NONE;
    private final ArrayDeque<Pending> backlog = new ArrayDeque<>();
    private boolean pausedForBuffer;
    private boolean draining;
    private long batchDeadline;

    /** A record taken from Connect and not yet processed. */
    private record Pending(SourcePartition partition, long offset, List<ChangeEvent> events, long bytes, int ddlCopies) {
    }

    /** A record (or the rest of one) held back behind a DDL barrier. */
    private record Held(long offset, List<ChangeEvent> events, long bytes, int ddlCopies) {
    }

    /** A DDL waiting for the other partitions to pass it, and where its first copy came from. */
    private static final class HeldDdl {
        final DdlChange ddl;
        final SourcePartition partition;
        final long offset;
        /** Partitions the producer sent the statement to (0: unknown). */
        final int copies;
        /** {@link DdlBarrier#key}: copies of the statement share it. */
        final String key;
        /** The key's id in the coordinator's tables. */
        final String id;
        /** Whether this task recorded its partitions' arrival with the coordinator. */
        boolean arrived;
        long lastAsked;
        long coordinatedSince;

        HeldDdl(DdlChange ddl, String key, SourcePartition partition, long offset, int copies) {
            this.ddl = ddl;
            this.key = key;
            this.partition = partition;
            this.offset = offset;
            this.copies = copies;
            this.id = DdlCoordinator.id(key);
        }
    }

    private SinkPipeline(CdcSinkConfig config, SinkMetrics metrics, HikariDataSource dataSource, SqlDialect dialect,
                         ServerLimits limits, String connector) {
        this.config = config;
        this.metrics = metrics;
        this.dataSource = dataSource;
        this.schemaMap = config.schemaMap();
        // A format that cannot tell an update from an insert (Avro) makes every write an upsert
        this.safeMode = config.inputWireFormat().tellsUpdatesFromInserts() ? config.safeMode() : SafeMode.ALWAYS;
        this.assembler = new TransactionAssembler(config.maxTxnRows(), this::dispatch);
        this.retry = RetryPolicy.fromSettings(config.retryMaxAttempts(), config.retryBackoffMs(), dialect::retryable);
        this.shapes = new ShapeResolver(dataSource, dialect, schemaMap, retry, metrics::retry);
        this.ddlApplier = new DdlApplier(dataSource, dialect, config.ddlUnsupportedSkip(), metrics::ddlUnsupported);
        this.ddlCheckpoint = new DdlCheckpoint(dataSource, dialect, config.ddlCheckpointDatabase(), connector, retry,
                metrics::retry);
        this.coordinator = new DdlCoordinator(dataSource, dialect, config.ddlCheckpointDatabase(), connector);
        this.serverVersion = limits.version();
        this.builder = new DmlBuilder(dialect, limits.maxAllowedPacket());
        int connections = config.workerCount() + 1;
        this.cachePolicy = StatementCachePolicy.of(config.statementCacheSize(), limits.maxPreparedStmtCount(), connections,
                config.taskCount(), metrics);
        LOG.info("Sink pipeline connected to {} (dialect {}, largest statement {} bytes, prepared statements allowed {}):"
                        + " {} workers, statement cache {} per connection, safe.mode={}", serverVersion, dialect.name(),
                limits.maxAllowedPacket(), limits.maxPreparedStmtCount() < 0 ? "unlimited" : limits.maxPreparedStmtCount(),
                config.workerCount(), cachePolicy.perConnectionLimit(), safeMode.configName());
    }

    /**
     * Connects with the dialect of the URL's family, reads the server's version and limits, and reconnects when the
     * server's own dialect needs other session settings (TiDB).
     */
    public static SinkPipeline start(CdcSinkConfig config, SinkMetrics metrics, String poolName, String connector) {
        HikariDataSource ds = null;
        try {
            SqlDialect dialect = Dialects.forUrl(config.connectionUrl());
            ds = pool(config, dialect, poolName);
            ServerLimits limits = readLimits(ds, dialect);
            SqlDialect refined = dialect.refine(config.dialect(), limits.version());
            if (!refined.sessionInitSql(config.timestampTimeZone()).equals(dialect.sessionInitSql(
                    config.timestampTimeZone()))) {
                ds.close();
                ds = pool(config, refined, poolName);
            }
            SinkPipeline p = new SinkPipeline(config, metrics, ds, refined, limits, connector);
            p.startWorkers(poolName);
            p.openWindow();
            return p;
        } catch (SQLException | RuntimeException e) {
            if (ds != null) ds.close();
            throw new ApplyException("cannot start the sink against " + DataSources.redact(config.connectionUrl())
                    + " as " + config.connectionUser() + ": " + e.getMessage(), e);
        }
    }

    private static HikariDataSource pool(CdcSinkConfig config, SqlDialect dialect, String poolName) {
        return DataSources.create(dialect, config.connectionUrl(), config.connectionUser(), config.connectionPassword(),
                config.workerCount() + 1, config.timestampTimeZone(), poolName, config.connectionSocketTimeoutMs());
    }

    /** The server's version and limits. */
    public static ServerLimits readLimits(javax.sql.DataSource ds, SqlDialect dialect) throws SQLException {
        try (java.sql.Connection c = ds.getConnection()) {
            ServerLimits limits = dialect.readLimits(c);
            if (!c.getAutoCommit()) c.commit();
            return limits;
        }
    }

    private void startWorkers(String name) {
        ApplyWorker.Completion completion = new ApplyWorker.Completion() {
            @Override
            public void applied(ConflictDetector.Node<WorkItem> node) {
                WorkItem item = node.payload();
                release(item.transaction().bytes());
                detector.done(node);
                // last: once the offset is visible, everything about the transaction is settled
                item.ticket().markDone();
            }

            @Override
            public void failed(ConflictDetector.Node<WorkItem> node, RuntimeException error) {
                fail(error);
            }
        };
        metrics.gauge(SinkMetrics.CACHE_SIZE, cachePolicy::openStatements);
        metrics.gauge(SinkMetrics.BUFFER_BYTES, buffered::get);
        metrics.gauge(SinkMetrics.TXN_IN_FLIGHT, detector::inFlight);
        workers = WorkerPool.start(name, new WorkerPool.Settings(config.workerCount(), config.maxTxnRows(), retry,
                        safeMode.configName()), dataSource, cachePolicy, new TransactionApplier(builder, metrics), ready,
                completion, metrics, new RejectedRows() {
                    @Override
                    public boolean tolerated() {
                        return rejectedRows.tolerated();
                    }

                    @Override
                    public void report(SourcePartition partition, long offset, String reason, Throwable cause) {
                        rejectedRows.report(partition, offset, reason, cause);
                    }
                });
    }

    /** The target database of a source database ({@code schema.map}). */
    public String targetSchema(String sourceSchema) {
        return shapes.targetSchema(sourceSchema);
    }

    /** Starts a replay window: rows committed at the source until now (plus the margin) may already be applied. */
    public void openWindow() {
        safeUntilMillis = System.currentTimeMillis() + config.safeModeReplayMarginMs();
    }

    /**
     * Takes the events decoded from one record.
     *
     * @param bytes the record's size, held against buffer.max.bytes until its rows are committed
     */
    public void accept(SourcePartition partition, long offset, List<ChangeEvent> events, long bytes) {
        accept(partition, offset, events, bytes, 0);
    }

    /**
     * As {@link #accept(SourcePartition, long, List, long)}, for a record whose producer says it sent its DDL statement
     * to {@code ddlCopies} partitions of the topic ({@link DdlCoordinator#COPIES_HEADER}; 0 when it does not say).
     */
    public void accept(SourcePartition partition, long offset, List<ChangeEvent> events, long bytes, int ddlCopies) {
        checkFailure();
        if (!barrier.isAssigned(partition)) barrier.assign(partition);
        if (!barrier.pendingTopics().isEmpty()) lastDelivery.put(partition, System.currentTimeMillis());
        backlog.addLast(new Pending(partition, offset, events, bytes, ddlCopies));
        drainBacklog();
    }

    /** Starts one {@code put()}: from now on it may wait up to {@code buffer.max.wait.ms} for buffer room. */
    public void beginBatch() {
        batchDeadline = System.currentTimeMillis() + config.bufferMaxWaitMs();
    }

    /**
     * Processes waiting records in arrival order while the buffer has room. When it has none for the next record
     * within the batch's wait, every partition is paused and the rest waits here, to be taken by a later
     * {@code put()}: {@code put()} never blocks past its wait, and memory stays bounded by one poll's worth of records.
     */
    public void drainBacklog() {
        if (draining) return;
        draining = true;
        try {
            while (!backlog.isEmpty()) {
                checkFailure();
                Pending head = backlog.peekFirst();
                if (!stashed.containsKey(head.partition()) && rowCount(head.events()) > 0
                        && !hasBufferRoom(head.bytes(), batchDeadline - System.currentTimeMillis())) {
                    pauseForBuffer();
                    return;
                }
                backlog.pollFirst();
                route(head);
            }
            if (pausedForBuffer) resumeAfterBuffer();
        } finally {
            draining = false;
        }
    }


    private void route(Pending r) {
        ArrayDeque<Held> held = stashed.get(r.partition());
        if (held != null) {
            // behind a DDL barrier (records fetched before the partition was paused)
            held.add(new Held(r.offset(), r.events(), r.bytes(), r.ddlCopies()));
            return;
        }
        process(r.partition(), r.offset(), r.events(), r.bytes(), r.ddlCopies());
    }

    private static int rowCount(List<ChangeEvent> events) {
        int rows = 0;
        for (ChangeEvent e : events) {
            if (e instanceof RowChange) rows++;
        }
        return rows;
    }

    private void process(SourcePartition partition, long offset, List<ChangeEvent> events, long bytes, int ddlCopies) {
        currentOrigin = partition + "@" + offset;
        if (offset <= ddlCheckpoint.appliedThrough(partition)) {
            // committed downstream before a DDL ran (the checkpoint says so); Connect had not committed it yet (an
            // empty rest of the DDL's own record, held behind it, only completes the record's offset)
            if (!events.isEmpty()) metrics.replaySkipped();
            assembler.endRecord(partition, offset);
            return;
        }
        int rows = rowCount(events);
        long perRow = rows == 0 ? 0 : Math.max(1, bytes / rows);
        String topic = partition.topic();
        boolean waiting = barrier.isPending(topic);
        for (int i = 0; i < events.size(); i++) {
            ChangeEvent e = events.get(i);
            if (waiting && barrier.showsPassed(partition, e.commitTs(), e instanceof Watermark)) {
                // committed after the statement waiting on the topic: this and what follows wait for it
                barrier.passed(partition);
                hold(partition, offset, events.subList(i, events.size()), rowsIn(events, i) * perRow, ddlCopies);
                releaseIfComplete(topic);
                return;
            }
            if (e instanceof RowChange row) {
                buffered.addAndGet(perRow);
                assembler.addRow(partition, offset, row, perRow);
            } else if (e instanceof DdlChange ddl) {
                String key = DdlBarrier.key(ddl.commitTs(), ddl.schema(), ddl.query());
                if (key.equals(lastReleased.get(topic))) {
                    // a copy from a partition that had passed the statement before its copy came: it ran
                    LOG.debug("Late copy of the DDL at {} skipped: it ran when every partition had passed it",
                            currentOrigin);
                    continue;
                }
                if (ddlCopies == 1 && !barrier.isPendingStatement(topic, key)) {
                    // the producer sent it only here, where every row of its table is: nothing to wait for
                    applyDdl(ddl, partition, offset, Map.of());
                    continue;
                }
                if (barrier.arrive(partition, key, ddl.commitTs(), offset, System.currentTimeMillis())) {
                    // the rest of this record, and every later record of the partition, waits for the statement
                    hold(partition, offset, events.subList(i + 1, events.size()), rowsIn(events, i + 1) * perRow, 0);
                    heldDdls.putIfAbsent(topic, new HeldDdl(ddl, key, partition, offset, ddlCopies));
                    releaseIfComplete(topic);
                    return;
                }
                LOG.debug("DDL at {} while another of {} waits for its partitions: run at once", currentOrigin, topic);
                applyDdl(ddl, partition, offset, Map.of());
            } else if (e instanceof Watermark) {
                // every change at or below the watermark has arrived on this partition
                assembler.close(partition);
            }
        }
        assembler.endRecord(partition, offset);
    }

    private static int rowsIn(List<ChangeEvent> events, int from) {
        return rowCount(events.subList(from, events.size()));
    }

    /** Holds a partition behind its topic's waiting DDL: {@code rest} of the record at {@code offset} goes first. */
    private void hold(SourcePartition partition, long offset, List<ChangeEvent> rest, long bytes, int ddlCopies) {
        ArrayDeque<Held> q = new ArrayDeque<>();
        q.add(new Held(offset, List.copyOf(rest), bytes, ddlCopies));
        stashed.put(partition, q);
        partitionControl.pause(partition);
    }

    /** Holds a partition that passed its topic's waiting DDL without delivering anything. */
    private void holdEmpty(SourcePartition partition) {
        stashed.put(partition, new ArrayDeque<>());
        partitionControl.pause(partition);
    }

    /** Runs a topic's held DDL once every assigned partition has passed it, then replays what it held back. */
    private void releaseIfComplete(String topic) {
        if (!barrier.complete(topic)) return;
        release(topic);
    }

    private void release(String topic) {
        HeldDdl held = heldDdls.get(topic);
        Map<SourcePartition, Long> passed = barrier.passed(topic);
        // every partition that held it was revoked: its new owner runs the statement
        if (held == null || passed.isEmpty()) {
            heldDdls.remove(topic);
            for (SourcePartition p : barrier.release(topic).keySet()) resumeHeld(p, new java.util.ArrayList<>());
            return;
        }
        Map<SourcePartition, Long> copies = new HashMap<>();
        passed.forEach((p, o) -> {
            if (o >= 0) copies.put(p, o);
        });
        boolean run = true;
        if (held.copies > passed.size() && coordinator.enabled()) {
            // copies went to partitions of other tasks too: all of them must pass it, and one task runs it
            DdlCoordinator.State state = coordinate(topic, held);
            if (state == DdlCoordinator.State.WAIT) return;
            run = state == DdlCoordinator.State.RUN;
        }
        heldDdls.remove(topic);
        barrier.release(topic);
        lastReleased.put(topic, held.key);
        applyDdl(held.ddl, held.partition, held.offset, copies, run);
        if (run && held.arrived) {
            try {
                coordinator.done(topic, held.id);
            } catch (SQLException e) {
                throw new ApplyException("the DDL at " + held.partition + "@" + held.offset + " ran, but the other "
                        + "tasks could not be told: " + builder.dialect().describe(e), e);
            }
        }
        // what each partition held goes first, ahead of its records still waiting in the backlog
        List<Pending> replay = new java.util.ArrayList<>();
        for (SourcePartition p : passed.keySet()) resumeHeld(p, replay);
        for (int i = replay.size() - 1; i >= 0; i--) backlog.addFirst(replay.get(i));
    }

    /**
     * Where a statement with copies on other tasks' partitions stands: this task's rows before it are applied and its
     * arrival recorded first; then the coordinator is asked at most every 500 ms. Past {@code ddl.barrier.timeout.ms}
     * the task runs it itself, with a warning.
     */
    private DdlCoordinator.State coordinate(String topic, HeldDdl held) {
        long now = System.currentTimeMillis();
        try {
            if (!held.arrived) {
                drainBeforeDdl(held.partition, held.offset);
                // every partition that passed it, by its copy or otherwise: none has anything before it (a partition
                // that passed it otherwise would never be counted, and every task would wait for good)
                coordinator.arrive(topic, held.id, barrier.passed(topic).keySet());
                held.arrived = true;
                held.coordinatedSince = now;
                LOG.info("The DDL at {}@{} reached {} of its {} partitions on this task; waiting for the other tasks'",
                        held.partition, held.offset, barrier.passed(topic).size(), held.copies);
            } else if (now - held.lastAsked < 500) {
                return DdlCoordinator.State.WAIT;
            }
            held.lastAsked = now;
            DdlCoordinator.State state = coordinator.state(topic, held.id, held.copies, barrier.assignedPartitions(),
                    held.partition);
            if (state == DdlCoordinator.State.WAIT && now - held.coordinatedSince > config.ddlBarrierTimeoutMs()) {
                LOG.warn("The DDL at {}@{} waited {} ms ({}) for the other tasks' partitions: running it now",
                        held.partition, held.offset, config.ddlBarrierTimeoutMs(), CdcSinkConfig.DDL_BARRIER_TIMEOUT_MS);
                return DdlCoordinator.State.RUN;
            }
            return state;
        } catch (SQLException e) {
            throw new ApplyException("cannot coordinate the DDL at " + held.partition + "@" + held.offset
                    + " with the other tasks through " + config.ddlCheckpointDatabase() + ": " + builder.dialect().describe(e), e);
        }
    }

    private void resumeHeld(SourcePartition p, List<Pending> replay) {
        ArrayDeque<Held> q = stashed.remove(p);
        if (!pausedForBuffer) partitionControl.resume(p);
        if (q == null) return;
        for (Held h : q) replay.add(new Pending(p, h.offset(), h.events(), h.bytes(), h.ddlCopies()));
    }

    /**
     * After a poll: a partition that delivered nothing for {@link #IDLE_MILLIS} while a DDL waited, over at least
     * {@link #IDLE_POLLS} polls, has nothing from before the DDL (the consumer fetches from every partition it is not
     * told to pause, in turn, and waits up to its fetch wait for data); a DDL that waited past
     * {@code ddl.barrier.timeout.ms} runs with a warning.
     */
    private void checkBarriers() {
        long now = System.currentTimeMillis();
        pollsWhileWaiting++;
        for (String topic : barrier.pendingTopics()) {
            if (pollsWhileWaiting >= IDLE_POLLS && !pausedForBuffer) {
                long since = barrier.waitingSince(topic);
                for (SourcePartition p : barrier.missing(topic)) {
                    if (now - Math.max(since, lastDelivery.getOrDefault(p, 0L)) < IDLE_MILLIS) continue;
                    barrier.passed(p);
                    holdEmpty(p);
                }
            }
            if (!barrier.complete(topic) && now - barrier.waitingSince(topic) > config.ddlBarrierTimeoutMs()) {
                Set<SourcePartition> missing = barrier.missing(topic);
                HeldDdl held = heldDdls.get(topic);
                LOG.warn("The DDL at {} waited {} ms ({}) for partitions {} to pass it: running it now. Rows from "
                                + "before it that those partitions still deliver meet the new table", held == null ? topic
                                : held.partition + "@" + held.offset, config.ddlBarrierTimeoutMs(),
                        CdcSinkConfig.DDL_BARRIER_TIMEOUT_MS, missing);
                for (SourcePartition p : missing) {
                    barrier.passed(p);
                    if (!stashed.containsKey(p)) holdEmpty(p);
                }
            }
            releaseIfComplete(topic);
        }
        if (barrier.pendingTopics().isEmpty()) {
            lastDelivery.clear();
            pollsWhileWaiting = 0;
        }
    }

    /** Where rows the target rejects for their data go (the dead-letter queue); by default they fail the task. */
    public void setRejectedRows(RejectedRows rows) {
        this.rejectedRows = rows == null ? RejectedRows.NONE : rows;
    }

    public void setPartitionControl(PartitionControl control) {
        this.partitionControl = control == null ? PartitionControl.NONE : control;
    }

    /** Partitions assigned to the task: a DDL barrier waits for each of them. */
    public void assign(Collection<SourcePartition> partitions) {
        for (SourcePartition p : partitions) barrier.assign(p);
    }

    /** Ends one batch of records: partitions that got nothing are idle, so their open transactions are complete. */
    public void endBatch(Set<SourcePartition> active) {
        drainBacklog();
        if (!barrier.pendingTopics().isEmpty()) {
            checkBarriers();
            drainBacklog();
        }
        // a partition with records still waiting is not idle: its open transaction may continue in them
        Set<SourcePartition> busy = active;
        if (!backlog.isEmpty() || !stashed.isEmpty()) {
            busy = new java.util.HashSet<>(active);
            for (Pending r : backlog) busy.add(r.partition());
            busy.addAll(stashed.keySet());
        }
        assembler.closeIdle(busy);
        checkFailure();
    }

    /** Highest offset per partition through which every record is committed downstream. */
    public Map<SourcePartition, Long> appliedOffsets() {
        return tracker.appliedOffsets();
    }

    /** Dispatches everything held and waits until it is applied (or the timeout passes). */
    public boolean drain(long timeoutMillis) {
        assembler.closeAll();
        long deadline = System.currentTimeMillis() + timeoutMillis;
        try {
            while (System.currentTimeMillis() < deadline) {
                checkFailure();
                if (detector.awaitIdle(Math.min(200, Math.max(1, deadline - System.currentTimeMillis())))) {
                    checkFailure();
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        checkFailure();
        return false;
    }

    /** Partitions revoked: drops what is not yet dispatched for them and forgets their offsets. */
    public void forget(Collection<SourcePartition> partitions) {
        java.util.Set<SourcePartition> revoked = new java.util.HashSet<>(partitions);
        backlog.removeIf(r -> revoked.contains(r.partition()));
        for (SourcePartition p : partitions) {
            // the open transaction's rows were counted in the buffer: they leave it with the partition
            release(assembler.discard(p));
            stashed.remove(p);
            barrier.unassign(p);
        }
        // what workers hold for them must be committed before the partitions' new owner replays it
        if (!drain(config.applyDrainTimeoutMs())) {
            throw new ApplyException("partitions " + partitions + " were revoked while transactions for them were "
                    + "still being applied after " + config.applyDrainTimeoutMs() + " ms (" + APPLY_DRAIN_TIMEOUT_MS
                    + "): the target is not keeping up; the task stops so that no stale write follows the new owner's");
        }
        for (SourcePartition p : partitions) {
            tracker.forget(p);
            ddlCheckpoint.forget(p);
        }
        // a DDL may have waited only for a partition that is gone
        for (String topic : barrier.pendingTopics()) {
            releaseIfComplete(topic);
        }
    }

    /** The first apply failure, thrown on the task thread. */
    public void checkFailure() {
        RuntimeException f = failure;
        if (f != null) throw f;
    }

    private void dispatch(Transaction txn) {
        if (txn.isEmpty()) {
            tracker.register(txn.partition(), txn.lastOffset()).markDone();
            return;
        }
        List<RowChange> rows = txn.rows();
        List<RowShape> rowShapes = new java.util.ArrayList<>(rows.size());
        RowShape.LongList keys = new RowShape.LongList();
        long reported = -1;
        for (int i = 0; i < rows.size(); i++) {
            long offset = txn.offsetOf(i);
            RowShape s;
            try {
                s = shapes.shapeOf(rows.get(i).table(), "topic " + txn.partition().topic() + ", partition "
                        + txn.partition().partition() + ", offset " + offset);
            } catch (ShapeResolver.RowRejectedException e) {
                long ts = rows.get(i).commitTs();
                if (ts > 0 && ts < ddlCheckpoint.lastDdlTs(txn.partition())) {
                    // committed before a DDL statement that already ran from this partition, which removed its
                    // table or column: the producer sent it again (a source restart replays the binlog since its
                    // last committed position); it was applied before the statement ran
                    if (replayWarned.add(rows.get(i).table().toString())) {
                        LOG.warn("Rows of {} at {} in a shape from before the DDL that ran from {} are replays: "
                                + "skipped ({})", rows.get(i).table(), "offset " + offset, txn.partition(),
                                e.getMessage());
                    }
                    metrics.replaySkipped();
                    txn.dropRow(i--);
                    continue;
                }
                // the target lacks the row's table or a column: the row goes to the dead-letter queue, or fails
                if (!rejectedRows.tolerated()) throw e;
                if (offset != reported) {
                    rejectedRows.report(txn.partition(), offset, e.getMessage(), e.getCause());
                    metrics.errantRecord();
                    reported = offset;
                }
                txn.dropRow(i--);
                continue;
            }
            rowShapes.add(s);
            s.conflictKeys(rows.get(i), keys);
        }
        if (txn.isEmpty()) {
            // every row was left out: nothing to apply, its records are reported
            release(txn.bytes());
            tracker.register(txn.partition(), txn.lastOffset()).markDone();
            return;
        }
        boolean safe = switch (safeMode) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> txn.commitTs() == 0 || ChangeEvent.physicalMillis(txn.commitTs()) <= safeUntilMillis;
        };
        OffsetTracker.Ticket ticket = tracker.register(txn.partition(), Math.max(txn.lastOffset(), -1));
        detector.add(new WorkItem(txn, rowShapes.toArray(new RowShape[0]), safe, ticket), keys.toArray());
    }


    /**
     * Runs a DDL statement once every earlier row is applied, and records how far every partition is applied.
     *
     * @param copies partitions that delivered their own copy of the statement, and at which offset: those records are
     *               done too
     */
    private void applyDdl(DdlChange ddl, SourcePartition partition, long offset, Map<SourcePartition, Long> copies) {
        applyDdl(ddl, partition, offset, copies, true);
    }

    /** As above; with {@code run} false another task ran the statement, and only the checkpoint is written. */
    private void applyDdl(DdlChange ddl, SourcePartition partition, long offset, Map<SourcePartition, Long> copies,
                          boolean run) {
        drainBeforeDdl(partition, offset);
        String targetSchema = shapes.targetSchema(ddl.schema());
        try {
            if (run && ddlApplier.applyWithRetry(ddl, targetSchema, !targetSchema.equals(ddl.schema()), schemaMap,
                    partition + "@" + offset, retry, metrics::retry)) {
                metrics.ddlApplied();
            }
            // every record before it, of every partition, is committed downstream, and so is the DDL's own record:
            // make that durable before moving on, so a crash before Connect's next commit does not replay them
            Map<SourcePartition, Long> through = new java.util.HashMap<>(tracker.appliedOffsets());
            through.merge(partition, offset, Math::max);
            copies.forEach((p, o) -> through.merge(p, o, Math::max));
            java.util.Set<SourcePartition> carriers = new java.util.HashSet<>(copies.keySet());
            carriers.add(partition);
            ddlCheckpoint.record(through, ddl.commitTs(), carriers);
        } catch (SQLException e) {
            throw new ApplyException(e.getMessage(), e);
        }
        shapes.invalidateAll();
    }

    /** All earlier rows, of every partition, go first. */
    private void drainBeforeDdl(SourcePartition partition, long offset) {
        if (!drain(config.applyDrainTimeoutMs())) {
            throw new ApplyException("the DDL at " + partition + "@" + offset + " waited " + config.applyDrainTimeoutMs()
                    + " ms (" + APPLY_DRAIN_TIMEOUT_MS + ") for the rows before it to be applied: the target is not "
                    + "keeping up; raise " + APPLY_DRAIN_TIMEOUT_MS + " (below max.poll.interval.ms) or restart the "
                    + "task, which resumes from the committed offsets");
        }
    }

    /** Whether {@code bytes} more fit in the buffer, waiting up to {@code waitMillis} for workers to free room. */
    private boolean hasBufferRoom(long bytes, long waitMillis) {
        long max = config.bufferMaxBytes();
        if (buffered.get() == 0 || buffered.get() + bytes <= max) return true;
        // rows waiting in open transactions count too: hand them to the workers so the buffer can drain
        assembler.closeAll();
        long deadline = System.currentTimeMillis() + waitMillis;
        synchronized (bufferSignal) {
            while (buffered.get() > 0 && buffered.get() + bytes > max) {
                checkFailure();
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) return false;
                try {
                    bufferSignal.wait(Math.min(left, 50));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ApplyException("interrupted while waiting for buffer room at " + currentOrigin);
                }
            }
        }
        return true;
    }

    private void pauseForBuffer() {
        if (pausedForBuffer) return;
        pausedForBuffer = true;
        for (SourcePartition p : barrier.assignedPartitions()) partitionControl.pause(p);
        LOG.debug("Buffer full ({} bytes): partitions paused", buffered.get());
    }

    private void resumeAfterBuffer() {
        pausedForBuffer = false;
        for (SourcePartition p : barrier.assignedPartitions()) {
            // partitions behind a DDL barrier stay paused until the statement has run
            if (!stashed.containsKey(p)) partitionControl.resume(p);
        }
    }

    private void release(long bytes) {
        buffered.addAndGet(-bytes);
        synchronized (bufferSignal) {
            bufferSignal.notifyAll();
        }
    }

    private void fail(RuntimeException error) {
        synchronized (this) {
            if (failure == null) {
                failure = error;
                LOG.error("Sink apply failed: {}", error.getMessage());
            }
        }
        synchronized (bufferSignal) {
            bufferSignal.notifyAll();
        }
    }


    @Override
    public void close() {
        if (workers != null) workers.close();
        dataSource.close();
        LOG.info("Sink pipeline closed (peak {} prepared statements open)", cachePolicy.peakStatements());
    }
}
