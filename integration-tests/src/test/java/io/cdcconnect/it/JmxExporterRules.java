package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the Prometheus JMX exporter makes of an MBean attribute under a rules file such as
 * config/monitoring/jmx-exporter.yml: the parts of its behaviour our rules use, so that a test can apply the rules to
 * the MBeans a running worker has, or to a documented sample, without the exporter.
 *
 * <p>As the exporter does: only MBeans that {@code includeObjectNames} (all when absent) and not
 * {@code excludeObjectNames} name are read; each attribute is written {@code domain<key=value, ...><>attribute: value}
 * (keys in the MBean name's own order, the attribute in snake case under {@code attrNameSnakeCase}) and matched,
 * unanchored, against each rule's {@code pattern} in order; the first rule that matches decides, and nothing else is
 * tried. Its {@code name} and {@code labels} are the pattern's replacement strings, every character Prometheus does
 * not allow turned into one underscore; a label whose name or value comes out empty is dropped. {@code value} (a
 * replacement string too) replaces the attribute's value, which lets a string attribute be exported; otherwise a
 * string attribute is not exported at all. {@code valueFactor} scales the value. A rule without {@code name} exports
 * the exporter's default name ({@code domain_firstKeyValue_attribute}, the other keys as labels).
 */
final class JmxExporterRules {

    private static final Pattern UNSAFE = Pattern.compile("[^a-zA-Z0-9:_]");
    private static final Pattern UNDERSCORES = Pattern.compile("__+");
    private static final Pattern SNAKE = Pattern.compile("([a-z0-9])([A-Z])");

    /** One rule of the file. */
    private record Rule(Pattern pattern, String name, Map<String, String> labels, String value, double valueFactor,
                        String type, boolean snakeCase) {
    }

    /** A sample as the exporter would publish it. */
    record Sample(String name, Map<String, String> labels, double value, String type) {
    }

    private final List<ObjectName> include = new ArrayList<>();
    private final List<ObjectName> exclude = new ArrayList<>();
    private final List<Rule> rules = new ArrayList<>();
    private final boolean lowercaseNames;
    private final boolean lowercaseLabels;

    private JmxExporterRules(JsonNode config) throws MalformedObjectNameException {
        lowercaseNames = config.path("lowercaseOutputName").asBoolean(false);
        lowercaseLabels = config.path("lowercaseOutputLabelNames").asBoolean(false);
        boolean snakeCase = config.path("attrNameSnakeCase").asBoolean(false);
        for (String key : List.of("includeObjectNames", "whitelistObjectNames")) {
            for (JsonNode n : config.path(key)) include.add(new ObjectName(n.asText()));
        }
        for (String key : List.of("excludeObjectNames", "blacklistObjectNames")) {
            for (JsonNode n : config.path(key)) exclude.add(new ObjectName(n.asText()));
        }
        for (JsonNode r : config.path("rules")) {
            Map<String, String> labels = new TreeMap<>(); // the exporter sorts a rule's labels by name
            Iterator<Map.Entry<String, JsonNode>> fields = r.path("labels").fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                labels.put(f.getKey(), f.getValue().asText());
            }
            String name = r.hasNonNull("name") ? r.get("name").asText() : null;
            if (name != null && !r.hasNonNull("pattern")) throw new IllegalArgumentException("a name without a pattern: " + r);
            if (name == null && !labels.isEmpty()) throw new IllegalArgumentException("labels without a name: " + r);
            rules.add(new Rule(r.hasNonNull("pattern") ? Pattern.compile("^.*(?:" + r.get("pattern").asText() + ").*$") : null,
                    name, labels, r.hasNonNull("value") ? r.get("value").asText() : null,
                    r.path("valueFactor").asDouble(1.0), r.path("type").asText("UNTYPED"),
                    r.path("attrNameSnakeCase").asBoolean(snakeCase)));
        }
        if (!config.has("rules")) {
            rules.add(new Rule(null, null, Map.of(), null, 1.0, "UNTYPED", snakeCase));
        }
    }

    static JmxExporterRules read(Path file) {
        try {
            return new JmxExporterRules(new ObjectMapper(new YAMLFactory()).readTree(file.toFile()));
        } catch (IOException | MalformedObjectNameException e) {
            throw new IllegalStateException("cannot read the exporter's rules " + file + ": " + e, e);
        }
    }

    /** The JMX patterns the exporter queries: its {@code includeObjectNames}, or every MBean. */
    List<String> queries() {
        return include.isEmpty() ? List.of("*:*") : include.stream().map(ObjectName::getCanonicalName).toList();
    }

    /** Whether the exporter reads this MBean at all ({@code includeObjectNames}, {@code excludeObjectNames}). */
    boolean scrapes(ObjectName bean) {
        if (!include.isEmpty() && include.stream().noneMatch(p -> p.apply(bean))) return false;
        return exclude.stream().noneMatch(p -> p.apply(bean));
    }

    /** The sample one attribute of {@code bean} becomes, if any (a scraped MBean's attribute no rule exports: none). */
    Optional<Sample> export(ObjectName bean, String attribute, Object value) {
        if (!scrapes(bean)) return Optional.empty();
        String beanName = bean.getDomain() + "<" + bean.getKeyPropertyListString().replace(",", ", ") + "><>";
        for (Rule rule : rules) {
            String attr = rule.snakeCase() ? SNAKE.matcher(attribute).replaceAll("$1_$2").toLowerCase(Locale.ROOT) : attribute;
            Matcher m = null;
            if (rule.pattern() != null) {
                m = rule.pattern().matcher(beanName + attr + ": " + value);
                if (!m.matches()) continue;
            }
            Object v = value;
            if (rule.value() != null && !rule.value().isEmpty()) {
                try {
                    v = Double.valueOf(m.replaceAll(rule.value()));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
            double number;
            if (v instanceof Number n) number = n.doubleValue() * rule.valueFactor();
            else if (v instanceof Boolean b) number = b ? 1 : 0;
            else return Optional.empty(); // the exporter ignores a string it was not told the value of
            if (rule.name() == null) return Optional.of(defaultSample(bean, attr, number, rule.type()));
            String name = safe(m.replaceAll(rule.name()));
            if (name.isEmpty()) return Optional.empty();
            if (lowercaseNames) name = name.toLowerCase(Locale.ROOT);
            Map<String, String> labels = new LinkedHashMap<>();
            for (Map.Entry<String, String> l : rule.labels().entrySet()) {
                String label = safe(m.replaceAll(l.getKey()));
                String labelValue = m.replaceAll(l.getValue());
                if (lowercaseLabels) label = label.toLowerCase(Locale.ROOT);
                if (!label.isEmpty() && !labelValue.isEmpty()) labels.put(label, labelValue);
            }
            return Optional.of(new Sample(name, labels, number, rule.type()));
        }
        return Optional.empty();
    }

    private Sample defaultSample(ObjectName bean, String attr, double value, String type) {
        StringBuilder name = new StringBuilder(bean.getDomain());
        Map<String, String> labels = new LinkedHashMap<>();
        boolean first = true;
        for (String kv : bean.getKeyPropertyListString().split(",")) {
            int eq = kv.indexOf('=');
            if (first) {
                name.append('_').append(kv.substring(eq + 1));
                first = false;
            } else {
                String label = safe(kv.substring(0, eq));
                labels.put(lowercaseLabels ? label.toLowerCase(Locale.ROOT) : label, kv.substring(eq + 1));
            }
        }
        String n = safe(name.append('_').append(attr).toString());
        return new Sample(lowercaseNames ? n.toLowerCase(Locale.ROOT) : n, labels, value, type);
    }

    private static String safe(String s) {
        return UNDERSCORES.matcher(UNSAFE.matcher(s).replaceAll("_")).replaceAll("_");
    }
}
