package io.cdcconnect.it.containers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.it.Pipeline;
import io.cdcconnect.it.Workload;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.registry.SchemaRegistry;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code AvroEndToEndTest}'s scenario against Confluent's own Schema Registry (a container) instead of Apicurio's
 * compatible API: the source registers each table's key and value schemas under TopicNameStrategy subjects, writes
 * Confluent-framed messages (deletes as tombstones), and the sink reads the schemas back by id. Every row is compared.
 */
@Tag("containers")
@RequiresContainers
class ConfluentRegistryAvroEndToEndTest {

    @Test
    void rowsArriveRowForRowWithSchemasFromConfluentsRegistry(TestReporter reporter) throws Exception {
        ContainerTests.requireContainers("Confluent Schema Registry");
        try (Pipeline pipeline = Pipeline.start(DatabaseSpec.mariadb("11.4"), ContainerTests.workDir("avro-confluent"),
                "shop_avro_cf", null, false);
             SchemaRegistry registry = TestServers.confluentSchemaRegistry()) {
            Map<String, String> servers = new LinkedHashMap<>();
            servers.put("source", pipeline.source().describe());
            servers.put("target", "database " + pipeline.target().database() + " on the source server");
            servers.put("kafka", pipeline.connect().bootstrapServers());
            servers.put("schema registry", registry.describe());
            ContainerTests.report(reporter, getClass().getSimpleName(), servers);

            pipeline.putConfigValue("SCHEMA_REGISTRY_URL", registry.url());
            pipeline.createSchemas();
            Workload workload = new Workload(11);
            try (Connection c = pipeline.sourceConnection()) {
                workload.preload(c, 100);
            }
            pipeline.registerSource("source-mariadb-avro.json", 1);
            pipeline.registerSink("sink-mariadb-avro.json", 1);
            try (Connection c = pipeline.sourceConnection()) {
                workload.run(c, 1200, 0, null);
            }
            ContainerTests.assertAllMatch(ContainerTests.awaitRowsMatch(pipeline, Duration.ofMinutes(4)), "Avro, Confluent registry");

            List<String> subjects = registry.subjects();
            for (String table : Workload.TABLES) {
                String subject = (Pipeline.TOPIC_PREFIX + "." + pipeline.sourceDb() + "." + table).replace('.', '_');
                assertTrue(subjects.contains(subject + "-key"), subject + "-key not in the registry: " + subjects);
                assertTrue(subjects.contains(subject + "-value"), subject + "-value not in the registry: " + subjects);
                JsonNode schema = new ObjectMapper().readTree(registry.latestSchema(subject + "-value"));
                assertEquals("record", schema.path("type").asText(), "value schema of " + table + ": " + schema);
            }

            int tombstones = 0;
            List<ConsumerRecord<byte[], byte[]>> records = ContainerTests.readAll(pipeline);
            assertTrue(records.size() > 1000, "records: " + records.size());
            for (ConsumerRecord<byte[], byte[]> r : records) {
                String where = r.topic() + "/" + r.partition() + "@" + r.offset();
                assertNotNull(r.key(), "Avro rows carry their key: " + where);
                assertEquals(0, r.key()[0], "Confluent magic byte in the key at " + where);
                if (r.value() == null) tombstones++;
                else assertEquals(0, r.value()[0], "Confluent magic byte in the value at " + where);
            }
            assertTrue(tombstones > 0, "the workload deletes rows: some messages must be tombstones");
        }
    }
}
