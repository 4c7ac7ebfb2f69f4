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
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A DDL statement on one partition while its table's rows are spread over four (TiCDC's Canal-JSON: DDL on partition
 * 0, rows by key), with one partition lagging behind the statement and one silent, through the task against a real
 * MariaDB. The statement must wait until no partition can still deliver a row from before it: before the barrier
 * covered Canal-JSON, it ran as soon as partition 0 delivered it, and the lagging partition's older rows, which carry
 * the dropped column, failed the task ("Unknown column 'c'"). Only data lets a partition pass it: silence does not
 * (it did, after 2 s, until a loaded machine showed that 2 s of silence is no evidence; docs/ordering.md).
 */
class DdlAcrossPartitionsTest {

    private TestDatabase source;
    private TestDatabase target;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("bar_src");
        target = SinkTarget.database("bar_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20), c INT)");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    @Test
    void aDropColumnWaitsForALaggingPartitionsOlderRowsAndASilentPartition() throws Exception {
        TableInfo before = TableInfo.of(source.name(), "items", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE),
                ColumnInfo.of("c", MySqlType.LONG, ColumnFlags.NULLABLE)));
        TableInfo after = Rows.idValue(source.name(), "items");
        DdlChange drop = new DdlChange(source.name(), "items", "ALTER TABLE items DROP COLUMN c", DdlChange.Kind.ALTER,
                Rows.ts(2_000));
        // partition 0: old rows, the statement, new rows; partition 1 is ahead (its next row is after the statement);
        // partition 2 lags (its old rows come later); partition 3 says nothing
        List<ChangeEvent> p0 = new ArrayList<>();
        for (long id = 1; id <= 3; id++) p0.add(RowChange.insert(before, new Object[]{id, "old", 7}, Rows.ts(1_000 + id)));
        p0.add(drop);
        p0.add(RowChange.insert(after, new Object[]{10L, "new"}, Rows.ts(2_010)));
        List<ChangeEvent> p1 = List.of(
                RowChange.insert(before, new Object[]{4L, "old", 7}, Rows.ts(1_004)),
                RowChange.insert(after, new Object[]{11L, "new"}, Rows.ts(2_011)));
        List<ChangeEvent> p2 = List.of(
                RowChange.insert(before, new Object[]{5L, "old", 7}, Rows.ts(1_005)),
                RowChange.update(before, new Object[]{5L, "old", 7}, new Object[]{5L, "old", 8}, Rows.ts(1_900)),
                RowChange.insert(after, new Object[]{12L, "new"}, Rows.ts(2_012)));
        List<SinkRecord> r0 = PartitionRecords.of("canal-json", Map.of(), 0, p0);
        List<SinkRecord> r1 = PartitionRecords.of("canal-json", Map.of(), 1, p1);
        List<SinkRecord> r2 = PartitionRecords.of("canal-json", Map.of(), 2, p2);
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < 4; p++) tps.add(new TopicPartition(TaskDriver.TOPIC, p));
        try (TaskDriver driver = new TaskDriver(Map.of("input.format", "canal-json", "schema.map",
                source.name() + "=" + target.name()))) {
            driver.task().open(tps);
            List<SinkRecord> first = new ArrayList<>(r0);
            first.addAll(r1);
            driver.putRecords(first);
            driver.putRecords(List.of());
            assertEquals(1, target.query("SHOW COLUMNS FROM items LIKE 'c'").size(),
                    "partition 2 may still deliver rows from before the statement");
            driver.putRecords(r2);
            driver.putRecords(List.of());
            assertEquals(1, target.query("SHOW COLUMNS FROM items LIKE 'c'").size(),
                    "partition 3 has not been silent long enough to count as having nothing before the statement");
            // what Connect does while nothing arrives: empty polls, each followed by put(); longer than the old 2 s rule
            long quiet = System.currentTimeMillis() + 3_000;
            while (System.currentTimeMillis() < quiet) {
                driver.putRecords(List.of());
                Thread.sleep(100);
            }
            assertEquals(1, target.query("SHOW COLUMNS FROM items LIKE 'c'").size(),
                    "partition 3 has shown nothing: silence is no evidence that it has passed the statement");
            // partition 3's first event, committed after the statement (TiCDC writes every row from before a DDL
            // before the DDL): now every partition has passed it
            List<SinkRecord> r3 = PartitionRecords.of("canal-json", Map.of(), 3, List.of(
                    RowChange.insert(after, new Object[]{13L, "new"}, Rows.ts(2_013))));
            driver.putRecords(r3);
            Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
            current.put(tps.get(0), new OffsetAndMetadata(r0.size()));
            current.put(tps.get(1), new OffsetAndMetadata(r1.size()));
            current.put(tps.get(2), new OffsetAndMetadata(r2.size()));
            current.put(tps.get(3), new OffsetAndMetadata(r3.size()));
            long deadline = System.currentTimeMillis() + 30_000;
            Map<TopicPartition, OffsetAndMetadata> committed = Map.of();
            while (System.currentTimeMillis() < deadline) {
                driver.putRecords(List.of());
                committed = driver.task().preCommit(current);
                if (committed.equals(current)) break;
                Thread.sleep(100);
            }
            assertEquals(current, committed, "every record applied and committable");
        }
        assertEquals(0, target.query("SHOW COLUMNS FROM items LIKE 'c'").size());
        assertEquals(List.of(List.of("old", "5"), List.of("new", "4")),
                target.query("SELECT v, COUNT(*) FROM items GROUP BY v ORDER BY v DESC"));
        assertTrue(target.query("SELECT id FROM items WHERE id = 12").size() == 1);
    }

    /**
     * cdc-connect's source says a statement went to one partition only (its table's, under partition.rule=table): it
     * runs at once, without waiting for the other partitions to pass it.
     */
    @Test
    void aStatementSentToItsTablesPartitionOnlyRunsAtOnce() throws Exception {
        DdlChange drop = new DdlChange(source.name(), "items", "ALTER TABLE items DROP COLUMN c", DdlChange.Kind.ALTER,
                Rows.ts(2_000));
        List<SinkRecord> r0 = PartitionRecords.of("canal-json", Map.of(), 0, List.of(drop), 1);
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < 4; p++) tps.add(new TopicPartition(TaskDriver.TOPIC, p));
        try (TaskDriver driver = new TaskDriver(Map.of("input.format", "canal-json", "schema.map",
                source.name() + "=" + target.name()))) {
            driver.task().open(tps);
            driver.putRecords(r0);
            // it runs beside the task thread: a few puts at most, with nothing from the other partitions
            long deadline = System.currentTimeMillis() + 10_000;
            while (!target.query("SHOW COLUMNS FROM items LIKE 'c'").isEmpty()
                    && System.currentTimeMillis() < deadline) {
                driver.putRecords(List.of());
                Thread.sleep(20);
            }
            assertEquals(0, target.query("SHOW COLUMNS FROM items LIKE 'c'").size(),
                    "no other partition holds rows of the table: nothing to wait for");
        }
    }
}
