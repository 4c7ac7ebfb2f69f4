package io.cdcconnect.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MariaDB → our source → Kafka (Canal-JSON, 2 partitions per table by primary key) → our sink (2 tasks) in a real
 * Connect worker → an EMPTY target database, with {@code auto.create=true}, {@code auto.evolve=true} and
 * {@code ddl.apply=none}: the stream's own CREATE TABLE and ALTER TABLE are skipped (as when a changefeed starts after
 * the tables were created), so the tables exist downstream only because the rows created them, both tasks racing to
 * create each one, and a column added at the source reaches the target through the rows that carry it. Every row of
 * every table is compared with {@link TableComparison}.
 */
class AutoCreateEndToEndTest {

    private static Pipeline pipeline;
    private static Workload workload;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AutoCreateEndToEndTest.class);

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(FormatTestSupport.workDir("auto-create"), "shop_auto", null);
        // the target database is created empty: no table downstream
        pipeline.createSchemas(Workload.TABLES, Workload.DDL, false);
        workload = new Workload(13);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 60); // captured by the snapshot
        }
        pipeline.registerSourceAs(Pipeline.SOURCE_CONNECTOR, "source-mariadb.json", Map.of(
                "partition.rule", "pk", "topic.partitions", "2", "topic.creation.default.partitions", "2"));
        pipeline.registerSink("sink-mariadb.json", 2, Map.of("tasks.max", "2", "auto.create", "true",
                "auto.evolve", "true", "ddl.apply", "none"));
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void rowsCreateAndEvolveTheTablesOfAnEmptyDatabaseAndEveryRowArrives() throws Exception {
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 300, 0, null);
            try (Statement s = c.createStatement()) {
                // NULL for the rows already there, on both sides: the sink adds the column as NULL-able
                s.execute("ALTER TABLE orders ADD COLUMN gift_note VARCHAR(40) NULL");
                s.execute("UPDATE orders SET gift_note = CONCAT('note ', id) WHERE id % 3 = 0");
            }
            workload.run(c, 100, 0, null);
        }
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));

        String db = pipeline.target().database();
        try (Connection t = pipeline.targetConnection(); Statement s = t.createStatement()) {
            assertEquals(List.of(List.of("order_id"), List.of("line")), rows(s, "SELECT column_name FROM "
                    + "information_schema.key_column_usage WHERE table_schema = '" + db + "' AND table_name = "
                    + "'order_lines' AND constraint_name = 'PRIMARY' ORDER BY ordinal_position"));
            assertEquals(List.of(List.of("text", "YES")), rows(s, "SELECT data_type, is_nullable FROM "
                    + "information_schema.columns WHERE table_schema = '" + db + "' AND table_name = 'orders' AND "
                    + "column_name = 'gift_note'"), "Canal-JSON's default type names carry no length: TEXT");
            for (String table : Workload.TABLES) {
                LOG.info("created by the sink ({} rows): {}", rows(s, "SELECT COUNT(*) FROM `" + db + "`.`" + table
                        + "`").get(0).get(0), rows(s, "SHOW CREATE TABLE `" + db + "`.`" + table + "`").get(0).get(1));
            }
        }
    }

    private static List<List<String>> rows(Statement s, String sql) throws Exception {
        List<List<String>> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) row.add(rs.getString(i));
                out.add(row);
            }
        }
        return out;
    }
}
