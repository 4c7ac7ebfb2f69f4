package io.cdcconnect.sink;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
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
 * The task end to end below Connect: SinkRecords built here (Canal-JSON bytes from the codec's encoder) into the real
 * MariaDB 10.11. No SinkTaskContext is given (Connect's is internal to the worker), so there is no errant-record
 * reporter: undecodable records must fail the task.
 */
class CdcSinkTaskTest {

    private static final String TOPIC = "shop-topic";
    private final CanalJsonEncoder encoder = new CanalJsonEncoder(CanalJsonOptions.defaults());
    private TestDatabase source;
    private TestDatabase target;
    private CdcSinkTask task;
    private long offset;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("sink_task_src");
        target = SinkTarget.database("sink_task_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (task != null) task.stop();
        source.close();
        target.close();
    }

    private void startTask(String safeMode) {
        Map<String, String> props = new HashMap<>();
        props.put("name", "task-test-" + target.name()); // its own DDL checkpoint
        props.put(CdcSinkConfig.CONNECTION_URL, SinkTarget.url());
        props.put(CdcSinkConfig.CONNECTION_USER, SinkTarget.user());
        props.put(CdcSinkConfig.CONNECTION_PASSWORD, SinkTarget.password());
        props.put(CdcSinkConfig.SCHEMA_MAP, source.name() + "=" + target.name());
        props.put(CdcSinkConfig.SAFE_MODE, safeMode);
        props.put(CdcSinkConfig.WORKER_COUNT, "3");
        task = new CdcSinkTask();
        task.start(props);
    }

    private SinkRecord record(ChangeEvent e) {
        return new SinkRecord(TOPIC, 0, null, null, null, encoder.encode(e), offset++);
    }

    private Map<TopicPartition, OffsetAndMetadata> current() {
        return Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(offset));
    }

    private void waitApplied(long expectedNext) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline) {
            task.put(List.of());
            OffsetAndMetadata om = task.preCommit(current()).get(new TopicPartition(TOPIC, 0));
            if (om != null && om.offset() >= expectedNext) return;
            Thread.sleep(20);
        }
        throw new AssertionError("offsets did not reach " + expectedNext);
    }

    @Test
    void appliesInsertsUpdatesAndDeletesAndCommitsOffsetsAfterwards() throws Exception {
        startTask("auto");
        TableInfo t = Rows.idValue(source.name(), "items");
        long now = System.currentTimeMillis() + 3_600_000; // after the replay window: plain writes
        List<SinkRecord> batch = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            batch.add(record(RowChange.insert(t, new Object[]{(long) i, "v" + i}, Rows.ts(now + i))));
        }
        batch.add(record(RowChange.update(t, new Object[]{7L, "v7"}, new Object[]{7L, "seven"}, Rows.ts(now + 100))));
        batch.add(record(RowChange.delete(t, new Object[]{9L, "v9"}, Rows.ts(now + 101))));
        task.put(batch);
        waitApplied(offset);
        assertEquals(49, target.count("items"));
        assertEquals(List.of(List.of("seven")), target.query("SELECT v FROM items WHERE id = 7"));
        assertTrue(target.query("SELECT v FROM items WHERE id = 9").isEmpty());
    }

    @Test
    void replaysHarmlesslyInSafeMode() throws Exception {
        startTask("always");
        TableInfo t = Rows.idValue(source.name(), "items");
        List<SinkRecord> batch = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            batch.add(record(RowChange.insert(t, new Object[]{(long) i, "v" + i}, Rows.ts(1000 + i))));
        }
        batch.add(record(RowChange.update(t, new Object[]{3L, "v3"}, new Object[]{30L, "moved"}, Rows.ts(2000))));
        task.put(batch);
        waitApplied(offset);
        // the same records again, as after a crash before the offsets were committed
        List<SinkRecord> replay = new ArrayList<>();
        for (SinkRecord r : batch) {
            replay.add(new SinkRecord(TOPIC, 0, null, null, null, r.value(), offset++));
        }
        task.put(replay);
        waitApplied(offset);
        assertEquals(10, target.count("items"));
        assertEquals(List.of(List.of("30", "moved")), target.query("SELECT id, v FROM items WHERE id IN (3, 30)"));
    }

    @Test
    void duplicateKeyWithoutSafeModeFailsNamingTheTransaction() throws Exception {
        target.exec("INSERT INTO items VALUES (5, 'already')");
        startTask("never");
        TableInfo t = Rows.idValue(source.name(), "items");
        ConnectException e = assertThrows(ConnectException.class, () -> {
            // the worker's failure surfaces at the end of a put(): this one, when the worker is quick, or a later one
            task.put(List.of(record(RowChange.insert(t, new Object[]{5L, "again"}, Rows.ts(5000)))));
            for (int i = 0; i < 1000; i++) {
                task.put(List.of());
                Thread.sleep(20);
            }
        });
        assertTrue(e.getMessage().contains("duplicate key"), e.getMessage());
        assertTrue(e.getMessage().contains(TOPIC + "-0"), e.getMessage());
        assertEquals(List.of(List.of("already")), target.query("SELECT v FROM items WHERE id = 5"));
        assertTrue(task.preCommit(current()).isEmpty(), "nothing applied, nothing committed");
    }

    @Test
    void theTransactionThatFailsIsNamedAndOnlyTheAppliedPrefixIsCommitted() throws Exception {
        target.exec("INSERT INTO items VALUES (5, 'already')");
        startTask("never");
        TableInfo t = Rows.idValue(source.name(), "items");
        List<SinkRecord> batch = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            // independent transactions, which workers may commit together
            batch.add(record(RowChange.insert(t, new Object[]{(long) i, "v" + i}, Rows.ts(5000 + i))));
        }
        ConnectException e = assertThrows(ConnectException.class, () -> {
            // the worker's failure surfaces at the end of a put(): this one, when the workers are quick, or a later
            // one (it failed the first put() of a busy run, 2026-12-08)
            task.put(batch);
            for (int i = 0; i < 1000; i++) {
                task.put(List.of());
                Thread.sleep(20);
            }
        });
        assertTrue(e.getMessage().contains("offsets 4..4"), e.getMessage());
        assertTrue(e.getMessage().contains("Duplicate entry '5'"), e.getMessage());
        // transactions before the failing one may still be committing on other workers: the reported offset grows
        // to 4 and never beyond
        long committed = -1;
        long deadline = System.currentTimeMillis() + 10_000;
        while (committed < 4 && System.currentTimeMillis() < deadline) {
            OffsetAndMetadata om = task.preCommit(current()).get(new TopicPartition(TOPIC, 0));
            committed = om == null ? -1 : om.offset();
            assertTrue(committed <= 4, "offset " + committed + " passes the failed transaction");
            Thread.sleep(10);
        }
        assertEquals(4L, committed);
        assertEquals(List.of(List.of("1"), List.of("2"), List.of("3"), List.of("4")),
                target.query("SELECT id FROM items WHERE id < 5 ORDER BY id"));
    }

    @Test
    void qualifiedDdlChangesTheMappedDatabaseNotTheSource() throws Exception {
        source.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        startTask("always");
        task.put(List.of(record(new DdlChange(source.name(), "items", "ALTER TABLE `" + source.name()
                + "`.items ADD COLUMN q INT", DdlChange.Kind.ALTER, Rows.ts(3000)))));
        waitApplied(offset);
        assertEquals(1, target.query("SHOW COLUMNS FROM items LIKE 'q'").size());
        assertEquals(0, source.query("SHOW COLUMNS FROM items LIKE 'q'").size());
    }

    @Test
    void databaseLevelDdlOfARenamedDatabaseIsSkipped() throws Exception {
        startTask("always");
        task.put(List.of(record(new DdlChange("", "", "DROP DATABASE IF EXISTS `" + source.name() + "`",
                DdlChange.Kind.QUERY, Rows.ts(3000))), record(new DdlChange(source.name(), "", "DROP DATABASE "
                + source.name(), DdlChange.Kind.QUERY, Rows.ts(3001)))));
        waitApplied(offset);
        assertEquals(1, target.query("SHOW DATABASES LIKE '" + source.name() + "'").size());
        assertEquals(1, target.query("SHOW DATABASES LIKE '" + target.name() + "'").size());
    }

    @Test
    void aTableAlteredOutsideTheStreamIsReadAgain() throws Exception {
        startTask("always");
        TableInfo t = Rows.idValue(source.name(), "items");
        task.put(List.of(record(RowChange.insert(t, new Object[]{1L, "a"}, Rows.ts(1000)))));
        waitApplied(offset);
        target.exec("ALTER TABLE items ADD COLUMN note VARCHAR(10)");
        TableInfo wider = TableInfo.of(source.name(), "items", List.of(t.column(0), t.column(1),
                io.cdcconnect.codec.model.ColumnInfo.of("note", io.cdcconnect.codec.model.MySqlType.VARCHAR,
                        io.cdcconnect.codec.model.ColumnFlags.NULLABLE)));
        task.put(List.of(record(RowChange.insert(wider, new Object[]{2L, "b", "hi"}, Rows.ts(1001)))));
        waitApplied(offset);
        assertEquals(List.of(List.of("2", "hi")), target.query("SELECT id, note FROM items WHERE id = 2"));
    }

    @Test
    void aColumnTheTargetLacksFailsNamingTableAndColumn() {
        startTask("always");
        TableInfo t = Rows.idValue(source.name(), "items");
        TableInfo wider = TableInfo.of(source.name(), "items", List.of(t.column(0), t.column(1),
                io.cdcconnect.codec.model.ColumnInfo.of("ghost", io.cdcconnect.codec.model.MySqlType.LONG, 0)));
        ConnectException e = assertThrows(ConnectException.class, () -> {
            task.put(List.of(record(RowChange.insert(wider, new Object[]{3L, "c", 1L}, Rows.ts(1002)))));
            task.put(List.of());
        });
        assertTrue(e.getMessage().contains("`ghost`") && e.getMessage().contains(target.name() + ".items")
                && e.getMessage().contains("topic " + TOPIC + ", partition 0, offset 0"), e.getMessage());
    }

    @Test
    void undecodableRecordWithoutReporterFailsNamingTopicPartitionOffset() {
        startTask("auto");
        SinkRecord bad = new SinkRecord(TOPIC, 0, null, null, null, "{not json".getBytes(), 42);
        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of(bad)));
        assertTrue(e.getMessage().contains("topic " + TOPIC + ", partition 0, offset 42"), e.getMessage());
    }

    @Test
    void ddlRunsAfterEarlierRowsInTheMappedDatabaseAndIsHarmlessOnReplay() throws Exception {
        startTask("always");
        TableInfo t = Rows.idValue(source.name(), "items");
        DdlChange add = new DdlChange(source.name(), "items", "ALTER TABLE items ADD COLUMN extra INT",
                DdlChange.Kind.ALTER, Rows.ts(3000));
        DdlChange create = new DdlChange(source.name(), "other", "CREATE TABLE other (id INT PRIMARY KEY)",
                DdlChange.Kind.CREATE, Rows.ts(3001));
        List<SinkRecord> batch = new ArrayList<>();
        batch.add(record(RowChange.insert(t, new Object[]{1L, "before"}, Rows.ts(2999))));
        batch.add(record(add));
        batch.add(record(create));
        task.put(batch);
        waitApplied(offset);
        assertEquals(List.of(java.util.Arrays.asList("1", "before", null)), target.query("SELECT id, v, extra FROM items"));
        assertEquals(1, target.query("SHOW TABLES LIKE 'other'").size());
        // replayed with other commit ts (a new source incarnation): errors 1060/1050 are tolerated
        task.put(List.of(record(new DdlChange(source.name(), "items", add.query(), add.kind(), Rows.ts(4000))),
                record(new DdlChange(source.name(), "other", create.query(), create.kind(), Rows.ts(4001)))));
        waitApplied(offset);
        assertEquals(1, target.query("SHOW TABLES LIKE 'other'").size());
    }
}
