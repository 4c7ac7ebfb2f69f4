package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.PartitionRecords;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who runs a statement sent to several partitions when its partitions move while it waits or runs (issue 38, items 1,
 * 2 and 4), through real {@link CdcSinkTask}s against the embedded MariaDB. The target's general log counts the
 * TRUNCATEs the server received: a second one, after rows that followed the first, is the loss the issue reports.
 */
class DdlClaimTest {

    private static final String TOPIC = TaskDriver.TOPIC;

    private TestDatabase source;
    private TestDatabase target;
    private TestDatabase checkpoints;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("claim_src");
        target = SinkTarget.database("claim_dst");
        checkpoints = SinkTarget.database("claim_ck");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
        checkpoints.close();
    }

    /**
     * Item 4: the claimant's TRUNCATE waits for a metadata lock (a long ALTER, a busy table). It runs beside the task
     * thread: {@code put()} keeps returning, so the consumer keeps polling and its group membership, and the rows
     * behind the statement stay held. If its partitions move anyway (a rebalance; or at a092367 a consumer that left
     * the group because {@code put()} blocked past its poll interval), the claimant finishes the statement before it
     * lets them go, and the new owner waits while the claimant's session holds the run lock: at a092367 it took the
     * claim over at once ("claimed by a task that no longer holds partition 0: this task runs it") and ran the
     * TRUNCATE a second time.
     */
    @Test
    void aClaimantStillRunningTheStatementIsNotRunOverByTheNewOwnerOfItsPartitions() throws Exception {
        List<SinkRecord> p0 = copyAfterRow(0, 2);
        List<SinkRecord> p1 = copyAfterRow(1, 2);
        try (Connection holder = connect(); GeneralLog log = new GeneralLog()) {
            // an open transaction that read the table holds its metadata lock: the TRUNCATE waits behind it
            holder.setAutoCommit(false);
            try (Statement st = holder.createStatement()) {
                st.executeQuery("SELECT COUNT(*) FROM items").close();
            }
            TaskDriver a = task(0, 1);
            TaskDriver b = task();
            try {
                List<SinkRecord> all = new ArrayList<>(p0);
                all.addAll(p1);
                // a holds both partitions: both copies arrive, it claims the statement and starts it; put() returns
                CompletableFuture<Void> putting = CompletableFuture.runAsync(() -> {
                    a.putRecords(all);
                    for (int i = 0; i < 10; i++) a.putRecords(List.of());
                });
                putting.get(30, TimeUnit.SECONDS);
                awaitClaimed();
                // (the table itself is not read here: a reader queues behind the waiting TRUNCATE's metadata lock)
                assertEquals(1, log.truncates(), "a's TRUNCATE reached the server and waits there");
                // the partitions move to b; Connect closes them on a first, which finishes the statement first
                CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> a.task().close(List.of(tp(0),
                        tp(1))));
                b.task().open(List.of(tp(0), tp(1)));
                CompletableFuture<Void> polling = CompletableFuture.runAsync(() -> {
                    b.putRecords(all);
                    for (int i = 0; i < 20; i++) {
                        b.putRecords(List.of());
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
                try {
                    polling.get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    holder.commit();
                    throw new AssertionError("b blocked for 30 s running the claimed statement itself while a still "
                            + "ran it (a second TRUNCATE, queued behind the first)", e);
                }
                assertFalse(closing.isDone(), "a's statement still waits for the metadata lock, and a with it");
                assertEquals(1, log.truncates(), "b did not run it too");
                assertEquals(List.of(List.of("0")), checkpoints.query("SELECT COUNT(*) FROM ddl_run WHERE done = 1"));
                holder.commit(); // the lock goes: a's TRUNCATE runs
                closing.get(60, TimeUnit.SECONDS);
                awaitCommittable(Map.of(0, 3L, 1, 3L), b);
            } finally {
                a.close();
                b.close();
            }
            assertEquals(1, log.truncates(), "the server received the TRUNCATE once");
        }
        assertEquals(List.of(List.of("10"), List.of("11")), target.query("SELECT id FROM items ORDER BY id"));
    }

    /**
     * Item 1: a partial (cooperative) revocation took away the partition whose copy came first while the task kept
     * another that passed the statement. At a092367 the task still claimed it for the partition it no longer held,
     * and the new owner of that partition took the claim over while the first task ran it. Now the statement is held
     * for a partition the task still holds, and its claim names that one.
     */
    @Test
    void aStatementIsClaimedOnlyForAPartitionTheTaskStillHolds() throws Exception {
        List<SinkRecord> p0 = copyAfterRow(0, 3);
        List<SinkRecord> p1 = copyAfterRow(1, 3);
        List<SinkRecord> p2 = copyAfterRow(2, 3);
        try (TaskDriver a = task(0, 1); TaskDriver b = task(2)) {
            a.putRecords(p0); // the first copy a holds is partition 0's
            a.putRecords(p1);
            poll(3, a);
            // cooperative rebalance: partition 0 leaves a for b; a keeps partition 1
            a.task().close(List.of(tp(0)));
            b.task().open(List.of(tp(0)));
            b.putRecords(p2);
            b.putRecords(p0);
            awaitCommittable(Map.of(0, 3L, 2, 3L), b, a);
            awaitCommittable(Map.of(1, 3L), a, b);
        }
        List<List<String>> claims = checkpoints.query("SELECT claimed_partition, done FROM ddl_run");
        assertEquals(1, claims.size(), "one sending, one claim: " + claims);
        assertEquals("1", claims.get(0).get(1), "run");
        assertEquals(List.of(List.of("10"), List.of("11"), List.of("12")),
                target.query("SELECT id FROM items ORDER BY id"));
    }

    /**
     * Item 2: a connector of several tasks without a control store would run a statement sent to several partitions
     * once per task. At a092367 it did (a TRUNCATE on two tasks 136 ms apart, 37 rows lost, nothing warned); now
     * validation refuses the configuration, and a task that bypassed it fails on such a statement, naming the fix.
     */
    @Test
    void severalTasksWithoutAControlStoreNeverRunAStatementOncePerTask() {
        Map<String, String> props = new HashMap<>();
        props.put("name", "claims-nostore");
        props.put("connection.url", SinkTarget.url());
        props.put("connection.user", SinkTarget.user());
        props.put("schema.map", source.name() + "=" + target.name());
        props.put("ddl.checkpoint.database", "");
        props.put("tasks.max", "2");
        org.apache.kafka.common.config.ConfigValue store = new CdcSinkConnector().validate(props).configValues()
                .stream().filter(v -> v.name().equals(CdcSinkConfig.DDL_CHECKPOINT_DATABASE)).findFirst().orElseThrow();
        assertEquals(1, store.errorMessages().size(), "refused on ddl.checkpoint.database: " + store.errorMessages());
        assertTrue(store.errorMessages().get(0).contains("tasks.max is 2"), store.errorMessages().get(0));
        props.put("tasks.max", "1");
        assertTrue(new CdcSinkConnector().validate(props).configValues().stream()
                .filter(v -> v.name().equals(CdcSinkConfig.DDL_CHECKPOINT_DATABASE))
                .allMatch(v -> v.errorMessages().isEmpty()), "one task needs no store");
        props.put("tasks.max", "2");
        props.put("ddl.apply", "none");
        assertTrue(new CdcSinkConnector().validate(props).configValues().stream()
                .filter(v -> v.name().equals(CdcSinkConfig.DDL_CHECKPOINT_DATABASE))
                .allMatch(v -> v.errorMessages().isEmpty()), "no DDL applied, nothing to agree on");

        Map<String, String> taskProps = new HashMap<>();
        taskProps.put("name", "claims-nostore");
        taskProps.put("schema.map", source.name() + "=" + target.name());
        taskProps.put("task.count", "2");
        // the task's own check: a configuration written past validation fails the task, not the data
        RuntimeException refused = assertThrows(RuntimeException.class, () -> {
            try (TaskDriver t = new TaskDriver(taskProps)) {
                t.task().open(List.of(tp(0), tp(1)));
                t.putRecords(copyAfterRow(0, 2));
            }
        });
        assertTrue(String.valueOf(refused.getMessage()).contains(CdcSinkConfig.DDL_CHECKPOINT_DATABASE),
                refused.getMessage());
    }

    /**
     * The forged checkpoint of issue 38: a second sink with its own {@code ddl.checkpoint.database} and
     * {@code schema.include} naming the first one's control database passed validation, and one INSERT through it
     * moved the first sink's checkpoint, which then skipped a valid row. A database holding control tables now takes
     * no message, whoever owns them: validation refuses it against the live target, and a task started anyway
     * refuses its records.
     */
    @Test
    void noSinkWritesIntoADatabaseHoldingControlTables() throws Exception {
        // the first sink's control tables (as its store creates them) in a database of its own
        try (TaskDriver first = task(0)) {
            first.putRecords(copyAfterRow(0, 1));
            awaitCommittable(Map.of(0, 3L), first);
        }
        assertFalse(checkpoints.query("SELECT 1 FROM ddl_checkpoint").isEmpty(), "the first sink's checkpoint");
        Map<String, String> second = new HashMap<>();
        second.put("name", "claims-second");
        second.put("connection.url", SinkTarget.url());
        second.put("connection.user", SinkTarget.user());
        second.put("connection.password", SinkTarget.password());
        second.put("ddl.checkpoint.database", "ctl2_" + checkpoints.name());
        second.put("schema.include", checkpoints.name());
        List<String> errors = new CdcSinkConnector().validate(second).configValues().stream()
                .filter(v -> v.name().equals(CdcSinkConfig.SCHEMA_INCLUDE)).findFirst().orElseThrow().errorMessages();
        assertTrue(errors.stream().anyMatch(m -> m.contains("control tables")), "refused by validation: " + errors);

        List<List<String>> before = checkpoints.query("SELECT topic, kafka_partition, kafka_offset FROM ddl_checkpoint");
        Map<String, String> forced = new HashMap<>(second);
        forced.remove("connection.url");
        forced.remove("connection.user");
        forced.remove("connection.password");
        TableInfo forged = Rows.idValue(checkpoints.name(), "ddl_checkpoint");
        RuntimeException refused = assertThrows(RuntimeException.class, () -> {
            try (TaskDriver t = new TaskDriver(forced)) {
                t.task().open(List.of(tp(0)));
                t.putRecords(PartitionRecords.of("canal-json", Map.of(), 0, List.of(RowChange.insert(forged,
                        new Object[]{1_000_000L, "forged"}, Rows.ts(5_000))), 1));
                t.putRecords(List.of());
            }
        });
        assertTrue(String.valueOf(refused.getMessage()).contains("control database"), refused.getMessage());
        assertEquals(before, checkpoints.query("SELECT topic, kafka_partition, kafka_offset FROM ddl_checkpoint"),
                "the first sink's checkpoint is untouched");
    }

    // ---------------------------------------------------------------------------------------------------- helpers

    /** The server's general log, on while the test runs: what the server received. */
    private final class GeneralLog implements AutoCloseable {
        private final Connection c;

        GeneralLog() throws Exception {
            c = connect();
            try (Statement st = c.createStatement()) {
                st.execute("SET GLOBAL log_output = 'TABLE'");
                st.execute("TRUNCATE TABLE mysql.general_log");
                st.execute("SET GLOBAL general_log = ON");
            }
        }

        /** TRUNCATEs of this test's target table the server received. */
        int truncates() throws Exception {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM "
                    + "mysql.general_log WHERE command_type = 'Query' AND CONVERT(argument USING utf8mb4) LIKE "
                    + "'TRUNCATE%' AND CONVERT(argument USING utf8mb4) LIKE '%items%' AND CONVERT(argument USING "
                    + "utf8mb4) NOT LIKE '%general_log%'")) {
                rs.next();
                return rs.getInt(1);
            }
        }

        @Override
        public void close() throws Exception {
            try (c; Statement st = c.createStatement()) {
                st.execute("SET GLOBAL general_log = OFF");
            }
        }
    }

    private Connection connect() throws Exception {
        Connection c = DriverManager.getConnection(SinkTarget.url() + target.name(), SinkTarget.user(),
                SinkTarget.password());
        return c;
    }

    /** Until a task has claimed the statement ({@code ddl_run}). */
    private void awaitClaimed() throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            if (checkpoints.query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                    + checkpoints.name() + "' AND table_name = 'ddl_run'").equals(List.of(List.of("1")))
                    && !checkpoints.query("SELECT 1 FROM ddl_run").isEmpty()) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no task claimed the statement in 30 s");
    }

    /** A task of this test's connector with the control store, given {@code partitions}. */
    private TaskDriver task(int... partitions) {
        Map<String, String> props = new HashMap<>();
        props.put("name", "claims-" + target.name());
        props.put("ddl.checkpoint.database", checkpoints.name());
        props.put("schema.map", source.name() + "=" + target.name());
        props.put("safe.mode", "auto");
        TaskDriver d = new TaskDriver(props);
        List<TopicPartition> tps = new ArrayList<>();
        for (int p : partitions) tps.add(tp(p));
        d.task().open(tps);
        return d;
    }

    private static TopicPartition tp(int partition) {
        return new TopicPartition(TOPIC, partition);
    }

    /** Partition {@code p}: row p, the TRUNCATE (counted to {@code copies} partitions), row 10 + p. */
    private List<SinkRecord> copyAfterRow(int p, int copies) {
        TableInfo t = Rows.idValue(source.name(), "items");
        DdlChange truncate = new DdlChange(source.name(), "items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE,
                Rows.ts(2_000));
        List<ChangeEvent> events = Arrays.asList(RowChange.insert(t, new Object[]{(long) p, "before"},
                Rows.ts(1_000 + p)), truncate, RowChange.insert(t, new Object[]{10L + p, "after"}, Rows.ts(2_010 + p)));
        return PartitionRecords.of("canal-json", Map.of(), p, events, copies);
    }

    private static void poll(int n, TaskDriver... tasks) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            for (TaskDriver t : tasks) t.putRecords(List.of());
            Thread.sleep(20);
        }
    }

    /** Until {@code task}'s preCommit gives exactly {@code next} (partition to next offset), the others polled too. */
    private static void awaitCommittable(Map<Integer, Long> next, TaskDriver task, TaskDriver... others)
            throws InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> current = new LinkedHashMap<>();
        next.forEach((p, o) -> current.put(tp(p), new OffsetAndMetadata(o)));
        long deadline = System.currentTimeMillis() + 30_000;
        Map<TopicPartition, OffsetAndMetadata> committable = Map.of();
        while (System.currentTimeMillis() < deadline) {
            task.putRecords(List.of());
            for (TaskDriver o : others) o.putRecords(List.of());
            committable = task.task().preCommit(current);
            if (committable.equals(current)) return;
            Thread.sleep(20);
        }
        throw new AssertionError("not committable in 30 s: " + committable + " of " + current);
    }
}
