package io.cdcconnect.codec.metrics;

import org.junit.jupiter.api.Test;

import javax.management.AttributeNotFoundException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;

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
    void theTaskNumberComesFromTheThreadConnectNamesOrFromTaskId() throws Exception {
        assertEquals("7", MetricsJmx.taskId(Map.of("task.id", "7"), "c", this));
        String[] seen = new String[1];
        Thread t = new Thread(() -> seen[0] = MetricsJmx.taskId(Map.of(), "my-conn", this), "task-thread-my-conn-2");
        t.start();
        t.join();
        assertEquals("2", seen[0]);
    }
}
