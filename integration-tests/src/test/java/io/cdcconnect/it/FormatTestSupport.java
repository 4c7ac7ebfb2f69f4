package io.cdcconnect.it;

import io.cdcconnect.testsupport.registry.SchemaRegistry;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the wire-format end-to-end tests share: work folders, the final row check, reading the topics back. */
public final class FormatTestSupport {

    private FormatTestSupport() {
    }

    static Path workDir(String name) {
        return Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve(name);
    }

    /** Starts a schema registry (Apicurio, a child JVM) while the pipeline's servers start; both are up when this returns. */
    static Pipeline startWithRegistry(String workName, String sourceDb, SchemaRegistry[] registry) {
        java.util.concurrent.CompletableFuture<SchemaRegistry> starting =
                java.util.concurrent.CompletableFuture.supplyAsync(TestServers::schemaRegistry);
        Pipeline pipeline;
        try {
            pipeline = Pipeline.start(workDir(workName), sourceDb, null);
        } catch (RuntimeException e) {
            starting.thenAccept(SchemaRegistry::close);
            throw e;
        }
        try {
            registry[0] = starting.join();
        } catch (RuntimeException e) {
            pipeline.close();
            throw e;
        }
        pipeline.putConfigValue("SCHEMA_REGISTRY_URL", registry[0].url());
        return pipeline;
    }

    /** A pipeline, its schema registry and its workload, for the Avro tests. */
    record AvroRun(Pipeline pipeline, SchemaRegistry registry, Workload workload) implements AutoCloseable {
        @Override
        public void close() {
            try {
                pipeline.close();
            } finally {
                registry.close();
            }
        }
    }

    /**
     * Starts the pipeline with a registry, preloads 100 customers (captured by the snapshot), and registers the source
     * from {@code sourceConfig} and the Avro sink.
     */
    static AvroRun startAvroRun(String workName, String sourceDb, long seed, String sourceConfig) throws Exception {
        SchemaRegistry[] started = new SchemaRegistry[1];
        Pipeline pipeline = startWithRegistry(workName, sourceDb, started);
        AvroRun run = new AvroRun(pipeline, started[0], new Workload(seed));
        try {
            pipeline.createSchemas();
            try (java.sql.Connection c = pipeline.sourceConnection()) {
                run.workload().preload(c, 100);
            }
            pipeline.registerSource(sourceConfig, 1);
            pipeline.registerSink("sink-mariadb-avro.json", 1);
            return run;
        } catch (Exception | AssertionError e) {
            run.close();
            throw e;
        }
    }

    /** Waits for the sink to catch up, then every row of every table must match and nothing may be left uncommitted. */
    static void assertCaughtUpAndEqual(Pipeline pipeline, Duration timeout) throws Exception {
        List<String> progress = new ArrayList<>();
        List<TableComparison.Result> results = pipeline.awaitCaughtUp(timeout, progress::add);
        assertTrue(!results.isEmpty(), "nothing was compared");
        for (TableComparison.Result r : results) {
            assertTrue(r.matches(), r + "\nprogress: " + progress);
            assertTrue(r.sourceRows() > 0, "table " + r.table() + " should not be empty upstream");
        }
        // Watermarks keep arriving after the rows (every watermark.interval.ms), so a single reading can catch one
        // not yet committed: the sink must reach lag 0 again within a few commit intervals.
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        PipelineProgress.Snapshot last = pipeline.progress();
        while (last.lag() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            last = pipeline.progress();
        }
        assertEquals(0, last.lag(), "sink should have committed every message; progress: " + progress + ", now " + last);
    }

    /** The pipeline's table topics (sorted by name) with their descriptions. */
    static Map<String, TopicDescription> tableTopics(Pipeline pipeline) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                pipeline.connect().bootstrapServers()))) {
            List<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS).stream()
                    .filter(n -> pipeline.topicPattern().matcher(n).matches()).toList();
            return new TreeMap<>(admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS));
        }
    }

    /** Every record written so far to the pipeline's table topics, read from the beginning up to the end offsets. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(Pipeline pipeline) throws Exception {
        return readAll(pipeline, "read_uncommitted");
    }

    /**
     * As {@link #readAll(Pipeline)} with the consumer's {@code isolation.level}: {@code read_committed} reads up to
     * the last stable offset and skips what aborted transactions wrote, {@code read_uncommitted} reads it all.
     */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(Pipeline pipeline, String isolationLevel)
            throws Exception {
        List<TopicPartition> partitions = new ArrayList<>();
        for (TopicDescription d : tableTopics(pipeline).values()) {
            d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition())));
        }
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.connect().bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                assertTrue(System.nanoTime() < deadline, "could not read the topics to their end " + end);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) out.add(r);
                }
            }
        }
        return out;
    }
}
