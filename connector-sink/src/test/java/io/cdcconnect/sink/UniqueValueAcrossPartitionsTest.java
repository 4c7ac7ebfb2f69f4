package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
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

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A unique value moves from one row to another while the two rows travel on different partitions (issue 22, item 8),
 * through the task on the real MariaDB with {@code safe.mode=auto} outside the replay window. Rows of different
 * partitions are applied in no order between them, so row 2 may take value X before row 1 gives it up: the duplicate
 * key is applied again in safe mode, as REPLACE, which deletes row 1. Row 1's own update then matched no row, and the
 * count was ignored: row 1 was lost. Now an update that matches no row is applied again as an upsert of its new image.
 */
class UniqueValueAcrossPartitionsTest {

    private TestDatabase source;
    private TestDatabase target;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("uniq_src");
        target = SinkTarget.database("uniq_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, u VARCHAR(20), v VARCHAR(20), UNIQUE KEY uk_u (u))");
        target.exec("INSERT INTO items VALUES (1, 'X', 'one'), (2, 'Y', 'two')");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    @Test
    void aRowReplacedForAUniqueValueComesBackWithItsOwnUpdate() throws Exception {
        TableInfo t = TableInfo.of(source.name(), "items", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("u", MySqlType.VARCHAR, ColumnFlags.NULLABLE | ColumnFlags.UNIQUE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
        // committed well after the task starts: outside the replay window, so without safe mode first
        long at = System.currentTimeMillis() + 3_600_000;
        // at the source: row 1 gives X up (partition 0), then row 2 takes it and changes again (partition 1)
        List<ChangeEvent> p0 = List.of(
                RowChange.update(t, new Object[]{1L, "X", "one"}, new Object[]{1L, "Z", "one"}, Rows.ts(at)));
        List<ChangeEvent> p1 = List.of(
                RowChange.update(t, new Object[]{2L, "Y", "two"}, new Object[]{2L, "X", "two"}, Rows.ts(at + 1)),
                RowChange.update(t, new Object[]{2L, "X", "two"}, new Object[]{2L, "X", "later"}, Rows.ts(at + 2)));
        List<SinkRecord> r0 = PartitionRecords.of("canal-json", Map.of(), 0, p0);
        List<SinkRecord> r1 = PartitionRecords.of("canal-json", Map.of(), 1, p1);
        List<TopicPartition> tps = List.of(new TopicPartition(TaskDriver.TOPIC, 0),
                new TopicPartition(TaskDriver.TOPIC, 1));
        try (TaskDriver driver = new TaskDriver(Map.of("input.format", "canal-json", "safe.mode", "auto",
                "schema.map", source.name() + "=" + target.name()))) {
            driver.task().open(tps);
            // the consumer happens to hand partition 1 over first
            driver.putRecords(r1);
            awaitCommittable(driver, Map.of(tps.get(1), r1.size()));
            driver.putRecords(r0);
            awaitCommittable(driver, Map.of(tps.get(0), r0.size(), tps.get(1), r1.size()));
        }
        assertEquals(List.of(List.of("1", "Z", "one"), List.of("2", "X", "later")),
                target.query("SELECT id, u, v FROM items ORDER BY id"), "no row lost, both as the source has them");
    }

    private static void awaitCommittable(TaskDriver driver, Map<TopicPartition, Integer> next) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
        next.forEach((tp, n) -> current.put(tp, new OffsetAndMetadata(n)));
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            driver.putRecords(List.of());
            if (driver.task().preCommit(current).equals(current)) return;
            Thread.sleep(20);
        }
        throw new AssertionError("not applied in time: " + driver.task().preCommit(current) + " of " + current);
    }
}
