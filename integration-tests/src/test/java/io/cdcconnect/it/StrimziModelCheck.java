package io.cdcconnect.it;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The typed half of {@link StrimziExampleTest}, run by {@link StrimziSchemas#modelCheck} as the main class of a child
 * JVM (Java 21 or later) whose classpath is this class, Strimzi's model ({@code io.strimzi:api}) and its CRD
 * generator's shaded jar (fabric8's Kubernetes model and Jackson): Strimzi's classes are Java 21 classes, which the
 * Java 17 test JVM cannot load, so this class names none of them at compile time.
 *
 * <p>Each argument is a YAML file; each document in it is read into the class its {@code kind} names (Strimzi's
 * {@code KafkaConnect} and {@code KafkaConnector}, fabric8's {@code ConfigMap}, {@code Role}, {@code RoleBinding})
 * with unknown properties failing, and since those classes keep unknown fields in an {@code additionalProperties}
 * map rather than rejecting them, every such map in the object graph must be empty. One line per document on
 * stdout: {@code file<TAB>index<TAB>kind<TAB>OK} or {@code ...<TAB>what is wrong}.
 */
public final class StrimziModelCheck {

    static final Map<String, String> CLASSES = Map.of(
            "KafkaConnect", "io.strimzi.api.kafka.model.connect.KafkaConnect",
            "KafkaConnector", "io.strimzi.api.kafka.model.connector.KafkaConnector",
            "ConfigMap", "io.fabric8.kubernetes.api.model.ConfigMap",
            "Role", "io.fabric8.kubernetes.api.model.rbac.Role",
            "RoleBinding", "io.fabric8.kubernetes.api.model.rbac.RoleBinding");

    private StrimziModelCheck() {
    }

    public static void main(String[] args) throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        for (String file : args) {
            int index = 0;
            try (MappingIterator<JsonNode> docs = yaml.readerFor(JsonNode.class).readValues(new File(file))) {
                while (docs.hasNext()) {
                    JsonNode doc = docs.next();
                    if (doc == null || doc.isMissingNode() || doc.isNull()) continue;
                    String kind = doc.path("kind").asText();
                    String result;
                    String type = CLASSES.get(kind);
                    if (type == null) {
                        result = "no model class for kind '" + kind + "'";
                    } else {
                        try {
                            Object resource = yaml.treeToValue(doc, Class.forName(type));
                            List<String> unknown = new ArrayList<>();
                            walk(resource, kind, unknown, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
                            result = unknown.isEmpty() ? "OK" : "fields the model does not know: " + unknown;
                        } catch (Exception e) {
                            result = (e.getClass().getSimpleName() + ": " + e.getMessage()).replaceAll("\\s+", " ");
                        }
                    }
                    System.out.println(file + "\t" + index++ + "\t" + kind + "\t" + result);
                }
            }
        }
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
}
