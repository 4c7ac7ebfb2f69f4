package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replays of the whole table, long after the sink task started: the source connector recreated under a new name, and
 * its offsets reset ({@code DELETE /connectors/{name}/offsets} on a stopped connector). Each makes Debezium snapshot
 * again into the same topics; the snapshot rows come at offsets no sink task wrote before, so they are written
 * plainly at first, and the target already has them. With {@code safe.mode=auto} the sink task must not fail, and the target must end identical. (Nothing is
 * written while the source is down: a snapshot cannot carry a delete made in that gap.)
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReSnapshotEndToEndTest {
    private static Pipeline pipeline;
    private static Workload workload;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("resnapshot"),
                "resnap", null);
        pipeline.createSchemas();
        workload = new Workload(7);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 60);
        }
        pipeline.registerSource();
        pipeline.registerSink("sink-mariadb.json", 1, Map.of("safe.mode", "auto"));
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 300, 0, null);
        }
        assertCaughtUpAndEqual();
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    @Order(1)
    void recreatingTheSourceConnectorReSnapshotsWithoutFailingTheSink() throws Exception {
        pipeline.connect().deleteConnector(Pipeline.SOURCE_CONNECTOR);
        // Nothing is written while no connector captures: a snapshot carries the rows that exist, so a delete made in
        // that gap would never reach the target (the same holds for Debezium's own re-snapshots).
        // a new name has no offsets: Debezium snapshots every table again into the same topics
        pipeline.registerSourceAs("cdc-source-recreated", "source-mariadb.json",
                Map.of("schema.history.internal.kafka.topic", Pipeline.TOPIC_PREFIX + ".schema-history-recreated",
                        "database.server.id", "5402"));
        // the task runs before Debezium takes the snapshot's consistent point: a delete written before that point is
        // in neither the snapshot nor the binlog after it, so the load waits for the snapshot
        pipeline.awaitSourceSnapshotCommitted("cdc-source-recreated", Duration.ofMinutes(3));
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 200, 0, null);
        }
        assertCaughtUpAndEqual();
        assertSinkRunning();
    }

    @Test
    @Order(2)
    void resettingTheSourceOffsetsReSnapshotsWithoutFailingTheSink() throws Exception {
        String source = "cdc-source-recreated";
        pipeline.connect().stopConnector(source);
        pipeline.connect().awaitConnectorState(source, "STOPPED", Duration.ofSeconds(60));
        String reset = pipeline.connect().resetOffsets(source);
        assertTrue(reset.contains("reset"), "the worker confirms the reset: " + reset);
        pipeline.connect().resumeConnector(source);
        pipeline.connect().awaitRunning(source, 1, Duration.ofSeconds(90));
        pipeline.awaitSourceSnapshotCommitted(source, Duration.ofMinutes(3));
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 200, 0, null);
        }
        assertCaughtUpAndEqual();
        assertSinkRunning();
    }

    private static void assertSinkRunning() {
        JsonNode s = pipeline.connect().status(Pipeline.SINK_CONNECTOR);
        assertEquals("RUNNING", s.path("tasks").path(0).path("state").asText(), "sink task: " + s);
    }

    private static void assertCaughtUpAndEqual() throws Exception {
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));
    }
}
