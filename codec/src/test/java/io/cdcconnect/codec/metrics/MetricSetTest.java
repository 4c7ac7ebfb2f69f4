package io.cdcconnect.codec.metrics;

import org.junit.jupiter.api.Test;

import javax.management.AttributeNotFoundException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.utils.Time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetricSetTest {

    private static final List<Metric> METRICS = List.of(
            Metric.counter("rows-total", "rows", "rows"),
            Metric.gauge("queue-bytes", "bytes", "bytes queued"));

    @Test
    void aTaskIsOneMBeanNamedByTypeConnectorAndTaskWithOneAttributePerMetric() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        MetricSet set = new MetricSet("test", METRICS);
        ObjectName name = MetricsJmx.taskName(MetricsJmx.SINK_TASK, "my-sink", "3");
        assertEquals("cdc-connect:type=sink-task-metrics,connector=my-sink,task=3", name.toString());
        try (MetricsJmx.Registration r = MetricsJmx.register(name, set)) {
            set.counter("rows-total").add(5);
            set.gauge("queue-bytes", () -> 42);
            assertEquals(5.0, server.getAttribute(name, "rows-total"));
            assertEquals(42.0, server.getAttribute(name, "queue-bytes"));
            assertThrows(AttributeNotFoundException.class, () -> server.getAttribute(name, "nothing"));
        }
        assertFalse(server.isRegistered(name), "closing unregisters");
    }

    @Test
    void aSuccessorTakesTheNameOverAndItsPredecessorsLateCloseLeavesItRegistered() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = MetricsJmx.taskName(MetricsJmx.SOURCE_TASK, "restarted", "0");
        MetricSet old = new MetricSet("old", METRICS);
        MetricSet successor = new MetricSet("new", METRICS);
        successor.counter("rows-total").increment();
        MetricsJmx.Registration first = MetricsJmx.register(name, old);
        try (MetricsJmx.Registration second = MetricsJmx.register(name, successor)) {
            first.close();
            assertTrue(server.isRegistered(name));
            assertEquals(1.0, server.getAttribute(name, "rows-total"));
        }
        assertFalse(server.isRegistered(name));
    }

    @Test
    void namesWithCharactersJmxReservesAreQuotedAsKafkaQuotesThem() {
        ObjectName n = MetricsJmx.tableName(MetricsJmx.SOURCE_TABLE, "c", "0", "db.t,x=1");
        assertEquals("\"db.t,x=1\"", n.getKeyProperty("table"));
        assertEquals("db.t", MetricsJmx.tableName(MetricsJmx.SOURCE_TABLE, "c", "0", "db.t").getKeyProperty("table"));
    }

    @Test
    void aGaugeReadsZeroUntilItsSupplierIsSetAndCountersMustEndInTotal() {
        MetricSet set = new MetricSet("test", METRICS);
        assertEquals(0.0, set.value("queue-bytes"));
        assertThrows(IllegalArgumentException.class, () -> Metric.counter("rows", "rows", "x"));
        assertThrows(IllegalArgumentException.class, () -> set.gauge("rows-total", () -> 1));
    }

    @Test
    void theTaskNumberComesFromTheWorkersPluginMetricsThenTaskIdThenTheOrderTasksStartInNeverFromTheThread()
            throws Exception {
        // a worker's metrics, tagged as Kafka 4.1's Connect tags a task's plugin metrics (ConnectMetrics)
        try (Metrics worker = new Metrics();
             PluginMetricsImpl task3 = new PluginMetricsImpl(worker, taskTags("my-conn", "3"))) {
            String[] seen = new String[1];
            // the thread's name says task 2; the worker says 3
            Thread t = new Thread(() -> seen[0] = MetricsJmx.taskId(Map.of(), "my-conn", task3),
                    "task-thread-my-conn-2");
            t.start();
            t.join();
            assertEquals("3", seen[0]);
        }
        assertEquals("7", MetricsJmx.taskId(Map.of("task.id", "7"), "c", null));
        String first = MetricsJmx.taskId(Map.of(), "numbered-conn", null);
        String second = MetricsJmx.taskId(Map.of(), "numbered-conn", null);
        assertEquals("0", first);
        assertEquals("1", second);
        assertEquals("0", MetricsJmx.taskId(Map.of(), "other-conn", null));
    }

    @Test
    void theSetIsRegisteredThroughTheWorkersPluginMetricsUnderItsTagsAndReadLive() throws Exception {
        MetricSet set = new MetricSet("test", METRICS);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName table = new ObjectName("kafka.connect:type=plugins,connector=plug-conn,task=0,table=shop.orders");
        try (Metrics worker = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
                new KafkaMetricsContext("kafka.connect"));
             PluginMetricsImpl task0 = new PluginMetricsImpl(worker, taskTags("plug-conn", "0"))) {
            java.util.LinkedHashMap<String, String> tags = new java.util.LinkedHashMap<>();
            tags.put("table", "shop.orders");
            WorkerMetrics.Registration r = WorkerMetrics.register(task0, set, tags);
            set.counter("rows-total").add(5);
            set.gauge("queue-bytes", () -> 42);
            // through the worker's metrics, as every reporter of metric.reporters sees them
            assertEquals(5.0, worker.metrics().get(r.names().get(0)).metricValue());
            // and through the worker's JMX reporter, as the worker publishes them
            assertEquals(5.0, server.getAttribute(table, "rows-total"));
            assertEquals(42.0, server.getAttribute(table, "queue-bytes"));
            r.close();
            assertFalse(server.isRegistered(table));
            assertTrue(worker.metrics().keySet().stream().noneMatch(n -> n.group().equals("plugins")));
        }
    }

    @Test
    void aTaskStartedWhileItsEarlierInstanceStillHoldsItsMetricsStartsAndGoesWithoutTheWorkersCopy() throws Exception {
        MetricSet old = new MetricSet("test", METRICS);
        MetricSet successor = new MetricSet("test", METRICS);
        try (Metrics worker = new Metrics(new MetricConfig(), List.of(), Time.SYSTEM,
                new KafkaMetricsContext("kafka.connect"));
             PluginMetricsImpl first = new PluginMetricsImpl(worker, taskTags("restart-conn", "0"));
             PluginMetricsImpl second = new PluginMetricsImpl(worker, taskTags("restart-conn", "0"))) {
            java.util.LinkedHashMap<String, String> tags = new java.util.LinkedHashMap<>();
            WorkerMetrics.Registration before = WorkerMetrics.register(first, old, tags);
            // the worker stopped waiting for the earlier instance and started this one: no exception, no names
            WorkerMetrics.Registration after = WorkerMetrics.register(second, successor, tags);
            assertEquals(List.of(), after.names());
            old.counter("rows-total").add(3);
            MetricName rows = before.names().get(0);
            assertEquals(3.0, worker.metrics().get(rows).metricValue(), "the earlier instance's copy is untouched");
            after.close();
            assertEquals(3.0, worker.metrics().get(rows).metricValue());
            before.close();
            assertTrue(worker.metrics().keySet().stream().noneMatch(n -> n.group().equals("plugins")));
        }
    }

    /** The tags Kafka 4.1's Connect gives a task's plugin metrics: connector, then task. */
    private static Map<String, String> taskTags(String connector, String task) {
        Map<String, String> tags = new java.util.LinkedHashMap<>();
        tags.put("connector", connector);
        tags.put("task", task);
        return tags;
    }
}
