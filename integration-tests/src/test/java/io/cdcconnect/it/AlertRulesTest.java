package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The alerting rules as files: the PrometheusRule for Strimzi carries exactly the groups of the plain rules file (one
 * set of rules in two wrappings), each alert is complete and documented in docs/monitoring.md, and together they cover
 * the failure modes they are for. That every metric they name is exported by a running worker is
 * {@link MonitoringEndToEndTest}'s part.
 */
class AlertRulesTest {

    private static final Pattern DURATION = Pattern.compile("(\\d+[smhdwy])+");
    private static final Pattern ALERT_HEADING = Pattern.compile("^### (Cdc\\w+)$", Pattern.MULTILINE);

    @Test
    void theStrimziPrometheusRuleCarriesTheGroupsOfThePlainRulesFile() {
        JsonNode rule = AlertRules.yaml(AlertRules.prometheusRuleFile());
        assertEquals("monitoring.coreos.com/v1", rule.path("apiVersion").asText());
        assertEquals("PrometheusRule", rule.path("kind").asText());
        JsonNode connect = AlertRules.yaml(AlertRules.prometheusRuleFile().resolveSibling("kafka-connect.yaml"));
        assertEquals(connect.path("metadata").path("namespace").asText(), rule.path("metadata").path("namespace").asText(),
                "the rules live in the worker's namespace");
        assertFalse(rule.path("metadata").path("name").asText().isEmpty());
        JsonNode plain = AlertRules.yaml(AlertRules.plainFile());
        assertEquals(Set.of("groups"), fieldNames(plain), "the plain file holds groups only");
        assertEquals(Set.of("groups"), fieldNames(rule.path("spec")), "the PrometheusRule's spec holds groups only");
        assertEquals(plain.path("groups"), rule.path("spec").path("groups"),
                "deploy/strimzi/prometheus-rules.yaml spec.groups equal deploy/prometheus/cdc-connect-alerts.yml groups");
    }

    @Test
    void everyAlertHasItsSeverityTextRunbookAndAnExpressionThatNamesMetrics() throws Exception {
        List<AlertRules.Alert> alerts = AlertRules.read();
        assertFalse(alerts.isEmpty());
        Set<String> names = new HashSet<>();
        String doc = Files.readString(MonitoringDoc.path());
        for (AlertRules.Alert a : alerts) {
            assertTrue(names.add(a.name()), "two alerts named " + a.name());
            assertTrue(a.name().matches("Cdc[A-Za-z]+"), a.name());
            assertTrue(Set.of("critical", "warning", "info").contains(a.labels().get("severity")), a.name() + " severity");
            for (String annotation : List.of("summary", "description", "runbook")) {
                assertFalse(a.annotations().getOrDefault(annotation, "").isBlank(), a.name() + " has no " + annotation);
            }
            assertEquals("docs/monitoring.md#" + a.name().toLowerCase(java.util.Locale.ROOT), a.annotations().get("runbook"));
            assertTrue(a.forDuration().isEmpty() || DURATION.matcher(a.forDuration()).matches(), a.name() + " for");
            assertFalse(a.refs().metrics().isEmpty(), a.name() + " names no metric: " + a.expr());
            assertTrue(doc.contains("\n### " + a.name() + "\n"), "docs/monitoring.md has no section ### " + a.name());
        }
        Set<String> documented = new TreeSet<>();
        Matcher m = ALERT_HEADING.matcher(doc);
        while (m.find()) documented.add(m.group(1));
        assertEquals(new TreeSet<>(names), documented, "docs/monitoring.md documents exactly the alerts of the rules file");
    }

    @Test
    void theAlertsCoverFailedTasksLagTheDeadLetterQueueDdlTheStatementBudgetAndAStoppedSource() {
        Map<String, List<String>> byMode = Map.of(
                "a failed task", List.of("kafka_connect_connector_task_status", "kafka_connect_worker_connector_failed_task_count"),
                "growing lag", List.of("kafka_consumer_fetch_manager_records_lag", "cdc_connect_sink_lag_ms"),
                "dead-letter queue growth", List.of("kafka_connect_task_error_deadletterqueue_produce_requests"),
                "a DDL waiting past its bound", List.of("cdc_connect_sink_ddl_wait_timeouts_total"),
                "the statement budget near its limit", List.of("cdc_connect_sink_stmtcache_size", "cdc_connect_sink_stmtcache_limit"),
                "a source that stopped reading", List.of("cdc_connect_source_records_polled_total", "cdc_connect_source_lag_ms"));
        Set<String> named = new TreeSet<>();
        for (AlertRules.Alert a : AlertRules.read()) named.addAll(a.refs().metrics().keySet());
        List<String> missing = new ArrayList<>();
        byMode.forEach((mode, metrics) -> metrics.stream().filter(x -> !named.contains(x))
                .forEach(x -> missing.add(mode + ": " + x)));
        assertEquals(List.of(), missing, "no alert names these; the alerts name " + named);
    }

    @Test
    void theExpressionReaderFindsMetricsMatcherLabelsAndGroupingLabels() {
        AlertRules.Refs r = AlertRules.refs("sum by (connector, task) (rate(a_total{x=\"1}\", y!~'b'}[5m] offset 1m)) "
                + "> 0.9 * on(connector) group_left (z) max without(w) (b_gauge) and c unless bool 1e3");
        assertEquals(Map.of("a_total", Set.of("x", "y"), "b_gauge", Set.of(), "c", Set.of()), r.metrics());
        assertEquals(Set.of("connector", "task", "z", "w"), r.groupingLabels());
        assertThrows(IllegalArgumentException.class, () -> AlertRules.refs("sum(a{x=\"1\"}"));
        assertThrows(IllegalArgumentException.class, () -> AlertRules.refs("{__name__=~\"a.*\"}"));
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> out = new TreeSet<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
