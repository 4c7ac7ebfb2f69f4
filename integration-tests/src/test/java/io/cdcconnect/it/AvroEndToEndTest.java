package io.cdcconnect.it;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TiCDC's Avro protocol through the whole pipeline with a real schema registry: Apicurio Registry 3.0.x in a child JVM
 * (Confluent-compatible API {@code /apis/ccompat/v7}); the source registers each table's key and value schemas and
 * writes Confluent-framed messages, the sink reads the schemas back from the registry by id. Avro carries no before
 * image and no DDL: inserts and updates are upserts of the row after the change, deletes are tombstones keyed by the
 * primary key. Every row is compared at the end.
 *
 * <p>The workload is the shared {@link Workload}, primary-key changes included: Debezium reports an update that
 * changes the primary key as a delete of the old key and an insert of the new one, so the Avro stream holds a tombstone
 * for the old key and the sink removes the old row although Avro has no before image.
 */
class AvroEndToEndTest {
    private static FormatTestSupport.AvroRun run;

    @BeforeAll
    static void startPipeline() throws Exception {
        run = FormatTestSupport.startAvroRun("avro", "shop_avro", 11, "source-mariadb-avro.json");
    }

    @AfterAll
    static void stop() {
        if (run != null) run.close();
    }

    @Test
    void rowsArriveRowForRowWithSchemasFromTheRegistry() throws Exception {
        try (Connection c = run.pipeline().sourceConnection()) {
            run.workload().run(c, 1200, 0, null);
        }
        FormatTestSupport.assertCaughtUpAndEqual(run.pipeline(), Duration.ofMinutes(3));

        List<String> subjects = run.registry().subjects();
        for (String table : Workload.TABLES) {
            String topic = Pipeline.TOPIC_PREFIX + "." + run.pipeline().sourceDb() + "." + table;
            String subject = topic.replace('.', '_');
            assertTrue(subjects.contains(subject + "-key"), subject + "-key not in the registry: " + subjects);
            assertTrue(subjects.contains(subject + "-value"), subject + "-value not in the registry: " + subjects);
        }

        // Confluent framing on the wire (magic byte 0, then the registry's schema id), deletes as tombstones.
        int tombstones = 0;
        List<ConsumerRecord<byte[], byte[]>> records = FormatTestSupport.readAll(run.pipeline());
        assertTrue(records.size() > 1000, "records: " + records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String where = r.topic() + "/" + r.partition() + "@" + r.offset();
            assertNotNull(r.key(), "Avro rows carry their key: " + where);
            assertEquals(0, r.key()[0], "Confluent magic byte in the key at " + where);
            if (r.value() == null) tombstones++;
            else assertEquals(0, r.value()[0], "Confluent magic byte in the value at " + where);
        }
        assertTrue(tombstones > 0, "the workload deletes rows: some messages must be tombstones");
    }
}
