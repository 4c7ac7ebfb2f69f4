package io.cdcconnect.it.containers;

import io.cdcconnect.it.Pipeline;
import io.cdcconnect.it.TableComparison;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rows with their own ids into a TiDB table whose primary key is {@code AUTO_RANDOM}: upstream (MariaDB) the key is a
 * plain BIGINT, downstream TiDB generates ids unless the session sets {@code allow_auto_random_explicit_insert=1}, and
 * refuses explicit ones otherwise (error 8216). TiCDC's MySQL sink sets that variable on TiDB targets; this test shows
 * whether our sink's writes are accepted the same way: every row must arrive with its upstream id.
 */
@Tag("containers")
@RequiresContainers
class AutoRandomIntoTidbTest {
    private static final List<String> TABLES = List.of("t");
    private static final String SOURCE_DDL = "CREATE TABLE IF NOT EXISTS t (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(20) NULL)";
    private static final String TARGET_DDL = "CREATE TABLE t (id BIGINT AUTO_RANDOM PRIMARY KEY, v VARCHAR(20))";

    @Test
    void explicitIdsAreAcceptedIntoAnAutoRandomPrimaryKey(TestReporter reporter) throws Exception {
        ContainerTests.requireContainers("TiDB as a target");
        DatabaseServer tidb = TestServers.database(DatabaseSpec.tidb("8.5"));
        Pipeline.Target target = Pipeline.Target.on(tidb, ContainerTests.uniqueName("cdc_it_autorandom"));
        try (Pipeline pipeline = Pipeline.start(DatabaseSpec.mariadb("11.4"), ContainerTests.workDir("auto-random"),
                "autorandom", target, false)) {
            Map<String, String> servers = new LinkedHashMap<>();
            servers.put("source", pipeline.source().describe());
            servers.put("target", tidb.describe());
            ContainerTests.report(reporter, getClass().getSimpleName(), servers);

            pipeline.createSchemas(TABLES, List.of(SOURCE_DDL), false);
            try (Connection c = pipeline.targetConnection(); Statement s = c.createStatement()) {
                s.execute(TARGET_DDL); // the snapshot's CREATE TABLE then finds it there (1050: already in effect)
            }
            assertTrue(targetDdl(pipeline).contains("AUTO_RANDOM"), "target table: " + targetDdl(pipeline));

            try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
                s.execute("INSERT INTO t VALUES (1, 'snapshot'), (2, 'snapshot'), (1099511627776, 'large id')");
            }
            pipeline.registerSource("source-mariadb.json", 1);
            pipeline.registerSink("sink-mariadb.json", 1);
            try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
                s.execute("INSERT INTO t VALUES (10, 'streamed'), (11, 'streamed'), (12, 'streamed')");
                s.execute("UPDATE t SET v = 'updated' WHERE id IN (2, 11)");
                s.execute("UPDATE t SET id = 20 WHERE id = 12"); // a new explicit id through an update
                s.execute("DELETE FROM t WHERE id = 10");
            }

            List<TableComparison.Result> results = ContainerTests.awaitRowsMatch(pipeline, Duration.ofMinutes(3));
            ContainerTests.assertAllMatch(results, "AUTO_RANDOM target");
            assertEquals(5, results.get(0).sourceRows(), "ids 1, 2, 11, 20 and 2^40 upstream");
            assertTrue(targetDdl(pipeline).contains("AUTO_RANDOM"), "the sink must not have replaced the target table");
        } finally {
            ContainerTests.dropDatabase(target);
        }
    }

    private static String targetDdl(Pipeline pipeline) throws Exception {
        try (Connection c = pipeline.targetConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW CREATE TABLE t")) {
            rs.next();
            return rs.getString(2).toUpperCase(Locale.ROOT);
        }
    }
}
