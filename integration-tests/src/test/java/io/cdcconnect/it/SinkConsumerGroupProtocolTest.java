package io.cdcconnect.it;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupType;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The sink's consumers on KIP-848's consumer group protocol ({@code consumer.override.group.protocol=consumer}) on the
 * newest worker (Kafka {@value #RELEASE}, a child JVM on its own jars, as in {@link WorkerVersionMatrixTest}): two sink
 * tasks over three topics, then their partitions revoked twice, by a restart of the connector with its tasks and by a
 * second worker joining the group (a task moves to it while the other keeps running). The group must be of the new
 * type, every row must arrive, and no task may fail.
 *
 * <p>Measured on 2026-12-07 on Kafka 4.4.0: the restart passes (tasks stop, start and resume, every row arrives); the
 * second worker's joining fails the task that keeps running, as on 4.1.1, with {@code UnsupportedOperationException}
 * in Connect's {@code WorkerSinkTask$SinkTaskMetricsGroup.clearOffsets}, called from
 * {@code HandleRebalance.onPartitionsRevoked} with the collection {@code AsyncKafkaConsumer} hands its rebalance
 * listener (docs/sink.md). So the default run reports it skipped with that reason; {@code -Dcdc.test.kip848=true}
 * measures it again (on a newer worker: change {@link #RELEASE} and the worker module).
 */
class SinkConsumerGroupProtocolTest {
    private static final Logger LOG = LoggerFactory.getLogger(SinkConsumerGroupProtocolTest.class);
    static final String RELEASE = "4.4.0";

    @Test
    void sinkTasksRunThroughRevocationsUnderTheConsumerProtocol() throws Exception {
        assumeTrue(Boolean.getBoolean("cdc.test.kip848"), "Kafka Connect " + RELEASE + "'s sink task fails when a"
                + " partition is revoked under group.protocol=consumer (UnsupportedOperationException in"
                + " WorkerSinkTask$SinkTaskMetricsGroup.clearOffsets, measured 2026-12-07; docs/sink.md):"
                + " -Dcdc.test.kip848=true runs this measurement");
        Path workerLib = Path.of(System.getProperty("cdc.kafka44.worker.dir", "target/kafka-" + RELEASE + "-worker"))
                .resolve("lib");
        List<Path> classpath = jars(workerLib);
        assumeTrue(classpath.stream().anyMatch(j -> j.getFileName().toString()
                        .equals("connect-runtime-" + RELEASE + ".jar")),
                "no Kafka " + RELEASE + " Connect runtime in " + workerLib.toAbsolutePath()
                        + ": build integration-tests with -am (the kafka-4.4-worker module resolves it)");
        Path work = Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("consumer-protocol");
        Path connectWork = work.resolve("connect");
        Files.createDirectories(connectWork);
        Path log4j2 = connectWork.resolve("log4j2.properties");
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

        long t0 = System.nanoTime();
        try (DatabaseServer db = TestServers.startDatabase(DatabaseSpec.mariadb("11.4"), work.resolve("source-db"));
             ConnectCluster connect = ConnectCluster.startWithForkedWorkerOn(classpath,
                     List.of("-Dlog4j2.configurationFile=" + log4j2.toUri()), Pipeline.pluginDir(), connectWork,
                     Map.of());
             Pipeline pipeline = Pipeline.over(db, connect, "kip848", null)) {
            pipeline.createSchemas();
            Workload workload = new Workload(848);
            try (Connection c = pipeline.sourceConnection()) {
                workload.preload(c, 20);
            }
            pipeline.registerSource();
            pipeline.registerSink("sink-mariadb.json", 2, Map.of("tasks.max", "2",
                    "consumer.override.group.protocol", "consumer"));
            try (Connection c = pipeline.sourceConnection()) {
                workload.run(c, 60, 0, null);
            }
            awaitCaughtUp(pipeline, "before any revocation");
            GroupType type = groupType(connect, "connect-" + Pipeline.SINK_CONNECTOR);
            assertEquals(GroupType.CONSUMER, type, "the sink's consumer group protocol");

            // revocation 1: the connector and its tasks restart (each task's partitions are revoked as it stops)
            connect.restartConnector(Pipeline.SINK_CONNECTOR);
            ConnectCluster.sleep(2000);
            connect.awaitRunning(Pipeline.SINK_CONNECTOR, 2, Duration.ofSeconds(60));
            try (Connection c = pipeline.sourceConnection()) {
                workload.run(c, 60, 0, null);
            }
            awaitCaughtUp(pipeline, "after a restart of the sink");
            // revocation 2: a second worker joins, the connect group rebalances and a task moves to it
            connect.addWorker();
            try (Connection c = pipeline.sourceConnection()) {
                workload.run(c, 60, 0, null);
            }
            awaitCaughtUp(pipeline, "after a second worker joined");
            connect.awaitRunning(Pipeline.SINK_CONNECTOR, 2, Duration.ofSeconds(60));

            String logs = workerLogs(connectWork);
            for (String bad : List.of("UnsupportedOperationException", "WorkerSinkTask{id=" + Pipeline.SINK_CONNECTOR
                    + "-0} Task threw an uncaught", "WorkerSinkTask{id=" + Pipeline.SINK_CONNECTOR
                    + "-1} Task threw an uncaught")) {
                assertFalse(logs.contains(bad), bad + " in the workers' logs under " + connectWork);
            }
            assertTrue(logs.contains("group.protocol = consumer"), "the sink consumers' logged configuration");
        }
        LOG.info("the sink under group.protocol=consumer on Kafka {} checked in {} ms", RELEASE,
                (System.nanoTime() - t0) / 1_000_000);
    }

    private static void awaitCaughtUp(Pipeline pipeline, String when) throws Exception {
        List<String> progress = new ArrayList<>();
        List<TableComparison.Result> results = pipeline.awaitCaughtUp(Duration.ofMinutes(2), progress::add);
        for (TableComparison.Result r : results) {
            assertTrue(r.matches(), when + ": " + r + "\nprogress: " + progress);
        }
        pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
    }

    private static GroupType groupType(ConnectCluster connect, String group) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers()))) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all()
                    .get(10, TimeUnit.SECONDS).get(group);
            return d.type();
        }
    }

    private static String workerLogs(Path dir) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(f -> f.getFileName().toString().matches("worker-\\d+\\.log")).toList()) {
                all.append(Files.readString(p));
            }
        }
        return all.toString();
    }

    private static List<Path> jars(Path lib) throws IOException {
        if (!Files.isDirectory(lib)) return List.of();
        try (Stream<Path> s = Files.list(lib)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }
}
