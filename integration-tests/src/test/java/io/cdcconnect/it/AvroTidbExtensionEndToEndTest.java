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
    private static ApicurioRegistry registry;
    private static Pipeline pipeline;
    private static Workload workload;

    @BeforeAll
    static void startPipeline() throws Exception {
        ApicurioRegistry[] started = new ApicurioRegistry[1];
        pipeline = FormatTestSupport.startWithRegistry("avro-tidb", "shop_avro_tidb", started);
        registry = started[0];
        pipeline.createSchemas();
        workload = new Workload(31);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 100); // captured by the snapshot
        }
        pipeline.registerSource("source-mariadb-avro-tidb.json", 1);
        pipeline.registerSink("sink-mariadb-avro.json", 1);
    }

    @AfterAll
    static void stop() {
        try {
            if (pipeline != null) pipeline.close();
        } finally {
            if (registry != null) registry.close();
        }
    }

    @Test
    void rowsArriveRowForRowAndTheExtensionFieldsStayMetadata() throws Exception {
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 1200, 0, null);
        }
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));

        for (String table : Workload.TABLES) {
            String subject = (Pipeline.TOPIC_PREFIX + "." + pipeline.sourceDb() + "." + table).replace('.', '_');
            Set<String> fields = new HashSet<>();
            for (JsonNode f : JSON.readTree(registry.latestSchema(subject + "-value")).path("fields")) {
                fields.add(f.path("name").asText());
            }
            assertTrue(fields.containsAll(Set.of("_tidb_op", "_tidb_commit_ts", "_tidb_commit_physical_time")),
                    subject + "-value fields: " + fields);
            try (Connection t = pipeline.targetConnection();
                 var rs = t.getMetaData().getColumns(pipeline.target().database(), null, table, "_tidb%")) {
                assertFalse(rs.next(), "extension field became a column downstream in " + table);
            }
        }
    }
}
