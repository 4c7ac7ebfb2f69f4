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

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Strimzi's CRDs for {@code KafkaConnect} and {@code KafkaConnector}, generated at test time from Strimzi's model
 * ({@code io.strimzi:api} 1.2.0) by Strimzi's own generator ({@code io.strimzi:crd-generator} 1.2.0, main class
 * {@code io.strimzi.crdgenerator.CrdGenerator}) with the arguments of Strimzi 1.2.0's build ({@code api/pom.xml},
 * execution {@code generate-crd-co-install-v1}), and a check of a resource against a CRD's {@code openAPIV3Schema}.
 *
 * <p>Strimzi publishes its CRD YAML on no Maven repository, and the {@code api} jar bundles none. From 1.0 on, Strimzi's
 * model and generator are Java 21 classes, so the generator runs as Strimzi's build runs it, a {@code java -classpath}
 * of the model and the generator's shaded jar (fabric8 7.8.0, Jackson), in a child JVM of Java 21 or later: the one
 * {@code -Dcdc.strimzi.java.home} names, else this JVM if it is one, else the newest under {@code /usr/lib/jvm}
 * (e.g. Temurin 25). The output equals Strimzi 1.2.0's published {@code 041-Crd-kafkaconnect.yaml} and
 * {@code 047-Crd-kafkaconnector.yaml} byte for byte (compared when this was written). {@link #modelCheck} runs
 * {@link StrimziModelCheck} in such a JVM too.
 *
 * <p>The schema is OpenAPI v3 as Kubernetes restricts it, checked as JSON Schema draft 4 with two Kubernetes
 * semantics added: an object schema with {@code properties} and neither {@code additionalProperties} nor
 * {@code x-kubernetes-preserve-unknown-fields: true} rejects other fields (the API server would prune them, and
 * {@code kubectl}'s default strict field validation rejects them), and {@code x-kubernetes-int-or-string: true}
 * accepts an integer or a string. The root's {@code metadata} is the API server's ObjectMeta, not the CRD's. Beyond
 * the schema, {@link #violations} refuses a {@code spec.config} key the CRD's description says Strimzi forbids. Not
 * checked: the CEL rules ({@code x-kubernetes-validations}), which only the API server evaluates.
 */
final class StrimziSchemas {

    static final String VERSION = System.getProperty("cdc.strimzi.version", "1.2.0");

    /** Strimzi 1.2.0's api/pom.xml, execution generate-crd-co-install-v1, before its class=file arguments. */
    static final List<String> GENERATOR_ARGUMENTS = List.of(
            "--label", "app:strimzi",
            "--label", "strimzi.io/crd-install:true",
            "--target-kube", "1.16+",
            "--crd-api-version", "v1",
            "--api-versions", "v1",
            "--storage-version", "v1",
            "--yaml");

    static final String KAFKA_CONNECT_CLASS = "io.strimzi.api.kafka.model.connect.KafkaConnect";
    static final String KAFKA_CONNECTOR_CLASS = "io.strimzi.api.kafka.model.connector.KafkaConnector";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final SchemaRegistry DRAFT_4 = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);
    private static Map<String, JsonNode> crds;

    private StrimziSchemas() {
    }

    /**
     * A Java 21+ home, or null: {@code -Dcdc.strimzi.java.home}, this JVM, or the newest JDK under /usr/lib/jvm
     * (its {@code release} file's JAVA_VERSION).
     */
    static Path java21() throws IOException {
        String named = System.getProperty("cdc.strimzi.java.home");
        if (named != null && !named.isBlank()) return Path.of(named);
        if (Runtime.version().feature() >= 21) return Path.of(System.getProperty("java.home"));
        Path best = null;
        int bestFeature = 0;
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) return null;
        try (Stream<Path> homes = Files.list(jvms)) {
            for (Path home : homes.sorted().toList()) {
                Path release = home.resolve("release");
                if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin/java"))) continue;
                Matcher m = JAVA_VERSION.matcher(Files.readString(release));
                if (!m.find()) continue;
                int feature = Integer.parseInt(m.group(1));
                if (feature >= 21 && feature > bestFeature) {
                    best = home;
                    bestFeature = feature;
                }
            }
        }
        return best;
    }

    private static final Pattern JAVA_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

    /** Why the Strimzi checks cannot run here, or null when they can. */
    static String unavailable() throws IOException {
        for (String property : List.of("cdc.strimzi.api.jar", "cdc.strimzi.crd.generator.jar")) {
            String jar = System.getProperty(property);
            if (jar == null || jar.isBlank() || !Files.isRegularFile(Path.of(jar))) {
                return property + " is not set or names no file: run through Maven (integration-tests/pom.xml, copy-strimzi)";
            }
        }
        Path home = java21();
        if (home != null && !Files.isExecutable(home.resolve("bin/java"))) {
            return "-Dcdc.strimzi.java.home=" + home + " holds no bin/java";
        }
        if (home == null) {
            return "Strimzi " + VERSION + "'s model and CRD generator need Java 21 or later, and there is none: name one with"
                    + " -Dcdc.strimzi.java.home=<JDK 21+ home> (none under /usr/lib/jvm, and this JVM is "
                    + Runtime.version() + ")";
        }
        return null;
    }

    private static List<String> strimziClasspath(String... first) {
        List<String> classpath = new ArrayList<>(List.of(first));
        classpath.add(System.getProperty("cdc.strimzi.api.jar"));
        classpath.add(System.getProperty("cdc.strimzi.crd.generator.jar"));
        return classpath;
    }

    private static String run(List<String> classpath, String mainClass, List<String> arguments, Path log) throws Exception {
        List<String> command = new ArrayList<>(List.of(java21().resolve("bin/java").toString(),
                "-classpath", String.join(File.pathSeparator, classpath), mainClass));
        command.addAll(arguments);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(mainClass + " did not finish in 120 s: " + log);
        }
        String output = Files.readString(log);
        if (p.exitValue() != 0) throw new IllegalStateException(mainClass + " exited with " + p.exitValue() + ":\n" + output);
        return output;
    }

    /** The generated CRDs by kind ({@code KafkaConnect}, {@code KafkaConnector}), generated once per JVM. */
    static synchronized Map<String, JsonNode> crds() throws Exception {
        if (crds == null) crds = generate();
        return crds;
    }

    private static Map<String, JsonNode> generate() throws Exception {
        String why = unavailable();
        if (why != null) throw new IllegalStateException(why);
        Path out = crdDir();
        Map<String, Path> files = new LinkedHashMap<>();
        files.put("KafkaConnect", out.resolve("041-Crd-kafkaconnect.yaml"));
        files.put("KafkaConnector", out.resolve("047-Crd-kafkaconnector.yaml"));
        for (Path f : files.values()) Files.deleteIfExists(f);

        List<String> arguments = new ArrayList<>(GENERATOR_ARGUMENTS);
        arguments.add(KAFKA_CONNECT_CLASS + "=" + files.get("KafkaConnect"));
        arguments.add(KAFKA_CONNECTOR_CLASS + "=" + files.get("KafkaConnector"));
        Path log = out.resolve("crd-generator.log");
        run(strimziClasspath(), "io.strimzi.crdgenerator.CrdGenerator", arguments, log);
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

    private static Path crdDir() throws IOException {
        Path out = Path.of(System.getProperty("cdc.strimzi.crd.dir", "target/strimzi-crds")).toAbsolutePath();
        Files.createDirectories(out);
        return out;
    }

    /**
     * Each document of each file read into Strimzi {@value #VERSION}'s or fabric8's typed model
     * ({@link StrimziModelCheck}, in a Java 21+ child JVM): per file, one entry per document, {@code kind: OK} or
     * {@code kind: what is wrong}.
     */
    static Map<Path, List<String>> modelCheck(List<Path> files) throws Exception {
        String why = unavailable();
        if (why != null) throw new IllegalStateException(why);
        String testClasses = Path.of(StrimziModelCheck.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        // this module's test classes (only StrimziModelCheck is loaded), then Strimzi's model and the generator's
        // shaded jar, whose Jackson (with its YAML module) and fabric8 StrimziModelCheck uses
        List<String> classpath = strimziClasspath(testClasses);
        List<String> arguments = files.stream().map(f -> f.toAbsolutePath().toString()).toList();
        String output = run(classpath, StrimziModelCheck.class.getName(), arguments, crdDir().resolve("model-check.log"));
        Map<Path, List<String>> result = new LinkedHashMap<>();
        for (Path f : files) result.put(f.toAbsolutePath(), new ArrayList<>());
        for (String line : output.split("\n")) {
            String[] parts = line.split("\t", 4);
            if (parts.length != 4 || !result.containsKey(Path.of(parts[0]))) {
                throw new IllegalStateException("StrimziModelCheck wrote a line that is no result: " + line + "\n" + output);
            }
            result.get(Path.of(parts[0])).add(parts[2] + ": " + parts[3]);
        }
        return result;
    }

    /**
     * The keys of the resource's {@code spec.config} that Strimzi forbids there, by the CRD's own description of
     * {@code spec.config} (which the schema cannot express, as the field preserves unknown fields): KafkaConnect's
     * "Properties with the following prefixes cannot be set: a, b, ... (with the exception of: c, d)." and
     * KafkaConnector's "The following properties cannot be set: a, b.". The operator ignores such a key (it logs a
     * warning and the connector or worker runs without it), so the example must set none.
     */
    static List<String> forbiddenConfig(JsonNode resource) throws Exception {
        JsonNode version = servedVersion(resource);
        if (version == null) return List.of("$.apiVersion: " + resource.path("apiVersion").asText() + " is not served");
        String description = version.path("schema").path("openAPIV3Schema").path("properties").path("spec")
                .path("properties").path("config").path("description").asText();
        Matcher prefixes = Pattern.compile("Properties with the following prefixes cannot be set: ([^(]+?)\\s*(?:\\(with the exception of: ([^)]+)\\))?\\.?$").matcher(description);
        Matcher exact = Pattern.compile("The following properties cannot be set: (.+?)\\.?$").matcher(description);
        List<String> forbidden;
        List<String> allowed = List.of();
        boolean byPrefix;
        if (prefixes.find()) {
            forbidden = split(prefixes.group(1));
            if (prefixes.group(2) != null) allowed = split(prefixes.group(2));
            byPrefix = true;
        } else if (exact.find()) {
            forbidden = split(exact.group(1));
            byPrefix = false;
        } else {
            throw new IllegalStateException("the " + resource.path("kind").asText() + " CRD's spec.config description names"
                    + " no forbidden properties in a form this check reads: " + description);
        }
        List<String> result = new ArrayList<>();
        for (Iterator<String> keys = resource.path("spec").path("config").fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (allowed.contains(key)) continue;
            for (String f : forbidden) {
                if (byPrefix ? key.startsWith(f) : key.equals(f)) {
                    result.add("/spec/config/" + key + ": Strimzi forbids " + (byPrefix ? "the prefix " : "") + f + " here");
                    break;
                }
            }
        }
        return result;
    }

    private static List<String> split(String list) {
        List<String> result = new ArrayList<>();
        for (String s : list.split(",")) if (!s.isBlank()) result.add(s.trim());
        return result;
    }

    private static JsonNode servedVersion(JsonNode resource) throws Exception {
        JsonNode crd = crds().get(resource.path("kind").asText());
        if (crd == null) return null;
        String apiVersion = resource.path("apiVersion").asText();
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("served").asBoolean()
                    && apiVersion.equals(crd.path("spec").path("group").asText() + "/" + v.path("name").asText())) {
                return v;
            }
        }
        return null;
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
        JsonNode version = servedVersion(resource);
        if (version == null) {
            return List.of("$.apiVersion: " + apiVersion + " is not served by the " + kind + " CRD " + servedApiVersions(crd));
        }
        JsonNode schema = draft4(version.path("schema").path("openAPIV3Schema"));
        Schema validator = DRAFT_4.getSchema(SchemaLocation.of("urn:strimzi:" + VERSION + ":" + kind + ":" + version.path("name").asText()), schema);
        List<String> result = new ArrayList<>();
        for (Error e : validator.validate(resource)) result.add(e.toString());
        result.addAll(forbiddenConfig(resource));
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
