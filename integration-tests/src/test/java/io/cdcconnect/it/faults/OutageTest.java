package io.cdcconnect.it.faults;

import com.fasterxml.jackson.databind.JsonNode;
import io.cdcconnect.it.Pipeline;
import io.cdcconnect.it.PipelineProgress;
import io.cdcconnect.it.TableComparison;
import io.cdcconnect.it.Workload;
import io.cdcconnect.testsupport.Closeables;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Outages under a steady load, on the real pipeline (both connectors from their plugin archives in a Connect worker
 * of its own JVM, a real broker, MariaDB 11.4 upstream and a separate MariaDB 10.11 downstream): the target stopped
 * mid-apply and started again, the target read-only (as after a failover), Debezium's incremental snapshot through its
 * signal table, the source server restarted, the broker restarted, and the target down for longer than the sink's retry
 * budget. Each scenario ends with every row equal and the sink's offsets at the end of every partition; the sink writes
 * as a user without SUPER, as production sinks do, so read-only applies to it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OutageTest {
    private static final Logger LOG = LoggerFactory.getLogger(OutageTest.class);
    private static final String SINK_USER = "sinker";
    private static final String SINK_PASSWORD = "sinker-secret";
    private static final String SIGNALS = "debezium_signal";

    private static DatabaseServer sourceServer;
    private static DatabaseServer targetServer;
    private static ConnectCluster connect;
    private static Pipeline pipeline;
    private static final List<String> figures = new ArrayList<>();
    /** One workload for the whole class: it knows the keys it wrote. */
    private static final Workload SMALL = new Workload(11);
    private static final BulkWorkload BULK = new BulkWorkload();

    private final Writer writer = new Writer();

    @BeforeAll
    static void start() throws Exception {
        Path work = FaultSettings.workDir("outage");
        sourceServer = TestServers.startDatabase(DatabaseSpec.mariadb("11.4"), work.resolve("source-db"));
        targetServer = TestServers.startDatabase(DatabaseSpec.mariadb("10.11").withoutBinlog(), work.resolve("target-db"));
        connect = ConnectCluster.startWithForkedWorkers(Pipeline.pluginDir(), work.resolve("connect"), 1);
        String targetDb = "outage_replica";
        targetServer.execute("CREATE USER IF NOT EXISTS '" + SINK_USER + "'@'%' IDENTIFIED BY '" + SINK_PASSWORD + "'",
                "GRANT ALL ON `" + targetDb + "`.* TO '" + SINK_USER + "'@'%'",
                "GRANT ALL ON `cdc_connect`.* TO '" + SINK_USER + "'@'%'");
        pipeline = Pipeline.over(sourceServer, connect, "outage", new Pipeline.Target(targetServer.host(),
                targetServer.port(), SINK_USER, SINK_PASSWORD, targetDb));
        List<String> tables = new ArrayList<>(Workload.TABLES);
        tables.add(BulkWorkload.TABLE);
        List<String> ddl = new ArrayList<>(Workload.DDL);
        ddl.add(BulkWorkload.DDL);
        ddl.add("CREATE TABLE IF NOT EXISTS " + SIGNALS + " (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL,"
                + " data VARCHAR(2048) NULL)");
        pipeline.createSchemas(tables, ddl);
        try (Connection c = pipeline.sourceConnection()) {
            SMALL.preload(c, 100);
            BULK.preload(c, 5 * BulkWorkload.ROWS_PER_TXN);
        }
        pipeline.registerSourceAs(Pipeline.SOURCE_CONNECTOR, "source-mariadb.json", Map.of(
                "signal.data.collection", "outage." + SIGNALS));
        pipeline.registerSink("sink-mariadb.json", 1);
        awaitIdentical("start");
    }

    @AfterAll
    static void stop() {
        LOG.info("outage figures:\n  {}", String.join("\n  ", figures));
        Closeables.closeAll(pipeline, connect, targetServer, sourceServer);
    }

    @AfterEach
    void stopWriting() throws Exception {
        writer.stop();
    }

    private static EmbeddedMariaDb embedded(DatabaseServer server) {
        assumeTrue(server instanceof EmbeddedMariaDb, "stopping and starting a server needs the embedded one, not "
                + server.provenance());
        return (EmbeddedMariaDb) server;
    }

    @Test
    @Order(1)
    void targetStoppedMidApplyAndStartedAgain() throws Exception {
        EmbeddedMariaDb target = embedded(targetServer);
        writer.start();
        awaitApplying();
        long t0 = System.nanoTime();
        target.stopServer();
        sleepSeconds(FaultSettings.outageSeconds());
        target.restart();
        LOG.info("target back after {} s", (System.nanoTime() - t0) / 1_000_000_000);
        awaitApplying();
        writer.stop();
        awaitIdentical("target stopped for " + FaultSettings.outageSeconds() + " s");
    }

    @Test
    @Order(2)
    void targetReadOnlyForAWhile() throws Exception {
        writer.start();
        awaitApplying();
        targetServer.execute("SET GLOBAL read_only = ON");
        try {
            sleepSeconds(FaultSettings.outageSeconds());
        } finally {
            targetServer.execute("SET GLOBAL read_only = OFF");
        }
        awaitApplying();
        writer.stop();
        awaitIdentical("target read-only for " + FaultSettings.outageSeconds() + " s");
    }

    @Test
    @Order(3)
    void incrementalSnapshotThroughTheSignalTableWhileWriting() throws Exception {
        PipelineProgress.Snapshot before = pipeline.progress();
        writer.start();
        awaitApplying();
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO " + SIGNALS + " (id, type, data) VALUES ('resnap-1', 'execute-snapshot',"
                    + " '{\"data-collections\": [\"outage.bulk\", \"outage.customers\"], \"type\": \"incremental\"}')");
        }
        // the snapshot re-reads every row of both tables: at least that many more messages
        long rows;
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT (SELECT COUNT(*) FROM bulk) + (SELECT COUNT(*) FROM customers)")) {
            rs.next();
            rows = rs.getLong(1);
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (pipeline.progress().captured() < before.captured() + rows && System.nanoTime() < deadline) {
            connect.assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            Thread.sleep(500);
        }
        assertTrue(pipeline.progress().captured() >= before.captured() + rows,
                "the incremental snapshot should have re-sent the " + rows + " rows: " + pipeline.progress());
        writer.stop();
        awaitIdentical("incremental snapshot of " + rows + " rows while writing");
    }

    @Test
    @Order(4)
    void sourceServerRestarted() throws Exception {
        EmbeddedMariaDb source = embedded(sourceServer);
        writer.start();
        awaitApplying();
        source.stopServer();
        sleepSeconds(10);
        source.restart();
        awaitApplying();
        writer.stop();
        awaitIdentical("source server restarted (down 10 s)");
    }

    @Test
    @Order(5)
    void brokerRestarted() throws Exception {
        writer.start();
        awaitApplying();
        connect.stopBroker();
        sleepSeconds(15);
        connect.startBroker();
        awaitApplying();
        writer.stop();
        awaitIdentical("broker restarted (down 15 s)");
    }

    @Test
    @Order(6)
    void targetDownPastTheRetryBudgetFailsTheTaskSayingWhatToDoAndARestartResumes() throws Exception {
        EmbeddedMariaDb target = embedded(targetServer);
        // a short budget: 1 retry (each attempt waits up to 30 s for a connection)
        Map<String, String> sink = new java.util.HashMap<>(io.cdcconnect.it.ConnectorConfigFiles.load(
                "sink-mariadb.json", pipeline.configValues()));
        sink.put("retry.max.attempts", "1");
        connect.putConnector(Pipeline.SINK_CONNECTOR, sink);
        connect.awaitRunning(Pipeline.SINK_CONNECTOR, 1, Duration.ofSeconds(60));
        writer.start();
        awaitApplying();
        target.stopServer();
        String trace;
        try {
            trace = awaitTaskFailed(Duration.ofMinutes(5));
        } finally {
            target.restart();
        }
        assertTrue(trace.contains("restart the task"), "the failure should say what to do: " + trace);
        assertTrue(!trace.contains(SINK_PASSWORD), "no password in the trace");
        connect.restartTask(Pipeline.SINK_CONNECTOR, 0);
        // the restart is asynchronous: the status says FAILED until the new task instance reports
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && "FAILED".equals(connect.status(Pipeline.SINK_CONNECTOR)
                .path("tasks").path(0).path("state").asText())) {
            Thread.sleep(250);
        }
        connect.awaitRunning(Pipeline.SINK_CONNECTOR, 1, Duration.ofSeconds(60));
        writer.stop();
        awaitIdentical("target down past a 1-retry budget, task failed, restarted by hand");
    }

    private static String awaitTaskFailed(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode s = connect.status(Pipeline.SINK_CONNECTOR);
            for (JsonNode t : s.path("tasks")) {
                if ("FAILED".equals(t.path("state").asText())) return t.path("trace").asText();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the sink task did not fail within " + timeout + ": "
                + connect.status(Pipeline.SINK_CONNECTOR));
    }

    private static void awaitIdentical(String scenario) throws SQLException {
        long t0 = System.nanoTime();
        List<String> progress = new ArrayList<>();
        List<TableComparison.Result> results = pipeline.awaitCaughtUp(Duration.ofMinutes(4), progress::add);
        for (TableComparison.Result r : results) {
            assertTrue(r.matches(), scenario + ": " + r + "\nprogress: " + progress);
        }
        assertEquals(0, pipeline.progress().lag(), scenario + ": every message committed; progress: " + progress);
        String line = String.format("%s: identical %.1f s after the load stopped; %s", scenario,
                (System.nanoTime() - t0) / 1e9, progress.isEmpty() ? "" : progress.get(progress.size() - 1));
        figures.add(line);
        LOG.info(line);
    }

    private static void awaitApplying() throws InterruptedException {
        PipelineProgress.Snapshot before = pipeline.progress();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            connect.assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            connect.assertNotFailed(Pipeline.SINK_CONNECTOR);
            if (pipeline.progress().applied() > before.applied() + 50) return;
            Thread.sleep(250);
        }
        throw new AssertionError("the sink applied nothing new within 3 min: " + pipeline.progress());
    }

    private static void sleepSeconds(int s) throws InterruptedException {
        Thread.sleep(s * 1000L);
    }

    /** Small transactions and 1,000-row ones, on and on; rides out a source outage by reconnecting. */
    private static final class Writer {
        private final AtomicBoolean running = new AtomicBoolean();
        private final AtomicLong transactions = new AtomicLong();
        private ExecutorService pool;
        private Future<?> task;

        void start() {
            running.set(true);
            pool = Executors.newSingleThreadExecutor();
            task = pool.submit(() -> {
                while (running.get()) {
                    try (Connection c = pipeline.sourceConnection()) {
                        while (running.get()) {
                            SMALL.run(c, 20, 2_000, null);
                            if (transactions.incrementAndGet() % 10 == 0) BULK.next(c);
                        }
                    } catch (SQLException e) {
                        // the source is down: its transaction rolled back; try again shortly
                        Thread.sleep(500);
                    }
                }
                return null;
            });
        }

        void stop() throws Exception {
            if (pool == null) return;
            running.set(false);
            pool.shutdown();
            task.get();
            pool = null;
        }
    }
}
