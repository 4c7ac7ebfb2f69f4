package io.cdcconnect.it.containers;

import io.cdcconnect.it.Pipeline;
import io.cdcconnect.it.TableComparison;
import io.cdcconnect.it.Workload;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code PipelineEndToEndTest}'s scenario (snapshot, then a streamed workload, then a worker restart while rows keep
 * coming) for every MySQL version of {@code cdc.test.mysql.versions}: once with MySQL as the source (the target a
 * second database on it) and once with MySQL as the target of a MariaDB 11.4 source.
 */
@Tag("containers")
@RequiresContainers
class MySqlWorkloadEndToEndTest {

    static List<String> versions() {
        return TestServers.mysqlVersions();
    }

    @ParameterizedTest(name = "MySQL {0} as source")
    @MethodSource("versions")
    void mysqlAsSourceSnapshotStreamAndRestart(String version, TestReporter reporter) throws Exception {
        DatabaseSpec source = ContainerTests.mysql(version, true);
        String db = ContainerTests.uniqueName("shop_my" + version.replace(".", ""));
        try (Pipeline pipeline = Pipeline.start(source, ContainerTests.workDir("mysql-source-" + version), db, null, false)) {
            ContainerTests.report(reporter, "MySQL " + version + " as source", Map.of(
                    "source", pipeline.source().describe(), "target", "database " + pipeline.target().database()
                            + " on the source server", "kafka", pipeline.connect().bootstrapServers()));
            runScenario(pipeline, "source-mysql.json", 42);
        }
    }

    @ParameterizedTest(name = "MySQL {0} as target")
    @MethodSource("versions")
    void mysqlAsTargetSnapshotStreamAndRestart(String version, TestReporter reporter) throws Exception {
        DatabaseServer target = TestServers.database(ContainerTests.mysql(version, false));
        Pipeline.Target t = Pipeline.Target.on(target, ContainerTests.uniqueName("shop_replica"));
        try (Pipeline pipeline = Pipeline.start(DatabaseSpec.mariadb("11.4"),
                ContainerTests.workDir("mysql-target-" + version), "shop", t, false)) {
            Map<String, String> servers = new LinkedHashMap<>();
            servers.put("source", pipeline.source().describe());
            servers.put("target", target.describe());
            servers.put("kafka", pipeline.connect().bootstrapServers());
            ContainerTests.report(reporter, "MySQL " + version + " as target", servers);
            runScenario(pipeline, "source-mariadb.json", 43);
        } finally {
            ContainerTests.dropDatabase(t);
        }
    }

    private static void runScenario(Pipeline pipeline, String sourceConfig, long seed) throws Exception {
        pipeline.createSchemas();
        Workload workload = new Workload(seed);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 150); // captured by the snapshot
        }
        pipeline.registerSource(sourceConfig, 1);
        pipeline.registerSink("sink-mariadb.json", 1);
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 1500, 0, null);
        }
        ContainerTests.assertAllMatch(ContainerTests.awaitRowsMatch(pipeline, Duration.ofMinutes(4)), "after the stream");

        ExecutorService writer = Executors.newSingleThreadExecutor();
        long before = workload.rowChanges();
        try {
            Future<?> writing = writer.submit(() -> {
                try (Connection c = pipeline.sourceConnection()) {
                    workload.run(c, 2500, 400, null);
                }
                return null;
            });
            while (workload.rowChanges() - before < 1000 && !writing.isDone()) Thread.sleep(50);
            assertFalse(writing.isDone(), "the workload should still be running when the worker restarts");
            pipeline.connect().restartWorker();
            pipeline.connect().awaitRunning(Pipeline.SOURCE_CONNECTOR, 1, Duration.ofSeconds(120));
            pipeline.connect().awaitRunning(Pipeline.SINK_CONNECTOR, 1, Duration.ofSeconds(120));
            writing.get();
        } finally {
            writer.shutdownNow();
        }
        List<TableComparison.Result> results = ContainerTests.awaitRowsMatch(pipeline, Duration.ofMinutes(4));
        ContainerTests.assertAllMatch(results, "after the worker restart");
    }
}
