package io.cdcconnect.sink;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.ShapeResolver;
import io.cdcconnect.sink.apply.TableShapes;
import io.cdcconnect.sink.apply.WorkItem;
import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.ddl.order.DdlExecutor;
import io.cdcconnect.sink.ddl.control.InMemoryControlStore;
import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.txn.Transaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The simulation's target: the model database the sink's real core applies to ({@link SimWorld}), the sink's own
 * state ({@link InMemoryControlStore.Shared}), and, per task instance, the parts a {@link SinkPipeline} runs on: shapes
 * read from the model, DDL run on the model, and "workers" that the scheduler steps, taking ready transactions in a
 * random order as parallel workers might. Not a mock of the core: the gate, replay, coordination, assembler, conflict
 * detector and offset tracking are the production classes.
 */
final class SimTarget {

    final SimWorld world;
    final InMemoryControlStore.Shared control = new InMemoryControlStore.Shared();
    /** Every statement run on the model, as "commit ts query", in order. */
    final List<String> ddlRuns = new ArrayList<>();
    /** Where each run came from (topic-partition@offset), beside {@link #ddlRuns}. */
    final List<String> ddlOrigins = new ArrayList<>();
    /** What went wrong on the target side: a row met its table on the wrong side of a statement. */
    final List<String> violations = new ArrayList<>();
    private final String targetSchema;
    private final Random random;
    /** Chance in 1000 that a transaction is committed but its acknowledgement lost (the task then fails). */
    private int lostCommitPerMille;
    /**
     * Chance in 1000, at each of the durable steps of running a statement, that the task dies right after it: after
     * its copies were recorded, after their arrival was recorded, after it claimed the sending, after the statement
     * ran on the target, after it was recorded as its table's last statement, after a coordinated sending was marked
     * run, after the checkpoint past the statement was written. A worker killed there (the busy run's WorkerCrashTest of 2026-11-28 died between the last
     * two, when they came the other way round) leaves the store as it was at that step.
     */
    private int ddlDeathPerMille;
    /**
     * Statements that ran on the model, but whose task died before the store learnt it (by the sending marked run, the
     * checkpoint past it, or, for an uncounted statement, its table's last statement): their copies come again and run
     * again, and that re-run is the run that counts ({@link #ddlRuns} holds only those).
     */
    final List<String> diedAfterRunning = new ArrayList<>();
    /** Statements that ran over more than one put. */
    int spanned;

    SimTarget(SimWorld world, String targetSchema, Random random, int lostCommitPerMille, int ddlDeathPerMille) {
        this.world = world;
        this.targetSchema = targetSchema;
        this.random = random;
        this.lostCommitPerMille = lostCommitPerMille;
        this.ddlDeathPerMille = ddlDeathPerMille;
    }

    /** No more injected faults (the schedule's calm phase, which must reach quiescence). */
    void calm() {
        lostCommitPerMille = 0;
        ddlDeathPerMille = 0;
    }

    /** A failure injected on purpose: the sim restarts the task, as Connect's restart would. */
    static final class InjectedFault extends ApplyException {
        InjectedFault(String message) {
            super(message);
        }
    }

    /** The parts of one task instance's pipeline. */
    final class Backend implements ApplyBackend, TableShapes, DdlExecutor, CdcSinkTask.PipelineFactory {
        private final List<ConflictDetector.Node<WorkItem>> ready = new ArrayList<>();
        private final ConflictDetector<WorkItem> detector = new ConflictDetector<>(ready::add);
        private SinkPipeline pipeline;
        private RuntimeException failure;
        private final Map<String, String> schemaMap = new TreeMap<>();

        Backend(Map<String, String> schemaMap) {
            this.schemaMap.putAll(schemaMap);
        }

        @Override
        public SinkPipeline start(CdcSinkConfig config, SinkMetrics metrics, String poolName, String connector) {
            store = new DyingControlStore(new InMemoryControlStore(control));
            pipeline = new SinkPipeline(config, metrics, new SinkPipeline.Parts(this, store, this, null, this, null,
                    null));
            return pipeline;
        }

        /** The task's store (its session with the target). */
        private io.cdcconnect.sink.ddl.control.ControlStore store;

        /**
         * The task's process died: its session with the target ends, and the run locks it held go with it. A statement
         * it ran that the store does not know ran will run again, by the new owner of its partitions.
         */
        void sessionEnded() {
            if (Boolean.getBoolean("sim.verbose")) System.out.println("SIM session ended, unknown run " + unknownRun);
            forgetUnknownRun();
            if (store != null) store.close();
        }

        /**
         * Statements run "beside the task" as the real sink runs them on a thread of its own, but deterministically:
         * the model runs the statement when it is started, and it reports being done only after up to 3 more looks
         * (puts), so that a statement spans polls, rebalances and kills (issue 38: a statement running longer than
         * the consumer's poll interval).
         */
        @Override
        public io.cdcconnect.sink.ddl.order.DdlRuns runs(String threadName) {
            return new io.cdcconnect.sink.ddl.order.DdlRuns() {
                @Override
                public <T> java.util.concurrent.Future<T> submit(java.util.concurrent.Callable<T> run) {
                    int looks = random.nextInt(4);
                    T value = null;
                    Exception failed = null;
                    try {
                        value = run.call();
                    } catch (Exception e) {
                        failed = e;
                    }
                    if (looks > 0) spanned++;
                    T result = value;
                    Exception failure = failed;
                    return new java.util.concurrent.Future<>() {
                        private int left = looks;

                        @Override
                        public boolean isDone() {
                            return left-- <= 0;
                        }

                        @Override
                        public T get() throws java.util.concurrent.ExecutionException {
                            if (failure != null) throw new java.util.concurrent.ExecutionException(failure);
                            return result;
                        }

                        @Override
                        public T get(long timeout, java.util.concurrent.TimeUnit unit)
                                throws java.util.concurrent.ExecutionException {
                            return get();
                        }

                        @Override
                        public boolean cancel(boolean mayInterrupt) {
                            return false;
                        }

                        @Override
                        public boolean isCancelled() {
                            return false;
                        }
                    };
                }

                @Override
                public void close(Runnable then) {
                    then.run();
                }
            };
        }

        /** Whether the task dies here (a draw only while deaths are on: a calm phase's schedule is unchanged). */
        private boolean dies() {
            return ddlDeathPerMille > 0 && random.nextInt(1000) < ddlDeathPerMille;
        }

        /** The statement this task ran whose run the store does not know yet: the index of its entry in ddlRuns. */
        private int unknownRun = -1;

        /**
         * The statement whose run the store does not know leaves the runs the check counts (it will run again). Found
         * by identity: other tasks' entries may have left the list since, so its index may have moved (statements run
         * over several puts, so two tasks may each have one pending).
         */
        private void forgetUnknownRun() {
            if (unknownRun < 0) return;
            String entry = unknownEntry;
            for (int i = ddlRuns.size() - 1; i >= 0; i--) {
                if (ddlRuns.get(i) == entry) {
                    diedAfterRunning.add(ddlRuns.remove(i) + " from " + ddlOrigins.remove(i));
                    break;
                }
            }
            unknownRun = -1;
            unknownEntry = null;
        }

        /** The entry of {@link #unknownRun} in ddlRuns (the very object: equal strings of other runs are not it). */
        private String unknownEntry;

        /** The task dies: its pipeline stops where it is, and the sim restarts it from the committed offsets. */
        private InjectedFault death(String where) {
            forgetUnknownRun();
            InjectedFault death = new InjectedFault("injected: the task died " + where);
            failure = death;
            return death;
        }

        /** The task's store, which may die right after a statement's durable steps ({@link #ddlDeathPerMille}). */
        private final class DyingControlStore implements io.cdcconnect.sink.ddl.control.ControlStore {
            private final io.cdcconnect.sink.ddl.control.ControlStore store;

            DyingControlStore(io.cdcconnect.sink.ddl.control.ControlStore store) {
                this.store = store;
            }

            @Override
            public void close() {
                store.close();
            }

            @Override
            public void uncountedRan(String topic, String ddlKey, Map<SourcePartition, Long> copies)
                    throws java.sql.SQLException {
                store.uncountedRan(topic, ddlKey, copies);
                unknownRun = -1; // a copy of it that comes again is known by its identity
            }

            @Override
            public boolean uncountedCopyRan(String topic, String ddlKey, SourcePartition partition, long offset)
                    throws java.sql.SQLException {
                return store.uncountedCopyRan(topic, ddlKey, partition, offset);
            }

            @Override
            public void done(String topic, String ddlId) throws java.sql.SQLException {
                store.done(topic, ddlId);
                unknownRun = -1;
                if (dies()) throw death("after the sending " + ddlId.substring(0, 8) + " was marked run");
            }

            @Override
            public void record(Map<SourcePartition, Long> offsets, long ddlCommitTs,
                               java.util.Set<SourcePartition> ddlPartitions) {
                store.record(offsets, ddlCommitTs, ddlPartitions);
                if (Boolean.getBoolean("sim.verbose") && !ddlPartitions.isEmpty()) {
                    System.out.println("SIM checkpoint " + offsets + " for " + ddlPartitions);
                }
                if (!ddlPartitions.isEmpty()) unknownRun = -1;
                if (!ddlPartitions.isEmpty() && dies()) {
                    throw death("after the checkpoint past the statement at " + ddlPartitions + " was written");
                }
            }

            @Override
            public boolean enabled() {
                return store.enabled();
            }

            @Override
            public long appliedThrough(SourcePartition partition) {
                return store.appliedThrough(partition);
            }

            @Override
            public CheckpointRecord checkpointRecord(SourcePartition partition) {
                return store.checkpointRecord(partition);
            }

            @Override
            public void recreated(SourcePartition partition) {
                store.recreated(partition);
            }

            @Override
            public void fingerprints(io.cdcconnect.sink.offset.RecordFingerprints fingerprints) {
                store.fingerprints(fingerprints);
            }

            @Override
            public TableDdl tableDdl(String table) {
                return store.tableDdl(table);
            }

            @Override
            public void recordTableDdl(String table, long ddlCommitTs, boolean uncounted) {
                store.recordTableDdl(table, ddlCommitTs, uncounted);
                if (uncounted) unknownRun = -1; // a copy of it that comes again is a TiCDC re-send
                if (dies()) throw death("after the statement on " + table + " was recorded");
            }

            @Override
            public long writtenThrough(SourcePartition partition) {
                return store.writtenThrough(partition);
            }

            @Override
            public void raiseWrittenThrough(SourcePartition partition, long offset) {
                store.raiseWrittenThrough(partition, offset);
            }

            @Override
            public void forget(SourcePartition partition) {
                store.forget(partition);
            }

            @Override
            public Sending sending(String topic, String ddlKey, Map<SourcePartition, Long> copies)
                    throws java.sql.SQLException {
                Sending sending = store.sending(topic, ddlKey, copies);
                if (dies()) throw death("after its copies " + copies + " were recorded");
                return sending;
            }

            @Override
            public boolean copyRan(String topic, String ddlKey, SourcePartition partition, long offset)
                    throws java.sql.SQLException {
                return store.copyRan(topic, ddlKey, partition, offset);
            }

            @Override
            public java.util.Set<Integer> arrivals(String topic, String ddlId) throws java.sql.SQLException {
                return store.arrivals(topic, ddlId);
            }

            @Override
            public void arrive(String topic, String ddlId, java.util.Collection<SourcePartition> partitions)
                    throws java.sql.SQLException {
                store.arrive(topic, ddlId, partitions);
                if (dies()) throw death("after the arrival of " + partitions + " was recorded");
            }

            @Override
            public io.cdcconnect.sink.ddl.control.DdlCoordinator.State state(String topic, String ddlKey, Sending sending,
                    int copies, java.util.Set<SourcePartition> assigned, SourcePartition claimant)
                    throws java.sql.SQLException {
                io.cdcconnect.sink.ddl.control.DdlCoordinator.State state = store.state(topic, ddlKey, sending, copies,
                        assigned, claimant);
                if (state == io.cdcconnect.sink.ddl.control.DdlCoordinator.State.RUN && dies()) {
                    throw death("after it claimed the sending " + sending.id().substring(0, 8));
                }
                return state;
            }
        }

        // ---- workers ----

        @Override
        public ConflictDetector<WorkItem> detector() {
            return detector;
        }

        /** Commits up to {@code n} ready transactions, in a random order. */
        void step(int n) {
            for (int i = 0; i < n && !ready.isEmpty() && failure == null; i++) {
                commit(ready.remove(random.nextInt(ready.size())));
            }
        }

        String describe() {
            return pipeline.describe() + ", ready " + ready.size() + ", in flight " + detector.inFlight();
        }

        boolean idle() {
            return ready.isEmpty() && detector.inFlight() == 0;
        }

        private void commit(ConflictDetector.Node<WorkItem> node) {
            Transaction txn = node.payload().transaction();
            for (int i = 0; i < txn.rows().size(); i++) {
                String wrong = world.apply(txn.rows().get(i), node.payload().shapes()[i].columns());
                if (wrong != null) {
                    violations.add(txn.partition() + "@" + txn.firstOffset() + ": " + wrong);
                }
            }
            if (random.nextInt(1000) < lostCommitPerMille) {
                // committed, but the task never learns it: it fails, and its restart applies the rows again
                failure = new InjectedFault("injected: the commit of " + txn + " was not acknowledged");
                return;
            }
            pipeline.release(txn.bytes());
            detector.done(node);
            node.payload().ticket().markDone();
        }

        @Override
        public boolean awaitIdle(long timeoutMillis) {
            while (!ready.isEmpty() && failure == null) step(ready.size());
            checkFailure();
            return detector.inFlight() == 0;
        }

        @Override
        public void checkFailure() {
            if (failure != null) throw failure;
        }

        @Override
        public void close() {
        }

        // ---- the target's tables ----

        @Override
        public String targetSchema(String sourceSchema) {
            return schemaMap.getOrDefault(sourceSchema, sourceSchema);
        }

        @Override
        public RowShape shapeOf(TableInfo table, SourcePartition partition, long offset) {
            SimWorld.Table t = table(table, partition, offset);
            String where = partition.where(offset);
            TargetTable target = target(table, t);
            try {
                return RowShape.of(table, target);
            } catch (IllegalArgumentException e) {
                throw new ShapeResolver.RowRejectedException(e.getMessage() + " (" + where + ")", e);
            }
        }

        @Override
        public RowShape projectedShapeOf(TableInfo table, SourcePartition partition, long offset) {
            return RowShape.projected(table, target(table, table(table, partition, offset)), null);
        }

        /** The model's table of a row, or the rejection the target would give. */
        private SimWorld.Table table(TableInfo table, SourcePartition partition, long offset) {
            SimWorld.Table t = world.table(table.table());
            if (t == null) {
                throw new ShapeResolver.RowRejectedException("table " + table + " does not exist ("
                        + partition.where(offset) + ")", null);
            }
            return t;
        }

        private TargetTable target(TableInfo table, SimWorld.Table t) {
            List<TargetColumn> cols = new ArrayList<>();
            for (String c : t.columns) cols.add(new TargetColumn(c, c.equals("v") ? "varchar(20)" : "bigint", false,
                    false, !c.equals("id")));
            return new TargetTable(targetSchema, table.table(), "`" + table.table() + "`", cols,
                    List.of(List.of("id")), true);
        }

        @Override
        public void invalidateAll() {
        }

        // ---- statements ----

        @Override
        public boolean run(DdlChange ddl, String schema, boolean renamed, String origin) {
            world.run(ddl.query());
            if (Boolean.getBoolean("sim.verbose")) System.out.println("SIM ran " + ddl.query() + " from " + origin);
            ddlRuns.add(ddl.commitTs() + " " + ddl.query());
            ddlOrigins.add(origin);
            unknownRun = ddlRuns.size() - 1;
            unknownEntry = ddlRuns.get(unknownRun);
            if (dies()) throw death("after the statement at " + origin + " ran");
            return true;
        }
    }
}
