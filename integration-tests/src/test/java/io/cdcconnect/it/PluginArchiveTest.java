package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plugin archives as a user installs them (unpacked into the worker's plugin.path by this module's build), in
 * Confluent Hub's component layout: a top folder {@code <owner>-<name>-<version>} holding {@code manifest.json} filled
 * from the build, {@code lib/}, {@code etc/} (sample configs) and {@code doc/} (docs, LICENSE, NOTICE, THIRD-PARTY.txt).
 * The connector jar's manifest carries the version; a Connect worker reports that version for each connector class,
 * and the archives add to a worker exactly our two connectors and no other plugin (no Debezium connector, converter
 * or transform from the jars the source bundles).
 */
class PluginArchiveTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SOURCE = "io.cdcconnect.source.CdcSourceConnector";
    private static final String SINK = "io.cdcconnect.sink.CdcSinkConnector";
    /** artifactId, component type, connector class. */
    private static final List<String[]> PLUGINS = List.of(
            new String[]{"cdc-connect-source", "source", SOURCE},
            new String[]{"cdc-connect-sink", "sink", SINK});

    private static Path home(String artifactId) {
        return ConnectPlugins.home(Pipeline.pluginDir(), artifactId);
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static Path connectorJar(Path plugin, String artifactId) throws IOException {
        List<String> jars = list(plugin.resolve("lib")).stream().filter(j -> j.startsWith(artifactId + "-")).toList();
        assertEquals(1, jars.size(), "one " + artifactId + "-*.jar in " + plugin.resolve("lib") + ": " + jars);
        return plugin.resolve("lib").resolve(jars.get(0));
    }

    /** The connector jar's {@code Implementation-Version}, the version everything else must agree with. */
    private static String jarVersion(Path plugin, String artifactId) throws IOException {
        try (JarFile j = new JarFile(connectorJar(plugin, artifactId).toFile())) {
            return j.getManifest().getMainAttributes().getValue("Implementation-Version");
        }
    }

    @Test
    void eachArchiveHasConfluentHubsLayoutFilledFromTheBuild() throws Exception {
        for (String[] plugin : PLUGINS) {
            Path dir = home(plugin[0]);
            String version = jarVersion(dir, plugin[0]);
            assertNotNull(version, plugin[0] + ": the connector jar's manifest has no Implementation-Version");
            assertEquals(ConnectPlugins.OWNER + "-" + plugin[0] + "-" + version, dir.getFileName().toString());
            // no assets/: there is no logo, and the manifest names none
            assertEquals(List.of("doc", "etc", "lib", "manifest.json"), list(dir), dir.toString());

            JsonNode m = JSON.readTree(dir.resolve("manifest.json").toFile());
            String all = m.toString();
            assertFalse(all.contains("${"), "every placeholder filled: " + all);
            assertEquals(plugin[0], m.path("name").asText());
            assertEquals(version, m.path("version").asText(), "manifest.json and the jar agree on the version");
            assertEquals(ConnectPlugins.OWNER, m.path("owner").path("username").asText(), all);
            assertEquals(List.of(plugin[1]), JSON.convertValue(m.path("component_types"), List.class));
            assertEquals("Apache License 2.0", m.path("license").path(0).path("name").asText());
            assertTrue(m.path("requirements").path(0).asText().startsWith("Apache Kafka Connect 4."), all);
            assertFalse(m.has("docs_url"), "Confluent Hub's key is documentation_url: " + all);
            assertTrue(Files.isRegularFile(dir.resolve(m.path("documentation_url").asText())),
                    "documentation_url names the docs inside the archive: " + all);
            assertFalse(all.contains("logo"), "no logo is shipped, so none is named: " + all);
            JsonNode f = m.path("features");
            assertTrue(f.path("single_message_transforms").isBoolean(), all);
            assertFalse(JSON.convertValue(f.path("supported_encodings"), List.class).contains("any"),
                    "the records are bytes in the TiCDC formats, not any encoding: " + all);

            Path doc = dir.resolve("doc");
            assertTrue(Files.readString(doc.resolve("LICENSE")).contains("Apache License"), "LICENSE in " + doc);
            String notice = Files.readString(doc.resolve("NOTICE"));
            assertTrue(notice.contains(plugin[0] + " " + version) && !notice.contains("${"), notice);
            for (String md : List.of("README.md", "configuration.md", plugin[1] + ".md")) {
                assertTrue(Files.isRegularFile(doc.resolve(md)), md + " in " + doc + ": " + list(doc));
            }

            // etc/: this connector's sample configs (each names its class), the worker's settings and the secrets file
            List<String> etc = list(dir.resolve("etc"));
            assertTrue(etc.containsAll(List.of("connect-distributed-shared.properties",
                    "connect-distributed-dedicated.properties", "secrets.properties.example")), etc.toString());
            List<String> configs = etc.stream().filter(e -> e.endsWith(".json")).toList();
            assertFalse(configs.isEmpty(), etc.toString());
            for (String c : configs) {
                assertTrue(c.startsWith(plugin[1] + "-"), c);
                JsonNode config = JSON.readTree(dir.resolve("etc").resolve(c).toFile());
                assertEquals(plugin[2], config.path("connector.class").asText(), c + ": " + config);
                assertEquals(Files.readString(ConnectorConfigFiles.configDir().resolve(c)),
                        Files.readString(dir.resolve("etc").resolve(c)), c + " as config/ has it");
            }
            assertEquals(configs.size(), list(ConnectorConfigFiles.configDir()).stream()
                    .filter(c -> c.startsWith(plugin[1] + "-") && c.endsWith(".json")).count(), "every config/" + plugin[1] + "-*.json");
        }
    }

    /**
     * doc/THIRD-PARTY.txt names exactly the third-party jars of lib/, each with at least one licence and the file in
     * doc/licenses/ holding its text (a jar arriving without either fails here). Shared with VerifyArchiveTest.
     */
    @Test
    void thirdPartyListNamesEveryBundledJarWithItsLicence() throws IOException {
        for (String[] plugin : PLUGINS) {
            checkThirdParty(plugin[0], home(plugin[0]), "cdc-connect-");
        }
    }

    /** {@code home}'s doc/THIRD-PARTY.txt against its lib/ (our own jars, named {@code ours*}, left out). */
    static void checkThirdParty(String what, Path dir, String ours) throws IOException {
        Pattern coordinates = Pattern.compile("([^\\s:]+):([^\\s:]+):([^\\s:]+)(?: \\(.*\\))?");
        {
            String[] plugin = {what};
            String text = Files.readString(dir.resolve("doc").resolve("THIRD-PARTY.txt"));
            List<String> blocks = List.of(text.strip().split("\\n\\s*\\n"));
            Set<String> listed = new TreeSet<>();
            for (String block : blocks.subList(1, blocks.size())) { // the first is the heading
                List<String> lines = block.lines().toList();
                Matcher m = coordinates.matcher(lines.get(0));
                assertTrue(m.matches(), plugin[0] + ": not an entry: " + block);
                assertTrue(listed.add(m.group(2) + "-" + m.group(3) + ".jar"), plugin[0] + ": twice: " + block);
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("  licence: ")), plugin[0] + ": no licence: " + block);
                List<String> texts = lines.stream().filter(l -> l.startsWith("  licence text: "))
                        .map(l -> l.substring("  licence text: ".length())).toList();
                assertEquals(1, texts.size(), plugin[0] + ": no licence text named (add it to src/assembly/licenses/ "
                        + "and to src/assembly/third-party.ftl): " + block);
                assertTrue(texts.get(0).startsWith("doc/licenses/"), block);
                Path licence = dir.resolve(texts.get(0));
                assertTrue(Files.isRegularFile(licence) && Files.size(licence) > 500,
                        plugin[0] + ": " + licence + " missing or not a licence text: " + block);
                String l = Files.readString(licence);
                assertTrue(l.contains("Licen") && (l.contains("Copyright") || l.contains("Apache License")),
                        plugin[0] + ": " + licence + " is not a licence text");
            }
            Set<String> bundled = new TreeSet<>(list(dir.resolve("lib")));
            bundled.removeIf(j -> j.startsWith(ours));
            assertFalse(bundled.isEmpty(), plugin[0]);
            assertEquals(bundled, listed, plugin[0] + ": THIRD-PARTY.txt against lib/:\n" + text);
            assertTrue(text.contains("bundles these " + bundled.size() + " third-party components"), text);
        }
    }

    /**
     * A plugin carries only what a Connect worker lacks: no Kafka jar, no Jackson (the worker's is used, so that
     * JsonNode is one class), no slf4j, none of the compression libraries kafka-clients brings (zstd-jni, lz4-java,
     * snappy-java: a second copy loads its native library twice), no jackson-datatype-jsr310; and nothing the
     * connector never loads (protobuf-java, which mysql-connector-j asks for only for its X DevAPI). Every other test
     * of this module installs these same archives into a worker, which shows nothing they need is missing.
     */
    @Test
    void noArchiveBundlesWhatTheWorkerAlreadyHasOrTheConnectorNeverLoads() throws IOException {
        List<String> unwanted = List.of("kafka-", "connect-", "jackson-", "slf4j-", "zstd-jni-", "lz4-java-",
                "snappy-java-", "reload4j-", "log4j-", "protobuf-java-");
        for (String[] plugin : PLUGINS) {
            List<String> jars = list(home(plugin[0]).resolve("lib"));
            for (String jar : jars) {
                assertFalse(unwanted.stream().anyMatch(jar::startsWith), plugin[0] + " bundles " + jar + ": " + jars);
            }
        }
    }

    /**
     * Only our connector jar declares Kafka Connect plugins (META-INF/services/org.apache.kafka.connect.*): the
     * source's Debezium jars are repacked without theirs, so a worker with plugin.discovery=service_load does not
     * offer Debezium's MySqlConnector, MariaDbConnector, converters or transforms from our archive.
     */
    @Test
    void onlyOurConnectorJarDeclaresConnectPlugins() throws IOException {
        for (String[] plugin : PLUGINS) {
            Path dir = home(plugin[0]);
            Path ours = connectorJar(dir, plugin[0]);
            Map<String, List<String>> declared = new HashMap<>();
            for (String jar : list(dir.resolve("lib"))) {
                try (JarFile j = new JarFile(dir.resolve("lib").resolve(jar).toFile())) {
                    for (Enumeration<JarEntry> e = j.entries(); e.hasMoreElements(); ) {
                        String name = e.nextElement().getName();
                        if (name.startsWith("META-INF/services/org.apache.kafka.connect.")) {
                            declared.computeIfAbsent(jar, k -> new ArrayList<>()).add(name);
                        }
                    }
                }
            }
            String connectorType = plugin[1].equals("source") ? "source.SourceConnector" : "sink.SinkConnector";
            assertEquals(Map.of(ours.getFileName().toString(),
                    List.of("META-INF/services/org.apache.kafka.connect." + connectorType)), declared, plugin[0]);
        }
    }

    /** {@code GET /connector-plugins[?connectorsOnly=...]}: class, type and version of every plugin listed. */
    private static Map<String, String> plugins(ConnectCluster connect, boolean connectorsOnly) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                connect.restUrl().resolve("/connector-plugins?connectorsOnly=" + connectorsOnly)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        Map<String, String> out = new HashMap<>();
        for (JsonNode p : JSON.readTree(r.body())) {
            out.put(p.path("class").asText() + " " + p.path("type").asText(), p.path("version").asText());
        }
        return out;
    }

    /**
     * What the archives bring, measured against the same worker without them: Connect's built-ins (from the worker's
     * classpath) are what a worker with an empty plugin.path lists; with both archives on plugin.path it must list
     * exactly those plus our two connectors, at the version of their jars, both among the connectors only and among
     * all plugins (converters, transforms, predicates, config providers).
     */
    @Test
    void aWorkerGetsExactlyOurTwoConnectorsFromTheArchivesAtTheirVersion(@TempDir Path emptyPluginDir) throws Exception {
        Map<String, String> ours = new HashMap<>();
        ours.put(SOURCE + " source", jarVersion(home("cdc-connect-source"), "cdc-connect-source"));
        ours.put(SINK + " sink", jarVersion(home("cdc-connect-sink"), "cdc-connect-sink"));

        Map<String, String> builtInConnectors;
        Map<String, String> builtInPlugins;
        try (ConnectCluster bare = ConnectCluster.start(emptyPluginDir, Map.of())) {
            builtInConnectors = plugins(bare, true);
            builtInPlugins = plugins(bare, false);
        }
        Set<String> classes = new HashSet<>();
        builtInPlugins.keySet().forEach(k -> classes.add(k.substring(0, k.indexOf(' '))));
        assertFalse(classes.contains(SOURCE) || classes.contains(SINK), "ours are not on the worker's classpath: " + classes);
        assertFalse(classes.stream().anyMatch(c -> c.startsWith("io.debezium.")), "no Debezium on the worker's classpath: "
                + classes);
        assertTrue(builtInPlugins.keySet().containsAll(builtInConnectors.keySet()), builtInPlugins + " / " + builtInConnectors);

        try (ConnectCluster connect = ConnectCluster.start(Pipeline.pluginDir(), Map.of())) {
            Map<String, String> expectedConnectors = new HashMap<>(builtInConnectors);
            expectedConnectors.putAll(ours);
            assertEquals(new TreeSet<>(expectedConnectors.entrySet().stream().map(Object::toString).toList()),
                    new TreeSet<>(plugins(connect, true).entrySet().stream().map(Object::toString).toList()),
                    "connectorsOnly=true: the built-ins and our two connectors, nothing else");
            Map<String, String> expectedPlugins = new HashMap<>(builtInPlugins);
            expectedPlugins.putAll(ours);
            assertEquals(new TreeSet<>(expectedPlugins.entrySet().stream().map(Object::toString).toList()),
                    new TreeSet<>(plugins(connect, false).entrySet().stream().map(Object::toString).toList()),
                    "connectorsOnly=false: the archives add no converter, transform or predicate");
        }
    }
}
