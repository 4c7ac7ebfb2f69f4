package io.cdcconnect.it.containers;

import io.cdcconnect.it.FormatTestSupport;
import io.cdcconnect.it.Pipeline;
import io.cdcconnect.it.TableComparison;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.ContainersProvider;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.TestReporter;
import org.opentest4j.TestAbortedException;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the containers tests share: the early skip, the MySQL version matrix, waiting for the rows, the report. */
final class ContainerTests {

    private ContainerTests() {
    }

    /**
     * Skips the test (JUnit: aborted, with the reason) before anything starts when no container can run: the
     * servers the test would start first may be embedded ones, which it would start for nothing.
     */
    static void requireContainers(String what) {
        String why = ContainersProvider.whyUnavailable();
        if (why != null) throw new TestAbortedException(what + " needs containers: " + why);
    }

    /**
     * MySQL {@code version} with or without a binlog, if {@code cdc.test.mysql.versions} lists it (default 8.0,8.4);
     * else the test is skipped saying so. Containers are required (there is no embedded MySQL).
     */
    static DatabaseSpec mysql(String version, boolean binlog) {
        List<String> selected = TestServers.mysqlVersions();
        if (!selected.contains(version)) {
            throw new TestAbortedException("MySQL " + version + " is not in cdc.test.mysql.versions=" + String.join(",", selected));
        }
        requireContainers("MySQL " + version);
        DatabaseSpec spec = DatabaseSpec.mysql(version);
        return binlog ? spec : spec.withoutBinlog();
    }

    static Path workDir(String name) {
        return Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("containers").resolve(name);
    }

    /** A database name unique to this run. */
    static String uniqueName(String prefix) {
        return prefix + "_" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    }

    /** Prints and reports which servers a test ran on. */
    static void report(TestReporter reporter, String test, Map<String, String> servers) {
        StringBuilder sb = new StringBuilder(test).append(" ran on:");
        servers.forEach((role, what) -> {
            sb.append("\n  ").append(role).append(": ").append(what);
            reporter.publishEntry(role, what);
        });
        System.out.println(sb);
    }

    /**
     * Waits until every table matches row for row and messages have arrived, failing at once when a connector task
     * fails; then compares once more after a pause, so that a late stray change (a replay applied after the match)
     * fails the test too. Progress is not required to reach lag 0: watermarks and resolved events keep arriving.
     */
    static List<TableComparison.Result> awaitRowsMatch(Pipeline pipeline, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TableComparison.Result> last = List.of();
        while (System.nanoTime() < deadline) {
            pipeline.connect().assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
            last = pipeline.compare();
            if (!last.isEmpty() && last.stream().allMatch(TableComparison.Result::matches)
                    && pipeline.progress().captured() > 0) {
                Thread.sleep(3000);
                pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
                return pipeline.compare();
            }
            Thread.sleep(500);
        }
        return last;
    }

    /** Every table matches and none is empty upstream. */
    static void assertAllMatch(List<TableComparison.Result> results, String context) {
        assertFalse(results.isEmpty(), "nothing was compared (" + context + ")");
        for (TableComparison.Result r : results) {
            assertTrue(r.matches(), r + " (" + context + ")");
            assertTrue(r.sourceRows() > 0, "table " + r.table() + " should not be empty upstream (" + context + ")");
        }
    }

    /** Drops the target database a test created on a shared server. */
    static void dropDatabase(Pipeline.Target target) {
        try (Connection c = java.sql.DriverManager.getConnection(target.jdbcUrl(null), target.user(), target.password());
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + target.database() + "`");
        } catch (Exception e) {
            System.err.println("could not drop " + target.database() + ": " + e.getMessage());
        }
    }

    /** Every record of the pipeline's table topics, from the beginning to the end offsets at the time of the call. */
    static List<ConsumerRecord<byte[], byte[]>> readAll(Pipeline pipeline) throws Exception {
        return FormatTestSupport.readAll(pipeline);
    }
}
