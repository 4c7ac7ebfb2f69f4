package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import javax.management.ObjectName;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/monitoring.md, the connectors' declared metrics, the Prometheus JMX exporter's rules
 * (config/monitoring/jmx-exporter.yml) and the Grafana dashboard (config/monitoring/grafana-dashboard.json) cannot
 * drift apart: every documented metric of ours is declared by its connector and the other way round, every documented
 * metric is exported with its labels, and every exported metric is charted (and nothing else is).
 */
class MonitoringDocTest {

    private static final Path MONITORING = ConnectorConfigFiles.configDir().resolve("monitoring");
    private static final Pattern PROMETHEUS_NAME = Pattern.compile("\\b((?:cdc_connect|kafka_connect|debezium)_[a-z0-9_]+)");

    @Test
    void ourDocumentedMetricsAreExactlyTheOnesTheConnectorsDeclare() {
        List<MonitoringDoc.Entry> documented = MonitoringDoc.read().stream().filter(MonitoringDoc.Entry::ours).toList();
        List<MonitoringDoc.Entry> declared = MonitoringDoc.declared(Pipeline.pluginDir());
        assertEquals(MonitoringDoc.rows(declared), MonitoringDoc.rows(documented),
                MonitoringDoc.path() + " should list exactly what SourceMetrics and SinkMetrics declare");
    }

    @Test
    void everyDocumentedMetricIsExportedWithItsLabels() throws Exception {
        Map<MonitoringDoc.Entry, Exported> exported = export();
        for (Map.Entry<MonitoringDoc.Entry, Exported> e : exported.entrySet()) {
            MonitoringDoc.Entry d = e.getKey();
            Exported x = e.getValue();
            List<String> keys = d.keys();
            if (keys.contains("connector")) assertEquals("my-connector", x.labels().get("connector"), x.toString());
            if (keys.contains("task")) assertEquals("0", x.labels().get("task"), x.toString());
            if (keys.contains("table")) assertEquals("shop.orders", x.labels().get("table"), x.toString());
            if (keys.contains("server")) assertEquals("cdc", x.labels().get("server"), x.toString());
            assertTrue(x.name().matches("[a-z_][a-z0-9_]*"), x.toString());
            if (d.type().equals("counter") && d.ours()) assertTrue(x.name().endsWith("_total"), x.toString());
        }
        Set<String> names = new TreeSet<>();
        for (Exported x : exported.values()) {
            assertTrue(names.add(x.name() + x.labels().keySet()), "two documented metrics exported as " + x);
        }
    }

    @Test
    void everyExportedMetricIsChartedAndTheDashboardChartsNothingElse() throws Exception {
        Set<String> exported = new TreeSet<>();
        for (Exported x : export().values()) exported.add(x.name());
        JsonNode dashboard = new ObjectMapper().readTree(MONITORING.resolve("grafana-dashboard.json").toFile());
        Set<String> charted = new TreeSet<>();
        List<String> titles = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            titles.add(panel.path("title").asText());
            for (JsonNode target : panel.path("targets")) {
                Matcher m = PROMETHEUS_NAME.matcher(target.path("expr").asText());
                while (m.find()) charted.add(m.group(1));
            }
        }
        Set<String> notCharted = new TreeSet<>(exported);
        notCharted.removeAll(charted);
        assertEquals(Set.of(), notCharted, "exported but on no panel of the dashboard");
        Set<String> unknown = new TreeSet<>(charted);
        unknown.removeAll(exported);
        assertEquals(Set.of(), unknown, "charted but not exported (not in docs/monitoring.md or no rule)");
        for (String panel : List.of("lag", "rows", "cache hit ratio", "retries", "dead-letter", "buffer")) {
            assertTrue(titles.stream().anyMatch(t -> t.toLowerCase(java.util.Locale.ROOT).contains(panel)),
                    "a panel about " + panel + " among " + titles);
        }
    }

    /** What the exporter publishes a metric as. */
    record Exported(String name, Map<String, String> labels) {
    }

    /** Every documented metric as the exporter's rules publish it (the first rule that matches, as the exporter does). */
    private static Map<MonitoringDoc.Entry, Exported> export() throws Exception {
        JsonNode config = new ObjectMapper(new YAMLFactory()).readTree(MONITORING.resolve("jmx-exporter.yml").toFile());
        boolean lowercaseNames = config.path("lowercaseOutputName").asBoolean(false);
        boolean lowercaseLabels = config.path("lowercaseOutputLabelNames").asBoolean(false);
        boolean snakeCase = config.path("attrNameSnakeCase").asBoolean(false);
        List<ObjectName> included = new ArrayList<>();
        for (JsonNode n : config.path("includeObjectNames")) included.add(new ObjectName(n.asText()));
        List<MonitoringDoc.Entry> documented = MonitoringDoc.read();
        assertFalse(documented.isEmpty(), "no metrics found in " + MonitoringDoc.path());
        Map<MonitoringDoc.Entry, Exported> out = new LinkedHashMap<>();
        for (MonitoringDoc.Entry d : documented) {
            ObjectName bean = new ObjectName(d.sample());
            assertTrue(included.isEmpty() || included.stream().anyMatch(p -> p.apply(bean)),
                    bean + " is not among the exporter's includeObjectNames " + included);
            Exported x = exportOne(config.path("rules"), bean, d.attribute(), snakeCase, lowercaseNames,
                    lowercaseLabels);
            assertTrue(x != null, "no rule of jmx-exporter.yml exports " + bean + " " + d.attribute());
            out.put(d, x);
        }
        return out;
    }

    /**
     * The exporter's reading of one attribute: it matches each rule's pattern, unanchored, against
     * {@code domain<key=value, ...><>attribute: value} (keys in the MBean name's own order), and builds name and
     * labels from the first match, turning every character Prometheus does not allow into one underscore.
     */
    private static Exported exportOne(JsonNode rules, ObjectName bean, String attribute, boolean snakeCase,
                                      boolean lowercaseNames, boolean lowercaseLabels) {
        String attr = snakeCase ? snakeCase(attribute) : attribute;
        String line = bean.getDomain() + "<" + bean.getKeyPropertyListString().replace(",", ", ") + "><>" + attr
                + ": 1";
        for (JsonNode rule : rules) {
            Pattern p = Pattern.compile("^.*(?:" + rule.path("pattern").asText() + ").*$");
            Matcher m = p.matcher(line);
            if (!m.matches()) continue;
            String name = safe(m.replaceAll(rule.path("name").asText()));
            if (lowercaseNames) name = name.toLowerCase(java.util.Locale.ROOT);
            Map<String, String> labels = new LinkedHashMap<>();
            var fields = rule.path("labels").fields();
            while (fields.hasNext()) {
                var f = fields.next();
                String label = safe(m.replaceAll(f.getKey()));
                if (lowercaseLabels) label = label.toLowerCase(java.util.Locale.ROOT);
                labels.put(label, m.replaceAll(f.getValue().asText()));
            }
            return new Exported(name, labels);
        }
        return null;
    }

    /** The exporter's attrNameSnakeCase: an underscore before a capital unless the character before is one or '_'. */
    private static String snakeCase(String s) {
        StringBuilder sb = new StringBuilder();
        boolean prevUpperOrUnderscore = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean upper = Character.isUpperCase(c);
            if (i > 0 && upper && !prevUpperOrUnderscore) sb.append('_');
            sb.append(Character.toLowerCase(c));
            prevUpperOrUnderscore = upper || c == '_';
        }
        return sb.toString();
    }

    private static String safe(String name) {
        return name.replaceAll("[^a-zA-Z0-9:_]", "_").replaceAll("__+", "_");
    }
}
