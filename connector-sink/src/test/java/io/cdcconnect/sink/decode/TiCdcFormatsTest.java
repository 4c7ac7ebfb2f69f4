package io.cdcconnect.sink.decode;

import io.cdcconnect.testsupport.registry.SchemaRegistry;
import io.cdcconnect.testsupport.servers.TestServers;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.PartitionRecords;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Open-protocol and Avro records, written by the codec's encoders as TiCDC writes them, applied to MariaDB. */
class TiCdcFormatsTest {

    /** A real Apicurio Registry (the codec's launcher, a child JVM), started by the first Avro test only. */
    private static SchemaRegistry registry;

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo table;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("fmt_src");
        target = SinkTarget.database("fmt_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        table = Rows.idValue(source.name(), "items");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) registry.close();
        registry = null;
    }

    /** One registry per class: it takes seconds to start, and subjects are named after the test's own database. */
    private static synchronized SchemaRegistry registry() {
        if (registry == null) registry = TestServers.schemaRegistry();
        return registry;
    }

    private List<ChangeEvent> history() {
        List<ChangeEvent> events = new ArrayList<>();
        long ts = 1_000;
        for (int i = 0; i < 40; i++) events.add(RowChange.insert(table, new Object[]{(long) i, "v" + i}, Rows.ts(ts++)));
        events.add(RowChange.update(table, new Object[]{5L, "v5"}, new Object[]{5L, "five"}, Rows.ts(ts++)));
        events.add(RowChange.delete(table, new Object[]{6L, "v6"}, Rows.ts(ts++)));
        return events;
    }

    @Test
    void openProtocolBatchesAndDdlAreApplied() throws Exception {
        List<ChangeEvent> events = history();
        events.add(new DdlChange(source.name(), "items", "ALTER TABLE items ADD COLUMN extra INT", DdlChange.Kind.ALTER,
                Rows.ts(5_000)));
        TableInfo wider = TableInfo.of(source.name(), "items", List.of(table.column(0), table.column(1),
                io.cdcconnect.codec.model.ColumnInfo.of("extra", io.cdcconnect.codec.model.MySqlType.LONG,
                        io.cdcconnect.codec.model.ColumnFlags.NULLABLE)));
        events.add(RowChange.insert(wider, new Object[]{100L, "after-ddl", 7L}, Rows.ts(5_001)));
        List<SinkRecord> records = PartitionRecords.of("open-protocol", Map.of(), 0, events);
        assertTrue(records.size() < events.size(), "rows travel in batches");
        try (TaskDriver driver = new TaskDriver(Map.of("input.format", "open-protocol", "schema.map",
                source.name() + "=" + target.name()))) {
            driver.putRecords(records);
            driver.awaitApplied(records.size());
        }
        assertEquals(40, target.count("items"));
        assertEquals(List.of(List.of("five")), target.query("SELECT v FROM items WHERE id = 5"));
        assertEquals(List.of(List.of("after-ddl", "7")), target.query("SELECT v, extra FROM items WHERE id = 100"));
    }

    @Test
    void openProtocolDdlWaitsUntilEveryPartitionDeliveredIt() throws Exception {
        target.exec("ALTER TABLE items ADD COLUMN c INT");
        TableInfo before = TableInfo.of(source.name(), "items", List.of(table.column(0), table.column(1),
                io.cdcconnect.codec.model.ColumnInfo.of("c", io.cdcconnect.codec.model.MySqlType.LONG,
                        io.cdcconnect.codec.model.ColumnFlags.NULLABLE)));
        DdlChange drop = new DdlChange(source.name(), "items", "ALTER TABLE items DROP COLUMN c", DdlChange.Kind.ALTER,
                Rows.ts(2_000));
        List<ChangeEvent> p0 = new ArrayList<>();
        for (long id = 1; id <= 5; id++) p0.add(RowChange.insert(before, new Object[]{id, "old", id}, Rows.ts(1_000 + id)));
        p0.add(drop);
        for (long id = 10; id <= 12; id++) p0.add(RowChange.insert(table, new Object[]{id, "new"}, Rows.ts(2_000 + id)));
        List<ChangeEvent> p1 = new ArrayList<>();
        for (long id = 6; id <= 9; id++) p1.add(RowChange.insert(before, new Object[]{id, "old", id}, Rows.ts(1_000 + id)));
        p1.add(drop);
        for (long id = 20; id <= 21; id++) p1.add(RowChange.insert(table, new Object[]{id, "new"}, Rows.ts(2_000 + id)));
        List<SinkRecord> r0 = PartitionRecords.of("open-protocol", Map.of("max-batch-size", "2"), 0, p0);
        List<SinkRecord> r1 = PartitionRecords.of("open-protocol", Map.of("max-batch-size", "2"), 1, p1);
        org.apache.kafka.common.TopicPartition tp0 = new org.apache.kafka.common.TopicPartition(TaskDriver.TOPIC, 0);
        org.apache.kafka.common.TopicPartition tp1 = new org.apache.kafka.common.TopicPartition(TaskDriver.TOPIC, 1);
        try (TaskDriver driver = new TaskDriver(Map.of("input.format", "open-protocol", "schema.map",
                source.name() + "=" + target.name()))) {
            driver.task().open(List.of(tp0, tp1));
            // partition 0 runs ahead: its DDL and newer rows arrive before partition 1's older rows
            driver.putRecords(r0);
            // an empty poll right away does not show partition 1 has nothing before the statement
            driver.putRecords(List.of());
            assertEquals(1, target.query("SHOW COLUMNS FROM items LIKE 'c'").size(), "the DDL waits for partition 1");
            driver.putRecords(r1);
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> current =
                    Map.of(tp0, new org.apache.kafka.clients.consumer.OffsetAndMetadata(r0.size()),
                            tp1, new org.apache.kafka.clients.consumer.OffsetAndMetadata(r1.size()));
            long deadline = System.currentTimeMillis() + 20_000;
            while (System.currentTimeMillis() < deadline) {
                driver.putRecords(List.of());
                var committed = driver.task().preCommit(current);
                if (committed.size() == 2 && committed.get(tp0).offset() == r0.size()
                        && committed.get(tp1).offset() == r1.size()) break;
                Thread.sleep(10);
            }
        }
        assertEquals(0, target.query("SHOW COLUMNS FROM items LIKE 'c'").size());
        assertEquals(List.of(List.of("old", "9"), List.of("new", "5")),
                target.query("SELECT v, COUNT(*) FROM items GROUP BY v ORDER BY v DESC"));
    }

    @Test
    void avroRecordsAreUpsertedAndTombstonesDelete() throws Exception {
        String url = registry().url();
        List<SinkRecord> records = PartitionRecords.of("avro", Map.of("schema-registry", url), 0, history());
        try (TaskDriver driver = new TaskDriver(Map.of("input.format", "avro", "schema.registry.url", url,
                "safe.mode", "never", "schema.map", source.name() + "=" + target.name()))) {
            driver.putRecords(records);
            driver.awaitApplied(records.size());
        }
        assertEquals(39, target.count("items"));
        assertEquals(List.of(List.of("five")), target.query("SELECT v FROM items WHERE id = 5"));
    }
}
