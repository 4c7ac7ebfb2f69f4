import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Makes a plugin archive's CycloneDX SBOM list exactly the jars its {@code lib/} will hold (release build, run by the
 * root pom's release profile after cyclonedx-maven-plugin's makeBom, before the assembly).
 *
 * <p>makeBom lists the whole resolved graph, also what the assembly leaves out because the worker provides it
 * (Kafka, Jackson, slf4j, the compression libraries), and its own exclusion settings work only for the reactor
 * modules of an aggregate BOM. The assembly descriptor's {@code dependencySet} excludes are the one statement of what
 * stays out, so this program reads them from there and drops the matching components (and their edges). A jar of
 * the module's {@code plugin-lib} folder (the assembly copies it into {@code lib/} in place of an excluded original:
 * Debezium's repacked jars) keeps its component; one without a component (a jar the build makes itself) gets one.
 *
 * <p>Arguments: bom.json, the assembly descriptor, the plugin-lib folder (may be absent), groupId for made jars.
 */
public final class SbomOfLib {

    public static void main(String[] args) throws Exception {
        Path bomFile = Path.of(args[0]);
        if (!Files.isRegularFile(bomFile)) {
            // makeBom needs online mode and skips itself offline (-o): the archive then has no SBOM, and
            // ReleaseOutputsTest says so
            System.out.println("SBOM: none to trim at " + bomFile + " (an offline build makes none)");
            return;
        }
        List<String> excludes = excludes(new File(args[1]));
        Path pluginLib = Path.of(args[2]);
        String ownGroup = args[3];

        Set<String> made = new TreeSet<>();
        if (Files.isDirectory(pluginLib)) {
            try (Stream<Path> s = Files.list(pluginLib)) {
                s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar")).forEach(made::add);
            }
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode bom = (ObjectNode) json.readTree(bomFile.toFile());
        ArrayNode kept = json.createArrayNode();
        Set<String> dropped = new HashSet<>();
        Set<String> listedJars = new HashSet<>();
        for (JsonNode c : bom.path("components")) {
            String jar = c.path("name").asText() + "-" + c.path("version").asText() + ".jar";
            if (matchesAny(excludes, c.path("group").asText(), c.path("name").asText()) && !made.contains(jar)) {
                dropped.add(c.path("bom-ref").asText());
                System.out.println("SBOM: left out (the assembly excludes it from lib/): " + c.path("bom-ref").asText());
            } else {
                kept.add(c);
                listedJars.add(jar);
            }
        }
        String self = bom.path("metadata").path("component").path("name").asText() + "-"
                + bom.path("metadata").path("component").path("version").asText() + ".jar";
        listedJars.add(self);
        for (String jar : made) {
            if (listedJars.contains(jar)) continue;
            // a version begins at the first "-<digit>"
            int v = firstVersionDash(jar);
            if (v < 0) throw new IllegalStateException("no version in the name of " + pluginLib.resolve(jar));
            String name = jar.substring(0, v);
            String version = jar.substring(v + 1, jar.length() - ".jar".length());
            String purl = "pkg:maven/" + ownGroup + "/" + name + "@" + version + "?type=jar";
            ObjectNode c = json.createObjectNode();
            c.put("type", "library").put("bom-ref", purl).put("group", ownGroup).put("name", name)
                    .put("version", version).put("scope", "required").put("purl", purl);
            c.put("description", "built by this project's release build into " + pluginLib.getFileName());
            kept.add(c);
            System.out.println("SBOM: added (built into lib/ by this module): " + purl);
        }
        bom.set("components", kept);
        ArrayNode deps = json.createArrayNode();
        for (JsonNode d : bom.path("dependencies")) {
            if (dropped.contains(d.path("ref").asText())) continue;
            ObjectNode copy = json.createObjectNode().put("ref", d.path("ref").asText());
            ArrayNode on = copy.putArray("dependsOn");
            for (JsonNode r : d.path("dependsOn")) if (!dropped.contains(r.asText())) on.add(r);
            deps.add(copy);
        }
        bom.set("dependencies", deps);
        json.writeValue(bomFile.toFile(), bom);
    }

    private static int firstVersionDash(String jar) {
        for (int i = 0; i + 1 < jar.length(); i++) {
            if (jar.charAt(i) == '-' && Character.isDigit(jar.charAt(i + 1))) return i;
        }
        return -1;
    }

    /** groupId:artifactId patterns ({@code *} for any) of the assembly's dependencySet excludes. */
    private static List<String> excludes(File descriptor) throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(descriptor);
        List<String> out = new ArrayList<>();
        NodeList sets = doc.getElementsByTagName("dependencySet");
        for (int i = 0; i < sets.getLength(); i++) {
            NodeList ex = ((Element) sets.item(i)).getElementsByTagName("exclude");
            for (int j = 0; j < ex.getLength(); j++) out.add(ex.item(j).getTextContent().strip());
        }
        if (out.isEmpty()) throw new IllegalStateException("no dependencySet excludes in " + descriptor);
        return out;
    }

    private static boolean matchesAny(List<String> patterns, String group, String artifact) {
        for (String p : patterns) {
            String[] ga = p.split(":");
            if (ga.length != 2) throw new IllegalStateException("unsupported exclude pattern " + p);
            if (glob(ga[0], group) && glob(ga[1], artifact)) return true;
        }
        return false;
    }

    private static boolean glob(String pattern, String value) {
        return value.matches(("\\Q" + pattern + "\\E").replace("*", "\\E.*\\Q"));
    }
}
