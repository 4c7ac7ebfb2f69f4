package io.cdcconnect.sink;

import io.cdcconnect.codec.KafkaHeaders;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.ddl.control.InMemoryControlStore;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The driver that {@link DdlCallPathTest} runs in a JVM of its own under a debugger: one DDL statement through the real
 * task and {@link SinkPipeline}, on the simulation's model of the target ({@link SimWorld}, {@link SimTarget}, the
 * {@link InMemoryControlStore}) with workers and a statement thread of their own ({@link CallPathWorkers},
 * {@link CallPathDdlRuns}), records encoded as cdc-connect's source writes them (Canal-JSON, the
 * {@code cdc-connect.ddl.partitions} header on the statement's copies) and handed over as Connect's consumer hands
 * them over (partition by partition).
 *
 * <p>The scenario: topic {@value #TOPIC} with 2 partitions, both assigned to the one task, the default
 * configuration's control store ({@code ddl.checkpoint.database}). Rows of {@code shop.t0} on both partitions (by key:
 * even ids on partition 0, odd on 1); then {@code ALTER TABLE t0 ADD COLUMN c INT}, sent to both partitions (header
 * {@code cdc-connect.ddl.partitions: 2}), with one row after it on each, in one {@code put()}:
 * {@code [p0: copy, row] [p1: copy, row]}. The statement runs once, after the rows before it; the rows after it are
 * applied in the next puts. Two variants:
 * <ul>
 *     <li>{@code idle}: the rows before the statement came in an earlier {@code put()}, and an empty {@code put()}
 *     after it found both partitions idle and ended their transactions, which the workers committed before the
 *     statement's copies arrive;</li>
 *     <li>{@code open}: the rows before it came in the {@code put()} before and their transactions are still open when
 *     the copies arrive (each copy ends its partition's).</li>
 * </ul>
 * Each variant runs first unwatched (every class the path uses is loaded and initialised then), then on a fresh task
 * and target under the debugger, between {@code phase("window <variant>")} and {@code phase("end <variant>")}. Every
 * run checks its outcome: the statement ran once, the target equals the source, every offset is committed, no
 * partition is left paused; a failure exits non-zero.
 */
final class CallPathScenario {

    static final String TOPIC = "callpath";
    static final String SRC = "shop";
    static final String DST = "shop_replica";
    static final String DDL = "ALTER TABLE t0 ADD COLUMN c INT";

    private CallPathScenario() {
    }

    public static void main(String[] args) {
        try {
            run("warmup-idle", false);
            run("warmup-open", true);
            run("idle", false);
            run("open", true);
        } catch (Throwable e) {
            e.printStackTrace(System.out);
            System.out.flush();
            System.exit(2);
        }
        phase("done");
        System.out.println("CallPathScenario: every run ok");
        System.out.flush();
        System.exit(0);
    }

    /**
     * Where the debugger stops to start and end its recording ({@code window <variant>}, {@code end <variant>}) and to
     * learn that the driver is done.
     */
    static void phase(String name) {
        System.out.println("CallPathScenario: phase " + name);
    }

    /** One run of the scenario on a fresh target and task. */
    static void run(String name, boolean rowsOpen) {
        Run r = new Run();
        r.task.open(List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1)));
        // the rows before the statement: two on each partition
        List<SinkRecord> before = new ArrayList<>();
        before.add(r.row(0, 2));
        before.add(r.row(0, 4));
        before.add(r.row(1, 1));
        before.add(r.row(1, 3));
        r.put(before);
        if (!rowsOpen) {
            // a poll with nothing: both partitions idle, their transactions end; the workers commit them
            r.put(List.of());
            r.workers.awaitIdle(10_000);
        }
        DdlChange ddl = r.ddl();
        List<SinkRecord> statement = new ArrayList<>();
        statement.add(r.copy(0, ddl));
        statement.add(r.row(0, 6));
        statement.add(r.copy(1, ddl));
        statement.add(r.row(1, 5));
        phase("window " + name);
        r.put(statement);
        phase("end " + name);
        // the rows held behind the statement flow in the next puts (none after the statement's in the same put)
        for (int i = 0; i < 20 && !r.allCommitted(); i++) {
            r.put(List.of());
            r.workers.awaitIdle(10_000);
        }
        r.check(name);
        r.task.stop();
        System.out.println("CallPathScenario: run " + name + " ok: " + r.target.ddlRuns);
    }

    /** One task on one model of the target, and the topic as produced. */
    static final class Run implements SinkTaskContext {
        final SimWorld source = new SimWorld(List.of("t0", "t1"));
        final SimWorld world = new SimWorld(List.of("t0", "t1"));
        final SimTarget target = new SimTarget(world, DST, new Random(1), 0, 0);
        final SimTarget.Backend model = target.new Backend(Map.of(SRC, DST));
        final CallPathWorkers workers = new CallPathWorkers(world);
        final CdcSinkTask task;
        final io.cdcconnect.codec.canal.CanalJsonEncoder encoder;
        final List<List<SinkRecord>> log = List.of(new ArrayList<>(), new ArrayList<>());
        final Map<TopicPartition, Long> committed = new HashMap<>();
        final Set<TopicPartition> paused = new HashSet<>();
        long clock = 1_000;
        long encodings;

        Run() {
            encoder = new io.cdcconnect.codec.canal.CanalJsonEncoder(
                    io.cdcconnect.codec.canal.CanalJsonOptions.defaults(), () -> 1_700_000_000_000L + encodings++);
            task = new CdcSinkTask((config, metrics, poolName, connector) -> {
                SinkPipeline p = new SinkPipeline(config, metrics, new SinkPipeline.Parts(model,
                        new InMemoryControlStore(target.control), new CallPathDdlRuns(model, world), null, workers,
                        null, null));
                workers.attach(p);
                return p;
            }, false);
            task.initialize(this);
            Map<String, String> props = new HashMap<>();
            props.put("name", "callpath");
            props.put("task.id", "0");
            props.put("connection.url", "jdbc:mysql://sim:3306/");
            props.put("connection.user", "sim");
            props.put("input.format", "canal-json");
            props.put("schema.map", SRC + "=" + DST);
            props.put("decode.threads", "0");
            task.start(props);
        }

        private long tick() {
            return (clock += 1) << 18;
        }

        /** An insert of {@code shop.t0} row {@code id} on {@code partition}, as the source writes it. */
        SinkRecord row(int partition, long id) {
            if (id % 2 != partition) throw new IllegalArgumentException("id " + id + " is not partition " + partition + "'s");
            TableInfo info = source.info(SRC, "t0");
            Object[] after = new Object[info.columnCount()];
            after[0] = id;
            after[1] = "v" + id;
            for (int i = 2; i < after.length; i++) after[i] = id * 10;
            RowChange row = RowChange.insert(info, after, tick());
            source.apply(row);
            return append(partition, row, 0);
        }

        /** The statement, run on the source. */
        DdlChange ddl() {
            DdlChange d = new DdlChange(SRC, "t0", DDL, DdlChange.Kind.ALTER, tick());
            source.run(DDL);
            return d;
        }

        /** The statement's copy on {@code partition}: its copies counted (2, the topic's partitions). */
        SinkRecord copy(int partition, DdlChange ddl) {
            return append(partition, ddl, 2);
        }

        private SinkRecord append(int partition, ChangeEvent event, int copies) {
            List<SinkRecord> records = log.get(partition);
            ConnectHeaders headers = new ConnectHeaders();
            if (copies > 0) headers.addString(KafkaHeaders.DDL_PARTITIONS, Integer.toString(copies));
            SinkRecord r = new SinkRecord(TOPIC, partition, null, null, null, encoder.encode(event), records.size(), null,
                    TimestampType.NO_TIMESTAMP_TYPE, headers);
            records.add(r);
            return r;
        }

        /** One put(), then Connect's offset commit. */
        void put(List<SinkRecord> records) {
            task.put(records);
            Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
            for (int p = 0; p < 2; p++) {
                current.put(new TopicPartition(TOPIC, p), new OffsetAndMetadata(log.get(p).size()));
            }
            task.preCommit(current).forEach((tp, om) -> committed.put(tp, om.offset()));
        }

        boolean allCommitted() {
            for (int p = 0; p < 2; p++) {
                if (committed.getOrDefault(new TopicPartition(TOPIC, p), 0L) < log.get(p).size()) return false;
            }
            return true;
        }

        void check(String name) {
            List<String> problems = new ArrayList<>();
            if (!allCommitted()) problems.add("committed " + committed + ", produced " + log.get(0).size() + " and " + log.get(1).size());
            if (target.ddlRuns.size() != 1) problems.add("statements run " + target.ddlRuns);
            if (!workers.violations.isEmpty()) problems.add("rows on the wrong side of the statement " + workers.violations);
            synchronized (world) {
                if (!world.equals(source)) problems.add("target " + world + " differs from source " + source);
            }
            if (!paused.isEmpty()) problems.add("left paused " + paused);
            if (!problems.isEmpty()) throw new AssertionError("run " + name + ": " + problems);
        }

        // ---- Connect's side (Kafka's WorkerSinkTaskContext in a worker) ----

        @Override
        public Map<String, String> configs() {
            return Map.of();
        }

        @Override
        public void offset(Map<TopicPartition, Long> offsets) {
        }

        @Override
        public void offset(TopicPartition tp, long offset) {
        }

        @Override
        public void timeout(long timeoutMs) {
        }

        @Override
        public Set<TopicPartition> assignment() {
            return Set.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1));
        }

        @Override
        public void pause(TopicPartition... partitions) {
            paused.addAll(List.of(partitions));
        }

        @Override
        public void resume(TopicPartition... partitions) {
            paused.removeAll(List.of(partitions));
        }

        @Override
        public void requestCommit() {
        }

        @Override
        public PluginMetrics pluginMetrics() {
            return null;
        }
    }
}
