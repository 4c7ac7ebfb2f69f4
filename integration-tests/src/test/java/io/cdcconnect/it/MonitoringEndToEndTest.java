package io.cdcconnect.it;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.ObjectName;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every metric docs/monitoring.md lists, read over JMX from a running Connect worker with both connectors (installed
 * from their plugin archives) after a snapshot, streamed changes and a DDL statement: each MBean is there under the
 * documented name, with its key properties in the documented order (the order a JMX exporter's rules see), each
 * attribute is readable, and what this workload must have moved is above zero. On the same worker, the exporter's
 * rules (config/monitoring/jmx-exporter.yml, applied as the JMX exporter applies them: {@link JmxExporterRules}) make
 * every metric the alert rules name ({@link AlertRules}), and Kafka Connect's stock metrics beside ours.
 */
class MonitoringEndToEndTest {
    private static final Logger LOG = LoggerFactory.getLogger(MonitoringEndToEndTest.class);

    /** MBean (as documented, or its start) → the attributes this workload must have moved above zero. */
    private static final Map<String, List<String>> MOVED = new LinkedHashMap<>();

    static {
        MOVED.put("cdc-connect:type=source-task-metrics", List.of("lag-ms", "records-polled-total",
                "ddl-emitted-total"));
        MOVED.put("cdc-connect:type=source-table-metrics", List.of("events-total", "bytes-total"));
        MOVED.put("cdc-connect:type=sink-task-metrics", List.of("lag-ms", "rows-applied-total", "txn-flush-total",
                "txn-flush-time-ns-total", "statements-executed-total", "statements-prepared-total",
                "stmtcache-hits-total", "stmtcache-misses-total", "stmtcache-size", "stmtcache-limit", "ddl-applied-total",
                "pool-connections-acquired-total", "pool-wait-time-ns-total"));
        MOVED.put("kafka.connect:type=source-task-metrics", List.of("source-record-poll-total",
                "source-record-write-total"));
        MOVED.put("kafka.connect:type=sink-task-metrics", List.of("sink-record-read-total", "sink-record-send-total",
                "partition-count"));
        MOVED.put("debezium.<flavour>:type=connector-metrics,context=streaming", List.of("TotalNumberOfEventsSeen",
                "Connected"));
        MOVED.put("debezium.<flavour>:type=connector-metrics,context=snapshot", List.of("SnapshotCompleted",
                "TotalTableCount"));
    }

    private static Pipeline pipeline;

    /** One pipeline for every test here: a snapshot, streamed changes and a DDL statement, applied. */
    @BeforeAll
    static void runTheWorkload() throws Exception {
        Path work = Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("monitoring");
        pipeline = Pipeline.start(work, "metered", null);
        pipeline.createSchemas();
        Workload workload = new Workload(7);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 20); // captured by the snapshot
        }
        pipeline.registerConnectors();
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 200, 0, null);
            try (Statement s = c.createStatement()) {
                s.execute("ALTER TABLE customers ADD COLUMN metered_note VARCHAR(20)");
            }
            c.setAutoCommit(true);
            workload.run(c, 20, 0, null);
        }
        awaitApplied(pipeline);
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void everyDocumentedMetricIsReadOverJmxFromTheRunningWorkerAndTheWorkloadMovedItsCounters() throws Exception {
        List<MonitoringDoc.Entry> documented = MonitoringDoc.read();
        for (Map.Entry<String, List<String>> m : MOVED.entrySet()) {
            for (String attribute : m.getValue()) {
                assertTrue(documented.stream().anyMatch(e -> e.mbean().startsWith(m.getKey())
                        && e.attribute().equals(attribute)), m.getKey() + " " + attribute + " is not documented");
            }
        }
        var connect = pipeline.connect();
        LOG.info("MBeans of the worker: {}", connect.workerMBeans("cdc-connect:*"));
        LOG.info("Debezium's MBeans: {}", connect.workerMBeans("debezium.*:*"));
        List<String> problems = new ArrayList<>();
        String lastMBean = null;
        Map<String, Double> values = Map.of();
        for (MonitoringDoc.Entry e : documented) {
            if (!e.mbean().equals(lastMBean)) {
                lastMBean = e.mbean();
                List<String> found = connect.workerMBeans(e.pattern());
                if (found.isEmpty()) {
                    problems.add("no MBean " + e.mbean() + " (pattern " + e.pattern() + ") in the worker; its "
                            + "domain holds " + connect.workerMBeans(new ObjectName(e.pattern()).getDomain() + ":*"));
                    values = Map.of();
                    continue;
                }
                for (String f : found) {
                    List<String> keys = new ArrayList<>();
                    for (String kv : new ObjectName(f).getKeyPropertyListString().split(",")) {
                        keys.add(kv.substring(0, kv.indexOf('=')));
                    }
                    if (!keys.equals(e.keys())) {
                        problems.add(f + " has its keys in the order " + keys + ", documented " + e.keys());
                    }
                }
                values = connect.workerMetrics(e.pattern());
                if (e.mbean().startsWith("cdc-connect:")) LOG.info("{} = {}", e.pattern(), new TreeMap<>(values));
            }
            if (found(values, e, problems)) continue;
            double v = values.get(e.attribute());
            boolean mustMove = MOVED.entrySet().stream().anyMatch(m -> e.mbean().startsWith(m.getKey())
                    && m.getValue().contains(e.attribute()));
            if (mustMove && !(v > 0)) {
                problems.add(e.mbean() + " " + e.attribute() + " is " + v + " after the workload");
            }
        }
        // the same metrics through the worker's own plugin metrics (Kafka 4.1+), under the worker's names
        Map<String, String> viaWorker = new LinkedHashMap<>();
        viaWorker.put("cdc-connect:type=source-task-metrics,", "kafka.connect:type=plugins,connector="
                + Pipeline.SOURCE_CONNECTOR + ",task=*");
        viaWorker.put("cdc-connect:type=source-table-metrics,", "kafka.connect:type=plugins,connector="
                + Pipeline.SOURCE_CONNECTOR + ",task=*,table=*");
        viaWorker.put("cdc-connect:type=sink-task-metrics,", "kafka.connect:type=plugins,connector="
                + Pipeline.SINK_CONNECTOR + ",task=*");
        for (Map.Entry<String, String> w : viaWorker.entrySet()) {
            Map<String, Double> viaPlugins = connect.workerMetrics(w.getValue());
            LOG.info("{} = {}", w.getValue(), new TreeMap<>(viaPlugins));
            for (MonitoringDoc.Entry e : documented) {
                if (!e.mbean().startsWith(w.getKey())) continue;
                Double v = viaPlugins.get(e.attribute());
                boolean mustMove = MOVED.entrySet().stream().anyMatch(m -> e.mbean().startsWith(m.getKey())
                        && m.getValue().contains(e.attribute()));
                if (v == null) {
                    problems.add(w.getValue() + " has no attribute " + e.attribute() + "; it has "
                            + viaPlugins.keySet());
                } else if (mustMove && !(v > 0)) {
                    problems.add(w.getValue() + " " + e.attribute() + " is " + v + " after the workload");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    /**
     * The alert rules (deploy/prometheus/cdc-connect-alerts.yml) against what the exporter's rules
     * (config/monitoring/jmx-exporter.yml) make of the running worker's MBeans: every metric an alert's expression
     * names is exported, with every label the expression matches on it and every label it groups or joins by.
     */
    @Test
    void everyMetricTheAlertRulesNameIsExportedFromTheRunningWorkerWithTheLabelsTheyUse() {
        Map<String, Set<String>> exported = exported();
        List<String> problems = new ArrayList<>();
        List<AlertRules.Alert> alerts = AlertRules.read();
        assertFalse(alerts.isEmpty(), "no alerts in " + AlertRules.plainFile());
        for (AlertRules.Alert a : alerts) {
            AlertRules.Refs refs = a.refs();
            for (Map.Entry<String, Set<String>> m : refs.metrics().entrySet()) {
                Set<String> labels = exported.get(m.getKey());
                if (labels == null) {
                    problems.add(a.name() + ": the exporter's rules make no " + m.getKey() + " of the worker's MBeans");
                    continue;
                }
                Set<String> used = new TreeSet<>(m.getValue());
                used.addAll(refs.groupingLabels());
                used.removeAll(labels);
                if (!used.isEmpty()) {
                    problems.add(a.name() + ": " + m.getKey() + " has no label " + used + "; it has " + labels);
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    /**
     * The exporter's rules extend Kafka Connect's stock metrics rather than replace them: the names a stock Kafka
     * Connect dashboard (Strimzi's) charts come out of the running worker, with their labels.
     */
    @Test
    void theExporterKeepsKafkaConnectsStockMetrics() {
        Map<String, Set<String>> stock = new LinkedHashMap<>();
        stock.put("kafka_connect_connector_status", Set.of("connector", "status"));
        stock.put("kafka_connect_connector_connector_class", Set.of("connector", "connector_class"));
        stock.put("kafka_connect_connector_task_status", Set.of("connector", "task", "status"));
        stock.put("kafka_connect_connector_task_running_ratio", Set.of("connector", "task"));
        stock.put("kafka_connect_worker_connector_failed_task_count", Set.of("connector"));
        stock.put("kafka_connect_worker_connector_running_task_count", Set.of("connector"));
        stock.put("kafka_connect_worker_connector_count", Set.of());
        stock.put("kafka_connect_worker_task_count", Set.of());
        stock.put("kafka_connect_worker_rebalance_completed_rebalances_total", Set.of());
        stock.put("kafka_connect_worker_rebalance_rebalancing", Set.of());
        stock.put("kafka_connect_coordinator_assigned_tasks", Set.of());
        stock.put("kafka_connect_source_task_source_record_poll_total", Set.of("connector", "task"));
        stock.put("kafka_connect_sink_task_sink_record_read_total", Set.of("connector", "task"));
        stock.put("kafka_connect_task_error_total_record_errors", Set.of("connector", "task"));
        stock.put("kafka_connect_task_error_deadletterqueue_produce_requests", Set.of("connector", "task"));
        stock.put("kafka_consumer_fetch_manager_records_lag", Set.of("clientid", "topic", "partition"));
        stock.put("kafka_consumer_fetch_manager_records_consumed_total", Set.of("clientid"));
        stock.put("kafka_consumer_start_time_seconds", Set.of("clientid"));
        stock.put("kafka_producer_topic_record_send_total", Set.of("clientid", "topic"));
        stock.put("kafka_producer_record_send_total", Set.of("clientid"));
        Map<String, Set<String>> exported = exported();
        List<String> problems = new ArrayList<>();
        stock.forEach((name, labels) -> {
            Set<String> have = exported.get(name);
            if (have == null) problems.add("no " + name);
            else if (!have.containsAll(labels)) problems.add(name + " has labels " + have + ", not all of " + labels);
        });
        assertEquals(List.of(), problems, "stock Kafka Connect metrics missing from the export");
    }

    /** Every metric name the exporter's rules make of the worker's MBeans, with the label names its samples carry. */
    private static Map<String, Set<String>> exported() {
        JmxExporterRules rules = JmxExporterRules.read(ConnectorConfigFiles.configDir().resolve("monitoring")
                .resolve("jmx-exporter.yml"));
        Map<String, Set<String>> out = new TreeMap<>();
        int samples = 0;
        for (String query : rules.queries()) {
            for (ConnectCluster.WorkerAttribute a : pipeline.connect().workerAttributeValues(query)) {
                var sample = rules.export(a.mbean(), a.attribute(), a.value());
                if (sample.isEmpty()) continue;
                samples++;
                out.computeIfAbsent(sample.get().name(), k -> new TreeSet<>()).addAll(sample.get().labels().keySet());
            }
        }
        LOG.info("The exporter's rules make {} samples of {} metrics of the worker's MBeans: {}", samples, out.size(), out);
        return out;
    }

    private static boolean found(Map<String, Double> values, MonitoringDoc.Entry e, List<String> problems) {
        if (values.isEmpty()) return true; // the missing MBean is reported already
        if (values.containsKey(e.attribute())) return false;
        problems.add(e.mbean() + " has no numeric attribute " + e.attribute() + "; it has " + values.keySet());
        return true;
    }

    private static void awaitApplied(Pipeline pipeline) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            pipeline.connect().assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            pipeline.connect().assertNotFailed(Pipeline.SINK_CONNECTOR);
            var p = pipeline.progress();
            if (p.captured() > 0 && p.lag() == 0) return;
            ConnectCluster.sleep(300);
        }
        fail("the sink did not commit everything the source wrote within 2 minutes: " + pipeline.progress());
    }
}
