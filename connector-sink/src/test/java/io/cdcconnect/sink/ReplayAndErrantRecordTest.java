package io.cdcconnect.sink;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Restarts, replays, dead-letter reporting and backpressure, through the task on the real MariaDB. */
class ReplayAndErrantRecordTest {

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo table;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("replay_src");
        target = SinkTarget.database("replay_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        table = Rows.idValue(source.name(), "items");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private Map<String, String> props(String safeMode) {
        return Map.of("schema.map", source.name() + "=" + target.name(), "safe.mode", safeMode);
    }

    private List<SinkRecord> history(TaskDriver driver, long commitMillis) {
        List<SinkRecord> records = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            records.add(driver.recordOf(RowChange.insert(table, new Object[]{(long) i, "v" + i},
                    Rows.ts(commitMillis + i))));
        }
        records.add(driver.recordOf(RowChange.update(table, new Object[]{3L, "v3"}, new Object[]{300L, "moved"},
                Rows.ts(commitMillis + 100))));
        records.add(driver.recordOf(RowChange.delete(table, new Object[]{4L, "v4"}, Rows.ts(commitMillis + 101))));
        return records;
    }

    @Test
    void afterARestartTheReplayWindowIsWrittenInSafeMode() throws Exception {
        long committedAtSource = System.currentTimeMillis() - 5_000;
        List<SinkRecord> records;
        try (TaskDriver first = new TaskDriver(props("auto"))) {
            records = history(first, committedAtSource);
            first.putRecords(records);
            first.awaitApplied();
            // the worker dies before Connect commits the offsets
        }
        try (TaskDriver second = new TaskDriver(props("auto"))) {
            second.putRecords(records);
            second.awaitApplied(records.size());
        }
        assertEquals(39, target.count("items"));
        assertEquals(List.of(List.of("300", "moved")), target.query("SELECT id, v FROM items WHERE id IN (3, 300)"));
    }

    /**
     * With a store ({@code ddl.checkpoint.database}), what a restarted task writes in safe mode into a table with a
     * second unique key is decided by the offsets stored in {@code written_through}, not by the clock: here the source's clock is an hour ahead of the
     * worker's (the old rule, "committed before the task started plus a minute", wrote the replay plainly, and every
     * duplicate key was rolled back and re-planned), and the replay still goes in safe mode, with no re-plan.
     */
    @Test
    void whatARestartedTaskWritesInSafeModeIsDecidedByStoredOffsetsNotByTheClock() throws Exception {
        // a second unique key: the case safe.mode=auto decides by the stored offsets (a table identified by one key
        // alone is written in safe mode throughout, SafeModeDecision)
        target.exec("ALTER TABLE items ADD UNIQUE KEY items_v (v)");
        try (TestDatabase checkpoints = SinkTarget.database("replay_ck")) {
            String name = "replay-" + target.name();
            Map<String, String> props = Map.of("name", name, "ddl.checkpoint.database", checkpoints.name(),
                    "schema.map", source.name() + "=" + target.name(), "safe.mode", "auto");
            long aheadOfTheWorker = System.currentTimeMillis() + 3_600_000;
            List<SinkRecord> records;
            try (TaskDriver first = new TaskDriver(props)) {
                records = history(first, aheadOfTheWorker);
                first.putRecords(records);
                first.awaitApplied();
                assertEquals(0, replanned(name), "a fresh target: written plainly, nothing to re-plan");
                // the worker dies before Connect commits the offsets
            }
            List<List<String>> written = checkpoints.query("SELECT kafka_offset FROM written_through WHERE connector = '"
                    + name + "'");
            assertEquals(1, written.size());
            long through = Long.parseLong(written.get(0).get(0));
            assertTrue(through >= records.size() - 1 && through <= records.size() - 1 + SafeModeDecision.RESERVE,
                    "raised, ahead, before the records were written: " + through);
            try (TaskDriver second = new TaskDriver(props)) {
                second.putRecords(records);
                second.awaitApplied(records.size());
                assertEquals(0, replanned(name), "the replay went in safe mode: no duplicate key to re-plan");
            }
        }
        assertEquals(39, target.count("items"));
        assertEquals(List.of(List.of("300", "moved")), target.query("SELECT id, v FROM items WHERE id IN (3, 300)"));
    }

    /** The task's {@code replays-replanned-total}, from its MBean. */
    private static long replanned(String connector) throws Exception {
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        java.util.Set<javax.management.ObjectName> names = server.queryNames(new javax.management.ObjectName(
                "cdc-connect:type=sink-task-metrics,connector=" + connector + ",*"), null);
        assertEquals(1, names.size(), names.toString());
        return ((Number) server.getAttribute(names.iterator().next(),
                io.cdcconnect.sink.metrics.SinkMetrics.REPLAYS_REPLANNED)).longValue();
    }

    @Test
    void replayWithoutSafeModeFailsOnTheFirstDuplicate() throws Exception {
        long committedAtSource = System.currentTimeMillis() - 5_000;
        List<SinkRecord> records;
        try (TaskDriver first = new TaskDriver(props("never"))) {
            records = history(first, committedAtSource);
            first.putRecords(records);
            first.awaitApplied();
        }
        try (TaskDriver second = new TaskDriver(props("never"))) {
            ConnectException e = assertThrows(ConnectException.class, () -> {
                second.putRecords(records);
                second.awaitApplied(records.size());
            });
            assertTrue(e.getMessage().contains("duplicate key"), e.getMessage());
        }
    }

    @Test
    void aReSnapshotAfterTheReplayWindowIsAppliedAsUpsertsInAutoMode() throws Exception {
        target.exec("INSERT INTO items VALUES (1, 'existing'), (2, 'gone at the source')");
        try (TaskDriver driver = new TaskDriver(props("auto"))) {
            // A re-snapshot (source connector recreated, offsets reset): the rows carry the time they were read, an
            // hour after the task started, far past the replay window, and the target already has them.
            long readAt = System.currentTimeMillis() + 3_600_000;
            driver.put(RowChange.insert(table, new Object[]{1L, "snapshot"}, Rows.ts(readAt)),
                    RowChange.insert(table, new Object[]{5L, "new"}, Rows.ts(readAt)));
            driver.put(RowChange.insert(table, new Object[]{2L, "snapshot 2"}, Rows.ts(readAt + 1)));
            driver.awaitApplied();
            // a row committed later is still written, plainly or not, in order
            driver.put(RowChange.update(table, new Object[]{5L, "new"}, new Object[]{5L, "updated"}, Rows.ts(readAt + 2)));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("1", "snapshot"), List.of("2", "snapshot 2"), List.of("5", "updated")),
                target.query("SELECT id, v FROM items ORDER BY id"));
    }

    @Test
    void undecodableRecordsGoToTheErrantRecordReporterAndOffsetsMovePastThem() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        try (TaskDriver driver = new TaskDriver(props("auto"), context)) {
            List<SinkRecord> records = new ArrayList<>();
            records.add(driver.recordOf(RowChange.insert(table, new Object[]{1L, "a"}, Rows.ts(1000))));
            SinkRecord bad = new SinkRecord(TaskDriver.TOPIC, 0, null, null, null, "{\"truncated\":".getBytes(),
                    driver.nextOffset());
            driver.recordOf(RowChange.insert(table, new Object[]{0L, "skipped"}, Rows.ts(1)));
            records.add(bad);
            records.add(driver.recordOf(RowChange.insert(table, new Object[]{2L, "b"}, Rows.ts(1002))));
            driver.putRecords(records);
            driver.awaitApplied();
            assertEquals(1, context.reports.size());
            assertEquals(bad, context.reports.get(0).record());
            String reason = context.reports.get(0).error().getMessage();
            assertTrue(reason.contains("canal-json") && reason.contains("offset 1"), reason);
            assertEquals(3, driver.committable());
        }
        assertEquals(List.of(List.of("1", "a"), List.of("2", "b")), target.query("SELECT id, v FROM items ORDER BY id"));
    }

    @Test
    void aFullBufferPausesThePartitionsInsteadOfBlockingPut() throws Exception {
        target.exec("INSERT INTO items VALUES (1, 'locked')");
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        org.apache.kafka.common.TopicPartition tp = new org.apache.kafka.common.TopicPartition(TaskDriver.TOPIC, 0);
        try (var locker = target.connect()) {
            locker.setAutoCommit(false);
            locker.createStatement().executeQuery("SELECT * FROM items WHERE id = 1 FOR UPDATE").close();
            Map<String, String> p = new java.util.HashMap<>(props("always"));
            p.put("buffer.max.bytes", "4096");
            p.put("buffer.max.wait.ms", "300");
            try (TaskDriver driver = new TaskDriver(p, context)) {
                driver.task().open(List.of(tp));
                // the first row waits for the lock; its bytes stay buffered
                driver.put(RowChange.update(table, new Object[]{1L, "locked"}, new Object[]{1L, "x".repeat(20)},
                        Rows.ts(1000)));
                driver.task().put(List.of());
                List<SinkRecord> more = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    more.add(driver.recordOf(RowChange.update(table, new Object[]{1L, "x"},
                            new Object[]{1L, "y" + i}, Rows.ts(2000 + i))));
                }
                long start = System.nanoTime();
                driver.putRecords(more);
                assertTrue(System.nanoTime() - start < 5_000_000_000L, "put returns instead of waiting for room");
                assertTrue(context.paused.contains(tp), "the partition is paused while the buffer is full");
                assertEquals(-1, driver.committable());
                locker.commit();
                driver.awaitApplied();
                assertFalse(context.paused.contains(tp), "resumed once the backlog is taken");
            }
        }
        assertEquals(List.of(List.of("y199")), target.query("SELECT v FROM items"));
        assertTrue(context.pauses > 0);
    }
}
