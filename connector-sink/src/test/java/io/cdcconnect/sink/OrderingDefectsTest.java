package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.PartitionRecords;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The defects of the sink's ordering and replay core listed in issue 22, one case each, through real
 * {@link CdcSinkTask}s against the embedded MariaDB. Each case failed on the code the issue was filed against
 * ({@code f94e12f}) and passes now. Items with a focused test elsewhere are not repeated here: 8
 * ({@code UniqueValueAcrossPartitionsTest}), 12 ({@code DebeziumEnvelopeDecoderTest}, flattened records and
 * tombstones), 13 ({@code PostgresDdlStatementCacheTest}).
 * <ol>
 *     <li>A partition paused behind a DDL is resumed when a rebalance takes it away and gives it back (Connect keeps
 *     it paused otherwise, and the task waits for it for good).</li>
 *     <li>A statement coordinated between tasks that waits past {@code ddl.barrier.timeout.ms} is not run: it used to
 *     run without a claim, and the lagging task then claimed it and ran the TRUNCATE a second time.</li>
 *     <li>A task holding every copy partition still claims the statement in {@code ddl_run}: after a rebalance, a new
 *     instance that received one copy again (the other skipped by the checkpoint) re-ran a statement another task had
 *     already run.</li>
 *     <li>A statement the source sends again (a restart re-sends [INSERT 1, TRUNCATE]) runs again: it used to be skipped
 *     as a "late copy" while the row before it was re-applied.</li>
 *     <li>Silence does not let a partition pass a DDL: after 2 s of empty polls the statement used to run before the
 *     silent partition's earlier rows.</li>
 *     <li>A row that does not fit its table is not dropped as a replay because its partition carried a later DDL on
 *     another table (commit ts is no order within a partition).</li>
 *     <li>A topic deleted and recreated under the same name is not skipped up to its predecessor's checkpoint (keyed
 *     by topic name): the record at the checkpoint's offset is read first, and its fingerprint decides
 *     ({@code CheckpointVerifier}); a checkpoint whose record is gone fails the task rather than guess.</li>
 *     <li value="9">(a) TiCDC's Canal-JSON DDL (on partition 0 only) marks its table, not only partition 0: a
 *     changefeed's re-sent row from before a DROP COLUMN on partition 1 is written without the column instead of
 *     failing the task; (b) the checkpoint is written before the DDL runs: a failure right after it no longer leaves
 *     the pre-DDL rows to be rejected on every restart.</li>
 *     <li>While a statement waits on another task and every partition of this one is held, put() asks Connect to call
 *     again soon ({@code context.timeout}): Connect's poll would block until its next offset commit.</li>
 *     <li>Records a transform renamed (RegexRouter) are committed under their original topic (KIP-793).</li>
 * </ol>
 */
class OrderingDefectsTest {

    private static final String TOPIC = TaskDriver.TOPIC;

    private TestDatabase source;
    private TestDatabase target;
    private TestDatabase checkpoints;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("defects_src");
        target = SinkTarget.database("defects_dst");
        checkpoints = SinkTarget.database("defects_ck");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
        checkpoints.close();
    }

    // ---------------------------------------------------------------------------------------------------- item 1

    @Test
    void item01_aPartitionPausedBehindADdlIsResumedAfterARebalance() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        List<SinkRecord> p0 = copyAfterRow(0, 2);
        List<SinkRecord> p1 = copyAfterRow(1, 2);
        StandInSinkTaskContext ctx = context();
        try (TaskDriver task = task(ctx, Map.of(), 0, 1)) {
            task.putRecords(p0);
            poll(5, task);
            assertEquals(Set.of(tp(0)), ctx.paused, "partition 0 passed the statement and is held");
            // an eager rebalance gives the task the same partitions back; Connect keeps paused partitions paused
            task.task().close(List.of(tp(0), tp(1)));
            task.task().open(List.of(tp(0), tp(1)));
            assertEquals(Set.of(), ctx.paused, "nothing is held for a newly assigned partition: none may stay paused");
            // Connect committed nothing yet: it re-delivers partition 0 from offset 0
            task.putRecords(p0);
            task.putRecords(p1);
            awaitCommittable(Map.of(0, 3L, 1, 3L), task);
        }
        assertEquals(List.of(List.of("10"), List.of("11")), target.query("SELECT id FROM items ORDER BY id"));
        assertEquals(Set.of(), ctx.paused);
    }

    // ---------------------------------------------------------------------------------------------------- item 2

    @Test
    void item02_aCoordinatedStatementPastTheBarrierTimeoutWaitsAndRunsOnce() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        List<List<String>> whileWaiting;
        Map<String, String> timeout = Map.of("ddl.barrier.timeout.ms", "200");
        try (TaskDriver leading = task(null, timeout, 0, 1); TaskDriver lagging = task(null, timeout, 2, 3)) {
            List<SinkRecord> lead = new ArrayList<>(copyAfterRow(0, 4));
            lead.addAll(copyAfterRow(1, 4));
            leading.putRecords(lead);
            // polls spaced well past the timeout (and past the old code's 500 ms between coordinator queries)
            pollFor(1_500, leading, lagging);
            whileWaiting = target.query("SELECT id FROM items ORDER BY id");
            List<SinkRecord> lag = new ArrayList<>(copyAfterRow(2, 4));
            lag.addAll(copyAfterRow(3, 4));
            lagging.putRecords(lag);
            awaitCommittable(Map.of(0, 3L, 1, 3L), leading, lagging);
            awaitCommittable(Map.of(2, 3L, 3, 3L), lagging, leading);
        }
        List<List<String>> end = target.query("SELECT id FROM items ORDER BY id");
        assertAll(() -> assertEquals(List.of(List.of("10"), List.of("11"), List.of("12"), List.of("13")), end,
                        "the TRUNCATE ran once, after every row before it: no second TRUNCATE of the rows after it"),
                () -> assertEquals(List.of(List.of("0"), List.of("1")), whileWaiting,
                        "the statement waits for the lagging task's partitions, however long"),
                () -> assertEquals(List.of(List.of("1")), checkpoints.query("SELECT SUM(done) FROM ddl_run"),
                        "one claimed run"));
    }

    // ---------------------------------------------------------------------------------------------------- item 3

    @Test
    void item03_aNewInstanceHoldingEveryCopyPartitionDoesNotRunAStatementAgain() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        List<SinkRecord> p0 = copyAfterRow(0, 2);
        List<SinkRecord> p1 = copyAfterRow(1, 2);
        try (TaskDriver a = task(null, Map.of(), 0); TaskDriver b = task(null, Map.of(), 1)) {
            a.putRecords(p0);
            poll(5, a); // a applied row 0 and recorded partition 0's arrival: it waits for partition 1
            b.putRecords(p1);
            awaitCommittable(Map.of(1, 3L), b); // b's arrival completed the count: b ran the TRUNCATE, then row 11
            assertEquals(List.of(List.of("11")), target.query("SELECT id FROM items ORDER BY id"));
            // a rebalance before a learned that it ran, and before Connect committed anything of partition 0
            a.task().close(List.of(tp(0)));
            b.task().close(List.of(tp(1)));
        }
        try (TaskDriver c = task(null, Map.of(), 0, 1)) {
            // Connect re-delivers partition 0 from offset 0; partition 1 was committed past everything: it is silent
            c.putRecords(p0);
            // longer than the old 2 s silence rule, which let the silent partition 1 pass without its copy
            pollFor(2_500, c);
            awaitCommittable(Map.of(0, 3L), c);
        }
        assertEquals(List.of(List.of("10"), List.of("11")), target.query("SELECT id FROM items ORDER BY id"),
                "the statement ran once: its re-delivered copy did not truncate row 11 written after it");
    }

    // ---------------------------------------------------------------------------------------------------- item 4

    @Test
    void item04_aStatementTheSourceSendsAgainRunsAgainAfterTheRowsBeforeIt() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        TableInfo t = Rows.idValue(source.name(), "items");
        RowChange row1 = RowChange.insert(t, new Object[]{1L, "before"}, Rows.ts(1_000));
        DdlChange truncate = truncate(2_000);
        try (TaskDriver task = task(null, Map.of(), 0, 1)) {
            task.putRecords(records(0, 0, 2, row1, truncate));
            task.putRecords(records(1, 0, 2, truncate));
            awaitCommittable(Map.of(0, 2L, 1, 1L), task);
            assertEquals(List.of(), target.query("SELECT id FROM items"), "the first sending ran");
            // the source restarts from before row 1 and sends [INSERT 1, TRUNCATE] again, then a new row
            task.putRecords(records(0, 2, 2, row1, truncate,
                    RowChange.insert(t, new Object[]{3L, "after"}, Rows.ts(3_000))));
            task.putRecords(records(1, 1, 2, truncate));
            awaitCommittable(Map.of(0, 5L, 1, 2L), task);
        }
        assertEquals(List.of(List.of("3")), target.query("SELECT id FROM items ORDER BY id"),
                "the re-sent TRUNCATE ran again after the re-sent row 1: row 1 does not come back");
    }

    // ---------------------------------------------------------------------------------------------------- item 5

    @Test
    void item05_silenceDoesNotLetAPartitionPassAStatement() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        List<List<String>> whileSilent;
        try (TaskDriver task = task(null, Map.of(), 0, 1)) {
            task.putRecords(copyAfterRow(0, 2));
            // partition 1 is slow to fetch: polls come and go empty, spaced past the old rule's 2 s over 3 polls
            pollFor(2_500, task);
            whileSilent = target.query("SELECT id FROM items ORDER BY id");
            task.putRecords(copyAfterRow(1, 2));
            awaitCommittable(Map.of(0, 3L, 1, 3L), task);
        }
        List<List<String>> end = target.query("SELECT id FROM items ORDER BY id");
        assertAll(() -> assertEquals(List.of(List.of("10"), List.of("11")), end,
                        "the TRUNCATE ran after partition 1's row 1, which was written before it"),
                () -> assertEquals(List.of(List.of("0")), whileSilent,
                        "partition 1 showed nothing: the statement waits for it"));
    }

    // ---------------------------------------------------------------------------------------------------- item 6

    @Test
    void item06_aNewColumnsRowIsNotDroppedForAnEarlierDdlOnAnotherTable() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE other (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        TableInfo wider = wide("items");
        try (TaskDriver task = task(null, Map.of(CdcSinkConfig.AUTO_EVOLVE, "true"), 0)) {
            // a TRUNCATE of another table, then a row stamped a second earlier (a second producer on the topic, or a
            // clock stepped back) with a column the target does not have yet: auto.evolve adds it
            List<SinkRecord> p0 = records(0, 0, 1,
                    new DdlChange(source.name(), "other", "TRUNCATE TABLE other", DdlChange.Kind.TRUNCATE,
                            Rows.ts(2_000)),
                    RowChange.insert(wider, new Object[]{1L, "new", 7L}, Rows.ts(1_000)));
            task.putRecords(p0);
            awaitCommittable(Map.of(0, 2L), task);
        }
        assertEquals(List.of(List.of("1", "new")), target.query("SELECT id, v FROM items"),
                "the row is no replay: no statement ran on its table");
        assertEquals(List.of(List.of("7")), target.query("SELECT c FROM items"), "auto.evolve added c");
    }

    // ---------------------------------------------------------------------------------------------------- item 7

    /**
     * [rows 1..10, TRUNCATE, row 11] applied by a first task: the statement's checkpoint is at offset 10, with the
     * fingerprints of the records at offsets 3 to 10.
     */
    private List<SinkRecord> checkpointedHistory(TableInfo t) throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        List<ChangeEvent> events = new ArrayList<>();
        for (long id = 1; id <= 10; id++) events.add(RowChange.insert(t, new Object[]{id, "old"}, Rows.ts(1_000 + id)));
        events.add(truncate(2_000));
        events.add(RowChange.insert(t, new Object[]{11L, "old"}, Rows.ts(3_000)));
        List<SinkRecord> old = records(0, 0, 1, events.toArray(new ChangeEvent[0]));
        try (TaskDriver first = task(context(), Map.of(), 0)) {
            first.putRecords(old);
            awaitCommittable(Map.of(0, 12L), first);
        }
        assertEquals(List.of(List.of("0", "10")), checkpoints.query(
                "SELECT kafka_partition, kafka_offset FROM ddl_checkpoint WHERE topic = '" + TOPIC + "'"));
        return old;
    }

    @Test
    void item07_aRecreatedTopicIsNotSkippedUpToItsPredecessorsCheckpoint() throws Exception {
        TableInfo t = Rows.idValue(source.name(), "items");
        List<SinkRecord> old = checkpointedHistory(t);
        // the same topic, delivered again from offset 0 (Connect committed nothing): read from offset 3, its records
        // are the ones the checkpoint was written at, so rows 1 to 10 and the TRUNCATE stay skipped
        StandInSinkTaskContext sameContext = context();
        try (TaskDriver same = task(sameContext, Map.of(), 0)) {
            same.putRecords(old);
            awaitCommittable(Map.of(0, 12L), same);
        }
        assertEquals(List.of(Map.entry(tp(0), 3L)), sameContext.seekHistory, "read from the first fingerprinted offset");
        assertEquals(List.of(List.of("11")), target.query("SELECT id FROM items ORDER BY id"));
        assertEquals(List.of(List.of("10")), checkpoints.query(
                "SELECT kafka_offset FROM ddl_checkpoint WHERE topic = '" + TOPIC + "'"), "kept");
        // the topic is deleted and recreated: Kafka drops the group's offsets with it, Connect starts at offset 0, and
        // the new topic's records are other rows
        List<ChangeEvent> fresh = new ArrayList<>();
        for (long id = 20; id < 32; id++) fresh.add(RowChange.insert(t, new Object[]{id, "new"}, Rows.ts(5_000 + id)));
        StandInSinkTaskContext newContext = context();
        try (TaskDriver next = task(newContext, Map.of(), 0)) {
            next.putRecords(records(0, 0, 0, fresh.toArray(new ChangeEvent[0])));
            awaitCommittable(Map.of(0, 12L), next);
        }
        assertEquals(List.of(Map.entry(tp(0), 3L), Map.entry(tp(0), 0L)), newContext.seekHistory,
                "read from offset 3, where it differs, then again from offset 0, where Connect started it");
        assertEquals(13, target.query("SELECT id FROM items").size(), "row 11 and rows 20 to 31: none skipped");
        assertEquals(List.of(), checkpoints.query(
                "SELECT kafka_offset FROM ddl_checkpoint WHERE topic = '" + TOPIC + "'"), "dropped");
    }

    @Test
    void item07_aCheckpointWhoseRecordIsGoneFailsTheTaskRatherThanGuess() throws Exception {
        TableInfo t = Rows.idValue(source.name(), "items");
        // offset 10, the checkpoint's, no longer holds a record (compacted away, or a transaction marker of a recreated
        // topic whose records before it are the old ones)
        List<SinkRecord> gap = new ArrayList<>(checkpointedHistory(t));
        gap.remove(10);
        try (TaskDriver next = task(context(), Map.of(), 0)) {
            ConnectException e = assertThrows(ConnectException.class, () -> next.putRecords(gap));
            assertTrue(e.getMessage().contains("record at 10 is gone") && e.getMessage().contains("PATCH"),
                    e.getMessage());
        }
        assertEquals(List.of(List.of("11")), target.query("SELECT id FROM items ORDER BY id"), "nothing applied");
    }

    // ---------------------------------------------------------------------------------------------------- item 9

    @Test
    void item09a_aTiCdcReSentRowFromBeforeADropColumnOnAnotherPartitionIsWrittenWithoutIt() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20), c BIGINT)");
        TableInfo wide = wide("items");
        TableInfo narrow = Rows.idValue(source.name(), "items");
        RowChange row1 = RowChange.insert(wide, new Object[]{1L, "one", 1L}, Rows.ts(1_001));
        RowChange row11 = RowChange.insert(narrow, new Object[]{11L, "eleven"}, Rows.ts(2_011));
        try (TaskDriver task = task(null, Map.of(), 0, 1)) {
            // TiCDC's Canal-JSON: the DDL on partition 0 only, with no count of copies
            task.putRecords(records(0, 0, 0,
                    RowChange.insert(wide, new Object[]{0L, "zero", 0L}, Rows.ts(1_000)),
                    new DdlChange(source.name(), "items", "ALTER TABLE items DROP COLUMN c", DdlChange.Kind.ALTER,
                            Rows.ts(2_000)),
                    RowChange.insert(narrow, new Object[]{10L, "ten"}, Rows.ts(2_010))));
            task.putRecords(records(1, 0, 0, row1, row11));
            awaitCommittable(Map.of(0, 3L, 1, 2L), task);
            assertEquals(List.of(), target.query("SHOW COLUMNS FROM items LIKE 'c'"), "the DROP COLUMN ran");
            // the changefeed restarts and sends partition 1's rows again, row 1 still with the dropped column
            task.putRecords(records(1, 2, 0, row1, row11));
            awaitCommittable(Map.of(0, 3L, 1, 4L), task);
        }
        assertEquals(List.of(List.of("0"), List.of("1"), List.of("10"), List.of("11")),
                target.query("SELECT id FROM items ORDER BY id"));
    }

    @Test
    void item09b_aFailureRightAfterADdlDoesNotLoseWhatItsCheckpointCovers() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20), c BIGINT)");
        // the checkpoint table as the sink creates it, so that a trigger can fail its writes once the DDL ran: the
        // target failing right after the statement
        checkpoints.exec("CREATE TABLE ddl_checkpoint (connector VARCHAR(255) NOT NULL, topic VARCHAR(255) NOT NULL,"
                        + " kafka_partition INT NOT NULL, kafka_offset BIGINT NOT NULL, ddl_commit_ts BIGINT NOT NULL,"
                        + " updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),"
                        + " PRIMARY KEY (connector, topic, kafka_partition)) DEFAULT CHARSET = utf8mb4",
                "CREATE TRIGGER fail_after_ddl BEFORE INSERT ON ddl_checkpoint FOR EACH ROW BEGIN"
                        + " IF (SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = '" + target.name()
                        + "' AND table_name = 'items' AND column_name = 'c') = 0 THEN"
                        + " SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'target failed right after the DDL'; END IF; END");
        List<SinkRecord> p0 = records(0, 0, 1,
                RowChange.insert(wide("items"), new Object[]{1L, "before", 5L}, Rows.ts(1_000)),
                new DdlChange(source.name(), "items", "ALTER TABLE items DROP COLUMN c", DdlChange.Kind.ALTER,
                        Rows.ts(2_000)),
                RowChange.insert(Rows.idValue(source.name(), "items"), new Object[]{2L, "after"}, Rows.ts(2_010)));
        Map<String, String> noRetry = Map.of(CdcSinkConfig.RETRY_MAX_ATTEMPTS, "0");
        try (TaskDriver first = task(null, noRetry, 0)) {
            assertThrows(ConnectException.class, () -> {
                first.putRecords(p0);
                awaitCommittable(Map.of(0, 3L), first);
            }, "the checkpoint write after the DDL fails");
        }
        assertEquals(List.of(), target.query("SHOW COLUMNS FROM items LIKE 'c'"), "the DDL ran before the failure");
        checkpoints.exec("DROP TRIGGER fail_after_ddl");
        // the checkpoint written before the statement covers row 1 (it depends on the drain returning only once the
        // applied offsets show the drained rows: ApplyStage.awaitIdle; without that, this failed 2 runs in 5)
        // the target is back; Connect committed nothing: the restarted task gets everything from offset 0
        try (TaskDriver restarted = task(null, noRetry, 0)) {
            restarted.putRecords(p0);
            awaitCommittable(Map.of(0, 3L), restarted);
        }
        assertEquals(List.of(List.of("1", "before"), List.of("2", "after")),
                target.query("SELECT id, v FROM items ORDER BY id"));
    }

    // --------------------------------------------------------------------------------------------------- item 10

    @Test
    void item10_whileEveryPartitionIsHeldForAnotherTaskPutAsksToBeCalledAgain() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        StandInSinkTaskContext ctxA = context();
        try (TaskDriver a = task(ctxA, Map.of(), 0); TaskDriver b = task(null, Map.of(), 1)) {
            a.putRecords(copyAfterRow(0, 2));
            poll(3, a);
            assertEquals(Set.of(tp(0)), ctxA.paused, "a's only partition is held: Connect's poll would block");
            assertFalse(ctxA.timeouts.isEmpty(), "put() asked Connect to call again while the statement waits on b");
            assertTrue(ctxA.timeouts.stream().allMatch(ms -> ms > 0 && ms <= 5_000), "soon: " + ctxA.timeouts);
            b.putRecords(copyAfterRow(1, 2));
            awaitCommittable(Map.of(0, 3L), a, b);
            awaitCommittable(Map.of(1, 3L), b, a);
        }
        assertEquals(List.of(List.of("10"), List.of("11")), target.query("SELECT id FROM items ORDER BY id"));
        assertEquals(Set.of(), ctxA.paused);
    }

    // --------------------------------------------------------------------------------------------------- item 11

    @Test
    void item11_recordsARegexRouterRenamedAreCommittedUnderTheirOriginalTopic() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        TableInfo t = Rows.idValue(source.name(), "items");
        List<SinkRecord> renamed = new ArrayList<>();
        for (SinkRecord r : records(0, 0, 0, RowChange.insert(t, new Object[]{1L, "a"}, Rows.ts(1_000)),
                RowChange.insert(t, new Object[]{2L, "b"}, Rows.ts(1_001)))) {
            // what RegexRouter hands the task: a new topic; the original coordinates stay (KIP-793)
            renamed.add(r.newRecord("routed." + r.topic(), r.kafkaPartition(), r.keySchema(), r.key(),
                    r.valueSchema(), r.value(), r.timestamp(), r.headers()));
        }
        assertEquals(TOPIC, renamed.get(0).originalTopic());
        try (TaskDriver task = task(context(), Map.of(), 0)) {
            task.putRecords(renamed);
            // Connect asks about, and commits, the partitions it consumed: the original ones
            awaitCommittable(Map.of(0, 2L), task);
            assertEquals(Map.of(tp(0), new OffsetAndMetadata(2)),
                    task.task().preCommit(Map.of(tp(0), new OffsetAndMetadata(2))));
        }
        assertEquals(List.of(List.of("1"), List.of("2")), target.query("SELECT id FROM items ORDER BY id"));
    }

    // ------------------------------------------------------------------------------------------------- harness

    private static TopicPartition tp(int partition) {
        return new TopicPartition(TOPIC, partition);
    }

    /** A task of a connector named after this test's target, its DDL checkpoint and coordination in its own database. */
    private TaskDriver task(SinkTaskContext context, Map<String, String> extra, int... partitions) {
        Map<String, String> props = new HashMap<>();
        props.put("name", "defects-" + target.name());
        props.put("ddl.checkpoint.database", checkpoints.name());
        props.put("schema.map", source.name() + "=" + target.name());
        props.put("safe.mode", "auto");
        props.putAll(extra);
        TaskDriver d = new TaskDriver(props, context);
        List<TopicPartition> tps = new ArrayList<>();
        for (int p : partitions) tps.add(tp(p));
        if (context instanceof StandInSinkTaskContext r) r.assignment.addAll(tps);
        d.task().open(tps);
        return d;
    }

    private DdlChange truncate(long millis) {
        return new DdlChange(source.name(), "items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE, Rows.ts(millis));
    }

    /** (id, v, c): items as it was before a DROP COLUMN c, or will be after auto.evolve. */
    private TableInfo wide(String table) {
        return TableInfo.of(source.name(), table, List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE),
                ColumnInfo.of("c", MySqlType.LONGLONG, ColumnFlags.NULLABLE)));
    }

    /**
     * Partition {@code p}'s [row p "before", TRUNCATE, row 10+p "after"], the TRUNCATE sent to {@code copies}
     * partitions as cdc-connect's source sends it.
     */
    private List<SinkRecord> copyAfterRow(int p, int copies) {
        TableInfo t = Rows.idValue(source.name(), "items");
        return records(p, 0, copies,
                RowChange.insert(t, new Object[]{(long) p, "before"}, Rows.ts(1_000 + p)),
                truncate(2_000),
                RowChange.insert(t, new Object[]{10L + p, "after"}, Rows.ts(2_010 + p)));
    }

    /** The events as records of {@code partition} from offset {@code first}, each DDL counted to {@code copies}. */
    private static List<SinkRecord> records(int partition, long first, int copies, ChangeEvent... events) {
        List<SinkRecord> out = new ArrayList<>();
        for (SinkRecord r : PartitionRecords.of("canal-json", Map.of(), partition, Arrays.asList(events), copies)) {
            out.add(new SinkRecord(r.topic(), r.kafkaPartition(), r.keySchema(), r.key(), r.valueSchema(), r.value(),
                    r.kafkaOffset() + first, r.timestamp(), r.timestampType(), r.headers()));
        }
        return out;
    }

    /** {@code n} empty polls of each task, as Connect's poll loop makes when nothing arrives. */
    private static void poll(int n, TaskDriver... tasks) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            for (TaskDriver t : tasks) t.putRecords(List.of());
            Thread.sleep(20);
        }
    }

    /** Empty polls every 50 ms for {@code millis}: time passing without data (no outcome may depend on it). */
    private static void pollFor(long millis, TaskDriver... tasks) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < end) {
            for (TaskDriver t : tasks) t.putRecords(List.of());
            Thread.sleep(50);
        }
    }

    /**
     * Polls every task until the first may commit {@code next} (partition to offset) for each partition, and asserts
     * that it may.
     */
    private static void awaitCommittable(Map<Integer, Long> next, TaskDriver task, TaskDriver... others)
            throws InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> current = new LinkedHashMap<>();
        next.forEach((p, o) -> current.put(tp(p), new OffsetAndMetadata(o)));
        long deadline = System.currentTimeMillis() + 15_000;
        Map<TopicPartition, OffsetAndMetadata> committable = Map.of();
        while (System.currentTimeMillis() < deadline) {
            task.putRecords(List.of());
            for (TaskDriver o : others) o.putRecords(List.of());
            committable = task.task().preCommit(current);
            if (committable.equals(current)) return;
            Thread.sleep(20);
        }
        assertEquals(current, committable, "every record applied and committable in time");
    }

    /** Connect's context as far as the task uses it (pauses, resumes, timeouts), on a worker without a DLQ. */
    static StandInSinkTaskContext context() {
        StandInSinkTaskContext c = new StandInSinkTaskContext();
        c.reporting = false;
        c.assignment.clear();
        return c;
    }
}
