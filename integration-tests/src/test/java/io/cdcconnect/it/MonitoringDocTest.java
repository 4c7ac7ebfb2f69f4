package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
        JmxExporterRules rules = JmxExporterRules.read(MONITORING.resolve("jmx-exporter.yml"));
        List<MonitoringDoc.Entry> documented = MonitoringDoc.read();
        assertFalse(documented.isEmpty(), "no metrics found in " + MonitoringDoc.path());
        Map<MonitoringDoc.Entry, Exported> out = new LinkedHashMap<>();
        for (MonitoringDoc.Entry d : documented) {
            ObjectName bean = new ObjectName(d.sample());
            assertTrue(rules.scrapes(bean), bean + " is not among the exporter's includeObjectNames, or excluded");
            JmxExporterRules.Sample x = rules.export(bean, d.attribute(), 1.0)
                    .orElseThrow(() -> new AssertionError("no rule of jmx-exporter.yml exports " + bean + " " + d.attribute()));
            out.put(d, new Exported(x.name(), x.labels()));
        }
        return out;
    }
}
