package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Our connectors on an older worker than the one every other test runs them on: a Kafka <b>3.9.1</b> Connect worker
 * (its own jars, from Maven Central through the kafka-3.9-worker module, in a child JVM) with the plugin archives on
 * its plugin.path, against the embedded Kafka 4.1 broker. It lists both connectors at their version, carries a short
 * pipeline (MariaDB 11.4 → source, Canal-JSON → sink → MariaDB) row for row, and, having no KIP-877 plugin metrics
 * (Kafka 4.1+), still shows the {@code cdc-connect} MBeans, read over the child's JMX port, with no task failing.
 */
class OldWorkerCompatibilityTest {
    private static final Logger LOG = LoggerFactory.getLogger(OldWorkerCompatibilityTest.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The Kafka release of the worker under test (kafka-3.9-worker's {@code old.kafka.version}). */
    static final String WORKER_VERSION = "3.9.1";

    private static final String SOURCE_CLASS = "io.cdcconnect.source.CdcSourceConnector";
    private static final String SINK_CLASS = "io.cdcconnect.sink.CdcSinkConnector";

    @Test
    void connectorsListCarryAPipelineAndKeepTheirMBeansOnAKafka39Worker() throws Exception {
        Path workerLib = Path.of(System.getProperty("cdc.kafka39.worker.dir", "target/kafka-" + WORKER_VERSION
                + "-worker")).resolve("lib");
        List<Path> classpath = jars(workerLib);
        assumeTrue(classpath.stream().anyMatch(j -> j.getFileName().toString()
                        .equals("connect-runtime-" + WORKER_VERSION + ".jar")),
                "no Kafka " + WORKER_VERSION + " Connect runtime in " + workerLib.toAbsolutePath()
                        + ": build integration-tests with -am (the kafka-3.9-worker module resolves it from Maven Central)");
        Path pluginDir = Pipeline.pluginDir();
        String version = pluginVersion(pluginDir, "cdc-connect-source");
        assertEquals(version, pluginVersion(pluginDir, "cdc-connect-sink"), "both archives are one release");

        Path work = Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("old-worker");
        Path connectWork = work.resolve("connect");
        Files.createDirectories(connectWork);
        // Kafka 3.9 logs through reload4j: its configuration, as the distribution's connect-log4j.properties has it
        Path log4j = connectWork.resolve("log4j.properties");
        Files.writeString(log4j, """
                log4j.rootLogger=INFO, stdout
                log4j.appender.stdout=org.apache.log4j.ConsoleAppender
                log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
                log4j.appender.stdout.layout.ConversionPattern=[%d] %p %X{connector.context}%m (%c:%L)%n
                log4j.logger.org.reflections=ERROR
                """);

        long t0 = System.nanoTime();
        try (DatabaseServer db = TestServers.startDatabase(DatabaseSpec.mariadb("11.4"), work.resolve("source-db"));
             ConnectCluster connect = ConnectCluster.startWithForkedWorkerOn(classpath,
                     List.of("-Dlog4j.configuration=" + log4j.toUri()), pluginDir, connectWork, Map.of());
             Pipeline pipeline = Pipeline.over(db, connect, "oldworker", null)) {
            LOG.info("MariaDB and a Kafka {} worker up in {} ms", WORKER_VERSION, (System.nanoTime() - t0) / 1_000_000);

            // the child really is a 3.9.1 worker: GET / answers with its version
            JsonNode root = get(connect, "/");
            assertEquals(WORKER_VERSION, root.path("version").asText(), "the worker's GET /: " + root);

            // both connectors from their archives, at the version of their jars
            Map<String, String> plugins = new HashMap<>();
            for (JsonNode p : get(connect, "/connector-plugins")) {
                plugins.put(p.path("class").asText(), p.path("type").asText() + " " + p.path("version").asText());
            }
            assertEquals("source " + version, plugins.get(SOURCE_CLASS), "worker's connector plugins: " + plugins);
            assertEquals("sink " + version, plugins.get(SINK_CLASS), "worker's connector plugins: " + plugins);

            // a short pipeline: snapshot, then streamed changes, every row compared
            pipeline.createSchemas();
            Workload workload = new Workload(39);
            try (Connection c = pipeline.sourceConnection()) {
                workload.preload(c, 30);
            }
            pipeline.registerConnectors();
            try (Connection c = pipeline.sourceConnection()) {
                workload.run(c, 300, 0, null);
            }
            List<String> progress = new ArrayList<>();
            List<TableComparison.Result> results = pipeline.awaitCaughtUp(Duration.ofMinutes(2), progress::add);
            for (TableComparison.Result r : results) {
                assertTrue(r.matches(), r + "\nprogress: " + progress);
                assertTrue(r.sourceRows() > 0, "table " + r.table() + " should not be empty upstream");
            }
            assertEquals(0, pipeline.progress().lag(), "the sink committed every message; progress: " + progress);

            // no KIP-877 plugin metrics on 3.9: the cdc-connect MBeans are the task's metrics, and nothing failed
            assertEquals(List.of(), connect.workerMBeans("kafka.connect:type=plugins,*"),
                    "a Kafka 3.9 worker has no plugin metrics");
            List<String> ours = connect.workerMBeans("cdc-connect:*");
            LOG.info("cdc-connect MBeans of the {} worker: {}", WORKER_VERSION, ours);
            Map<String, Double> source = connect.workerMetrics("cdc-connect:type=source-task-metrics,connector="
                    + Pipeline.SOURCE_CONNECTOR + ",*");
            Map<String, Double> sink = connect.workerMetrics("cdc-connect:type=sink-task-metrics,connector="
                    + Pipeline.SINK_CONNECTOR + ",*");
            assertTrue(source.getOrDefault("records-polled-total", 0.0) > 0, "source task metrics: " + source
                    + "; MBeans: " + ours);
            assertTrue(sink.getOrDefault("rows-applied-total", 0.0) > 0, "sink task metrics: " + sink
                    + "; MBeans: " + ours);
            assertFalse(connect.workerMBeans("cdc-connect:type=source-table-metrics,connector="
                    + Pipeline.SOURCE_CONNECTOR + ",*").isEmpty(), "per-table MBeans: " + ours);
            for (String name : List.of(Pipeline.SOURCE_CONNECTOR, Pipeline.SINK_CONNECTOR)) {
                JsonNode status = connect.status(name);
                assertEquals("RUNNING", status.path("connector").path("state").asText(), status.toString());
                assertEquals(1, status.path("tasks").size(), status.toString());
                assertEquals("RUNNING", status.path("tasks").path(0).path("state").asText(), status.toString());
            }
            // a missing 4.1 class met on the way (PluginMetrics and its kin) would show in the worker's log
            String workerLog = Files.readString(connectWork.resolve("worker-1.log"));
            for (String missing : List.of("NoClassDefFoundError", "NoSuchMethodError", "ClassNotFoundException: org.apache.kafka")) {
                assertFalse(workerLog.contains(missing), missing + " in " + connectWork.resolve("worker-1.log"));
            }
        }
        LOG.info("Kafka {} worker compatibility checked in {} ms", WORKER_VERSION, (System.nanoTime() - t0) / 1_000_000);
    }

    private static List<Path> jars(Path lib) throws IOException {
        if (!Files.isDirectory(lib)) return List.of();
        try (Stream<Path> s = Files.list(lib)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }

    /** The version in the archive's folder name, {@code <owner>-<artifactId>-<version>}. */
    private static String pluginVersion(Path pluginDir, String artifactId) {
        String folder = ConnectPlugins.home(pluginDir, artifactId).getFileName().toString();
        return folder.substring((ConnectPlugins.OWNER + "-" + artifactId + "-").length());
    }

    private static JsonNode get(ConnectCluster connect, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(connect.restUrl().resolve(path))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), "GET " + path + ": " + r.body());
        return JSON.readTree(r.body());
    }
}
