package io.cdcconnect.sink;

import io.cdcconnect.codec.KafkaHeaders;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A deterministic simulation of the sink's core (docs/ordering.md): the production task, gate, replay rules,
 * coordination, assembler, conflict detector and offset tracking, driven by a seeded scheduler against a model of the
 * target ({@link SimTarget}) and a model of Connect's consumer (positions, committed offsets, pauses kept across a
 * rebalance as Connect keeps them). Per seed it generates a source history (rows and DDL statements over two tables,
 * under one of three producers, or two of cdc-connect's on one topic with clocks apart: cdc-connect's source with counted DDL copies on every partition, the same under
 * partition.rule=table with the copy on the table's partition only, or TiCDC's Open-protocol/Avro with the DDL on
 * every partition, uncounted), re-sends parts of it (source or changefeed restarts), creates a second topic for a new table in a third of the seeds (the group rebalances to take it), and interleaves puts and empty polls, slow partitions,
 * workers committing in any order, offset commits, eager and cooperative rebalances (a partition may come back to the
 * same task), task kills with a restart from the committed offsets, commits whose acknowledgement is lost, tasks that
 * die right after one of a statement's durable steps (its copies, arrival and claim recorded, the statement run, its
 * table's statement recorded, the sending marked run, the checkpoint past it), and (in
 * half the seeds with a second topic) that topic deleted and recreated under the same name, its later messages at
 * offsets its predecessor's checkpoint covers.
 *
 * <p>At quiescence: the target equals the model of the source; no partition is left paused; every sending of a
 * statement ran exactly once, in its order; every partition's offset reached its end, with no stretch of 3,000 steps of
 * the calm phase in which no commit moved and no statement ran (a stall).
 * A failing seed names itself: {@code mvn -pl connector-sink test -Dtest=CoreSimulationTest -Dsim.seed=<seed>}
 * replays it exactly; {@code -Dsim.seeds=<n>} sets how many seeds run (default 10,000), {@code -Dsim.first=<seed>}
 * the first of them; {@code -Dsim.log=DEBUG -Dsim.verbose=true} show the core's decisions and the schedule;
 * {@code -Dsim.twice=true} runs each seed twice and fails one whose schedule or outcome differs.
 */
class CoreSimulationTest {

    static final String TOPIC = "sim";
    /** A second topic, created when its first message is written (a new table's topic): table t3 lives there. */
    static final String TOPIC2 = "sim2";
    static final String SRC = "shop";
    static final String DST = "shop_replica";
    static final List<String> TABLES = List.of("t0", "t1", "t2", "t3", "hb");

    /** Who produced the topic. */
    enum Producer {
        /** cdc-connect's source, rows by key: a DDL goes to every partition, its copies counted in a header. */
        COUNTED,
        /** cdc-connect's source under partition.rule=table: a table's rows and its DDL on one partition. */
        TABLE,
        /**
         * TiCDC's Open-protocol and Avro: rows by key, the DDL on every partition after every row before it, without a
         * count. (TiCDC's Canal-JSON sends the DDL to partition 0 only: no consumer can tell when another partition
         * has passed it without TiCDC's watermarks, docs/ordering.md; not modelled.)
         */
        TICDC
    }

    /** One message as produced. */
    record Sent(ChangeEvent event, String topic, int partition, int copies) {
        Sent(ChangeEvent event, int partition, int copies) {
            this(event, TOPIC, partition, copies);
        }
    }

    @Test
    void thousandsOfSchedulesKeepTheTargetEqualToTheSourceAndEveryStatementInItsPlace() {
        // thousands of task starts and statements: the core's INFO lines would bury the result
        org.apache.log4j.Logger quiet = org.apache.log4j.Logger.getLogger("io.cdcconnect");
        org.apache.log4j.Level was = quiet.getLevel();
        quiet.setLevel(org.apache.log4j.Level.toLevel(System.getProperty("sim.log", "ERROR")));
        try {
            runSeeds();
        } finally {
            quiet.setLevel(was);
        }
    }

    private void runSeeds() {
        long one = Long.getLong("sim.seed", -1L);
        int seeds = Integer.getInteger("sim.seeds", 10_000);
        long first = Long.getLong("sim.first", 0L);
        long start = System.nanoTime();
        int runs = 0;
        int newTopics = 0;
        int recreated = 0;
        int twoProducerSeeds = 0;
        int resends = 0;
        int deaths = 0;
        int autoSafe = 0;
        int storeless = 0;
        int spanned = 0;
        for (long seed = one >= 0 ? one : first; seed < (one >= 0 ? one + 1 : first + seeds); seed++) {
            String problem;
            try {
                Run run = new Run(seed);
                problem = run.run();
                if (Boolean.getBoolean("sim.twice")) {
                    // the seed again: the same schedule and the same outcome, or the simulation is not deterministic
                    Run again = new Run(seed);
                    String twice = again.run();
                    if (!again.trace.equals(run.trace) || !java.util.Objects.equals(problem, twice)) {
                        problem = "ran differently the second time: " + run.trace + "\n  then " + again.trace;
                    }
                }
                if (run.topic2Created) newTopics++;
                if (run.topic2Recreated) recreated++;
                if (run.twoProducers) twoProducerSeeds++;
                if (run.safeModeAuto) autoSafe++;
                if (run.noStore) storeless++;
                spanned += run.target.spanned;
                if (!run.trace.stream().noneMatch(t -> t.startsWith("resend"))) resends++;
                deaths += (int) run.trace.stream().filter(t -> t.contains("the task died")).count();
            } catch (RuntimeException | AssertionError e) {
                StringBuilder trace = new StringBuilder(e.toString());
                for (StackTraceElement el : e.getStackTrace()) trace.append("\n  at ").append(el);
                problem = "threw " + trace;
            }
            runs++;
            if (problem != null) {
                fail("seed " + seed + " failed (replay: mvn -pl connector-sink test -Dtest=CoreSimulationTest "
                        + "-Dsim.seed=" + seed + "): " + problem);
            }
        }
        System.out.printf("CoreSimulationTest: %d seeds in %.1f s (%d with a topic created mid-run, %d of them recreated, "
                + "%d with two producers on one topic, %d with re-sends, %d with safe.mode=auto, %d without a control "
                + "store; %d statements ran over several puts; %d tasks died inside a statement's steps)%n", runs,
                (System.nanoTime() - start) / 1e9, newTopics, recreated, twoProducerSeeds, resends, autoSafe, storeless,
                spanned, deaths);
    }

    /** One seed's world, history and schedule. */
    static final class Run {
        final long seed;
        final java.util.Random r;
        final Producer producer;
        final int partitions;
        final int taskCount;
        /** The log: per partition, the records as produced. */
        final List<List<SinkRecord>> log = new ArrayList<>();
        /** The second topic's partitions (see {@link #TOPIC2}), once created. */
        final List<List<SinkRecord>> log2 = new ArrayList<>();
        final boolean newTopic;
        final int partitions2;
        boolean topic2Created;
        /**
         * In half the seeds with a second topic, it is deleted and recreated under the same name once everything in it
         * is committed (Kafka drops the group's offsets with it): the table's later messages start again at offset 0,
         * below the old topic's checkpoint (docs/ordering.md, "topic recreation"). Decided by a random of its own, so
         * that the other seeds keep their schedules.
         */
        final boolean recreatesTopic2;
        boolean topic2Recreated;
        /** How many messages were produced when the second topic was recreated. */
        int recreatedAt = -1;
        /** Heartbeats written to the recreated topic's partitions once the history is produced. */
        int heartbeats;
        /** The second topic was created: the group rebalances soon, as the consumer's metadata refresh finds it. */
        boolean rebalanceSoon;
        /** Messages generated and not yet produced, in order. */
        final List<Sent> toProduce = new ArrayList<>();
        int produced;
        final SimWorld source = new SimWorld(TABLES);
        final SimTarget target;
        final Map<TopicPartition, Long> committed = new HashMap<>();
        final List<SimTask> tasks = new ArrayList<>();
        final List<String> trace = new ArrayList<>();
        /**
         * Canal-JSON as cdc-connect's source and TiCDC write it, its {@code ts} (the time of encoding) from a clock of
         * the run's own: each message written differs from an earlier one of the same event, as with a wall clock, and
         * a seed replays exactly (with the wall clock, two encodings in one millisecond were byte for byte the same).
         */
        long encodings;
        final io.cdcconnect.codec.canal.CanalJsonEncoder encoder = new io.cdcconnect.codec.canal.CanalJsonEncoder(
                io.cdcconnect.codec.canal.CanalJsonOptions.defaults(), () -> 1_700_000_000_000L + encodings++);
        long clock = 1_000;
        /**
         * A second producer writes table t2 to the same topic (cdc-connect's producers only: TiCDC's order is one
         * changefeed's), its clock behind the first one's: commit ts do not order the topic.
         */
        final boolean twoProducers;
        long clockB = 600;
        /**
         * {@code safe.mode=auto} (a third of the seeds) instead of {@code always}: a task writes in safe mode only the
         * records an earlier task of the partition may have written ({@code written_through}). Decided by a random of
         * its own, so that the other seeds keep their schedules.
         */
        final boolean safeModeAuto;
        /**
         * No control store ({@code ddl.checkpoint.database} empty), in a quarter of the one-task seeds: nothing is
         * checkpointed or coordinated, so a statement whose task died before Connect committed past it runs again when
         * its copy comes again (with the rows after it), and a recreated topic is read as new.
         */
        final boolean noStore;

        Run(long seed) {
            this.seed = seed;
            this.r = new java.util.Random(seed);
            this.producer = Producer.values()[r.nextInt(3)];
            this.partitions = 1 + r.nextInt(4);
            // without a count, tasks cannot agree on a statement: one task per topic (docs/ordering.md)
            this.taskCount = producer == Producer.TICDC ? 1 : 1 + r.nextInt(2);
            this.twoProducers = producer != Producer.TICDC && r.nextInt(3) == 0;
            this.newTopic = r.nextInt(3) == 0;
            this.partitions2 = 1 + r.nextInt(3);
            this.recreatesTopic2 = newTopic && new java.util.Random(seed ^ 0x7E57_0F_7091CL).nextBoolean();
            java.util.Random settings = new java.util.Random(seed ^ 0x5AFE_3_0DEL);
            this.safeModeAuto = settings.nextInt(3) == 0;
            this.noStore = taskCount == 1 && !recreatesTopic2 && settings.nextInt(4) == 0;
            this.target = new SimTarget(new SimWorld(TABLES), DST, r, r.nextInt(3) == 0 ? 20 : 0,
                    r.nextInt(3) == 0 ? 150 : 0);
            for (int p = 0; p < partitions; p++) log.add(new ArrayList<>());
            for (int p = 0; p < partitions2; p++) log2.add(new ArrayList<>());
            generate();
        }

        // ---------------------------------------------------------------- the source

        private void generate() {
            int events = 15 + r.nextInt(40);
            List<Sent> history = new ArrayList<>();
            for (int i = 0; i < events; i++) {
                int before = history.size();
                int pick = r.nextInt(100);
                boolean second = twoProducers && r.nextInt(3) == 0;
                boolean other = !second && newTopic && i > 3 && r.nextInt(3) == 0;
                String table = second ? "t2" : other ? "t3" : TABLES.get(r.nextInt(2));
                long ts = second ? tickB() : tick();
                if (pick < 10) {
                    SimWorld.Table t = source.table(table);
                    String q = t.columns.contains("c") ? "ALTER TABLE " + table + " DROP COLUMN c"
                            : "ALTER TABLE " + table + " ADD COLUMN c INT";
                    ddl(history, table, q, DdlChange.Kind.ALTER, ts);
                } else if (pick < 14) {
                    ddl(history, table, "TRUNCATE TABLE " + table, DdlChange.Kind.TRUNCATE, ts);
                } else {
                    int rows = 1 + r.nextInt(3);
                    for (int k = 0; k < rows; k++) row(history, table, ts);
                }
                // a source (or changefeed) restart sends again what followed its last committed position
                if (r.nextInt(25) == 0 && before > 0) {
                    int from = r.nextInt(history.size());
                    // from a position of the source: a statement's copies were sent together (a send cut short is
                    // not modelled: docs/ordering.md, "partial sends")
                    while (from > 0 && history.get(from).event() == history.get(from - 1).event()) from--;
                    List<Sent> again = new ArrayList<>(history.subList(from, history.size()));
                    history.addAll(again);
                    trace.add("resend " + again.size() + " messages from history index " + from);
                }
            }
            // every partition shows it is past everything (a row of a table no statement touches, on each partition)
            long ts = tick();
            for (int p = 0; p < partitions; p++) {
                long id = p + 1_000L * partitions; // id % partitions == p: the row's partition by key
                RowChange ins = RowChange.insert(source.info(SRC, "hb"), new Object[]{id, "end"}, ts);
                source.apply(ins);
                history.add(new Sent(ins, p, 0));
            }
            if (newTopic) {
                for (int p = 0; p < partitions2; p++) {
                    long id = p + 1_000L * partitions2 + 500_000L;
                    RowChange ins = RowChange.insert(source.info(SRC, "hb"), new Object[]{id, "end"}, ts);
                    source.apply(ins);
                    history.add(new Sent(ins, TOPIC2, p, 0));
                }
            }
            toProduce.addAll(history);
        }

        private long tick() {
            return (clock += 1 + r.nextInt(3)) << 18;
        }

        private long tickB() {
            return (clockB += 1 + r.nextInt(3)) << 18;
        }

        private void ddl(List<Sent> history, String table, String query, DdlChange.Kind kind, long ts) {
            DdlChange d = new DdlChange(SRC, table, query, kind, ts);
            source.run(query);
            String topic = topicOf(table);
            int n = partitionsOf(topic);
            switch (producer) {
                case COUNTED -> {
                    for (int p = 0; p < n; p++) history.add(new Sent(d, topic, p, n));
                }
                case TABLE -> history.add(new Sent(d, topic, tablePartition(table), 1));
                case TICDC -> {
                    for (int p = 0; p < n; p++) history.add(new Sent(d, topic, p, 0));
                }
            }
        }

        private int firstPartition(DdlChange d) {
            return producer == Producer.TABLE ? tablePartition(d.table()) : 0;
        }

        private void row(List<Sent> history, String table, long ts) {
            SimWorld.Table t = source.table(table);
            TableInfo info = source.info(SRC, table);
            long id = 1 + r.nextInt(6);
            Map<String, String> current = t.rows.get(id);
            RowChange change;
            if (current == null) {
                change = RowChange.insert(info, image(info, id, "i" + ts % 97), ts);
            } else if (r.nextBoolean()) {
                change = RowChange.update(info, image(info, current, id), image(info, id, "u" + ts % 97), ts);
            } else {
                change = RowChange.delete(info, image(info, current, id), ts);
            }
            source.apply(change);
            history.add(new Sent(change, topicOf(table), partitionOf(table, id), 0));
        }

        private Object[] image(TableInfo info, long id, String v) {
            Object[] img = new Object[info.columnCount()];
            img[0] = id;
            img[1] = v;
            for (int i = 2; i < img.length; i++) img[i] = (long) r.nextInt(100);
            return img;
        }

        private static Object[] image(TableInfo info, Map<String, String> row, long id) {
            Object[] img = new Object[info.columnCount()];
            img[0] = id;
            for (int i = 1; i < img.length; i++) {
                String v = row.get(info.column(i).name());
                img[i] = v == null ? null : i == 1 ? v : (Object) Long.parseLong(v);
            }
            return img;
        }

        private int partitionOf(String table, long id) {
            return producer == Producer.TABLE ? tablePartition(table) : (int) (id % partitionsOf(topicOf(table)));
        }

        private int tablePartition(String table) {
            return Math.abs(table.hashCode()) % partitionsOf(topicOf(table));
        }

        private static String topicOf(String table) {
            return table.equals("t3") ? TOPIC2 : TOPIC;
        }

        private int partitionsOf(String topic) {
            return topic.equals(TOPIC2) ? partitions2 : partitions;
        }

        /** What the topic holds in a partition. */
        private List<SinkRecord> records(TopicPartition tp) {
            return (tp.topic().equals(TOPIC2) ? log2 : log).get(tp.partition());
        }

        /** Every partition of the topics that exist now. */
        private List<TopicPartition> allPartitions() {
            List<TopicPartition> out = new ArrayList<>();
            for (int p = 0; p < partitions; p++) out.add(new TopicPartition(TOPIC, p));
            if (topic2Created) {
                for (int p = 0; p < partitions2; p++) out.add(new TopicPartition(TOPIC2, p));
            }
            return out;
        }

        static String key(DdlChange d) {
            return d.commitTs() + " " + d.query();
        }

        /** Appends the next messages to the topic. */
        private void produce(int n) {
            for (int i = 0; i < n && produced < toProduce.size(); i++, produced++) {
                Sent s = toProduce.get(produced);
                if (s.topic().equals(TOPIC2) && !topic2Created) {
                    topic2Created = true;
                    rebalanceSoon = true;
                    trace.add("topic " + TOPIC2 + " created");
                }
                append(s);
            }
        }

        /** Writes one message to the end of its partition. */
        private void append(Sent s) {
            List<SinkRecord> partition = records(new TopicPartition(s.topic(), s.partition()));
            byte[] value = encoder.encode(s.event());
            if (value == null) return;
            ConnectHeaders headers = new ConnectHeaders();
            if (s.copies() > 0) headers.addString(KafkaHeaders.DDL_PARTITIONS, Integer.toString(s.copies()));
            partition.add(new SinkRecord(s.topic(), s.partition(), null, null, null, value, partition.size(), null,
                    TimestampType.NO_TIMESTAMP_TYPE, headers));
        }

        // ---------------------------------------------------------------- Connect

        /** One task instance and what Connect's consumer holds for it. */
        final class SimTask implements SinkTaskContext {
            final int number;
            final CdcSinkTask task;
            final Set<TopicPartition> assignment = new HashSet<>();
            /** Connect's pausedPartitions: kept across a rebalance for the partitions that stay or come back. */
            final Set<TopicPartition> paused = new HashSet<>();
            final Map<TopicPartition, Long> position = new HashMap<>();
            final SimTarget.Backend backend;
            boolean failed;

            SimTask(int number) {
                this.number = number;
                Map<String, String> schemaMap = Map.of(SRC, DST);
                this.backend = target.new Backend(schemaMap);
                this.task = new CdcSinkTask(backend, false);
                task.initialize(this);
                Map<String, String> props = new HashMap<>();
                props.put("name", "sim");
                props.put("task.id", Integer.toString(number));
                props.put("connection.url", "jdbc:mysql://sim:3306/");
                props.put("connection.user", "sim");
                props.put("input.format", "canal-json");
                props.put("schema.map", SRC + "=" + DST);
                props.put("safe.mode", safeModeAuto ? "auto" : "always");
                props.put("decode.threads", "0");
                props.put("ddl.checkpoint.database", noStore ? "" : "cdc_connect");
                props.put("buffer.max.bytes", r.nextBoolean() ? "4096" : "67108864");
                props.put("buffer.max.wait.ms", "0");
                props.put("max.txn.rows", Integer.toString(2 + r.nextInt(6)));
                task.start(props);
            }

            @Override
            public Map<String, String> configs() {
                return Map.of();
            }

            @Override
            public void offset(Map<TopicPartition, Long> offsets) {
                position.putAll(offsets);
            }

            @Override
            public void offset(TopicPartition tp, long offset) {
                position.put(tp, offset);
            }

            @Override
            public void timeout(long timeoutMs) {
            }

            @Override
            public Set<TopicPartition> assignment() {
                return Set.copyOf(assignment);
            }

            @Override
            public void pause(TopicPartition... partitions) {
                for (TopicPartition tp : partitions) {
                    if (!assignment.contains(tp)) throw new IllegalStateException("pause of unassigned " + tp);
                    paused.add(tp);
                }
            }

            @Override
            public void resume(TopicPartition... partitions) {
                for (TopicPartition tp : partitions) {
                    if (!assignment.contains(tp)) throw new IllegalStateException("resume of unassigned " + tp);
                    paused.remove(tp);
                }
            }

            @Override
            public void requestCommit() {
            }

            @Override
            public PluginMetrics pluginMetrics() {
                return null;
            }

            /** One poll: up to a few records from some unpaused partitions, then put() (also when empty). */
            void poll() {
                List<SinkRecord> batch = new ArrayList<>();
                List<TopicPartition> order = new ArrayList<>(assignment);
                order.sort(java.util.Comparator.comparing(TopicPartition::toString));
                java.util.Collections.shuffle(order, r);
                for (TopicPartition tp : order) {
                    if (paused.contains(tp) || r.nextInt(4) == 0) continue; // a slow partition
                    List<SinkRecord> records = records(tp);
                    long pos = position.get(tp);
                    // past the end (a seek beyond it, or a recreated topic): auto.offset.reset=earliest
                    if (pos > records.size()) pos = 0;
                    int n = r.nextInt(4);
                    for (int i = 0; i < n && pos < records.size(); i++, pos++) batch.add(records.get((int) pos));
                    position.put(tp, pos);
                }
                task.put(batch);
            }

            /** Connect's offset commit: what preCommit returns, for assigned partitions, up to what was consumed. */
            void commit() {
                Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
                for (TopicPartition tp : assignment) current.put(tp, new OffsetAndMetadata(position.get(tp)));
                if (current.isEmpty()) return;
                Map<TopicPartition, OffsetAndMetadata> offsets = task.preCommit(current);
                offsets.forEach((tp, om) -> {
                    if (assignment.contains(tp) && om.offset() <= position.get(tp)) committed.put(tp, om.offset());
                });
            }

            /** Partitions revoked: Connect commits what preCommit says, then closes them. */
            void revoke(Set<TopicPartition> partitions) {
                if (partitions.isEmpty()) return;
                commit();
                task.close(partitions);
                assignment.removeAll(partitions);
                for (TopicPartition tp : partitions) position.remove(tp);
            }

            /** Partitions assigned: from the committed offsets; Connect pauses again what it kept paused. */
            void assign(Set<TopicPartition> partitions) {
                assignment.addAll(partitions);
                for (TopicPartition tp : partitions) position.put(tp, committed.getOrDefault(tp, 0L));
                paused.retainAll(assignment);
                if (!partitions.isEmpty()) task.open(partitions);
            }
        }

        // ---------------------------------------------------------------- the schedule

        String run() {
            for (int t = 0; t < taskCount; t++) tasks.add(new SimTask(t));
            rebalance(false);
            int steps = 0;
            int chaos = 300 + r.nextInt(400);
            // progress is bounded, not the run: a long history (many re-sends on four partitions) takes more steps,
            // but 3,000 steps of the calm phase without a commit moving or a statement running is a stall
            int cap = chaos + 3_000 + 40 * toProduce.size();
            long lastProgress = -1;
            int progressAt = 0;
            while (steps < cap && steps - Math.max(progressAt, chaos) < 3_000) {
                steps++;
                long progress = target.ddlRuns.size();
                for (long c : committed.values()) progress += c;
                if (progress != lastProgress) {
                    lastProgress = progress;
                    progressAt = steps;
                }
                boolean calm = steps > chaos;
                if (calm) target.calm();
                if (topic2Recreated && produced == toProduce.size() && heartbeats < 5 && steps % 200 == 0) {
                    heartbeat();
                }
                int pick = r.nextInt(100);
                try {
                    if (recreatesTopic2 && !topic2Recreated && topic2Drained()) {
                        trace.add("step " + steps + ": topic " + TOPIC2 + " deleted and recreated");
                        recreateTopic2();
                    }
                    if (rebalanceSoon && pick < 30) {
                        rebalanceSoon = false;
                        trace.add("step " + steps + ": rebalance for the new topic");
                        rebalance(r.nextBoolean());
                    } else if (produced < toProduce.size() && pick < 25) {
                        produce(1 + r.nextInt(6));
                    } else if (pick < 60) {
                        live().get(r.nextInt(live().size())).poll();
                    } else if (pick < 80) {
                        for (SimTask t : live()) t.backend.step(1 + r.nextInt(3));
                    } else if (pick < 90) {
                        live().get(r.nextInt(live().size())).commit();
                    } else if (!calm && pick < 94) {
                        trace.add("step " + steps + ": rebalance");
                        if (Boolean.getBoolean("sim.verbose")) System.out.println("SIM step " + steps + " rebalance");
                        rebalance(r.nextBoolean());
                    } else if (!calm && pick < 96) {
                        SimTask victim = live().get(r.nextInt(live().size()));
                        trace.add("step " + steps + ": kill task " + victim.number);
                        if (Boolean.getBoolean("sim.verbose")) System.out.println("SIM step " + steps + " kill " + victim.number);
                        restart(victim);
                    } else {
                        for (SimTask t : live()) t.poll();
                    }
                } catch (SimTarget.InjectedFault e) {
                    restartFailed();
                } catch (org.apache.kafka.connect.errors.ConnectException e) {
                    if (e.getCause() instanceof SimTarget.InjectedFault) {
                        restartFailed();
                    } else {
                        return "a task failed at step " + steps + ": " + e.getMessage() + context();
                    }
                }
                if (!target.violations.isEmpty()) {
                    return "a row met its table on the wrong side of a statement: " + target.violations + context();
                }
                try {
                    if (calm && quiescent()) break;
                } catch (RuntimeException e) {
                    if (!(e instanceof SimTarget.InjectedFault) && !(e.getCause() instanceof SimTarget.InjectedFault)) {
                        throw e;
                    }
                    restartFailed();
                }
            }
            if (!quiescent()) {
                return "no progress: nothing committed and no statement run since step " + progressAt + " (of " + steps
                        + ", at most " + cap + "): committed " + new TreeMap<>(committed.entrySet()
                        .stream().collect(java.util.stream.Collectors.toMap(e -> e.getKey().toString(),
                                Map.Entry::getValue))) + " of " + ends() + ", paused " + pausedNow() + context();
            }
            if (!target.world.equals(source)) {
                return "the target differs from the source:\n  source " + source + "\n  target " + target.world
                        + context();
            }
            if (!pausedNow().isEmpty()) return "partitions left paused: " + pausedNow() + context();
            // every sending of a statement ran exactly once, in the order the source sent them (per table: statements
            // of different tables travel on different partitions under partition.rule=table)
            // (TiCDC's re-sends are told by their identity, the same commit ts, database and text, and run once: the
            // first sending only; never by comparing commit ts)
            Map<String, List<String>> sent = new TreeMap<>();
            Set<String> seen = new HashSet<>();
            for (Sent m : toProduce) {
                if (m.event() instanceof DdlChange d && m.partition() == firstPartition(d)
                        && (producer != Producer.TICDC || seen.add(key(d)))) {
                    sent.computeIfAbsent(d.table(), k -> new ArrayList<>()).add(key(d));
                }
            }
            Map<String, List<String>> ran = new TreeMap<>();
            for (String run : target.ddlRuns) {
                String k = run.replace("`", "");
                String table = k.split(" ")[3].equals("TABLE") ? k.split(" ")[4] : k.split(" ")[3];
                ran.computeIfAbsent(table, x -> new ArrayList<>()).add(k);
            }
            if (noStore) {
                // without a store a statement whose task died before Connect committed past it runs again, right
                // after itself (nothing after it was committed): one run per sending, repeats collapsed
                ran.replaceAll((t, runs) -> collapsed(runs));
                sent.replaceAll((t, runs) -> collapsed(runs));
            }
            if (!ran.equals(sent)) {
                return "statements ran " + ran + "\n  but were sent " + sent + context();
            }
            return null;
        }

        /** {@code runs} with each run that repeats the one before it dropped. */
        private static List<String> collapsed(List<String> runs) {
            List<String> out = new ArrayList<>();
            for (String run : runs) {
                if (out.isEmpty() || !out.get(out.size() - 1).equals(run)) out.add(run);
            }
            return out;
        }

        private String context() {
            StringBuilder ts = new StringBuilder();
            for (SimTask t : tasks) {
                ts.append("\n  task ").append(t.number).append(" assigned ").append(t.assignment).append(" paused ")
                        .append(t.paused).append(" at ").append(t.position).append(": ").append(t.backend.describe());
            }
            return ts + "\n  producer " + producer + (twoProducers ? " (two)" : "")
                    + (safeModeAuto ? ", safe.mode=auto" : "") + (noStore ? ", no control store" : "") + ", "
                    + partitions + " partitions, "
                    + taskCount + " tasks; trace "
                    + trace + "\n  statements run " + target.ddlRuns + " from " + target.ddlOrigins + "\n  died after running "
                    + target.diedAfterRunning + "\n  control "
                    + target.control + "\n  log "
                    + describeLog();
        }

        private String describeLog() {
            StringBuilder b = new StringBuilder();
            for (int k = 0; k < partitions + (newTopic ? partitions2 : 0); k++) {
                String topic = k < partitions ? TOPIC : TOPIC2;
                int p = k < partitions ? k : k - partitions;
                b.append("\n    ").append(topic).append(" p").append(p).append(':');
                int o = 0;
                for (int i = 0; i < toProduce.size(); i++) {
                    Sent m = toProduce.get(i);
                    if (i == recreatedAt && topic.equals(TOPIC2)) {
                        b.append(" | recreated:");
                        o = 1;
                    }
                    if (m.partition() != p || !m.topic().equals(topic)) continue;
                    b.append(' ').append(o++).append('=');
                    if (m.event() instanceof DdlChange d) b.append(d.query().split(" ")[0]).append('@').append(d.commitTs() >> 18);
                    else if (m.event() instanceof RowChange rc) b.append(rc.table().table()).append(rc.op().name().charAt(0)).append(((Number) rc.current()[0]).longValue()).append('@').append(rc.commitTs() >> 18);
                }
            }
            return b.toString();
        }

        private List<SimTask> live() {
            return tasks;
        }

        private boolean quiescent() {
            if (produced < toProduce.size()) return false;
            for (SimTask t : tasks) {
                t.poll();
                t.backend.step(Integer.MAX_VALUE);
                t.commit();
            }
            for (TopicPartition tp : allPartitions()) {
                if (committed.getOrDefault(tp, 0L) < records(tp).size()) return false;
            }
            return true;
        }

        private Map<String, Integer> ends() {
            Map<String, Integer> out = new TreeMap<>();
            for (TopicPartition tp : allPartitions()) out.put(tp.toString(), records(tp).size());
            return out;
        }

        private Set<TopicPartition> pausedNow() {
            Set<TopicPartition> out = new HashSet<>();
            for (SimTask t : tasks) {
                for (TopicPartition tp : t.paused) if (t.assignment.contains(tp)) out.add(tp);
            }
            return out;
        }

        /** A new assignment: eager (everything revoked, then assigned) or cooperative (only what moves). */
        private void rebalance(boolean eager) {
            Map<Integer, Set<TopicPartition>> next = new LinkedHashMap<>();
            for (SimTask t : tasks) next.put(t.number, new HashSet<>());
            List<SimTask> order = new ArrayList<>(tasks);
            for (TopicPartition tp : allPartitions()) {
                next.get(order.get(r.nextInt(order.size())).number).add(tp);
            }
            if (eager) {
                for (SimTask t : tasks) t.revoke(new HashSet<>(t.assignment));
                for (SimTask t : tasks) t.assign(next.get(t.number));
            } else {
                for (SimTask t : tasks) {
                    Set<TopicPartition> gone = new HashSet<>(t.assignment);
                    gone.removeAll(next.get(t.number));
                    t.revoke(gone);
                }
                for (SimTask t : tasks) {
                    Set<TopicPartition> added = new HashSet<>(next.get(t.number));
                    added.removeAll(t.assignment);
                    t.assign(added);
                }
            }
        }

        /**
         * Whether the second topic holds messages, every one of them committed, and more of the table's are still to
         * be produced: deleting it now loses nothing the target does not have.
         */
        private boolean topic2Drained() {
            if (!topic2Created) return false;
            int held = 0;
            for (int p = 0; p < partitions2; p++) {
                held += log2.get(p).size();
                if (committed.getOrDefault(new TopicPartition(TOPIC2, p), 0L) < log2.get(p).size()) return false;
            }
            if (held == 0) return false;
            for (int i = produced; i < toProduce.size(); i++) {
                if (toProduce.get(i).topic().equals(TOPIC2)) return true;
            }
            return false;
        }

        /**
         * The second topic is deleted and recreated with its partitions: each task loses them and gets them back,
         * empty, with no committed offset; the table's next messages start at offset 0.
         */
        private void recreateTopic2() {
            Map<SimTask, Set<TopicPartition>> held = new LinkedHashMap<>();
            for (SimTask t : tasks) {
                Set<TopicPartition> mine = new HashSet<>();
                for (TopicPartition tp : t.assignment) if (tp.topic().equals(TOPIC2)) mine.add(tp);
                t.revoke(mine);
                held.put(t, mine);
            }
            for (int p = 0; p < partitions2; p++) log2.set(p, new ArrayList<>());
            committed.keySet().removeIf(tp -> tp.topic().equals(TOPIC2));
            // the new topic begins with a message of its own: its records are not, offset for offset, those of the old
            // one (a topic whose records are the same at the same offsets is the same topic to the sink, which then
            // applies it as Connect's ordinary redelivery; the statements re-sent in it would not run again)
            for (int p = 0; p < partitions2; p++) {
                // committed just before the partition's next message: TiCDC's order holds in the new topic too (a
                // later commit ts would show the partition past statements still to come)
                long ts = 0;
                for (int i = produced; i < toProduce.size() && ts == 0; i++) {
                    Sent next = toProduce.get(i);
                    if (next.topic().equals(TOPIC2) && next.partition() == p) ts = next.event().commitTs() - 1;
                }
                RowChange marker = RowChange.insert(source.info(SRC, "hb"), new Object[]{800_000L + p, "new topic"}, ts);
                source.apply(marker);
                append(new Sent(marker, TOPIC2, p, 0));
            }
            topic2Recreated = true;
            recreatedAt = produced;
            // a failure here leaves partitions to the next rebalance (assignOrphans), from no committed offset
            held.forEach(SimTask::assign);
        }

        /**
         * A row to every partition of the recreated topic, committed after everything: a live source keeps writing to
         * its partitions (cdc-connect's and TiCDC's watermarks). A recreated partition whose end is exactly at its old
         * checkpoint's offset waits for its next record before the sink can read the record there
         * (docs/ordering.md, "topic recreation").
         */
        private void heartbeat() {
            heartbeats++;
            for (int p = 0; p < partitions2; p++) {
                RowChange beat = RowChange.insert(source.info(SRC, "hb"), new Object[]{810_000L + 1_000L * heartbeats + p,
                        "beat"}, (clock + heartbeats) << 18);
                source.apply(beat);
                append(new Sent(beat, TOPIC2, p, 0));
            }
            trace.add("heartbeat " + heartbeats + " to " + TOPIC2);
        }

        /** A task dies without committing or closing; its replacement starts from the committed offsets. */
        private void restart(SimTask victim) {
            Set<TopicPartition> had = new HashSet<>(victim.assignment);
            tasks.remove(victim);
            victim.backend.sessionEnded();
            SimTask fresh = new SimTask(victim.number);
            tasks.add(fresh);
            fresh.assign(had);
        }

        /**
         * Partitions no task holds (a failure cut a rebalance short) go to a task, as the group's next rebalance
         * would give them.
         */
        private void assignOrphans() {
            Set<TopicPartition> owned = new HashSet<>();
            for (SimTask t : tasks) owned.addAll(t.assignment);
            Set<TopicPartition> orphans = new HashSet<>();
            for (TopicPartition tp : allPartitions()) {
                if (!owned.contains(tp)) orphans.add(tp);
            }
            if (!orphans.isEmpty()) tasks.get(r.nextInt(tasks.size())).assign(orphans);
        }

        /** Every task whose backend holds an injected failure is restarted (Connect's restart of a failed task). */
        private void restartFailed() {
            for (SimTask t : new ArrayList<>(tasks)) {
                try {
                    t.backend.checkFailure();
                } catch (SimTarget.InjectedFault e) {
                    trace.add("restart after " + e.getMessage());
                    restart(t);
                }
            }
            assignOrphans();
        }
    }

    @SuppressWarnings("unused")
    private static String show(Object[] a) {
        return Arrays.toString(a);
    }
}
