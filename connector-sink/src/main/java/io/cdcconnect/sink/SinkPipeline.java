package io.cdcconnect.sink;

import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.codec.util.TlsCipherWarmup;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.apply.RejectedRows;
import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.dialect.ServerLimits;
import io.cdcconnect.sink.apply.ShapeResolver;
import io.cdcconnect.sink.apply.TransactionApplier;
import io.cdcconnect.sink.apply.ApplyWorker;
import io.cdcconnect.sink.apply.WorkerPool;
import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.ddl.DdlApplier;
import io.cdcconnect.sink.ddl.control.DdlCoordinator;
import io.cdcconnect.sink.ddl.DdlPolicy;
import io.cdcconnect.sink.ddl.TableAutoCreator;
import io.cdcconnect.sink.ddl.order.DdlSequencer;
import io.cdcconnect.sink.ddl.control.ControlStore;
import io.cdcconnect.sink.ddl.order.DdlExecutor;
import io.cdcconnect.sink.ddl.control.JdbcControlStore;
import io.cdcconnect.sink.apply.TableShapes;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dml.DmlBuilder;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.offset.OffsetTracker;
import io.cdcconnect.sink.offset.RecordFingerprints;
import io.cdcconnect.sink.ddl.control.CheckpointVerifier;
import io.cdcconnect.sink.stmtcache.StatementCachePolicy;
import io.cdcconnect.sink.txn.PartitionControl;
import io.cdcconnect.sink.txn.PendingRecord;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.txn.Transaction;
import io.cdcconnect.sink.txn.TransactionAssembler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.cdcconnect.sink.CdcSinkConfig.APPLY_DRAIN_TIMEOUT_MS;

/**
 * The sink below Connect: decoded events in, rows committed downstream, applied offsets out.
 *
 * <p>events → {@link TransactionAssembler} → {@link ConflictDetector} (keys of every unique key, old and new image) →
 * {@link ApplyWorker}s (one pooled connection each) → commit → {@link OffsetTracker}. The calling thread (Connect's task
 * thread) dispatches and never waits for a dependency; it waits only when the byte buffer is full or a DDL statement
 * needs all earlier rows applied. Records wait in their partition's {@link PartitionGates} until it flows and the
 * buffer has room. Knows nothing of Connect types, so tests drive it with plain values.
 */
public final class SinkPipeline implements AutoCloseable, DdlSequencer.Pipeline {

    private static final Logger LOG = LoggerFactory.getLogger(SinkPipeline.class);

    private final CdcSinkConfig config;
    private final SinkMetrics metrics;
    private final HikariDataSource dataSource;
    private final SafeModeDecision safeMode;
    private final TransactionAssembler assembler;
    private final OffsetTracker tracker = new OffsetTracker();
    /** The fingerprints of the records taken in and not yet applied: a checkpoint keeps the one at its offset. */
    private final RecordFingerprints fingerprints = new RecordFingerprints();
    private final CheckpointVerifier checkpoints;
    /** Whether the sink keeps checkpoints ({@code ddl.checkpoint.database} set). */
    private final boolean keepsCheckpoints;
    private final ApplyBackend apply;
    private final DdlSequencer ddl;
    private final TransactionDispatcher dispatcher;
    private final BackPressure buffer;
    private final PartitionGates gates;
    private final TableShapes shapes;
    /** Null when the pipeline runs on a model of the target (the simulation of the core). */
    private final StatementCachePolicy cachePolicy;
    private volatile RejectedRows rejectedRows = RejectedRows.NONE;

    /**
     * What the core runs on: the target's tables, its statements, the sink's own state, and the workers that apply
     * transactions. The JDBC parts come from {@link #start}; the simulation of the core passes models of them.
     *
     * @param tables      auto.create/auto.evolve, built on the pipeline's shapes (null: off)
     * @param dataSource  closed with the pipeline (null: none)
     * @param cachePolicy the statement cache's budget (null: none)
     */
    record Parts(TableShapes shapes, ControlStore control, DdlExecutor ddlExecutor, TableAutoCreator tables,
                 ApplyBackend apply, HikariDataSource dataSource, StatementCachePolicy cachePolicy) {
    }

    SinkPipeline(CdcSinkConfig config, SinkMetrics metrics, Parts parts) {
        this.config = config;
        this.metrics = metrics;
        this.dataSource = parts.dataSource();
        this.control = parts.control();
        this.safeMode = new SafeModeDecision(config, parts.control());
        this.assembler = new TransactionAssembler(config.maxTxnRows(), this::dispatch);
        this.shapes = parts.shapes();
        this.apply = parts.apply();
        this.cachePolicy = parts.cachePolicy();
        this.buffer = new BackPressure(config.bufferMaxBytes(), config.bufferMaxWaitMs(), assembler, apply);
        this.gates = new PartitionGates(buffer);
        parts.control().fingerprints(fingerprints);
        this.checkpoints = new CheckpointVerifier(parts.control());
        this.keepsCheckpoints = parts.control().enabled();
        this.ddl = new DdlSequencer(config, metrics, parts.control(), parts.ddlExecutor(), shapes, gates,
                this);
        TableAutoCreator tables = parts.tables() != null ? parts.tables()
                : new TableAutoCreator(false, false, null, null, null, metrics, null);
        this.dispatcher = new TransactionDispatcher(shapes, ddl, metrics, tracker, apply.detector(), safeMode, buffer,
                () -> rejectedRows, tables);
        metrics.gauge(SinkMetrics.BUFFER_BYTES, buffer::bytes);
    }

    /** Bytes of a committed transaction leave the buffer (any thread). */
    void release(long bytes) {
        buffer.release(bytes);
    }

    /** Wakes the task thread waiting for buffer room (any thread). */
    void wake() {
        buffer.wake();
    }

    /** What the pipeline holds now, for a failure's message (the simulation of the core). */
    String describe() {
        return "buffer " + buffer.bytes() + " bytes" + (gates.waitingForRoom() ? " (paused for room)" : "")
                + ", partitions " + gates.describe() + ", statements waiting " + ddl.describe();
    }

    /** Where rows the target rejects go, as set now. */
    @Override
    public RejectedRows rejections() {
        return rejectedRows;
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
            try (java.sql.Connection probe = ds.getConnection()) {
                refined = refined.chooseDriver(probe, config.connectionDriver(), config.connectionUrl(),
                        config.connectionSslMode());
                if (!probe.getAutoCommit()) probe.commit();
            }
            if (!refined.driverClass().equals(dialect.driverClass())) {
                HikariDataSource other = null;
                while (other == null && !refined.driverClass().equals(dialect.driverClass())) {
                    try {
                        other = pool(config, refined, poolName);
                    } catch (RuntimeException e) {
                        // the family's first driver connected: a second that cannot is not a reason to stop
                        SqlDialect next = refined.fallbackDriver();
                        LOG.warn("{} cannot connect ({}); the sink goes on with {}", refined.describeDriver(),
                                DataSources.scrub(String.valueOf(e.getMessage()), config.connectionUrl(),
                                        config.connectionPassword()), next.describeDriver());
                        refined = next;
                    }
                }
                if (other != null) {
                    ds.close();
                    ds = other;
                }
            } else if (!refined.sessionInitSql(config.timestampTimeZone(), config.foreignKeyChecks().on(refined))
                    .equals(dialect.sessionInitSql(config.timestampTimeZone(), config.foreignKeyChecks().on(dialect)))) {
                ds.close();
                ds = pool(config, refined, poolName);
            }
            ds.setMetricsTrackerFactory(metrics.poolTracker());
            return jdbc(config, metrics, ds, refined, limits, connector, poolName);
        } catch (SQLException | RuntimeException e) {
            if (ds != null) ds.close();
            throw new ApplyException("cannot start the sink against " + DataSources.redact(config.connectionUrl())
                    + " as " + config.connectionUser() + ": " + DataSources.scrub(e.getMessage(),
                    config.connectionUrl(), config.connectionPassword())
                    + TransportWarnings.connectHint(config, e), e);
        }
    }

    private static HikariDataSource pool(CdcSinkConfig config, SqlDialect dialect, String poolName) {
        return DataSources.create(dialect, config.connectionUrl(), config.connectionUser(), config.connectionPassword(),
                // one connection per worker (each keeps its own), one for the task thread's metadata and control store,
                // one for a DDL statement running beside it, and one that holds its run lock (DdlCoordinator)
                config.connectionSslMode(), config.workerCount() + 3, config.timestampTimeZone(),
                config.foreignKeyChecks().on(dialect), poolName, config.connectionSocketTimeoutMs());
    }

    /** The server's version and limits. */
    public static ServerLimits readLimits(javax.sql.DataSource ds, SqlDialect dialect) throws SQLException {
        try (java.sql.Connection c = ds.getConnection()) {
            ServerLimits limits = dialect.readLimits(c);
            if (!c.getAutoCommit()) c.commit();
            return limits;
        }
    }

    private static SinkPipeline jdbc(CdcSinkConfig config, SinkMetrics metrics, HikariDataSource ds, SqlDialect dialect,
                                     ServerLimits limits, String connector, String name) {
        Map<String, String> schemaMap = config.schemaMap();
        RetryPolicy retry = RetryPolicy.fromSettings(config.retryMaxAttempts(), config.retryBackoffMs(),
                dialect::retryable);
        ShapeResolver shapes = new ShapeResolver(ds, dialect, schemaMap, retry, metrics::retry);
        // what a DDL changed reaches every worker's statement cache
        io.cdcconnect.sink.stmtcache.TableChanges tableChanges = new io.cdcconnect.sink.stmtcache.TableChanges();
        DdlApplier applier = new DdlApplier(ds, dialect, config.ddlUnsupportedSkip(), metrics::ddlUnsupported,
                tableChanges, metrics::ddlNoEffect, metrics::ddlClauseDropped);
        DdlExecutor executor = DdlExecutor.of(applier, schemaMap, retry, metrics::retry);
        TableAutoCreator tables = new TableAutoCreator(config.autoCreate(), config.autoEvolve(), applier,
                DdlPolicy.parse(config.ddlApply(), config.ddlCheckpointDatabase(), dialect.systemSchemas()), shapes,
                metrics, retry);
        ControlStore control = new JdbcControlStore(ds, dialect, config.ddlCheckpointDatabase(), connector, retry,
                metrics::retry);
        StatementCachePolicy cachePolicy = StatementCachePolicy.of(config.statementCacheSize(),
                limits.maxPreparedStmtCount(), config.workerCount() + 1, config.taskCount(), metrics);
        ApplyStage stage = new ApplyStage();
        SinkPipeline p = new SinkPipeline(config, metrics, new Parts(shapes, control, executor, tables, stage, ds,
                cachePolicy));
        metrics.gauge(SinkMetrics.CACHE_SIZE, cachePolicy::openStatements);
        metrics.gauge(SinkMetrics.CACHE_LIMIT, cachePolicy::globalLimit);
        stage.start(name, new WorkerPool.Settings(config.workerCount(), config.maxTxnRows(), retry,
                        p.safeMode.mode().configName()), ds, cachePolicy,
                new TransactionApplier(new DmlBuilder(dialect, limits.maxAllowedPacket(),
                        config.foreignKeyChecks().on(dialect)), metrics), metrics,
                p::release, p::wake, p::rejections, tableChanges);
        p.tlsCipher = dialect.tlsCipher();
        LOG.info("Sink pipeline connected to {} (dialect {}, driver {}, largest statement {} bytes, prepared statements"
                        + " allowed {}): {} workers, statement cache {} per connection, safe.mode={}, foreign.key.checks={}{}",
                limits.version(), dialect.name(), dialect.describeDriver(), limits.maxAllowedPacket(),
                limits.maxPreparedStmtCount() < 0 ? "unlimited" : limits.maxPreparedStmtCount(),
                config.workerCount(), cachePolicy.perConnectionLimit(), p.safeMode.mode().configName(),
                config.foreignKeyChecks().on(dialect).configName(),
                config.foreignKeyChecks().on(dialect) == config.foreignKeyChecks() ? ""
                        : " (" + config.foreignKeyChecks().configName() + " asked; this target cannot)");
        return p;
    }

    private final ControlStore control;
    /**
     * Statements run before this {@code put()}. Once one ran in it, no further record is dispatched until the next:
     * a statement may run longer than the consumer's {@code max.poll.interval.ms}, and a consumer that left the group
     * meanwhile lost its partitions. Connect tells the task so ({@code close}) before its next {@code put()}, so the
     * records held behind the statement go only to a task that still holds their partitions; a new owner waits for
     * the statement's run lock, and applies them itself (docs/ordering.md, "a statement that runs for long").
     */
    private long runsBeforePut;
    /** Partitions whose records skipped for the DDL checkpoint were reported since they were assigned. */
    private final Set<SourcePartition> checkpointSkipWarned = new java.util.HashSet<>();

    /** The TLS cipher the target's connections mostly use (for the start-up warm-up). */
    private TlsCipherWarmup.Suite tlsCipher = TlsCipherWarmup.Suite.AES_GCM;

    public TlsCipherWarmup.Suite tlsCipher() {
        return tlsCipher;
    }

    /** The pool of the target's connections (for tests). */
    javax.sql.DataSource targetDataSource() {
        return dataSource;
    }

    /**
     * Which of {@code schemas} the target holds control tables in (some sink's control database, which no message may
     * change); none without a target connection (the simulation's model).
     */
    public Set<String> controlHolding(Collection<String> schemas) {
        if (dataSource == null || schemas.isEmpty()) return Set.of();
        SqlDialect dialect = Dialects.forUrl(config.connectionUrl());
        try (java.sql.Connection c = dataSource.getConnection()) {
            Set<String> out = io.cdcconnect.sink.apply.SchemaAllowList.controlHolding(c, dialect, schemas);
            if (!c.getAutoCommit()) c.commit();
            return out;
        } catch (SQLException e) {
            throw new ApplyException("cannot read which of " + schemas + " hold a sink's control tables: "
                    + DataSources.scrub(e.getMessage(), config.connectionUrl(), config.connectionPassword()), e);
        }
    }

    /** The target database of a source database ({@code schema.map}). */
    public String targetSchema(String sourceSchema) {
        return shapes.targetSchema(sourceSchema);
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
        ddl.delivered(partition);
        gates.add(new PendingRecord(partition, offset, events, bytes, ddlCopies));
        processWaiting();
    }

    /**
     * Whether the record at {@code offset} of {@code partition} is taken in, the checkpoint it may be skipped for
     * having been written for this topic ({@link CheckpointVerifier}); a record not taken in is dropped, the partition
     * being delivered again from another offset. Keeps the fingerprint of a record taken in.
     */
    public boolean admit(SourcePartition partition, long offset, org.apache.kafka.connect.sink.SinkRecord record) {
        // without a store no checkpoint is written or read: nothing to fingerprint
        if (!keepsCheckpoints) return true;
        long fingerprint = RecordFingerprints.of(record);
        if (!checkpoints.admit(partition, offset, fingerprint)) return false;
        fingerprints.add(partition, offset, fingerprint);
        return true;
    }

    /** Whether the rest of {@code partition}'s records in this put are dropped (a seek is pending for it). */
    public boolean dropsRestOfPut(SourcePartition partition) {
        return checkpoints.dropsRestOfPut(partition);
    }

    /** Where the pipeline asks Connect to deliver a partition from another offset (the task's context). */
    public void setSeeker(CheckpointVerifier.Seeker seeker) {
        checkpoints.setSeeker(seeker);
    }

    /** Starts one {@code put()}: from now on it may wait up to {@code buffer.max.wait.ms} for buffer room. */
    public void beginBatch() {
        runsBeforePut = ddl.statementsRun();
        checkpoints.beginPut();
        fingerprints.applied(tracker.appliedOffsets());
        buffer.beginBatch();
    }

    /**
     * Whether a record waits for buffer room past {@code buffer.max.wait.ms} (the partitions are paused): the caller
     * should hand over no more records in this {@code put()}.
     */
    public boolean waitingForRoom() {
        return gates.waitingForRoom();
    }

    /**
     * Processes what the gates let through ({@link PartitionGates#next}): each partition's records in order, while it
     * is not held and the buffer has room. A record that holds its partition or releases others only changes their
     * gates; this loop then takes what they let through.
     */
    private void processWaiting() {
        while (true) {
            checkFailure();
            if (ddl.statementsRun() != runsBeforePut) return; // fenced until the next put()
            PendingRecord r = gates.next();
            if (r == null) return;
            process(r.partition(), r.offset(), r.events(), r.bytes(), r.ddlCopies());
        }
    }

    private void process(SourcePartition partition, long offset, List<ChangeEvent> events, long bytes, int ddlCopies) {
        if (ddl.replays().applied(partition, offset)) {
            // committed downstream before a DDL ran (the checkpoint says so); Connect had not committed it yet (an
            // empty rest of the DDL's own record, held behind it, only completes the record's offset)
            // (the empty rest is no replay: neither counted nor warned about, which after every counted statement
            // told of records "delivered again" that never were)
            if (!events.isEmpty()) metrics.replaySkipped();
            if (!events.isEmpty() && checkpointSkipWarned.add(partition)) {
                LOG.warn("{}: records from offset {} through the DDL checkpoint's offset {} are skipped: they were "
                        + "applied before a DDL statement ran, and Connect delivers them again; counted in "
                        + "replays-skipped-total", partition, offset, ddl.replays().checkpoint(partition));
            }
            assembler.endRecord(partition, offset);
            return;
        }
        int rows = BackPressure.rowCount(events);
        long perRow = rows == 0 ? 0 : Math.max(1, bytes / rows);
        boolean waiting = ddl.isPending(partition.topic());
        for (int i = 0; i < events.size(); i++) {
            ChangeEvent e = events.get(i);
            if (waiting && ddl.passes(partition, e)) {
                // committed after statements waiting on the topic: this and what follows wait for them
                ddl.holdPassed(partition, e, offset, events.subList(i, events.size()), rowsIn(events, i) * perRow,
                        ddlCopies);
                return;
            }
            if (e instanceof RowChange row) {
                buffer.reserve(perRow);
                assembler.addRow(partition, offset, row, perRow);
            } else if (e instanceof DdlChange statement) {
                // a statement ends the partition's transaction before it: that one is whole, and may be applied while
                // the statement waits for other partitions
                assembler.close(partition);
                // the rest of this record, and every later record of the partition, may wait for the statement
                if (ddl.onDdl(statement, partition, offset, ddlCopies, events.subList(i + 1, events.size()),
                        rowsIn(events, i + 1) * perRow)) {
                    return;
                }
            } else if (e instanceof Watermark) {
                // every change at or below the watermark has arrived on this partition
                assembler.close(partition);
            }
        }
        assembler.endRecord(partition, offset);
    }

    private static int rowsIn(List<ChangeEvent> events, int from) {
        return BackPressure.rowCount(events.subList(from, events.size()));
    }

    /** Where rows the target rejects for their data go (the dead-letter queue); by default they fail the task. */
    public void setRejectedRows(RejectedRows rows) {
        this.rejectedRows = rows == null ? RejectedRows.NONE : rows;
    }

    /** Pauses and resumes the partitions as their gates say. */
    public void setPartitionControl(PartitionControl control) {
        gates.setPartitionControl(control);
    }

    /** Partitions assigned to the task: each gets a gate, and a DDL barrier waits for each of them. */
    public void assign(Collection<SourcePartition> partitions) {
        for (SourcePartition p : partitions) {
            gates.assign(p);
            ddl.assign(p);
            checkpoints.assigned(p);
            // what earlier owners wrote of it is read again
            safeMode.reset(p);
        }
    }

    /**
     * Ends one batch of records: partitions that got nothing are idle, so their open transactions are complete.
     *
     * @return whether something waits that only a later call can release (a statement waiting on other tasks, or
     *         records held for buffer room): the caller should come back soon even when no record arrives
     */
    public boolean endBatch(Set<SourcePartition> active) {
        processWaiting();
        boolean recheck = false;
        if (ddl.waiting()) {
            recheck = ddl.checkBarriers();
            processWaiting();
        }
        // a partition held or with records still waiting is not idle: its open transaction may continue in them
        Set<SourcePartition> busy = new java.util.HashSet<>(active);
        gates.addWaitingTo(busy);
        assembler.closeIdle(busy);
        checkFailure();
        // records fenced behind a statement that ran in this put(): come back soon for them
        boolean fenced = ddl.statementsRun() != runsBeforePut && !busy.isEmpty();
        fencedLastPut = fenced;
        return recheck || fenced || gates.waitingForRoom();
    }

    /** Whether the last {@link #endBatch} fenced records behind a statement that ran in its put(). */
    private boolean fencedLastPut;

    /**
     * Whether what the next put() can do comes within milliseconds: a statement runs beside the task thread (most are
     * done in a few), or records wait behind one that ran in the last put().
     */
    public boolean statementDueSoon() {
        return fencedLastPut || ddl.running();
    }

    /** Highest offset per partition through which every record is committed downstream. */
    @Override
    public Map<SourcePartition, Long> appliedOffsets() {
        return tracker.appliedOffsets();
    }

    /** Dispatches everything held and waits until it is applied (or the timeout passes). */
    @Override
    public boolean drain(long timeoutMillis) {
        assembler.closeAll();
        return apply.awaitIdle(timeoutMillis);
    }

    /** Partitions revoked: drops what is not yet dispatched for them and forgets their offsets. */
    public void forget(Collection<SourcePartition> partitions) {
        // a statement running beside the task that these partitions passed is finished while they are still the task's
        ddl.beforeRevoke(partitions);
        for (SourcePartition p : partitions) {
            checkpointSkipWarned.remove(p);
            gates.revoke(p);
            // the open transaction's rows were counted in the buffer: they leave it with the partition
            buffer.release(assembler.discard(p));
            ddl.unassign(p);
        }
        // what workers hold for them must be committed before the partitions' new owner replays it
        if (!drain(config.applyDrainTimeoutMs())) {
            throw new ApplyException("partitions " + partitions + " were revoked while transactions for them were "
                    + "still being applied after " + config.applyDrainTimeoutMs() + " ms (" + APPLY_DRAIN_TIMEOUT_MS
                    + "): the target is not keeping up; the task stops so that no stale write follows the new owner's");
        }
        for (SourcePartition p : partitions) {
            tracker.forget(p);
            fingerprints.forget(p);
            checkpoints.forget(p);
            safeMode.reset(p);
        }
        // a DDL may have waited only for a partition that is gone
        ddl.forgotten(partitions);
    }

    private void dispatch(Transaction txn) {
        dispatcher.dispatch(txn);
    }

    /** The first apply failure, thrown on the task thread. */
    public void checkFailure() {
        apply.checkFailure();
    }

    @Override
    public void close() {
        apply.close();
        // the run locks of statements this task claimed go with it, and then a task holding a claimed partition takes
        // over: once a statement running now has returned, so that none is run again beside it
        ddl.close(() -> {
            control.close();
            if (dataSource != null) dataSource.close();
        });
        if (cachePolicy != null) {
            LOG.info("Sink pipeline closed (peak {} prepared statements open)", cachePolicy.peakStatements());
        }
    }
}
