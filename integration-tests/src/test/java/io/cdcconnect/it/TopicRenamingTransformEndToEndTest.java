package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A topic-renaming transform on the sink (issue 22, item 11): Connect's {@code RegexRouter} renames every record's
 * topic before {@code put()}, but Connect commits offsets and pauses partitions by the topic the consumer read. The
 * sink must keep its bookkeeping by the original coordinates (KIP-793) and report those in {@code preCommit}: offsets
 * keyed by the renamed topic are ignored by Connect, nothing is ever committed, every restart replays everything and
 * the consumer lag never falls. Source: Canal-JSON, 2 partitions per table by primary key; sink: 2 tasks. Every row
 * must arrive, and {@code GET /connectors/{sink}/offsets} must reach the end offset of every partition of every
 * original topic, and name no renamed topic.
 */
class TopicRenamingTransformEndToEndTest {
    private static final int PARTITIONS = 2;
    private static final String SOURCE_DB = "shop_renamed";
    private static final String RENAMED_PREFIX = "renamed-";
    /** Offsets are flushed every second by the harness's worker (offset.flush.interval.ms): ample. */
    private static final Duration OFFSETS_WAIT = Duration.ofSeconds(60);

    private static final Logger LOG = LoggerFactory.getLogger(TopicRenamingTransformEndToEndTest.class);

    private static Pipeline pipeline;
    private static Workload workload;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(FormatTestSupport.workDir("topic-renaming"), SOURCE_DB, null);
        pipeline.createSchemas();
        workload = new Workload(22);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 40); // 40 customers and 80 orders: captured by the snapshot
        }
        pipeline.registerSourceAs(Pipeline.SOURCE_CONNECTOR, "source-mariadb.json", Map.of("partition.rule", "pk",
                "topic.partitions", Integer.toString(PARTITIONS),
                "topic.creation.default.partitions", Integer.toString(PARTITIONS)));
        // cdc.shop_renamed.orders -> renamed-orders: every topic the sink reads is renamed
        pipeline.registerSink("sink-mariadb.json", 2, Map.of("tasks.max", "2",
                "transforms", "route",
                "transforms.route.type", "org.apache.kafka.connect.transforms.RegexRouter",
                "transforms.route.regex", Pipeline.TOPIC_PREFIX + "\\." + SOURCE_DB + "\\.(.*)",
                "transforms.route.replacement", RENAMED_PREFIX + "$1"));
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void everyRowArrivesAndTheSinksOffsetsReachTheEndOfEveryOriginalPartition() throws Exception {
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 250, 0, null);
        }
        awaitTablesEqual(Duration.ofMinutes(3));

        // the source wrote everything before the rows matched, and writes nothing more (no watermarks in plain
        // Canal-JSON): these end offsets are final
        Map<TopicPartition, Long> end = endOffsets();
        assertEquals(Workload.TABLES.size() * PARTITIONS, end.size(), "table topic partitions: " + end);
        end.forEach((tp, offset) -> assertTrue(offset > 0, "every partition should hold records: " + end));

        long deadline = System.nanoTime() + OFFSETS_WAIT.toNanos();
        String json = "";
        Map<TopicPartition, Long> committed = Map.of();
        while (System.nanoTime() < deadline) {
            pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
            json = pipeline.connect().offsets(Pipeline.SINK_CONNECTOR);
            committed = sinkOffsets(json);
            if (committed.equals(end)) {
                LOG.info("{} row changes applied; the sink's committed offsets are the end offsets {}",
                        workload.rowChanges(), end);
                return;
            }
            ConnectCluster.sleep(500);
        }
        fail("the sink's committed offsets did not reach the end of every partition of the original topics within "
                + OFFSETS_WAIT + "\n  end offsets:         " + end + "\n  committed (parsed):  " + committed
                + "\n  GET /connectors/" + Pipeline.SINK_CONNECTOR + "/offsets: " + json);
    }

    /** Waits until every table matches (cdc-verify's comparison); fails with the last comparison. */
    private static void awaitTablesEqual(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TableComparison.Result> last = List.of();
        while (System.nanoTime() < deadline) {
            pipeline.connect().assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
            last = pipeline.compare();
            if (last.stream().allMatch(TableComparison.Result::matches)) {
                for (TableComparison.Result r : last) {
                    assertTrue(r.sourceRows() > 0, "table " + r.table() + " should not be empty upstream");
                }
                return;
            }
            ConnectCluster.sleep(500);
        }
        fail("the target did not match the source within " + timeout + ": " + last);
    }

    /** End offsets of every partition of the pipeline's (original) table topics. */
    private static Map<TopicPartition, Long> endOffsets() throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicDescription d : FormatTestSupport.tableTopics(pipeline).values()) {
            d.partitions().forEach(p -> request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> end = new TreeMap<>(TopicRenamingTransformEndToEndTest::compare);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                pipeline.connect().bootstrapServers()))) {
            admin.listOffsets(request).all().get(10, TimeUnit.SECONDS).forEach((tp, info) -> end.put(tp, info.offset()));
        }
        return end;
    }

    /**
     * The sink's offsets from Connect's answer (KIP-875):
     * {@code {"offsets":[{"partition":{"kafka_topic":…,"kafka_partition":…},"offset":{"kafka_offset":…}}]}}.
     */
    private static Map<TopicPartition, Long> sinkOffsets(String json) throws Exception {
        Map<TopicPartition, Long> out = new TreeMap<>(TopicRenamingTransformEndToEndTest::compare);
        List<String> unexpected = new ArrayList<>();
        for (JsonNode o : new ObjectMapper().readTree(json).path("offsets")) {
            TopicPartition tp = new TopicPartition(o.path("partition").path("kafka_topic").asText(),
                    o.path("partition").path("kafka_partition").asInt());
            if (tp.topic().startsWith(RENAMED_PREFIX)) unexpected.add(tp.toString());
            out.put(tp, o.path("offset").path("kafka_offset").asLong());
        }
        assertTrue(unexpected.isEmpty(), "offsets committed under renamed topics " + unexpected + ": " + json);
        return out;
    }

    private static int compare(TopicPartition a, TopicPartition b) {
        int byTopic = a.topic().compareTo(b.topic());
        return byTopic != 0 ? byTopic : Integer.compare(a.partition(), b.partition());
    }
}
