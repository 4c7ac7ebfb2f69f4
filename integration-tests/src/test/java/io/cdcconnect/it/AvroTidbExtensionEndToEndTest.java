package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TiCDC's Avro protocol with TiDB's extension ({@code enable.tidb.extension=true}) through the whole pipeline and a
 * real Apicurio Registry: each value schema gains {@code _tidb_op}, {@code _tidb_commit_ts} and
 * {@code _tidb_commit_physical_time}, which let the sink tell updates from inserts and group rows by commit ts (and so
 * take its ordinary, non-upsert path for rows written after it started). The extension fields are metadata: they
 * must never reach the target as columns. Every row is compared at the end.
 */
class AvroTidbExtensionEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static FormatTestSupport.AvroRun run;

    @BeforeAll
    static void startPipeline() throws Exception {
        run = FormatTestSupport.startAvroRun("avro-tidb", "shop_avro_tidb", 31, "source-mariadb-avro-tidb.json");
    }

    @AfterAll
    static void stop() {
        if (run != null) run.close();
    }

    @Test
    void rowsArriveRowForRowAndTheExtensionFieldsStayMetadata() throws Exception {
        try (Connection c = run.pipeline().sourceConnection()) {
            run.workload().run(c, 1200, 0, null);
        }
        FormatTestSupport.assertCaughtUpAndEqual(run.pipeline(), Duration.ofMinutes(3));

        for (String table : Workload.TABLES) {
            String subject = (Pipeline.TOPIC_PREFIX + "." + run.pipeline().sourceDb() + "." + table).replace('.', '_');
            Set<String> fields = new HashSet<>();
            for (JsonNode f : JSON.readTree(run.registry().latestSchema(subject + "-value")).path("fields")) {
                fields.add(f.path("name").asText());
            }
            assertTrue(fields.containsAll(Set.of("_tidb_op", "_tidb_commit_ts", "_tidb_commit_physical_time")),
                    subject + "-value fields: " + fields);
            try (Connection t = run.pipeline().targetConnection();
                 var rs = t.getMetaData().getColumns(run.pipeline().target().database(), null, table, "_tidb%")) {
                assertFalse(rs.next(), "extension field became a column downstream in " + table);
            }
        }
    }
}
