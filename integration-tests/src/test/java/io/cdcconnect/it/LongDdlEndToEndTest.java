package io.cdcconnect.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 38, item 4, end to end: a sink of 2 tasks on a real Connect worker, the consumer's poll interval shortened by
 * configuration to 10 s (standing in for the default 5 minutes), and a TRUNCATE the source sends to both partitions of
 * its topic that waits in the target for a metadata lock held 3 poll intervals long (as a long ALTER or a busy table
 * holds it). At a092367 the claimant blocked in {@code put()}, its consumer left the group, and the new owner of its
 * partitions ran the TRUNCATE a second time after rows written since (718 rows missing on a separate worker). Now the
 * statement runs beside the task thread: the tasks stay RUNNING, the server receives the TRUNCATE once (its general
 * log), and the target ends equal to the source.
 */
class LongDdlEndToEndTest {
    private static final int PARTITIONS = 2;
    private static Pipeline pipeline;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(FormatTestSupport.workDir("long-ddl"), "longddl", null);
        pipeline.createSchemas(List.of("items"), List.of(
                "CREATE TABLE items (id INT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL)"), false);
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            StringBuilder b = new StringBuilder("INSERT INTO items VALUES ");
            for (int i = 1; i <= 200; i++) b.append(i > 1 ? "," : "").append("(").append(i).append(", 'before')");
            s.execute(b.toString());
        }
        // the table's rows spread over both partitions: its TRUNCATE goes to both, and the two tasks agree on it
        pipeline.registerSourceAs(Pipeline.SOURCE_CONNECTOR, "source-mariadb.json", Map.of("partition.rule", "pk",
                "topic.partitions", Integer.toString(PARTITIONS),
                "topic.creation.default.partitions", Integer.toString(PARTITIONS)));
        pipeline.registerSink("sink-mariadb.json", 2, Map.of("tasks.max", "2",
                "consumer.override.max.poll.interval.ms", "10000",
                "consumer.override.session.timeout.ms", "10000",
                "consumer.override.heartbeat.interval.ms", "1000"));
        pipeline.compareTables(List.of("items"));
        awaitEqual();
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void aTruncateWaitingLongerThanThePollIntervalRunsOnceAndKeepsEveryRowAfterIt() throws Exception {
        Pipeline.Target t = pipeline.target();
        try (Connection admin = DriverManager.getConnection(t.jdbcUrl(t.database()), t.user(), t.password());
             Connection holder = DriverManager.getConnection(t.jdbcUrl(t.database()), t.user(), t.password())) {
            try (Statement st = admin.createStatement()) {
                st.execute("SET GLOBAL log_output = 'TABLE'");
                st.execute("TRUNCATE TABLE mysql.general_log");
                st.execute("SET GLOBAL general_log = ON");
            }
            // an open transaction that read the table holds its metadata lock: the TRUNCATE waits behind it
            holder.setAutoCommit(false);
            try (Statement st = holder.createStatement()) {
                st.executeQuery("SELECT COUNT(*) FROM items").close();
            }
            long sourceThread;
            try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT CONNECTION_ID()")) {
                    rs.next();
                    sourceThread = rs.getLong(1);
                }
                s.execute("TRUNCATE TABLE items");
                StringBuilder b = new StringBuilder("INSERT INTO items VALUES ");
                for (int i = 1; i <= 300; i++) {
                    b.append(i > 1 ? "," : "").append("(").append(1000 + i).append(", 'after')");
                }
                s.execute(b.toString());
            }
            // three poll intervals with the statement waiting: a task blocked in put() would have left the group
            long until = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < until) {
                pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
                Thread.sleep(2_000);
            }
            assertEquals(1, truncates(admin, sourceThread), "one TRUNCATE reached the server, and waits");
            holder.commit();
            awaitEqual();
            assertEquals(1, truncates(admin, sourceThread), "the server received the TRUNCATE once");
            pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
            try (Statement st = admin.createStatement()) {
                st.execute("SET GLOBAL general_log = OFF");
            }
        }
        try (Connection c = pipeline.targetConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(id) FROM items")) {
            assertTrue(rs.next());
            assertEquals(300, rs.getInt(1), "every row written after the TRUNCATE");
            assertEquals(1001, rs.getInt(2), "and none from before it");
        }
    }

    /** TRUNCATEs of items the server received, but the source's own (the target shares its server). */
    private static int truncates(Connection admin, long sourceThread) throws Exception {
        try (Statement st = admin.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM "
                + "mysql.general_log WHERE command_type = 'Query' AND CONVERT(argument USING utf8mb4) LIKE 'TRUNCATE%' "
                + "AND CONVERT(argument USING utf8mb4) LIKE '%items%' AND CONVERT(argument USING utf8mb4) NOT LIKE "
                + "'%general_log%' AND thread_id <> " + sourceThread)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void awaitEqual() throws Exception {
        List<String> progress = new ArrayList<>();
        for (TableComparison.Result r : pipeline.awaitCaughtUp(Duration.ofMinutes(3), progress::add)) {
            assertTrue(r.matches(), r + "\nprogress: " + progress);
        }
    }
}
