package io.cdcconnect.it;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.strimzi.api.kafka.model.common.metrics.JmxPrometheusExporterMetrics;
import io.strimzi.api.kafka.model.connect.KafkaConnect;
import io.strimzi.api.kafka.model.connect.build.Plugin;
import io.strimzi.api.kafka.model.connect.build.ZipArtifact;
import io.strimzi.api.kafka.model.connector.KafkaConnector;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Strimzi example ({@code deploy/strimzi/}) without a Kubernetes cluster, which this machine lacks, checked two
 * ways. Against Strimzi's CRD schemas: Strimzi publishes its CRD YAML on no Maven repository, so
 * {@link StrimziSchemas} generates the {@code KafkaConnect} and {@code KafkaConnector} CRDs at test time from
 * Strimzi's model ({@code io.strimzi:api} 0.48.0) with Strimzi's own generator ({@code io.strimzi:crd-generator}),
 * with the arguments of Strimzi 0.48.0's build, and each resource, whole, must pass the served version's
 * openAPIV3Schema (unknown fields rejected where the schema does not preserve them, types, enums, patterns,
 * minimums, required fields); a copy of kafka-connect.yaml with a misspelt field or a value of the wrong type must
 * fail it, naming the place. Not checked: the CRDs' CEL rules ({@code x-kubernetes-validations}), which only the
 * API server evaluates. And against Strimzi's typed model: each file is read into Strimzi's classes
 * ({@link KafkaConnect}, {@link KafkaConnector}) and Kubernetes' (fabric8: ConfigMap, Role, RoleBinding) with
 * unknown properties failing, and since those classes keep unknown fields in an {@code additionalProperties} map
 * rather than rejecting them, every such map in the object graph must be empty: a misspelt or misplaced field
 * fails, and so does a value of the wrong type; this also covers rbac.yaml and the ConfigMap, which no CRD
 * describes. Beyond the schema: the connectors' configs pass the same checks as the quickstart's
 * ({@link QuickstartComposeTest}), their secrets are config-provider references to Secrets the Role lets the worker
 * read, the build takes both plugin archives as zip artifacts with a SHA-512, and the metrics ConfigMap holds
 * config/monitoring/jmx-exporter.yml as it is.
 */
class StrimziExampleTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final Pattern SECRET_REFERENCE = Pattern.compile("\\$\\{secrets:([a-z0-9-]+)/([a-z0-9.-]+):([A-Za-z0-9._-]+)}");

    static Path dir() {
        return QuickstartComposeTest.root().resolve("deploy/strimzi");
    }

    static <T> T read(String file, Class<T> type) throws Exception {
        return known(YAML.readValue(dir().resolve(file).toFile(), type), file);
    }

    /** Every non-empty additionalProperties map under {@code o}, by path. */
    private static void walk(Object o, String path, List<String> unknown, Set<Object> seen) throws Exception {
        if (o == null || !seen.add(o)) return;
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) walk(e, path + "[" + i++ + "]", unknown, seen);
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) walk(e.getValue(), path + "." + e.getKey(), unknown, seen);
            return;
        }
        String pkg = o.getClass().getPackageName();
        if (!pkg.startsWith("io.strimzi.api") && !pkg.startsWith("io.fabric8.kubernetes.api.model")) return;
        for (Method m : o.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() == Object.class) continue;
            String name = m.getName();
            if (!name.startsWith("get") || name.equals("getClass")) continue;
            Object value = m.invoke(o);
            if (name.equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) unknown.add(path + ": " + extra.keySet());
            } else {
                walk(value, path + "." + Character.toLowerCase(name.charAt(3)) + name.substring(4), unknown, seen);
            }
        }
    }

    @Test
    void theFolderHoldsTheExampleAndItsReadme() throws Exception {
        try (Stream<Path> s = Files.list(dir())) {
            assertEquals(List.of("README.md", "kafka-connect.yaml", "kafka-connector-sink.yaml", "kafka-connector-source.yaml",
                    "metrics-configmap.yaml", "rbac.yaml"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        String readme = Files.readString(dir().resolve("README.md"));
        for (String file : List.of("kafka-connect.yaml", "kafka-connector-source.yaml", "kafka-connector-sink.yaml",
                "metrics-configmap.yaml", "rbac.yaml")) {
            assertTrue(readme.contains(file), "README.md names " + file);
        }
    }

    @Test
    void kafkaConnectBuildsBothPluginsReadsSecretsThroughTheProviderAndExportsMetrics() throws Exception {
        KafkaConnect connect = read("kafka-connect.yaml", KafkaConnect.class);
        assertEquals("kafka.strimzi.io/v1beta2", connect.getApiVersion());
        assertEquals("true", connect.getMetadata().getAnnotations().get("strimzi.io/use-connector-resources"));
        Map<String, Object> config = connect.getSpec().getConfig();
        assertEquals("secrets", config.get("config.providers"));
        assertEquals("io.strimzi.kafka.KubernetesSecretConfigProvider", config.get("config.providers.secrets.class"));

        List<Plugin> plugins = connect.getSpec().getBuild().getPlugins();
        assertEquals(List.of("cdc-connect-source", "cdc-connect-sink"), plugins.stream().map(Plugin::getName).toList());
        for (Plugin p : plugins) {
            assertEquals(1, p.getArtifacts().size(), p.getName());
            ZipArtifact zip = assertInstanceOf(ZipArtifact.class, p.getArtifacts().get(0), p.getName() + ": a zip artifact");
            assertTrue(zip.getUrl().startsWith("https://") && zip.getUrl().endsWith(".zip")
                    && zip.getUrl().contains("/" + p.getName() + "-"), zip.getUrl());
            assertFalse(zip.getSha512sum() == null || zip.getSha512sum().isBlank(), p.getName() + ": sha512sum");
            assertTrue(QuickstartComposeTest.assemblyFormats(p.getName().replace("cdc-connect-", "connector-")).contains("zip"),
                    p.getName() + ": the module builds a zip");
        }
        assertTrue(connect.getSpec().getBuild().getOutput().getImage().contains(":"), "the built image has a tag");

        JmxPrometheusExporterMetrics metrics = assertInstanceOf(JmxPrometheusExporterMetrics.class,
                connect.getSpec().getMetricsConfig());
        ConfigMap rules = read("metrics-configmap.yaml", ConfigMap.class);
        assertEquals(rules.getMetadata().getName(), metrics.getValueFrom().getConfigMapKeyRef().getName());
        assertEquals(connect.getMetadata().getNamespace(), rules.getMetadata().getNamespace());
        String key = metrics.getValueFrom().getConfigMapKeyRef().getKey();
        assertEquals(Files.readString(QuickstartComposeTest.root().resolve("config/monitoring/jmx-exporter.yml")),
                rules.getData().get(key), "the ConfigMap holds config/monitoring/jmx-exporter.yml as it is");
        assertTrue(YAML.readTree(rules.getData().get(key)).path("rules").size() > 0, "rules parse as YAML");
    }

    @Test
    void theConnectorsPassTheConnectorsChecksAndTheirSecretsAreReadable() throws Exception {
        KafkaConnect connect = read("kafka-connect.yaml", KafkaConnect.class);
        String cluster = connect.getMetadata().getName();
        String namespace = connect.getMetadata().getNamespace();
        List<Role> roles = new ArrayList<>();
        List<RoleBinding> bindings = new ArrayList<>();
        for (String doc : Files.readString(dir().resolve("rbac.yaml")).split("(?m)^---$")) {
            if (doc.contains("kind: RoleBinding")) bindings.add(readText(doc, RoleBinding.class));
            else roles.add(readText(doc, Role.class));
        }
        assertEquals(1, roles.size());
        assertEquals(1, bindings.size());
        Role role = roles.get(0);
        RoleBinding binding = bindings.get(0);
        assertEquals(role.getMetadata().getName(), binding.getRoleRef().getName());
        assertEquals(cluster + "-connect", binding.getSubjects().get(0).getName(), "Strimzi's service account of the worker");
        assertEquals(List.of("get"), role.getRules().get(0).getVerbs());
        Set<String> readable = new TreeSet<>(role.getRules().get(0).getResourceNames());

        Set<String> referenced = new TreeSet<>();
        for (String file : List.of("kafka-connector-source.yaml", "kafka-connector-sink.yaml")) {
            KafkaConnector connector = read(file, KafkaConnector.class);
            assertEquals(cluster, connector.getMetadata().getLabels().get("strimzi.io/cluster"), file);
            assertEquals(namespace, connector.getMetadata().getNamespace(), file);
            Map<String, String> config = new LinkedHashMap<>();
            config.put("connector.class", connector.getSpec().getClassName());
            config.put("tasks.max", String.valueOf(connector.getSpec().getTasksMax()));
            connector.getSpec().getConfig().forEach((k, v) -> config.put(k, String.valueOf(v)));
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
    void theResourcesPassTheSchemasOfTheCrdsStrimzisGeneratorWrites() throws Exception {
        Map<String, JsonNode> crds = StrimziSchemas.crds();
        assertEquals(List.of("kafka.strimzi.io/v1beta2"), StrimziSchemas.servedApiVersions(crds.get("KafkaConnect")));
        assertEquals(List.of("kafka.strimzi.io/v1beta2"), StrimziSchemas.servedApiVersions(crds.get("KafkaConnector")));
        Map<String, String> kinds = Map.of("kafka-connect.yaml", "KafkaConnect",
                "kafka-connector-source.yaml", "KafkaConnector", "kafka-connector-sink.yaml", "KafkaConnector");
        for (Map.Entry<String, String> e : new TreeMap<>(kinds).entrySet()) {
            JsonNode resource = YAML.readTree(dir().resolve(e.getKey()).toFile());
            assertEquals(e.getValue(), resource.path("kind").asText(), e.getKey());
            assertEquals(List.of(), StrimziSchemas.violations(resource),
                    e.getKey() + ": against the openAPIV3Schema of Strimzi's " + e.getValue() + " CRD");
        }
    }

    @Test
    void theSchemaCheckFailsOnAMisspeltFieldAndOnAWrongType() throws Exception {
        String yaml = Files.readString(dir().resolve("kafka-connect.yaml"));
        assertEquals(List.of(), violations(yaml), "the file as it is");

        assertEquals(List.of("/spec: property 'replica' is not defined in the schema and the schema does not allow additional properties"),
                violations(replaceOnce(yaml, "  replicas: 1\n", "  replica: 1\n")), "a misspelt field");
        assertEquals(List.of("/spec/build/plugins/1/artifacts/0: property 'sha512Sum' is not defined in the schema and the schema does not allow additional properties"),
                violations(replaceLast(yaml, "sha512sum:", "sha512Sum:")), "a misspelt field, deeper");
        assertEquals(List.of("/spec/replicas: string found, integer expected"),
                violations(replaceOnce(yaml, "  replicas: 1\n", "  replicas: one\n")), "a value of the wrong type");
        assertEquals(List.of("/spec/tls/trustedCertificates: object found, array expected"),
                violations(replaceOnce(yaml, "      - secretName: my-cluster-cluster-ca-cert\n        pattern:",
                        "      secretName: my-cluster-cluster-ca-cert\n      pattern:")), "an object where a list belongs");

        // spec.config is x-kubernetes-preserve-unknown-fields: any worker setting passes
        assertEquals(List.of(), violations(replaceOnce(yaml, "    group.id: cdc-connect\n",
                "    group.id: cdc-connect\n    no.such.setting: 1\n")), "a key in spec.config");
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

    private static <T> T readText(String yaml, Class<T> type) throws Exception {
        return known(YAML.readValue(yaml, type), "rbac.yaml");
    }

    /** {@code resource}, after asserting that no object in it holds fields its class does not know. */
    private static <T> T known(T resource, String file) throws Exception {
        List<String> unknown = new ArrayList<>();
        walk(resource, resource.getClass().getSimpleName(), unknown, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
        assertEquals(List.of(), unknown, file + ": fields the model does not know");
        return resource;
    }
}
