package io.cdcconnect.sink;

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
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A TRUNCATE sent to all four partitions of a topic (as cdc-connect's source does under a rule that spreads a table's
 * rows), two sink tasks holding two partitions each, one of them lagging, against a real MariaDB. The statement must
 * run once, after both tasks applied every row from before it, and before either applies a row from after it. Before
 * the coordination, each task ran it when its own partitions had passed it: the leading task truncated early, the
 * lagging task's older row survived, and the lagging task's own TRUNCATE then deleted the rows the leading task had
 * applied after it.
 */
class DdlAcrossTasksTest {

    private TestDatabase source;
    private TestDatabase target;
    private TestDatabase checkpoints;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("tasks_src");
        target = SinkTarget.database("tasks_dst");
        checkpoints = SinkTarget.database("tasks_ck");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
        checkpoints.close();
    }

    private TaskDriver task(int... partitions) {
        return task(Map.of(), partitions);
    }

    private TaskDriver task(Map<String, String> extra, int... partitions) {
        Map<String, String> props = new HashMap<>(Map.of("name", "across-" + target.name(), "ddl.checkpoint.database",
                checkpoints.name(), "schema.map", source.name() + "=" + target.name()));
        props.putAll(extra);
        TaskDriver d = new TaskDriver(props);
        List<TopicPartition> tps = new ArrayList<>();
        for (int p : partitions) tps.add(new TopicPartition(TaskDriver.TOPIC, p));
        d.task().open(tps);
        return d;
    }

    @Test
    void aTruncateOnEveryPartitionRunsOnceAfterBothTasksPassedIt() throws Exception {
        TableInfo t = Rows.idValue(source.name(), "items");
        DdlChange truncate = new DdlChange(source.name(), "items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE,
                Rows.ts(2_000));
        Map<Integer, List<SinkRecord>> parts = new HashMap<>();
        for (int p = 0; p < 4; p++) {
            parts.put(p, PartitionRecords.of("canal-json", Map.of(), p, List.of(
                    RowChange.insert(t, new Object[]{(long) p, "before"}, Rows.ts(1_000 + p)),
                    truncate,
                    RowChange.insert(t, new Object[]{10L + p, "after"}, Rows.ts(2_010 + p))), 4));
        }
        try (TaskDriver leading = task(0, 1); TaskDriver lagging = task(2, 3)) {
            List<SinkRecord> all01 = new ArrayList<>(parts.get(0));
            all01.addAll(parts.get(1));
            leading.putRecords(all01);
            // the lagging task has only its partition 2's row from before the statement so far
            lagging.putRecords(List.of(parts.get(2).get(0)));
            for (int i = 0; i < 10; i++) {
                leading.putRecords(List.of());
                lagging.putRecords(List.of());
                Thread.sleep(100);
            }
            assertEquals(List.of(List.of("before", "3")), target.query(
                    "SELECT v, COUNT(*) FROM items GROUP BY v"), "nothing after the statement before it ran; "
                    + "the lagging task's partition 3 has not passed it yet");
            List<SinkRecord> rest = new ArrayList<>(parts.get(2).subList(1, parts.get(2).size()));
            rest.addAll(parts.get(3));
            lagging.putRecords(rest);
            long deadline = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < deadline && !(applied(leading, 0, 1) && applied(lagging, 2, 3))) {
                leading.putRecords(List.of());
                lagging.putRecords(List.of());
                Thread.sleep(100);
            }
        }
        assertEquals(List.of(List.of("10"), List.of("11"), List.of("12"), List.of("13")),
                target.query("SELECT id FROM items ORDER BY id"),
                "the statement ran once, after every row before it and before every row after it");
        assertEquals(List.of(List.of("4", "1")), checkpoints.query(
                "SELECT (SELECT COUNT(*) FROM ddl_barrier), (SELECT SUM(done) FROM ddl_run)"));
    }

    /**
     * A partition that stays silent holds the statement on every task: its copy is the only evidence that it has
     * nothing from before the statement (it was counted as arrived after 2 s of silence, and then its copy, coming
     * after the statement ran, had to be recognised as late; on a loaded machine the silence was a slow fetch, and the
     * statement overtook that partition's older rows). When the copy comes, the statement runs once, on one task.
     */
    @Test
    void aSilentPartitionHoldsTheStatementUntilItsCopyComesThenItRunsOnce() throws Exception {
        TableInfo t = Rows.idValue(source.name(), "items");
        DdlChange truncate = new DdlChange(source.name(), "items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE,
                Rows.ts(2_000));
        Map<Integer, List<SinkRecord>> parts = new HashMap<>();
        for (int p = 0; p < 3; p++) {
            parts.put(p, PartitionRecords.of("canal-json", Map.of(), p, List.of(
                    RowChange.insert(t, new Object[]{(long) p, "before"}, Rows.ts(1_000 + p)),
                    truncate,
                    RowChange.insert(t, new Object[]{10L + p, "after"}, Rows.ts(2_010 + p))), 4));
        }
        // partition 3 stays silent for a while, then brings its row from before, its copy and a row after it
        List<SinkRecord> late = PartitionRecords.of("canal-json", Map.of(), 3, List.of(
                RowChange.insert(t, new Object[]{3L, "before"}, Rows.ts(1_003)), truncate,
                RowChange.insert(t, new Object[]{13L, "after"}, Rows.ts(2_013))), 4);
        try (TaskDriver first = task(0, 1); TaskDriver second = task(2, 3)) {
            List<SinkRecord> all01 = new ArrayList<>(parts.get(0));
            all01.addAll(parts.get(1));
            first.putRecords(all01);
            second.putRecords(parts.get(2));
            long quiet = System.currentTimeMillis() + 3_000;
            while (System.currentTimeMillis() < quiet) {
                first.putRecords(List.of());
                second.putRecords(List.of());
                Thread.sleep(100);
            }
            assertEquals(List.of(List.of("0"), List.of("1"), List.of("2")),
                    target.query("SELECT id FROM items ORDER BY id"), "partition 3 holds the statement");
            assertTrue(committable(first, 1, 0, 1) && committable(second, 1, 2), "the rows before it are applied");
            second.putRecords(late);
            long deadline = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < deadline
                    && !(committable(first, 3, 0, 1) && committable(second, 3, 2, 3))) {
                first.putRecords(List.of());
                second.putRecords(List.of());
                Thread.sleep(100);
            }
            assertTrue(committable(first, 3, 0, 1) && committable(second, 3, 2, 3), "every record applied");
        }
        assertEquals(List.of(List.of("10"), List.of("11"), List.of("12"), List.of("13")),
                target.query("SELECT id FROM items ORDER BY id"), "the statement ran once, after every row before it");
        assertEquals(List.of(List.of("1")), checkpoints.query("SELECT SUM(done) FROM ddl_run"));
    }

    /** Whether Connect may commit {@code next} for each of {@code partitions}. */
    private static boolean committable(TaskDriver d, long next, int... partitions) {
        Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
        for (int p : partitions) current.put(new TopicPartition(TaskDriver.TOPIC, p), new OffsetAndMetadata(next));
        return d.task().preCommit(current).equals(current);
    }

    /**
     * A statement without a count of its copies (as TiCDC and Debezium's TRUNCATE send them) on a connector of two
     * tasks: no task can tell when the other's partitions have passed it, so the task fails, naming it and the way
     * out, and runs nothing; the row before it stays applied. With ddl.uncounted.across.tasks=run (the user says each
     * such topic has one partition) the task runs it once its own partition has passed it.
     */
    @Test
    void aStatementWithoutACountFailsATaskOfSeveralUnlessTheUserSaysItsTopicHasOnePartition() throws Exception {
        TableInfo t = Rows.idValue(source.name(), "items");
        DdlChange truncate = new DdlChange(source.name(), "items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE,
                Rows.ts(2_000));
        List<SinkRecord> records = PartitionRecords.of("canal-json", Map.of(), 0, List.of(
                RowChange.insert(t, new Object[]{1L, "before"}, Rows.ts(1_000)), truncate,
                RowChange.insert(t, new Object[]{2L, "after"}, Rows.ts(2_010))), 0);
        try (TaskDriver two = task(Map.of("task.count", "2"), 0)) {
            ConnectException e = assertThrows(ConnectException.class, () -> two.putRecords(records));
            assertTrue(e.getMessage().contains("came without a count") && e.getMessage().contains("tasks.max=1")
                    && e.getMessage().contains("ddl.uncounted.across.tasks=run"), e.getMessage());
        }
        assertEquals(List.of(List.of("1", "before")), target.query("SELECT id, v FROM items ORDER BY id"),
                "the row before the statement applied, the statement not run, nothing after it");
        try (TaskDriver asserted = task(Map.of("task.count", "2", "ddl.uncounted.across.tasks", "run"), 0)) {
            asserted.putRecords(records);
            long deadline = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < deadline
                    && !target.query("SELECT id FROM items").equals(List.of(List.of("2")))) {
                asserted.putRecords(List.of());
                Thread.sleep(50);
            }
        }
        assertEquals(List.of(List.of("2", "after")), target.query("SELECT id, v FROM items ORDER BY id"));
    }

    private static boolean applied(TaskDriver d, int... partitions) {
        Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
        for (int p : partitions) current.put(new TopicPartition(TaskDriver.TOPIC, p), new OffsetAndMetadata(3));
        return d.task().preCommit(current).equals(current);
    }
}
