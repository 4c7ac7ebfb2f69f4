package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole pipeline on real servers: MariaDB 11.4 with binlog → our source connector (from its plugin archive) →
 * a real Kafka broker → our sink connector (from its plugin archive) → MariaDB. Every row is compared at the end.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineEndToEndTest {
    private static Pipeline pipeline;
    private static Workload workload;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("e2e"), "shop", null);
        pipeline.createSchemas();
        workload = new Workload(42);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 150); // 150 customers + 300 orders + their lines: captured by the snapshot
        }
        pipeline.registerConnectors();
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    @Order(1)
    void connectorsAreLoadedFromThePluginArchiveNotFromTheClasspath() throws Exception {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("io.cdcconnect.source.CdcSourceConnector"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("io.cdcconnect.sink.CdcSinkConnector"));
        HttpResponse<String> resp = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                pipeline.connect().restUrl().resolve("/connector-plugins")).GET().build(), HttpResponse.BodyHandlers.ofString());
        Set<String> classes = new HashSet<>();
        for (JsonNode n : new ObjectMapper().readTree(resp.body())) classes.add(n.path("class").asText());
        assertTrue(classes.contains("io.cdcconnect.source.CdcSourceConnector"), "worker's plugins: " + classes);
        assertTrue(classes.contains("io.cdcconnect.sink.CdcSinkConnector"), "worker's plugins: " + classes);
    }

    @Test
    @Order(2)
    void snapshotThenStreamedChangesArriveRowForRow() throws Exception {
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 1500, 0, null);
        }
        assertCaughtUpAndEqual();
    }

    @Test
    @Order(3)
    void noRowIsLostOrLeftDifferentWhenTheWorkerRestartsMidStream() throws Exception {
        ExecutorService writer = Executors.newSingleThreadExecutor();
        long before = workload.rowChanges();
        try {
            Future<?> writing = writer.submit(() -> {
                try (Connection c = pipeline.sourceConnection()) {
                    workload.run(c, 2500, 400, null);
                }
                return null;
            });
            // Let the stream get going, then restart the worker while rows keep coming.
            while (workload.rowChanges() - before < 1000 && !writing.isDone()) Thread.sleep(50);
            assertTrue(!writing.isDone(), "the workload should still be running when the worker restarts");
            pipeline.connect().restartWorker();
            pipeline.connect().awaitRunning(Pipeline.SOURCE_CONNECTOR, 1, Duration.ofSeconds(120));
            pipeline.connect().awaitRunning(Pipeline.SINK_CONNECTOR, 1, Duration.ofSeconds(120));
            writing.get();
        } finally {
            writer.shutdownNow();
        }
        assertCaughtUpAndEqual();
    }

    private static void assertCaughtUpAndEqual() throws Exception {
        List<String> progress = new ArrayList<>();
        List<TableComparison.Result> results = pipeline.awaitCaughtUp(Duration.ofMinutes(4), progress::add);
        for (TableComparison.Result r : results) {
            assertTrue(r.matches(), r + "\nprogress: " + progress);
            assertTrue(r.sourceRows() > 0, "table " + r.table() + " should not be empty upstream");
        }
        assertEquals(0, pipeline.progress().lag(), "sink should have committed every message; progress: " + progress);
    }
}
