package io.cdcconnect.it;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Connect worker runs as its own process and is killed with SIGKILL while rows stream through both connectors:
 * nothing is flushed or committed on the way down. A new worker resumes the source from Debezium's last committed
 * offsets and the sink from its last committed (= applied) offsets; replays must be harmless and nothing may be lost.
 */
class WorkerCrashTest {
    private static Pipeline pipeline;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("crash"), "shop",
                null, true);
        pipeline.createSchemas();
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void killingTheWorkerMidStreamLosesNoRowAndLeavesNoneDifferent() throws Exception {
        Workload workload = new Workload(7);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 100);
        }
        pipeline.registerConnectors();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        List<Long> appliedAtKill = new ArrayList<>();
        try {
            Future<?> writing = writer.submit(() -> {
                try (Connection c = pipeline.sourceConnection()) {
                    workload.run(c, 3000, 300, null);
                }
                return null;
            });
            // Wait until the sink is applying the stream (not just the snapshot), then kill the worker under it.
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (System.nanoTime() < deadline) {
                PipelineProgress.Snapshot p = pipeline.progress();
                if (p.applied() > 1500 && p.lag() > 0) break;
                Thread.sleep(100);
            }
            PipelineProgress.Snapshot atKill = pipeline.progress();
            appliedAtKill.add(atKill.applied());
            assertFalse(writing.isDone(), "the workload should still be running when the worker is killed");
            assertTrue(atKill.applied() > 0, "the sink should have applied part of the stream before the kill: " + atKill);
            pipeline.connect().killAndRestartWorker();
            pipeline.connect().awaitRunning(Pipeline.SOURCE_CONNECTOR, 1, Duration.ofSeconds(120));
            pipeline.connect().awaitRunning(Pipeline.SINK_CONNECTOR, 1, Duration.ofSeconds(120));
            writing.get();
        } finally {
            writer.shutdownNow();
        }
        List<String> progress = new ArrayList<>();
        List<TableComparison.Result> results = pipeline.awaitCaughtUp(Duration.ofMinutes(4), progress::add);
        for (TableComparison.Result r : results) {
            assertTrue(r.matches(), r + "\nprogress: " + progress + "\napplied at kill: " + appliedAtKill);
            assertTrue(r.sourceRows() > 0, "table " + r.table() + " should not be empty upstream");
        }
        assertEquals(0, pipeline.progress().lag(), "sink should have committed every message; progress: " + progress);
        assertSourceOffsetNeverDeleted();
    }

    /**
     * A null value under the source's key in Connect's offset topic deletes its stored position: a worker dying right
     * after would make Debezium snapshot afresh and skip binlog. Whatever the kill's timing, none may ever be written.
     */
    private static void assertSourceOffsetNeverDeleted() {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.connect().bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        int seen = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> parts = consumer.partitionsFor("connect-offsets").stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String key = r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
                    if (!key.contains(Pipeline.SOURCE_CONNECTOR)) continue;
                    seen++;
                    assertTrue(r.value() != null, "the source's stored offset was deleted (null) at " + r.partition()
                            + "@" + r.offset() + " under " + key);
                }
            }
        }
        assertTrue(seen > 0, "the source should have stored offsets");
    }
}
