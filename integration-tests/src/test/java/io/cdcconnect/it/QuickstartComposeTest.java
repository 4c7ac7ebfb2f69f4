package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The quickstart ({@code quickstart/}) as far as it can be checked without Docker, which this machine lacks: the
 * quickstart itself runs end to end only in {@code .github/workflows/quickstart.yml}. Checked here, statically:
 * every image in the compose file and in the Dockerfiles it builds is pinned to a version; every host file it mounts
 * or copies exists in the repository or is an archive the build produces (the plugin and cdc-verify zips: the
 * module's assembly makes a zip, and once built exactly one file matches); and the connector configs run.sh registers, with their
 * placeholders filled as run.sh fills them, pass the connectors' own checks that need no server: each ConfigDef's
 * {@code validate}, the source connector's {@code validate} with its live start-up checks off (which adds Debezium's
 * field checks), and the sink's rules that span settings ({@code ConfigRules}).
 */
class QuickstartComposeTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z0-9_]+)}");
    private static final Pattern ENV_REFERENCE = Pattern.compile("\\$\\{env:([A-Za-z0-9_]+)}");

    static Path root() {
        return ConnectorConfigFiles.configDir().toAbsolutePath().normalize().getParent();
    }

    static Path quickstart() {
        return root().resolve("quickstart");
    }

    static JsonNode compose() throws IOException {
        return YAML.readTree(quickstart().resolve("docker-compose.yml").toFile());
    }

    @Test
    void everyImageIsPinnedToAVersion() throws Exception {
        JsonNode services = compose().path("services");
        List<String> names = new ArrayList<>();
        services.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("mysql", "kafka", "apicurio", "postgres", "connect", "verify"), names);
        Map<String, String> images = new LinkedHashMap<>();
        for (String name : names) {
            JsonNode s = services.path(name);
            if (s.has("build")) {
                Path dockerfile = root().resolve(quickstart().resolve(s.path("build").path("context").asText())
                        .normalize().resolve(s.path("build").path("dockerfile").asText())).normalize();
                assertTrue(Files.isRegularFile(dockerfile), name + ": " + dockerfile);
                for (String from : fromImages(dockerfile)) images.put(name + " (" + dockerfile.getFileName() + ")", from);
            } else {
                images.put(name, s.path("image").asText());
            }
        }
        for (Map.Entry<String, String> e : images.entrySet()) {
            String image = e.getValue();
            int slash = image.lastIndexOf('/');
            int colon = image.indexOf(':', slash + 1);
            assertTrue(colon > 0, e.getKey() + ": image " + image + " has no tag");
            String tag = image.substring(colon + 1);
            assertFalse(tag.isBlank() || tag.equals("latest") || tag.contains("$"), e.getKey() + ": image " + image
                    + " is not pinned");
            assertTrue(tag.matches("[0-9][0-9A-Za-z._-]*"), e.getKey() + ": " + image + " tag names a version");
        }
        String kafka = "apache/kafka:" + first(Files.readString(root().resolve("pom.xml")),
                "<kafka\\.version>([^<]+)<");
        assertEquals(kafka, services.path("kafka").path("image").asText(), "the broker of the Kafka the build runs");
        List<String> worker = fromImages(root().resolve("quickstart/connect/Dockerfile"));
        assertTrue(worker.contains(kafka), "the worker of the Kafka the build runs: " + worker);
        assertEquals("apicurio/apicurio-registry:" + first(Files.readString(root().resolve("pom.xml")),
                "<apicurio.registry.version>([^<]+)<"), services.path("apicurio").path("image").asText(),
                "the registry version the tests run");
        assertTrue(services.path("mysql").path("image").asText().startsWith("mysql:8.4."));
        assertTrue(services.path("postgres").path("image").asText().startsWith("postgres:17."));
    }

    /** The images a Dockerfile's FROM lines name, less references to its own earlier stages. */
    static List<String> fromImages(Path dockerfile) throws IOException {
        List<String> images = new ArrayList<>();
        List<String> stages = new ArrayList<>();
        for (String line : Files.readAllLines(dockerfile)) {
            String[] w = line.trim().split("\\s+");
            if (w.length >= 2 && w[0].equalsIgnoreCase("FROM")) {
                if (!stages.contains(w[1])) images.add(w[1]);
                if (w.length >= 4 && w[2].equalsIgnoreCase("AS")) stages.add(w[3]);
            }
        }
        assertFalse(images.isEmpty(), dockerfile + " has a FROM");
        return images;
    }

    @Test
    void everyMountedOrCopiedFileExistsOrIsBuilt() throws Exception {
        JsonNode services = compose().path("services");
        int mounts = 0, copies = 0;
        for (Map.Entry<String, JsonNode> s : (Iterable<Map.Entry<String, JsonNode>>) services::fields) {
            for (JsonNode volume : s.getValue().path("volumes")) {
                String host = volume.asText().split(":")[0];
                assertTrue(host.startsWith("./") || host.startsWith("../"), s.getKey() + ": " + volume
                        + " mounts a file of the repository, not a named volume or an absolute path");
                Path p = quickstart().resolve(host).normalize();
                assertTrue(Files.isRegularFile(p), s.getKey() + ": " + p + " exists");
                if (p.toString().endsWith(".sh")) assertTrue(Files.isExecutable(p), p + " is executable");
                mounts++;
            }
            JsonNode build = s.getValue().path("build");
            if (build.isMissingNode()) continue;
            Path context = quickstart().resolve(build.path("context").asText()).normalize();
            assertEquals(root(), context, s.getKey() + ": builds from the repository root");
            for (String source : copySources(context.resolve(build.path("dockerfile").asText()))) {
                copies++;
                if (!source.contains("*")) {
                    assertTrue(Files.exists(context.resolve(source)), s.getKey() + ": COPY " + source + " exists");
                    continue;
                }
                // a glob: the archive(s) a module's build makes with its assembly (zip), present once built
                String module = source.substring(0, source.indexOf('/'));
                assertTrue(source.startsWith(module + "/target/") && source.endsWith(".zip"), source);
                assertTrue(assemblyFormats(module).contains("zip"), module + " builds a zip archive for " + source);
                Path target = root().resolve(module).resolve("target");
                if (Files.isDirectory(target)) {
                    PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + source);
                    try (Stream<Path> built = Files.list(target)) {
                        assertEquals(1, built.filter(p -> glob.matches(root().relativize(p))).count(),
                                s.getKey() + ": COPY " + source + " matches the one archive in " + target
                                        + " (mvn -B -DskipTests package)");
                    }
                }
            }
        }
        assertEquals(2, mounts, "init scripts of MySQL and PostgreSQL");
        assertEquals(4, copies, "two plugin archives and the worker's properties; the cdc-verify archive");
    }

    /** The sources of a Dockerfile's COPY lines that copy from the build context (not --from a stage). */
    static List<String> copySources(Path dockerfile) throws IOException {
        List<String> sources = new ArrayList<>();
        for (String line : Files.readAllLines(dockerfile)) {
            String[] w = line.trim().split("\\s+");
            if (w.length < 3 || !w[0].equalsIgnoreCase("COPY") || w[1].startsWith("--from")) continue;
            for (int i = 1; i < w.length - 1; i++) {
                if (!w[i].startsWith("--")) sources.add(w[i]);
            }
        }
        return sources;
    }

    /** The formats of the assembly descriptors {@code module}'s pom names. */
    static List<String> assemblyFormats(String module) throws IOException {
        String pom = Files.readString(root().resolve(module).resolve("pom.xml"));
        Matcher d = Pattern.compile("<descriptor>\\$\\{project.basedir}/([^<]+)</descriptor>").matcher(pom);
        List<String> formats = new ArrayList<>();
        while (d.find()) {
            Matcher f = Pattern.compile("<format>([^<]+)</format>").matcher(
                    Files.readString(root().resolve(module).resolve(d.group(1)).normalize()));
            while (f.find()) formats.add(f.group(1));
        }
        return formats;
    }

    private static String first(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        if (!m.find()) fail("no " + regex);
        return m.group(1);
    }

    @Test
    void theRegisteredConnectorConfigsPassTheConnectorsChecks() throws Exception {
        Map<String, String> values = values();
        String runScript = Files.readString(quickstart().resolve("run.sh"));
        JsonNode connect = compose().path("services").path("connect");
        String worker = Files.readString(quickstart().resolve("connect/worker.properties"));
        assertTrue(worker.contains("config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider"));
        Pattern allowed = Pattern.compile(first(worker, "config.providers.env.param.allowlist.pattern=(.+)"));
        List<String> files;
        try (Stream<Path> s = Files.list(quickstart().resolve("connectors"))) {
            files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
        }
        assertEquals(List.of("sink-postgres-avro.json", "sink-postgres.json", "source-mysql-avro.json", "source-mysql.json"), files);
        assertTrue(runScript.contains("\"source-mysql$suffix.json\"") && runScript.contains("\"sink-postgres$suffix.json\""),
                "run.sh registers these files");
        for (String file : files) {
            String text = Files.readString(quickstart().resolve("connectors").resolve(file));
            // passwords: a reference to the worker's environment, which compose sets and the provider may read
            Matcher env = ENV_REFERENCE.matcher(text);
            int references = 0;
            while (env.find()) {
                references++;
                assertTrue(allowed.matcher(env.group(1)).matches(), file + ": ${env:" + env.group(1) + "} is allowed");
                assertTrue(connect.path("environment").has(env.group(1)), file + ": compose sets " + env.group(1));
            }
            assertEquals(1, references, file + ": its password comes from the worker's environment");
            Map<String, String> config = fill(JSON.readValue(text, LinkedHashMap.class), values, file);
            if (file.startsWith("source")) checkSource(file, config);
            else checkSink(file, config);
        }
    }

    static void checkSource(String file, Map<String, String> config) throws Exception {
        Object connector = connector("cdc-connect-source", config);
        assertEquals("io.cdcconnect.source.CdcSourceConnector", connector.getClass().getName());
        assertNoErrors(file + " (ConfigDef)", configDef(connector).validate(config));
        Map<String, String> offline = new LinkedHashMap<>(config);
        offline.put("startup.checks.enabled", "false"); // the live checks need the MySQL server
        org.apache.kafka.common.config.Config validated = (org.apache.kafka.common.config.Config) connector.getClass()
                .getMethod("validate", Map.class).invoke(connector, offline);
        assertNoErrors(file + " (connector, with Debezium's checks)", validated.configValues());
    }

    static void checkSink(String file, Map<String, String> config) throws Exception {
        Object connector = connector("cdc-connect-sink", config);
        assertEquals("io.cdcconnect.sink.CdcSinkConnector", connector.getClass().getName());
        assertNoErrors(file + " (ConfigDef)", configDef(connector).validate(config));
        assertFalse(config.getOrDefault("connection.user", "").isBlank(), file + ": connection.user is required");
        assertTrue(!config.getOrDefault("schema.map", "").isBlank() || !config.getOrDefault("schema.include", "").isBlank(),
                file + ": schema.map or schema.include is required");
        // the rules that span settings, without the live check of the target (SinkValidation runs both)
        ClassLoader loader = connector.getClass().getClassLoader();
        Class<?> sinkConfig = Class.forName("io.cdcconnect.sink.CdcSinkConfig", true, loader);
        Object parsed = sinkConfig.getMethod("withoutRules", Map.class).invoke(null, config);
        // check takes the stages' view of the settings (config.SinkConfig), which CdcSinkConfig extends
        Class<?> stagesConfig = Class.forName("io.cdcconnect.sink.config.SinkConfig", true, loader);
        List<?> problems = (List<?>) Class.forName("io.cdcconnect.sink.validate.ConfigRules", true, loader)
                .getMethod("check", stagesConfig).invoke(null, parsed);
        assertEquals(List.of(), problems, file + ": the sink's rules");
    }

    /** The connector class, loaded from its unpacked plugin archive (the folder whose name holds the artifact). */
    private static Object connector(String artifact, Map<String, String> config) throws Exception {
        // the one unpacked folder of the artifact (ConnectPlugins.home says which)
        return ConfigReference.pluginClass(Pipeline.pluginDir(), artifact, config.get("connector.class"))
                .getDeclaredConstructor().newInstance();
    }

    private static ConfigDef configDef(Object connector) throws Exception {
        return (ConfigDef) connector.getClass().getMethod("config").invoke(connector);
    }

    private static void assertNoErrors(String what, List<ConfigValue> values) {
        assertFalse(values.isEmpty(), what + ": something was validated");
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (ConfigValue v : values) {
            if (!v.errorMessages().isEmpty()) errors.put(v.name(), v.errorMessages());
        }
        assertEquals(Map.of(), errors, what);
    }

    /** quickstart/connectors/values.env, as run.sh reads it. */
    static Map<String, String> values() throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(quickstart().resolve("connectors/values.env"))) {
            if (line.isBlank() || line.startsWith("#")) continue;
            int eq = line.indexOf('=');
            values.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return values;
    }

    /** Every ${NAME} filled as run.sh fills it; ${env:...} left for the worker. */
    static Map<String, String> fill(Map<?, ?> raw, Map<String, String> values, String file) {
        Map<String, String> out = new LinkedHashMap<>();
        TreeSet<String> missing = new TreeSet<>();
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            String v = String.valueOf(e.getValue());
            Matcher m = PLACEHOLDER.matcher(v);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                String value = values.get(m.group(1));
                if (value == null) missing.add(m.group(1));
                m.appendReplacement(sb, Matcher.quoteReplacement(value == null ? "" : value));
            }
            m.appendTail(sb);
            out.put(String.valueOf(e.getKey()), sb.toString());
        }
        assertEquals(new TreeSet<>(), missing, file + ": placeholders values.env lacks");
        return out;
    }
}
