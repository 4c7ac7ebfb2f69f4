package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.PartitionRecords;
import io.cdcconnect.sink.testutil.PostgresTarget;
import io.cdcconnect.sink.testutil.Rows;
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

/**
 * DdlAcrossTasksTest's first case against PostgreSQL: the DDL checkpoint and the cross-task coordination tables
 * ({@link PostgresControlSql}) in a schema of the target, the claim taken by one task only ({@code ON CONFLICT DO
 * NOTHING}), the TRUNCATE run once after both tasks passed it.
 */
class PostgresDdlAcrossTasksTest {

    private TestDatabase db;

    @BeforeEach
    void setUp() throws Exception {
        db = PostgresTarget.database("pg_tasks");
        db.exec("CREATE SCHEMA dst", "CREATE TABLE dst.items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
    }

    @AfterEach
    void tearDown() throws Exception {
        db.close();
    }

    private TaskDriver task(int... partitions) {
        TaskDriver d = new TaskDriver(PostgresTarget.sinkSettings(db, Map.of("name", "across-" + db.name(),
                "ddl.checkpoint.database", "ck", "schema.map", "src=dst")));
        List<TopicPartition> tps = new ArrayList<>();
        for (int p : partitions) tps.add(new TopicPartition(TaskDriver.TOPIC, p));
        d.task().open(tps);
        return d;
    }

    @Test
    void aTruncateOnEveryPartitionRunsOnceAfterBothTasksPassedIt() throws Exception {
        TableInfo t = Rows.idValue("src", "items");
        DdlChange truncate = new DdlChange("src", "items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE,
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
            lagging.putRecords(List.of(parts.get(2).get(0)));
            for (int i = 0; i < 10; i++) {
                leading.putRecords(List.of());
                lagging.putRecords(List.of());
                Thread.sleep(100);
            }
            assertEquals(List.of(List.of("before", "3")), db.query(
                    "SELECT v, COUNT(*)::text FROM dst.items GROUP BY v"), "nothing after the statement before it ran");
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
                db.query("SELECT id::text FROM dst.items ORDER BY items.id"),
                "the statement ran once, after every row before it and before every row after it");
        assertEquals(List.of(List.of("4", "1")), db.query(
                "SELECT (SELECT COUNT(*) FROM ck.ddl_barrier)::text, (SELECT SUM(done) FROM ck.ddl_run)::text"));
        assertEquals(List.of(List.of("4")), db.query("SELECT COUNT(*)::text FROM ck.ddl_checkpoint"
                        + " WHERE topic NOT LIKE 'table:%'"), "each partition's position after the statement is checkpointed");
        assertEquals(List.of(List.of("table:dst.items")), db.query("SELECT topic FROM ck.ddl_checkpoint"
                + " WHERE topic LIKE 'table:%'"), "the last statement on the table is kept (ReplayRules)");
    }

    private static boolean applied(TaskDriver d, int... partitions) {
        Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
        for (int p : partitions) current.put(new TopicPartition(TaskDriver.TOPIC, p), new OffsetAndMetadata(3));
        return d.task().preCommit(current).equals(current);
    }
}
