package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.strimzi.api.kafka.model.connect.KafkaConnect;
import io.strimzi.api.kafka.model.connector.KafkaConnector;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Strimzi's CRDs for {@code KafkaConnect} and {@code KafkaConnector}, generated at test time from Strimzi's model
 * ({@code io.strimzi:api} 0.48.0) by Strimzi's own generator ({@code io.strimzi:crd-generator}, main class
 * {@code io.strimzi.crdgenerator.CrdGenerator}) with the arguments of Strimzi 0.48.0's build ({@code api/pom.xml},
 * execution {@code generate-crd-co-install-v1}), and a check of a resource against a CRD's {@code openAPIV3Schema}.
 *
 * <p>The generator runs as Strimzi's build runs it, a {@code java -classpath} of the model and the generator's shaded
 * jar, in a child JVM. 0.48.0's generator is on no Maven repository and 1.2.0's needs Java 21, so it is 0.45.0's;
 * its jar bundles fabric8 6.x, which lacks classes the 0.48.0 model uses, so the child's classpath puts the model's
 * own fabric8 (7.4.0, the version Strimzi 0.48.0 built with) before it. For these two CRDs the result equals
 * Strimzi 0.48.0's published {@code 041-Crd-kafkaconnect.yaml} and {@code 047-Crd-kafkaconnector.yaml} (compared by
 * hand) except for two things 0.45.0's generator does not write: each version's {@code deprecated: false}, and the
 * CEL rule ({@code x-kubernetes-validations}) on {@code spec.metricsConfig} that {@code jmxPrometheusExporter}
 * needs {@code valueFrom}; CEL rules are the API server's, which no JSON-schema validator applies anyway.
 *
 * <p>The schema is OpenAPI v3 as Kubernetes restricts it, checked as JSON Schema draft 4 with two Kubernetes
 * semantics added: an object schema with {@code properties} and neither {@code additionalProperties} nor
 * {@code x-kubernetes-preserve-unknown-fields: true} rejects other fields (the API server would prune them, and
 * {@code kubectl}'s default strict field validation rejects them), and {@code x-kubernetes-int-or-string: true}
 * accepts an integer or a string. The root's {@code metadata} is the API server's ObjectMeta, not the CRD's.
 */
final class StrimziSchemas {

    /** Strimzi 0.48.0's api/pom.xml, execution generate-crd-co-install-v1, before its class=file arguments. */
    static final List<String> GENERATOR_ARGUMENTS = List.of(
            "--label", "app:strimzi",
            "--label", "strimzi.io/crd-install:true",
            "--target-kube", "1.16+",
            "--crd-api-version", "v1",
            "--api-versions", "v1beta2",
            "--storage-version", "v1beta2",
            "--yaml");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final SchemaRegistry DRAFT_4 = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);
    private static Map<String, JsonNode> crds;

    private StrimziSchemas() {
    }

    /** The generated CRDs by kind ({@code KafkaConnect}, {@code KafkaConnector}), generated once per JVM. */
    static synchronized Map<String, JsonNode> crds() throws Exception {
        if (crds == null) crds = generate();
        return crds;
    }

    private static Map<String, JsonNode> generate() throws Exception {
        String generatorJar = System.getProperty("cdc.strimzi.crd.generator.jar");
        if (generatorJar == null || generatorJar.isBlank() || generatorJar.startsWith("${")) {
            throw new IllegalStateException("cdc.strimzi.crd.generator.jar is not set: run through Maven (integration-tests/pom.xml)");
        }
        Path out = Path.of(System.getProperty("cdc.strimzi.crd.dir", "target/strimzi-crds")).toAbsolutePath();
        Files.createDirectories(out);
        Map<String, Path> files = new LinkedHashMap<>();
        files.put(KafkaConnect.RESOURCE_KIND, out.resolve("041-Crd-kafkaconnect.yaml"));
        files.put(KafkaConnector.RESOURCE_KIND, out.resolve("047-Crd-kafkaconnector.yaml"));
        for (Path f : files.values()) Files.deleteIfExists(f);

        // the model and its fabric8 first (as Strimzi's build puts api/target/classes first), the generator last
        String model = Path.of(KafkaConnect.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        List<String> classpath = new ArrayList<>(List.of(model));
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.replace(File.separatorChar, '/').contains("/io/fabric8/")) classpath.add(entry);
        }
        classpath.add(generatorJar);

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-classpath", String.join(File.pathSeparator, classpath), "io.strimzi.crdgenerator.CrdGenerator"));
        command.addAll(GENERATOR_ARGUMENTS);
        command.add(KafkaConnect.class.getName() + "=" + files.get(KafkaConnect.RESOURCE_KIND));
        command.add(KafkaConnector.class.getName() + "=" + files.get(KafkaConnector.RESOURCE_KIND));
        Path log = out.resolve("crd-generator.log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("Strimzi's CrdGenerator did not finish in 120 s: " + log);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("Strimzi's CrdGenerator exited with " + p.exitValue() + ":\n" + Files.readString(log));
        }
        Map<String, JsonNode> result = new LinkedHashMap<>();
        for (Map.Entry<String, Path> e : files.entrySet()) {
            JsonNode crd = YAML.readTree(e.getValue().toFile());
            if (!e.getKey().equals(crd.path("spec").path("names").path("kind").asText())) {
                throw new IllegalStateException(e.getValue() + " is not the CRD of " + e.getKey() + ":\n" + Files.readString(log));
            }
            result.put(e.getKey(), crd);
        }
        return result;
    }

    /** The {@code group/version} of each version the CRD serves. */
    static List<String> servedApiVersions(JsonNode crd) {
        List<String> served = new ArrayList<>();
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("served").asBoolean()) served.add(crd.path("spec").path("group").asText() + "/" + v.path("name").asText());
        }
        return served;
    }

    /**
     * The schema violations of {@code resource} (a whole object: apiVersion, kind, metadata, spec) against the
     * openAPIV3Schema of the CRD version its apiVersion names, one line each: where, and what. A resource of another
     * kind or a version the CRD does not serve is one violation.
     */
    static List<String> violations(JsonNode resource) throws Exception {
        String kind = resource.path("kind").asText();
        JsonNode crd = crds().get(kind);
        if (crd == null) return List.of("$.kind: " + kind + " is none of the generated CRDs' kinds " + crds().keySet());
        String apiVersion = resource.path("apiVersion").asText();
        JsonNode version = null;
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("served").asBoolean()
                    && apiVersion.equals(crd.path("spec").path("group").asText() + "/" + v.path("name").asText())) {
                version = v;
            }
        }
        if (version == null) {
            return List.of("$.apiVersion: " + apiVersion + " is not served by the " + kind + " CRD " + servedApiVersions(crd));
        }
        JsonNode schema = draft4(version.path("schema").path("openAPIV3Schema"));
        Schema validator = DRAFT_4.getSchema(SchemaLocation.of("urn:strimzi:0.48.0:" + kind + ":" + version.path("name").asText()), schema);
        List<String> result = new ArrayList<>();
        for (Error e : validator.validate(resource)) result.add(e.toString());
        return result;
    }

    /** A copy of an openAPIV3Schema node with Kubernetes' semantics spelt out in draft 4 (the class comment). */
    static JsonNode draft4(JsonNode node) {
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            for (JsonNode e : node) copy.add(draft4(e));
            return copy;
        }
        if (!node.isObject()) return node.deepCopy();
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            // "properties" holds names, not schemas: its values are schemas, its keys are not keywords
            if (e.getKey().equals("properties") && e.getValue().isObject()) {
                ObjectNode properties = copy.putObject("properties");
                e.getValue().fields().forEachRemaining(p -> properties.set(p.getKey(), draft4(p.getValue())));
            } else {
                copy.set(e.getKey(), draft4(e.getValue()));
            }
        }
        boolean preserveUnknown = node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        if ("object".equals(node.path("type").asText()) && node.has("properties") && !node.has("additionalProperties")
                && !preserveUnknown) {
            copy.put("additionalProperties", false);
        }
        if (node.path("x-kubernetes-int-or-string").asBoolean(false) && !node.has("anyOf") && !node.has("type")) {
            ArrayNode anyOf = copy.putArray("anyOf");
            anyOf.addObject().put("type", "integer");
            anyOf.addObject().put("type", "string");
        }
        return copy;
    }
}
