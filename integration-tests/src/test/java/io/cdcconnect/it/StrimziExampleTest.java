package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Strimzi example ({@code deploy/strimzi/}) without a Kubernetes cluster, which this machine lacks, checked
 * against Strimzi 1.2 ({@code -Dcdc.strimzi.version}, integration-tests/pom.xml's {@code strimzi.version}) two ways. Against Strimzi's CRD schemas:
 * {@link StrimziSchemas} generates the {@code KafkaConnect} and {@code KafkaConnector} CRDs at test time from
 * Strimzi's model ({@code io.strimzi:api}) with Strimzi's own generator ({@code io.strimzi:crd-generator}), with the
 * arguments of Strimzi's build, in a Java 21+ child JVM, and every Strimzi document of the folder, whole, must pass
 * the served version's ({@code kafka.strimzi.io/v1}) openAPIV3Schema (unknown and removed fields rejected where the
 * schema does not preserve them, types, enums, patterns, minimums, required fields) and set no {@code spec.config}
 * key Strimzi forbids; copies with a misspelt field, a wrong type, a field v1 removed, the v1beta2 API, a missing
 * v1-required field or a forbidden worker setting must fail it, naming the place. Not checked: the CRDs' CEL rules
 * ({@code x-kubernetes-validations}), which only the API server evaluates. And against the typed models: every
 * document of every file is read into Strimzi's classes or fabric8's (ConfigMap, Role, RoleBinding) in the child JVM
 * ({@link StrimziModelCheck}), unknown fields failing. Beyond the schema: the connectors' configs pass the same checks
 * as the quickstart's ({@link QuickstartComposeTest}), their secrets are config-provider references to Secrets the
 * Role lets the worker read, the build takes both plugin archives as zip artifacts with a SHA-512, the worker runs a
 * Kafka version Strimzi supports, and the metrics ConfigMap holds config/monitoring/jmx-exporter.yml as it is.
 *
 * <p>Without a Java 21+ JDK (Strimzi's classes are Java 21's) the tests that need the child JVM are reported
 * skipped with the reason.
 */
class StrimziExampleTest {

    /** Strimzi 1.2.0's kafka-versions.yaml, the entries with {@code supported: true}. */
    static final List<String> STRIMZI_KAFKA_VERSIONS = List.of("4.2.0", "4.2.1", "4.3.0", "4.3.1");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern SECRET_REFERENCE = Pattern.compile("\\$\\{secrets:([a-z0-9-]+)/([a-z0-9.-]+):([A-Za-z0-9._-]+)}");
    private static final List<String> FILES = List.of("kafka-connect.yaml", "kafka-connector-sink.yaml",
            "kafka-connector-source.yaml", "metrics-configmap.yaml", "rbac.yaml");
    /** The Prometheus Operator's PrometheusRule with the alert rules. */
    private static final String ALERT_RULES = "prometheus-rules.yaml";

    private static String unavailable;

    @BeforeAll
    static void strimzi() throws Exception {
        unavailable = StrimziSchemas.unavailable();
        if (unavailable != null) System.err.println("StrimziExampleTest: the schema and model checks are skipped: " + unavailable);
    }

    private static void needStrimzi() {
        assumeTrue(unavailable == null, () -> unavailable);
    }

    static Path dir() {
        return QuickstartComposeTest.root().resolve("deploy/strimzi");
    }

    /** Every document of a file of the folder. */
    static List<JsonNode> documents(Path file) throws Exception {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) docs.add(doc);
            }
        }
        return docs;
    }

    static JsonNode read(String file) throws Exception {
        List<JsonNode> docs = documents(dir().resolve(file));
        assertEquals(1, docs.size(), file + ": one document");
        return docs.get(0);
    }

    @Test
    void theFolderHoldsTheExampleAndItsReadme() throws Exception {
        try (Stream<Path> s = Files.list(dir())) {
            List<String> expected = new ArrayList<>(FILES);
            expected.add("README.md");
            expected.add(ALERT_RULES); // not a Strimzi or Kubernetes core kind: AlertRulesTest checks it
            assertEquals(expected.stream().sorted().toList(), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        String readme = Files.readString(dir().resolve("README.md"));
        for (String file : FILES) assertTrue(readme.contains(file), "README.md names " + file);
        assertTrue(readme.contains(ALERT_RULES), "README.md names " + ALERT_RULES);
        assertTrue(readme.contains("kafka.strimzi.io/v1`"), "README.md names the API version");
        assertTrue(readme.contains("Strimzi " + StrimziSchemas.VERSION.substring(0, StrimziSchemas.VERSION.lastIndexOf('.'))),
                "README.md names the Strimzi version it is checked against");
    }

    @Test
    void kafkaConnectBuildsBothPluginsReadsSecretsThroughTheProviderAndExportsMetrics() throws Exception {
        JsonNode connect = read("kafka-connect.yaml");
        assertEquals("kafka.strimzi.io/v1", connect.path("apiVersion").asText());
        assertEquals("true", connect.path("metadata").path("annotations").path("strimzi.io/use-connector-resources").asText());
        JsonNode spec = connect.path("spec");
        assertTrue(STRIMZI_KAFKA_VERSIONS.contains(spec.path("version").asText()),
                spec.path("version").asText() + " is a Kafka version Strimzi " + StrimziSchemas.VERSION + " supports: " + STRIMZI_KAFKA_VERSIONS);
        JsonNode config = spec.path("config");
        assertEquals("secrets", config.path("config.providers").asText());
        assertEquals("io.strimzi.kafka.KubernetesSecretConfigProvider", config.path("config.providers.secrets.class").asText());
        // the sink's consumer.override.* settings need the worker to allow client overrides
        assertEquals("All", config.path("connector.client.config.override.policy").asText());
        // the worker's own topics: -1 is the broker's default.replication.factor
        for (String topic : List.of("config", "offset", "status")) {
            assertEquals(-1, config.path(topic + ".storage.replication.factor").asInt(0), topic + ".storage.replication.factor");
        }

        List<String> names = new ArrayList<>();
        for (JsonNode p : spec.path("build").path("plugins")) {
            String name = p.path("name").asText();
            names.add(name);
            assertEquals(1, p.path("artifacts").size(), name);
            JsonNode zip = p.path("artifacts").get(0);
            assertEquals("zip", zip.path("type").asText(), name + ": a zip artifact");
            String url = zip.path("url").asText();
            assertTrue(url.startsWith("https://") && url.endsWith(".zip") && url.contains("/" + name + "-"), url);
            assertFalse(zip.path("sha512sum").asText().isBlank(), name + ": sha512sum");
            assertTrue(QuickstartComposeTest.assemblyFormats(name.replace("cdc-connect-", "connector-")).contains("zip"),
                    name + ": the module builds a zip");
        }
        assertEquals(List.of("cdc-connect-source", "cdc-connect-sink"), names);
        assertTrue(spec.path("build").path("output").path("image").asText().contains(":"), "the built image has a tag");

        JsonNode metrics = spec.path("metricsConfig");
        assertEquals("jmxPrometheusExporter", metrics.path("type").asText());
        JsonNode ref = metrics.path("valueFrom").path("configMapKeyRef");
        JsonNode rules = read("metrics-configmap.yaml");
        assertEquals("ConfigMap", rules.path("kind").asText());
        assertEquals(rules.path("metadata").path("name").asText(), ref.path("name").asText());
        assertEquals(connect.path("metadata").path("namespace").asText(), rules.path("metadata").path("namespace").asText());
        String data = rules.path("data").path(ref.path("key").asText()).asText();
        assertEquals(Files.readString(QuickstartComposeTest.root().resolve("config/monitoring/jmx-exporter.yml")), data,
                "the ConfigMap holds config/monitoring/jmx-exporter.yml as it is");
        assertTrue(YAML.readTree(data).path("rules").size() > 0, "rules parse as YAML");
    }

    @Test
    void theConnectorsPassTheConnectorsChecksAndTheirSecretsAreReadable() throws Exception {
        JsonNode connect = read("kafka-connect.yaml");
        String cluster = connect.path("metadata").path("name").asText();
        String namespace = connect.path("metadata").path("namespace").asText();
        List<JsonNode> rbac = documents(dir().resolve("rbac.yaml"));
        List<JsonNode> roles = rbac.stream().filter(d -> d.path("kind").asText().equals("Role")).toList();
        List<JsonNode> bindings = rbac.stream().filter(d -> d.path("kind").asText().equals("RoleBinding")).toList();
        assertEquals(2, rbac.size());
        assertEquals(1, roles.size());
        assertEquals(1, bindings.size());
        JsonNode role = roles.get(0);
        JsonNode binding = bindings.get(0);
        assertEquals(role.path("metadata").path("name").asText(), binding.path("roleRef").path("name").asText());
        assertEquals(cluster + "-connect", binding.path("subjects").path(0).path("name").asText(), "Strimzi's service account of the worker");
        assertEquals(List.of("get"), YAML.convertValue(role.path("rules").path(0).path("verbs"), List.class));
        Set<String> readable = new TreeSet<>();
        role.path("rules").path(0).path("resourceNames").forEach(n -> readable.add(n.asText()));

        Set<String> referenced = new TreeSet<>();
        for (String file : List.of("kafka-connector-source.yaml", "kafka-connector-sink.yaml")) {
            JsonNode connector = read(file);
            assertEquals("kafka.strimzi.io/v1", connector.path("apiVersion").asText(), file);
            assertEquals(cluster, connector.path("metadata").path("labels").path("strimzi.io/cluster").asText(), file);
            assertEquals(namespace, connector.path("metadata").path("namespace").asText(), file);
            Map<String, String> config = new LinkedHashMap<>();
            config.put("connector.class", connector.path("spec").path("class").asText());
            config.put("tasks.max", connector.path("spec").path("tasksMax").asText());
            connector.path("spec").path("config").fields().forEachRemaining(e -> config.put(e.getKey(), e.getValue().asText()));
            int secrets = 0;
            for (Map.Entry<String, String> e : config.entrySet()) {
                Matcher m = SECRET_REFERENCE.matcher(e.getValue());
                while (m.find()) {
                    secrets++;
                    assertEquals(namespace, m.group(1), file + ": " + e.getKey());
                    referenced.add(m.group(2));
                }
                if (e.getKey().contains("password")) {
                    assertTrue(SECRET_REFERENCE.matcher(e.getValue()).matches(), file + ": " + e.getKey()
                            + " is a ${secrets:...} reference, not a value");
                }
            }
            assertEquals(1, secrets, file + ": its password");
            if (file.contains("source")) QuickstartComposeTest.checkSource(file, config);
            else QuickstartComposeTest.checkSink(file, config);
        }
        assertEquals(readable, referenced, "the Role lets the worker read exactly the Secrets the connectors name");
    }

    @Test
    void everyStrimziDocumentPassesTheSchemasOfTheCrdsStrimzisGeneratorWrites() throws Exception {
        needStrimzi();
        Map<String, JsonNode> crds = StrimziSchemas.crds();
        assertEquals(List.of("kafka.strimzi.io/v1"), StrimziSchemas.servedApiVersions(crds.get("KafkaConnect")));
        assertEquals(List.of("kafka.strimzi.io/v1"), StrimziSchemas.servedApiVersions(crds.get("KafkaConnector")));
        List<String> checked = new ArrayList<>();
        for (String file : FILES) {
            int i = 0;
            for (JsonNode doc : documents(dir().resolve(file))) {
                String where = file + "#" + i++ + " (" + doc.path("kind").asText() + ")";
                if (!doc.path("apiVersion").asText().startsWith("kafka.strimzi.io/")) continue;
                assertEquals(List.of(), StrimziSchemas.violations(doc),
                        where + ": against the openAPIV3Schema of Strimzi " + StrimziSchemas.VERSION + "'s CRD");
                checked.add(where);
            }
        }
        assertEquals(List.of("kafka-connect.yaml#0 (KafkaConnect)", "kafka-connector-sink.yaml#0 (KafkaConnector)",
                "kafka-connector-source.yaml#0 (KafkaConnector)"), checked);
    }

    @Test
    void everyDocumentReadsIntoTheTypedModelsWithNoUnknownField() throws Exception {
        needStrimzi();
        List<Path> files = FILES.stream().map(f -> dir().resolve(f)).toList();
        Map<Path, List<String>> results = StrimziSchemas.modelCheck(files);
        Map<String, List<String>> byFile = new LinkedHashMap<>();
        results.forEach((f, r) -> byFile.put(f.getFileName().toString(), r));
        assertEquals(Map.of(
                "kafka-connect.yaml", List.of("KafkaConnect: OK"),
                "kafka-connector-sink.yaml", List.of("KafkaConnector: OK"),
                "kafka-connector-source.yaml", List.of("KafkaConnector: OK"),
                "metrics-configmap.yaml", List.of("ConfigMap: OK"),
                "rbac.yaml", List.of("Role: OK", "RoleBinding: OK")), byFile);
    }

    @Test
    void theModelCheckFailsOnAMisspeltFieldWhereNoSchemaLooks(@TempDir Path tmp) throws Exception {
        needStrimzi();
        String rbac = Files.readString(dir().resolve("rbac.yaml"));
        Path copy = tmp.resolve("rbac.yaml");
        Files.writeString(copy, replaceOnce(rbac, "resourceNames:", "resourceName:"));
        List<String> result = StrimziSchemas.modelCheck(List.of(copy)).get(copy.toAbsolutePath());
        assertEquals(2, result.size(), result.toString());
        assertTrue(result.get(0).startsWith("Role: ") && result.get(0).contains("resourceName"), result.get(0));
        assertNotEquals("Role: OK", result.get(0));
        assertEquals("RoleBinding: OK", result.get(1));
    }

    @Test
    void theSchemaCheckFailsOnAMisspeltFieldAWrongTypeAndWhatV1Removed() throws Exception {
        needStrimzi();
        String yaml = Files.readString(dir().resolve("kafka-connect.yaml"));
        assertEquals(List.of(), violations(yaml), "the file as it is");

        assertEquals(List.of("/spec: required property 'replicas' not found",
                        "/spec: property 'replica' is not defined in the schema and the schema does not allow additional properties"),
                violations(replaceOnce(yaml, "  replicas: 1\n", "  replica: 1\n")), "a misspelt field, required in v1");
        assertEquals(List.of("/spec/build/plugins/1/artifacts/0: property 'sha512Sum' is not defined in the schema and the schema does not allow additional properties"),
                violations(replaceLast(yaml, "sha512sum:", "sha512Sum:")), "a misspelt field, deeper");
        assertEquals(List.of("/spec/replicas: string found, integer expected"),
                violations(replaceOnce(yaml, "  replicas: 1\n", "  replicas: one\n")), "a value of the wrong type");
        assertEquals(List.of("/spec/tls/trustedCertificates: object found, array expected"),
                violations(replaceOnce(yaml, "      - secretName: my-cluster-cluster-ca-cert\n        pattern:",
                        "      secretName: my-cluster-cluster-ca-cert\n      pattern:")), "an object where a list belongs");

        // spec.config is x-kubernetes-preserve-unknown-fields: any worker setting passes the schema...
        assertEquals(List.of(), violations(replaceOnce(yaml, "    offset.flush.interval.ms: 5000\n",
                "    offset.flush.interval.ms: 5000\n    no.such.setting: 1\n")), "a key in spec.config");
        // ...but not one the v1 API moved to spec (v1beta2 examples set it in spec.config)
        assertEquals(List.of("/spec/config/group.id: Strimzi forbids the prefix group.id here"),
                violations(replaceOnce(yaml, "    offset.flush.interval.ms: 5000\n",
                        "    offset.flush.interval.ms: 5000\n    group.id: cdc-connect\n")), "group.id in spec.config");
        assertEquals(List.of("/spec: required property 'groupId' not found"),
                violations(replaceOnce(yaml, "  groupId: cdc-connect\n", "")), "spec.groupId, required in v1");

        // what v1 removed or renamed
        assertEquals(List.of("$.apiVersion: kafka.strimzi.io/v1beta2 is not served by the KafkaConnect CRD [kafka.strimzi.io/v1]"),
                violations(replaceOnce(yaml, "apiVersion: kafka.strimzi.io/v1\n", "apiVersion: kafka.strimzi.io/v1beta2\n")),
                "the v1beta2 API");
        assertEquals(List.of("/spec/build/output: property 'additionalKanikoOptions' is not defined in the schema and the schema does not allow additional properties"),
                violations(replaceOnce(yaml, "      pushSecret: REPLACE-ME-registry-push-secret\n",
                        "      pushSecret: REPLACE-ME-registry-push-secret\n      additionalKanikoOptions: [--verbosity=info]\n")),
                "spec.build.output.additionalKanikoOptions (additionalBuildOptions in v1)");

        String sink = Files.readString(dir().resolve("kafka-connector-sink.yaml"));
        assertEquals(List.of(), violations(sink), "the sink as it is");
        assertEquals(List.of("/spec: property 'pause' is not defined in the schema and the schema does not allow additional properties"),
                violations(replaceOnce(sink, "  tasksMax: 1\n", "  tasksMax: 1\n  pause: false\n")), "spec.pause (spec.state in v1)");
        assertEquals(List.of("/spec/state: does not have a value in the enumeration [\"paused\", \"stopped\", \"running\"]"),
                violations(replaceOnce(sink, "  tasksMax: 1\n", "  tasksMax: 1\n  state: started\n")), "a value outside an enum");
        assertEquals(List.of("/spec/config/tasks.max: Strimzi forbids tasks.max here"),
                violations(replaceOnce(sink, "    input.format: canal-json\n", "    input.format: canal-json\n    tasks.max: 2\n")),
                "tasks.max in a connector's config");
    }

    private static List<String> violations(String yaml) throws Exception {
        return StrimziSchemas.violations(YAML.readTree(yaml));
    }

    private static String replaceOnce(String text, String from, String to) {
        assertEquals(text.indexOf(from), text.lastIndexOf(from), "once: " + from);
        assertTrue(text.contains(from), from);
        return text.replace(from, to);
    }

    private static String replaceLast(String text, String from, String to) {
        int at = text.lastIndexOf(from);
        assertTrue(at >= 0, from);
        return text.substring(0, at) + to + text.substring(at + from.length());
    }
}
