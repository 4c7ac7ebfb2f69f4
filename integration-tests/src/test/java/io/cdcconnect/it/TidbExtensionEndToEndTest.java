package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Canal-JSON with TiDB's extension ({@code enable.tidb.extension=true}) through the whole pipeline: every row message
 * carries {@code _tidb.commitTs}, and {@code TIDB_WATERMARK} messages (empty database and table) arrive on every
 * partition, also while the source is idle; no row follows a watermark that covers its commit ts. The sink must take the watermarks as transaction boundaries and progress,
 * never as rows: every row must match, and the sink's committed offsets must reach the end of every topic, watermarks
 * included, again after an idle stretch in which only watermarks arrive.
 */
class TidbExtensionEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Pipeline pipeline;
    private static Workload workload;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(FormatTestSupport.workDir("tidb-extension"), "shop_tidb", null);
        pipeline.createSchemas();
        workload = new Workload(23);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 100); // captured by the snapshot
        }
        pipeline.registerSource("source-mariadb-canal-json-tidb.json", 1);
        pipeline.registerSink("sink-mariadb.json", 1);
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void watermarksTravelWithTheRowsAndTheSinkCommitsPastThem() throws Exception {
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 1000, 0, null);
        }
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));

        // Idle: only watermarks arrive (watermark.interval.ms=2000). The sink must commit past them too.
        long capturedBefore = pipeline.progress().captured();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (pipeline.progress().captured() < capturedBefore + 2 * Workload.TABLES.size()) {
            assertTrue(System.nanoTime() < deadline, "no watermarks while the source was idle");
            Thread.sleep(250);
        }
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofSeconds(30));

        Map<String, Long> lastRowTs = new HashMap<>();
        Map<String, Long> lastWatermark = new HashMap<>();
        Map<String, Integer> watermarks = new HashMap<>();
        int rows = 0;
        List<ConsumerRecord<byte[], byte[]>> records = FormatTestSupport.readAll(pipeline);
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String where = r.topic() + "/" + r.partition() + "@" + r.offset();
            String tp = r.topic() + "/" + r.partition();
            JsonNode m = JSON.readTree(r.value());
            String type = m.path("type").asText();
            JsonNode tidb = m.get("_tidb");
            assertNotNull(tidb, "every message carries _tidb with the extension on: " + where);
            if (type.equals("TIDB_WATERMARK")) {
                long ts = tidb.path("watermarkTs").asLong(-1);
                assertTrue(ts > 0, "watermarkTs at " + where + ": " + m);
                assertEquals("", m.path("database").asText(), "watermark database at " + where);
                assertEquals("", m.path("table").asText(), "watermark table at " + where);
                assertTrue(ts >= lastWatermark.getOrDefault(tp, 0L), "watermarks go backwards at " + where);
                lastWatermark.put(tp, ts);
                watermarks.merge(r.topic(), 1, Integer::sum);
            } else if (m.path("isDdl").asBoolean()) {
                assertTrue(tidb.path("commitTs").asLong() > 0, "DDL commitTs at " + where);
            } else {
                long ts = tidb.path("commitTs").asLong(-1);
                assertTrue(ts > 0, "row commitTs at " + where + ": " + m);
                assertEquals(ts >> 18, m.path("es").asLong(), "es is the commit ts' physical part at " + where);
                // A row is never older than a watermark sent before it on its partition (that would be a late row).
                assertTrue(ts > lastWatermark.getOrDefault(tp, 0L), "row at " + where + " with commitTs " + ts
                        + " not above the preceding watermark " + lastWatermark.get(tp));
                lastRowTs.merge(tp, ts, Math::max);
                rows++;
            }
        }
        assertTrue(rows > 1000, "row messages: " + rows);
        // A watermark may trail rows already sent (it only promises nothing older follows), but after the idle
        // stretch the last one on each partition must cover every row there: everything is complete.
        for (Map.Entry<String, Long> e : lastRowTs.entrySet()) {
            assertTrue(lastWatermark.getOrDefault(e.getKey(), 0L) >= e.getValue(), "last watermark on " + e.getKey()
                    + " is " + lastWatermark.get(e.getKey()) + ", below its newest row's commitTs " + e.getValue());
        }
        for (String table : Workload.TABLES) {
            String topic = Pipeline.TOPIC_PREFIX + "." + pipeline.sourceDb() + "." + table;
            assertTrue(watermarks.getOrDefault(topic, 0) >= 2, "watermarks on " + topic + ": " + watermarks);
        }
    }
}
