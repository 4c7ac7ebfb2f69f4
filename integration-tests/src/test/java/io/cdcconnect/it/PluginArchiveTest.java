package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plugin archives as a user installs them (unpacked into the worker's plugin.path by this module's build): each
 * holds a Confluent Hub component manifest filled from the build, the LICENSE, and a connector jar whose manifest
 * carries the version; a Connect worker reports that version for each connector class.
 */
class PluginArchiveTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The connector jar's {@code Implementation-Version}, the version everything else must agree with. */
    private static String jarVersion(Path plugin) throws IOException {
        Path jar;
        try (Stream<Path> s = Files.list(plugin.resolve("lib"))) {
            String name = plugin.getFileName().toString();
            jar = s.filter(p -> p.getFileName().toString().startsWith(name + "-")).findFirst().orElseThrow(
                    () -> new AssertionError("no " + name + "-*.jar in " + plugin.resolve("lib")));
        }
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.getManifest().getMainAttributes().getValue("Implementation-Version");
        }
    }

    @Test
    void eachArchiveCarriesItsManifestLicenseAndVersion() throws Exception {
        for (String[] plugin : List.of(new String[]{"cdc-connect-source", "source"},
                new String[]{"cdc-connect-sink", "sink"})) {
            Path dir = Pipeline.pluginDir().resolve(plugin[0]);
            String version = jarVersion(dir);
            assertNotNull(version, plugin[0] + ": the connector jar's manifest has no Implementation-Version");
            JsonNode m = JSON.readTree(dir.resolve("manifest.json").toFile());
            assertEquals(plugin[0], m.path("name").asText());
            assertEquals(version, m.path("version").asText(), "manifest.json and the jar agree on the version");
            assertEquals(List.of(plugin[1]), JSON.convertValue(m.path("component_types"), List.class));
            assertEquals("Apache License 2.0", m.path("license").path(0).path("name").asText());
            String all = m.toString();
            assertFalse(all.contains("${"), "every placeholder filled: " + all);
            assertTrue(m.path("requirements").path(0).asText().startsWith("Apache Kafka Connect 4."), all);
            assertTrue(Files.readString(dir.resolve("LICENSE")).contains("Apache License"), "LICENSE in " + dir);
        }
    }

    /**
     * A plugin carries only what a Connect worker lacks: no Kafka jar, no Jackson (the worker's is used, so that
     * JsonNode is one class), no slf4j, none of the compression libraries kafka-clients brings (zstd-jni, lz4-java,
     * snappy-java: a second copy loads its native library twice), no jackson-datatype-jsr310. Every other test of
     * this module installs these same archives into a worker, which shows nothing they need is missing.
     */
    @Test
    void noArchiveBundlesWhatTheWorkerAlreadyHas() throws IOException {
        List<String> workerHas = List.of("kafka-", "connect-", "jackson-", "slf4j-", "zstd-jni-", "lz4-java-",
                "snappy-java-", "reload4j-", "log4j-");
        for (String plugin : List.of("cdc-connect-source", "cdc-connect-sink")) {
            Path lib = Pipeline.pluginDir().resolve(plugin).resolve("lib");
            List<String> jars;
            try (Stream<Path> s = Files.list(lib)) {
                jars = s.map(p -> p.getFileName().toString()).sorted().toList();
            }
            assertTrue(jars.stream().anyMatch(j -> j.startsWith(plugin + "-")), plugin + " holds its own jar: " + jars);
            for (String jar : jars) {
                assertFalse(workerHas.stream().anyMatch(jar::startsWith), plugin + " bundles " + jar
                        + ", which every Connect worker already has: " + jars);
            }
        }
    }

    @Test
    void aWorkerReportsTheArchivesVersionForEachConnector() throws Exception {
        Map<String, String> expected = new HashMap<>();
        expected.put("io.cdcconnect.source.CdcSourceConnector", jarVersion(Pipeline.pluginDir()
                .resolve("cdc-connect-source")));
        expected.put("io.cdcconnect.sink.CdcSinkConnector", jarVersion(Pipeline.pluginDir().resolve("cdc-connect-sink")));
        try (ConnectCluster connect = ConnectCluster.start(Pipeline.pluginDir(), Map.of())) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    connect.restUrl().resolve("/connector-plugins")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            Map<String, String> reported = new HashMap<>();
            for (JsonNode p : JSON.readTree(r.body())) {
                if (expected.containsKey(p.path("class").asText())) {
                    reported.put(p.path("class").asText(), p.path("version").asText());
                }
            }
            assertEquals(expected, reported, r.body());
        }
    }
}
