package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Our connectors on each Kafka Connect worker release users run, not only the one the build tests on: Kafka
 * <b>3.9.1</b>, <b>4.1.1</b> and <b>4.4.0</b> (the newest whose jars Maven Central serves), each a worker in a child
 * JVM whose classpath is only that release's Connect runtime (the kafka-&lt;v&gt;-worker modules), with the plugin
 * archives on its plugin.path, against the build's embedded broker. On each: {@code GET /} answers the release, both
 * connectors are listed at their version, a short pipeline (MariaDB 11.4 → source, Canal-JSON → sink → MariaDB) with an
 * ALTER TABLE mid-stream arrives row for row and column for column, the {@code cdc-connect} MBeans count (and, from
 * Kafka 4.1 on, the worker's KIP-877 plugin metrics too; 3.9 has none), {@code GET /connectors/<name>/offsets} answers
 * the source's binlog position and the sink's end offsets, and no task fails nor the worker's log shows a missing class.
 * One MariaDB serves the three (a database each).
 */
class WorkerVersionMatrixTest {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerVersionMatrixTest.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String SOURCE_CLASS = "io.cdcconnect.source.CdcSourceConnector";
    private static final String SINK_CLASS = "io.cdcconnect.sink.CdcSinkConnector";
    private static final Duration OFFSETS_WAIT = Duration.ofSeconds(60);

    private static Path work;
    private static DatabaseServer db;

    @BeforeAll
    static void startDatabase() {
        work = Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("worker-versions");
        db = TestServers.startDatabase(DatabaseSpec.mariadb("11.4"), work.resolve("source-db"));
    }

    @AfterAll
    static void stopDatabase() {
        if (db != null) db.close();
    }

    /** The Kafka releases of the workers, each from its kafka-&lt;major.minor&gt;-worker module. */
    @ParameterizedTest(name = "Kafka {0} worker")
    @ValueSource(strings = {"3.9.1", "4.1.1", "4.4.0"})
    void connectorsRunAPipelineWithDdlAndShowMetricsAndOffsets(String release) throws Exception {
        String digits = release.substring(0, release.lastIndexOf('.')).replace(".", "");
        Path workerLib = Path.of(System.getProperty("cdc.kafka" + digits + ".worker.dir",
                "target/kafka-" + release + "-worker")).resolve("lib");
        List<Path> classpath = jars(workerLib);
        assumeTrue(classpath.stream().anyMatch(j -> j.getFileName().toString()
                        .equals("connect-runtime-" + release + ".jar")),
                "no Kafka " + release + " Connect runtime in " + workerLib.toAbsolutePath() + ": build integration-tests"
                        + " with -am (the kafka-" + release.substring(0, 3) + "-worker module resolves it from Maven Central)");
        Path pluginDir = Pipeline.pluginDir();
        String version = pluginVersion(pluginDir, "cdc-connect-source");
        assertEquals(version, pluginVersion(pluginDir, "cdc-connect-sink"), "both archives are one release");
        boolean pluginMetrics = !release.startsWith("3."); // KIP-877, Kafka 4.1+

        Path connectWork = work.resolve("kafka-" + release);
        Files.createDirectories(connectWork);
        List<String> logging = loggingOptions(release, connectWork);

        long t0 = System.nanoTime();
        String sourceDb = "wv" + digits;
        try (ConnectCluster connect = ConnectCluster.startWithForkedWorkerOn(classpath, logging, pluginDir,
                connectWork, Map.of());
             Pipeline pipeline = Pipeline.over(db, connect, sourceDb, null)) {
            LOG.info("a Kafka {} worker up in {} ms", release, (System.nanoTime() - t0) / 1_000_000);

            // the child really is that release's worker: GET / answers with its version
            JsonNode root = get(connect, "/");
            assertEquals(release, root.path("version").asText(), "the worker's GET /: " + root);

            // both connectors from their archives, at the version of their jars
            Map<String, String> plugins = new HashMap<>();
            for (JsonNode p : get(connect, "/connector-plugins")) {
                plugins.put(p.path("class").asText(), p.path("type").asText() + " " + p.path("version").asText());
            }
            assertEquals("source " + version, plugins.get(SOURCE_CLASS), "worker's connector plugins: " + plugins);
            assertEquals("sink " + version, plugins.get(SINK_CLASS), "worker's connector plugins: " + plugins);

            // a short pipeline: snapshot, streamed changes, an ALTER TABLE, rows that use the new column
            pipeline.createSchemas();
            Workload workload = new Workload(Long.parseLong(digits));
            try (Connection c = pipeline.sourceConnection()) {
                workload.preload(c, 20);
            }
            pipeline.registerConnectors();
            try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
                workload.run(c, 80, 0, null);
                s.execute("ALTER TABLE customers ADD COLUMN tier VARCHAR(8) NULL");
                s.execute("UPDATE customers SET tier = 'gold' WHERE id <= 5");
                workload.run(c, 40, 0, null);
            }
            List<String> progress = new ArrayList<>();
            List<TableComparison.Result> results = pipeline.awaitCaughtUp(Duration.ofMinutes(2), progress::add);
            for (TableComparison.Result r : results) {
                assertTrue(r.matches(), r + "\nprogress: " + progress);
                assertTrue(r.sourceRows() > 0, "table " + r.table() + " should not be empty upstream");
            }
            try (Connection c = pipeline.targetConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM customers WHERE tier = 'gold'")) {
                assertTrue(rs.next());
                assertEquals(5, rs.getInt(1), "the ALTER TABLE reached the target before the rows that use it");
            }
            assertEquals(0, pipeline.progress().lag(), "the sink committed every message; progress: " + progress);

            // metrics: the cdc-connect MBeans always; the worker's plugin metrics where the worker has KIP-877
            List<String> ours = connect.workerMBeans("cdc-connect:*");
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
            if (pluginMetrics) {
                Map<String, Double> viaWorker = connect.workerMetrics("kafka.connect:type=plugins,connector="
                        + Pipeline.SINK_CONNECTOR + ",task=*");
                assertEquals(sink.get("rows-applied-total"), viaWorker.get("rows-applied-total"),
                        "the worker's plugin metrics read the sink task's counters: " + viaWorker);
                Map<String, Double> sourceViaWorker = connect.workerMetrics("kafka.connect:type=plugins,connector="
                        + Pipeline.SOURCE_CONNECTOR + ",task=*");
                assertTrue(sourceViaWorker.getOrDefault("records-polled-total", 0.0) > 0,
                        "the worker's plugin metrics of the source task: " + sourceViaWorker);
            } else {
                assertEquals(List.of(), connect.workerMBeans("kafka.connect:type=plugins,*"),
                        "a Kafka " + release + " worker has no plugin metrics");
            }

            // offsets over REST (KIP-875): the source's binlog position, the sink's committed end offsets
            JsonNode sourceOffsets = JSON.readTree(connect.offsets(Pipeline.SOURCE_CONNECTOR)).path("offsets");
            assertFalse(sourceOffsets.isEmpty(), "GET /connectors/" + Pipeline.SOURCE_CONNECTOR + "/offsets: "
                    + sourceOffsets);
            JsonNode position = sourceOffsets.path(0).path("offset");
            assertTrue(position.has("gtids") || position.has("pos"), "the source's offset is a binlog position: "
                    + sourceOffsets);
            assertSinkOffsetsReachTheEnd(pipeline);

            for (String name : List.of(Pipeline.SOURCE_CONNECTOR, Pipeline.SINK_CONNECTOR)) {
                JsonNode status = connect.status(name);
                assertEquals("RUNNING", status.path("connector").path("state").asText(), status.toString());
                assertEquals(1, status.path("tasks").size(), status.toString());
                assertEquals("RUNNING", status.path("tasks").path(0).path("state").asText(), status.toString());
            }
            // a Kafka class the plugins need and the worker lacks (PluginMetrics and its kin) would show here
            String workerLog = Files.readString(connectWork.resolve("worker-1.log"));
            for (String missing : List.of("NoClassDefFoundError", "NoSuchMethodError", "NoSuchFieldError",
                    "ClassNotFoundException: org.apache.kafka")) {
                assertFalse(workerLog.contains(missing), missing + " in " + connectWork.resolve("worker-1.log"));
            }
        }
        LOG.info("Kafka {} worker checked in {} ms", release, (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Every {@code org/apache/kafka/...} class that a class in either archive names is on the worker's classpath or in
     * the archive itself, except the ones the plugins load only behind a guard: {@code PluginMetrics} (KIP-877, Kafka
     * 4.1+), asked for inside a {@code try} that catches its absence. A class of Kafka's named and missing would fail
     * whatever reaches it, as {@code Sanitizer} failed the source's start on 4.4 until the archive carried one.
     */
    @ParameterizedTest(name = "Kafka {0} worker")
    @ValueSource(strings = {"3.9.1", "4.1.1", "4.4.0"})
    void theArchivesNameNoKafkaClassTheWorkerLacks(String release) throws IOException {
        String digits = release.substring(0, release.lastIndexOf('.')).replace(".", "");
        Path workerLib = Path.of(System.getProperty("cdc.kafka" + digits + ".worker.dir",
                "target/kafka-" + release + "-worker")).resolve("lib");
        List<Path> workerJars = jars(workerLib);
        assumeTrue(workerJars.stream().anyMatch(j -> j.getFileName().toString()
                .equals("connect-runtime-" + release + ".jar")), "no Kafka " + release + " Connect runtime in " + workerLib);
        java.util.Set<String> guarded = release.startsWith("3.")
                ? java.util.Set.of("org/apache/kafka/common/metrics/PluginMetrics") : java.util.Set.of();
        for (String artifactId : List.of("cdc-connect-source", "cdc-connect-sink")) {
            List<Path> pluginJars = jars(ConnectPlugins.home(Pipeline.pluginDir(), artifactId).resolve("lib"));
            java.util.Set<String> present = new java.util.HashSet<>();
            for (Path j : Stream.concat(workerJars.stream(), pluginJars.stream()).toList()) present.addAll(classes(j));
            Map<String, String> missing = new TreeMap<>();
            java.util.regex.Pattern named = java.util.regex.Pattern.compile("org/apache/kafka/[A-Za-z0-9_/$]+");
            for (Path j : pluginJars) {
                try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(j.toFile())) {
                    for (java.util.zip.ZipEntry e : java.util.Collections.list(zip.entries())) {
                        if (!e.getName().endsWith(".class")) continue;
                        String text;
                        try (java.io.InputStream in = zip.getInputStream(e)) {
                            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
                        }
                        java.util.regex.Matcher m = named.matcher(text);
                        while (m.find()) {
                            if (m.group().endsWith("/")) continue; // a package's name, not a class's
                            String outer = m.group().split("\\$")[0];
                            if (!present.contains(outer) && !guarded.contains(outer)) {
                                missing.putIfAbsent(outer, j.getFileName() + "!" + e.getName());
                            }
                        }
                    }
                }
            }
            assertEquals(Map.of(), missing, artifactId + " names Kafka classes a Kafka " + release
                    + " worker lacks (class -> where it is named)");
        }
    }

    /** The class names ({@code a/b/C}, inner classes included) a jar holds. */
    private static List<String> classes(Path jar) throws IOException {
        List<String> out = new ArrayList<>();
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            for (java.util.zip.ZipEntry e : java.util.Collections.list(zip.entries())) {
                String n = e.getName();
                if (n.endsWith(".class")) out.add(n.substring(0, n.length() - ".class".length()));
            }
        }
        return out;
    }

    /** The sink's offsets, as {@code GET /connectors/<sink>/offsets} answers them, reach every table partition's end. */
    private static void assertSinkOffsetsReachTheEnd(Pipeline pipeline) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicDescription d : FormatTestSupport.tableTopics(pipeline).values()) {
            d.partitions().forEach(p -> request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> end = new HashMap<>();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                pipeline.connect().bootstrapServers()))) {
            admin.listOffsets(request).all().get(10, TimeUnit.SECONDS).forEach((tp, info) -> end.put(tp, info.offset()));
        }
        assertTrue(end.size() >= Workload.TABLES.size(), "a partition or more per table topic: " + end);
        long deadline = System.nanoTime() + OFFSETS_WAIT.toNanos();
        String json = "";
        Map<TopicPartition, Long> committed = Map.of();
        while (System.nanoTime() < deadline) {
            json = pipeline.connect().offsets(Pipeline.SINK_CONNECTOR);
            committed = new HashMap<>();
            for (JsonNode o : JSON.readTree(json).path("offsets")) {
                committed.put(new TopicPartition(o.path("partition").path("kafka_topic").asText(),
                        o.path("partition").path("kafka_partition").asInt()), o.path("offset").path("kafka_offset").asLong());
            }
            if (committed.entrySet().containsAll(end.entrySet())) return;
            ConnectCluster.sleep(500);
        }
        fail("the sink's offsets over REST did not reach the end of the table topics within " + OFFSETS_WAIT
                + "\n  end offsets: " + new TreeMap<>(Map.copyOf(toStrings(end))) + "\n  GET /connectors/"
                + Pipeline.SINK_CONNECTOR + "/offsets: " + json);
    }

    private static Map<String, Long> toStrings(Map<TopicPartition, Long> m) {
        Map<String, Long> out = new HashMap<>();
        m.forEach((tp, o) -> out.put(tp.toString(), o));
        return out;
    }

    /**
     * The logging configuration the release's jars expect, as its distribution's {@code config/connect-log4j*} has it:
     * reload4j for 3.x, Log4j 2 for 4.x.
     */
    private static List<String> loggingOptions(String release, Path dir) throws IOException {
        if (release.startsWith("3.")) {
            Path log4j = dir.resolve("log4j.properties");
            Files.writeString(log4j, """
                    log4j.rootLogger=INFO, stdout
                    log4j.appender.stdout=org.apache.log4j.ConsoleAppender
                    log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
                    log4j.appender.stdout.layout.ConversionPattern=[%d] %p %X{connector.context}%m (%c:%L)%n
                    log4j.logger.org.reflections=ERROR
                    """);
            return List.of("-Dlog4j.configuration=" + log4j.toUri());
        }
        Path log4j2 = dir.resolve("log4j2.properties");
        Files.writeString(log4j2, """
                status = warn
                appender.stdout.type = Console
                appender.stdout.name = STDOUT
                appender.stdout.layout.type = PatternLayout
                appender.stdout.layout.pattern = [%d] %p %X{connector.context}%m (%c:%L)%n
                rootLogger.level = INFO
                rootLogger.appenderRef.stdout.ref = STDOUT
                logger.reflections.name = org.reflections
                logger.reflections.level = ERROR
                """);
        return List.of("-Dlog4j2.configurationFile=" + log4j2.toUri());
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
