package io.cdcconnect.it;

import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TiCDC's Open-protocol through the whole pipeline: source with {@code partition.rule=pk} over 3 partitions per table
 * topic (batched key/value messages, resolved events on every partition), sink with two tasks sharing the partitions.
 * Rows of one source transaction are spread over partitions and tasks; key-changing updates move between partitions
 * as delete + insert. Resolved events ({@code watermark.interval.ms}, 3 s here so that the check "everything
 * committed" sees quiet moments) go to every partition. Every row is compared at the end.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OpenProtocolEndToEndTest {
    private static final int PARTITIONS = 3;
    private static Pipeline pipeline;
    private static Workload workload;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(FormatTestSupport.workDir("open-protocol"), "shop_op", null);
        pipeline.putConfigValue("TOPIC_PARTITIONS", Integer.toString(PARTITIONS));
        pipeline.createSchemas();
        workload = new Workload(7);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 100); // captured by the snapshot
        }
        // values compressed with lz4 (TiCDC's large-message-handle-compression): both plugins use the lz4 classes
        // of the worker's own classpath, as their archives leave Kafka's compression libraries out
        pipeline.registerSourceAs(Pipeline.SOURCE_CONNECTOR, "source-mariadb-open-protocol.json",
                Map.of("large.message.handle.compression", "lz4"));
        pipeline.registerSink("sink-mariadb-open-protocol.json", 2,
                Map.of("input.codec.options", "large-message-handle-compression=lz4"));
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    @Order(1)
    void rowsPartitionedByPrimaryKeyArriveRowForRowThroughTwoSinkTasks() throws Exception {
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 1200, 0, null); // inserts, updates (some of a key column), deletes; multi-row transactions
        }
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));

        // The topics really are Open-protocol over 3 partitions, and the pk rule really spread each table's rows.
        Map<String, TopicDescription> topics = FormatTestSupport.tableTopics(pipeline);
        assertEquals(Workload.TABLES.size(), topics.size(), "one topic per table: " + topics.keySet());
        for (TopicDescription d : topics.values()) {
            assertEquals(PARTITIONS, d.partitions().size(), d.name());
        }
        Map<String, int[]> rowMessagesPerPartition = new HashMap<>();
        Map<String, int[]> resolvedPerPartition = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : FormatTestSupport.readAll(pipeline)) {
            assertNotNull(r.key(), "Open-protocol messages always carry a key: " + r.topic() + "/" + r.partition()
                    + "@" + r.offset());
            // batch key: u64 version 1, then per event u64 length + JSON object; "t":1 = row change
            String key = new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
            if (key.contains("\"t\":1")) {
                rowMessagesPerPartition.computeIfAbsent(r.topic(), t -> new int[PARTITIONS])[r.partition()]++;
            } else if (key.contains("\"t\":3")) {
                resolvedPerPartition.computeIfAbsent(r.topic(), t -> new int[PARTITIONS])[r.partition()]++;
            }
        }
        for (String topic : topics.keySet()) {
            int[] counts = rowMessagesPerPartition.get(topic);
            assertNotNull(counts, "no row messages in " + topic);
            for (int p = 0; p < PARTITIONS; p++) {
                assertTrue(counts[p] > 0, topic + " partition " + p + " got no rows: the pk rule should spread them, "
                        + "counts " + java.util.Arrays.toString(counts));
            }
        }
        // Resolved events reached every partition, and the sink committed past them (lag 0 above).
        for (String topic : topics.keySet()) {
            int[] counts = resolvedPerPartition.getOrDefault(topic, new int[PARTITIONS]);
            for (int p = 0; p < PARTITIONS; p++) {
                assertTrue(counts[p] > 0, topic + " partition " + p + " got no resolved event");
            }
        }
        // Both sink tasks ran (tasks.max=2 over 9 partitions).
        var status = pipeline.connect().status(Pipeline.SINK_CONNECTOR);
        assertEquals(2, status.path("tasks").size(), status.toString());
    }

    /**
     * A batched message carries the source offset of its last row, and when batches of three partitions interleave
     * only an offset up to which everything was handed over: a restart mid-stream must neither lose a row nor leave
     * one different downstream (the sink's safe mode absorbs replays).
     */
    @Test
    @Order(2)
    void noRowIsLostWhenTheWorkerRestartsMidStream() throws Exception {
        ExecutorService writer = Executors.newSingleThreadExecutor();
        long before = workload.rowChanges();
        try {
            Future<?> writing = writer.submit(() -> {
                try (Connection c = pipeline.sourceConnection()) {
                    workload.run(c, 1500, 300, null);
                }
                return null;
            });
            while (workload.rowChanges() - before < 600 && !writing.isDone()) Thread.sleep(50);
            assertTrue(!writing.isDone(), "the workload should still be running when the worker restarts");
            pipeline.connect().restartWorker();
            pipeline.connect().awaitRunning(Pipeline.SOURCE_CONNECTOR, 1, Duration.ofSeconds(90));
            pipeline.connect().awaitRunning(Pipeline.SINK_CONNECTOR, 2, Duration.ofSeconds(90));
            writing.get();
        } finally {
            writer.shutdownNow();
        }
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));
    }

    /**
     * Open-protocol sends each DDL to every partition, and with two tasks each task runs it once its own partitions
     * have delivered it (the second run is an "already done" error the sink ignores). Rows written after an ADD COLUMN
     * carry the column, on all three partitions; a table created mid-stream gets a new topic and is created
     * downstream by its DDL before its rows.
     */
    @Test
    @Order(3)
    void schemaChangesApplyInOrderWithTheRowsAcrossPartitionsAndTasks() throws Exception {
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.execute("ALTER TABLE customers ADD COLUMN loyalty INT NOT NULL DEFAULT 0");
            s.execute("UPDATE customers SET loyalty = id % 5 + 1"); // one transaction over every partition
            s.execute("CREATE TABLE coupons (code VARCHAR(16) NOT NULL PRIMARY KEY, pct TINYINT UNSIGNED NOT NULL,"
                    + " note VARCHAR(40) NULL)");
            s.execute("INSERT INTO coupons VALUES ('A10', 10, NULL), ('B20', 20, 'spring'), ('C30', 30, 'Zürich'),"
                    + " ('D40', 40, NULL), ('E50', 50, ''), ('F60', 60, 'last')");
            s.execute("UPDATE coupons SET pct = pct + 1 WHERE code IN ('A10', 'D40')");
            s.execute("DELETE FROM coupons WHERE code = 'E50'");
            workload.run(c, 300, 0, null);
        }
        pipeline.compareTables(List.of("customers", "orders", "order_lines", "coupons"));
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));
        assertEquals(PARTITIONS, FormatTestSupport.tableTopics(pipeline)
                .get(Pipeline.TOPIC_PREFIX + "." + pipeline.sourceDb() + ".coupons").partitions().size());
    }
}
