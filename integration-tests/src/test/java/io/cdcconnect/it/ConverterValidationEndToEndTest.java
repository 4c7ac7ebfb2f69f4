package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Converters and transformations as a user meets them: a real Connect worker with the converters and plugin discovery
 * of config/connect-distributed-shared.properties (a shared cluster's: JsonConverter by default) answers
 * {@code PUT /connector-plugins/<class>/config/validate} for both connectors, filled from the config templates, with
 * an error on {@code value.converter}/{@code key.converter} when the connector names a converter that would change
 * the bytes, none for ByteArrayConverter, and a logged warning (validation has none) for a transformation that may
 * change the records.
 */
class ConverterValidationEndToEndTest {

    private static final String SOURCE = "io.cdcconnect.source.CdcSourceConnector";
    private static final String SINK = "io.cdcconnect.sink.CdcSinkConnector";
    private static final String JSON = "org.apache.kafka.connect.json.JsonConverter";
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

    private static ConnectCluster connect;
    private static DatabaseServer mariadb;

    @BeforeAll
    static void start() throws Exception {
        mariadb = TestServers.database(DatabaseSpec.mariadb("11.4"));
        java.util.Properties shared = new java.util.Properties();
        try (java.io.Reader r = java.nio.file.Files.newBufferedReader(ConnectorConfigFiles.configDir()
                .resolve("connect-distributed-shared.properties"))) {
            shared.load(r);
        }
        assertEquals(JSON, shared.getProperty("key.converter"));
        assertEquals(JSON, shared.getProperty("value.converter"));
        // the shared file leaves plugin discovery at Kafka's default, which the test harness's service_load is not
        assertEquals(null, shared.getProperty("plugin.discovery"));
        connect = ConnectCluster.start(Pipeline.pluginDir(), Map.of(
                "key.converter", shared.getProperty("key.converter"),
                "value.converter", shared.getProperty("value.converter"),
                "plugin.discovery", "hybrid_warn"));
    }

    @AfterAll
    static void stop() {
        if (connect != null) connect.close();
    }

    private static Map<String, String> values() {
        Map<String, String> v = new HashMap<>();
        v.put("SOURCE_HOST", mariadb.host());
        v.put("SOURCE_PORT", Integer.toString(mariadb.port()));
        v.put("SOURCE_USER", mariadb.user());
        v.put("SOURCE_PASSWORD", mariadb.password() == null ? "" : mariadb.password());
        v.put("SOURCE_DATABASE", "shop");
        v.put("SOURCE_SERVER_ID", "5471");
        v.put("TOPIC_PREFIX", "conv");
        v.put("TOPIC_PARTITIONS", "1");
        v.put("KAFKA_BOOTSTRAP", connect.bootstrapServers());
        v.put("TARGET_HOST", mariadb.host());
        v.put("TARGET_PORT", Integer.toString(mariadb.port()));
        v.put("TARGET_USER", mariadb.user());
        v.put("TARGET_PASSWORD", mariadb.password() == null ? "" : mariadb.password());
        v.put("TARGET_DATABASE", "shop_replica");
        return v;
    }

    private static Map<String, String> template(String file, String... kv) {
        Map<String, String> m = new LinkedHashMap<>(ConnectorConfigFiles.load(file, values()));
        m.put("name", file.replace(".json", ""));
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    /** The errors of each setting that has any, from the worker's answer. */
    private static Map<String, List<String>> errors(String connectorClass, Map<String, String> config) {
        JsonNode answer = connect.validate(connectorClass, config);
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (JsonNode c : answer.path("configs")) {
            List<String> e = new ArrayList<>();
            c.path("value").path("errors").forEach(x -> e.add(x.asText()));
            if (!e.isEmpty()) out.computeIfAbsent(c.path("value").path("name").asText(), k -> new ArrayList<>())
                    .addAll(e);
        }
        assertEquals(answer.path("error_count").asInt(), out.values().stream().mapToInt(List::size).sum(),
                answer.toString());
        return out;
    }

    private static void assertOnlyErrorsOn(Map<String, List<String>> errors, String... settings) {
        assertEquals(List.of(settings), List.copyOf(errors.keySet()), errors.toString());
        for (String s : settings) {
            assertTrue(errors.get(s).stream().anyMatch(m -> m.contains("set " + s + "=" + BYTES)), errors.toString());
        }
    }

    /**
     * Both archives in one plugin folder of a worker at Kafka's default discovery (hybrid_warn, which scans the
     * folders as well as reading ServiceLoader manifests): the worker offers exactly our two connectors. Debezium's
     * jars travel in the source archive without their manifests and with their connector classes marked abstract
     * (connector-source/src/build/AbstractPluginClasses.java), so a team's own Debezium is not shadowed.
     */
    @Test
    void aScanningWorkerListsExactlyOurTwoConnectors() throws Exception {
        java.net.http.HttpResponse<String> resp = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(connect.restUrl().resolve("/connector-plugins")).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        java.util.Set<String> listed = new java.util.TreeSet<>();
        for (JsonNode n : new com.fasterxml.jackson.databind.ObjectMapper().readTree(resp.body())) {
            // Connect's own (MirrorMaker's, on the test classpath) are not from the plugin folder
            if (!n.path("class").asText().startsWith("org.apache.kafka.")) listed.add(n.path("class").asText());
        }
        assertEquals(new java.util.TreeSet<>(List.of("io.cdcconnect.sink.CdcSinkConnector",
                "io.cdcconnect.source.CdcSourceConnector")), listed, resp.body());
    }

    @Test
    void theTemplatesValidateCleanOnAWorkerWhoseDefaultIsJson() {
        assertEquals(Map.of(), errors(SOURCE, template("source-mariadb.json")));
        assertEquals(Map.of(), errors(SINK, template("sink-mariadb.json")));
        assertEquals(Map.of(), errors(SINK, template("sink-mariadb-open-protocol.json")));
    }

    @Test
    void theSourceRefusesAConverterThatChangesItsBytes() {
        assertOnlyErrorsOn(errors(SOURCE, template("source-mariadb.json", "value.converter", JSON)),
                "value.converter");
        assertOnlyErrorsOn(errors(SOURCE, template("source-mariadb-open-protocol.json",
                "key.converter", "org.apache.kafka.connect.storage.StringConverter", "value.converter", JSON)),
                "key.converter", "value.converter");
    }

    @Test
    void theSinkRefusesAConverterThatChangesTheBytesItDecodes() {
        assertOnlyErrorsOn(errors(SINK, template("sink-mariadb.json", "value.converter", JSON)), "value.converter");
        assertOnlyErrorsOn(errors(SINK, template("sink-mariadb-open-protocol.json", "key.converter", JSON)),
                "key.converter");
        // Canal-JSON is text: StringConverter hands it over whole
        assertEquals(Map.of(), errors(SINK, template("sink-mariadb.json",
                "value.converter", "org.apache.kafka.connect.storage.StringConverter")));
        // Debezium envelopes are Structs: the worker's JsonConverter yields them, ByteArrayConverter does not
        Map<String, List<String>> e = errors(SINK, template("sink-mariadb.json", "input.format", "debezium"));
        assertEquals(List.of("key.converter", "value.converter"), List.copyOf(e.keySet()), e.toString());
        Map<String, String> debezium = template("sink-mariadb.json", "input.format", "debezium");
        debezium.remove("key.converter");
        debezium.remove("value.converter");
        assertEquals(Map.of(), errors(SINK, debezium));
    }

    @Test
    void aTransformThatMayChangeTheRecordsIsLoggedAsAWarning() {
        String[] replace = {"transforms", "keep,cut", "transforms.keep.type", "org.apache.kafka.connect.transforms.Filter",
                "transforms.cut.type", "org.apache.kafka.connect.transforms.ReplaceField$Value",
                "transforms.cut.exclude", "note"};
        try (WorkerLogCapture log = new WorkerLogCapture()) {
            assertEquals(Map.of(), errors(SOURCE, template("source-mariadb.json", replace)));
            assertEquals(Map.of(), errors(SINK, template("sink-mariadb.json", replace)));
            assertEquals(Map.of(), errors(SINK, template("sink-mariadb.json", "transforms", "keep",
                    "transforms.keep.type", "org.apache.kafka.connect.transforms.Filter")));
            List<String> warnings = log.lines().stream().filter(l -> l.startsWith("WARN ")
                    && l.contains("transforms cut (org.apache.kafka.connect.transforms.ReplaceField$Value) may change"))
                    .toList();
            assertTrue(warnings.stream().anyMatch(l -> l.contains("source source-mariadb: ")), warnings.toString());
            assertTrue(warnings.stream().anyMatch(l -> l.contains("sink sink-mariadb: ")), warnings.toString());
            assertFalse(log.lines().stream().anyMatch(l -> l.contains("transforms keep (")), warnings.toString());
        }
    }
}
