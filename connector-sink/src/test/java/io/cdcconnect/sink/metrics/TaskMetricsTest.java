package io.cdcconnect.sink.metrics;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The task's meters over JMX after it applied rows to the real MariaDB. */
class TaskMetricsTest {

    @Test
    void appliedRowsStatementsAndCheckpointLagAreVisibleOverJmx() throws Exception {
        try (TestDatabase source = SinkTarget.database("metrics_src"); TestDatabase target = SinkTarget.database("metrics_dst")) {
            target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
            TableInfo t = Rows.idValue(source.name(), "items");
            long committedAt = System.currentTimeMillis() - 10_000;
            List<ChangeEvent> rows = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                rows.add(RowChange.insert(t, new Object[]{(long) i, "v"}, Rows.ts(committedAt)));
            }
            try (TaskDriver driver = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(),
                    "task.id", "meters"))) {
                driver.put(rows.toArray(new ChangeEvent[0]));
                driver.awaitApplied();
                assertEquals(20.0, JmxMeters.read(SinkMetrics.ROWS_APPLIED, "driver", "meters"));
                // one transaction of 20 rows: a 8-row statement twice and four single rows
                assertEquals(6.0, JmxMeters.read(SinkMetrics.STATEMENTS_EXECUTED, "driver", "meters"));
                assertEquals(1.0, JmxMeters.read(SinkMetrics.TXN_FLUSH_COUNT, "driver", "meters"));
                double lag = JmxMeters.read(SinkMetrics.LAG, "driver", "meters");
                assertTrue(lag >= 10_000 && lag < 120_000, "checkpoint lag " + lag);
                assertEquals(0.0, JmxMeters.read(SinkMetrics.BUFFER_BYTES, "driver", "meters"), "all applied, nothing held");
                assertEquals(0.0, JmxMeters.read(SinkMetrics.TXN_IN_FLIGHT, "driver", "meters"));
            }
        }
    }

    /**
     * On a Kafka 4.1 worker (its metrics, JMX reporter and plugin-metrics tags as Connect makes them): the task takes
     * its number from the worker, its metrics are published both as {@code cdc-connect:type=sink-task-metrics} and
     * through the worker as {@code kafka.connect:type=plugins}, with the same values, the HikariCP pool's among them,
     * and the worker's are removed when the task stops.
     */
    @Test
    void onAKafka41WorkerTheTaskNumberComesFromTheWorkerAndItsMetricsGoThroughTheWorkersReporters() throws Exception {
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName viaWorker =
                new javax.management.ObjectName("kafka.connect:type=plugins,connector=driver,task=5");
        Map<String, String> tags = new java.util.LinkedHashMap<>();
        tags.put("connector", "driver");
        tags.put("task", "5");
        try (TestDatabase source = SinkTarget.database("wmetrics_src");
             TestDatabase target = SinkTarget.database("wmetrics_dst");
             org.apache.kafka.common.metrics.Metrics worker = new org.apache.kafka.common.metrics.Metrics(
                     new org.apache.kafka.common.metrics.MetricConfig(),
                     List.of(new org.apache.kafka.common.metrics.JmxReporter()),
                     org.apache.kafka.common.utils.Time.SYSTEM,
                     new org.apache.kafka.common.metrics.KafkaMetricsContext("kafka.connect"));
             org.apache.kafka.common.metrics.internals.PluginMetricsImpl pluginMetrics =
                     new org.apache.kafka.common.metrics.internals.PluginMetricsImpl(worker, tags)) {
            target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
            TableInfo t = Rows.idValue(source.name(), "items");
            List<ChangeEvent> rows = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                rows.add(RowChange.insert(t, new Object[]{(long) i, "v"}, Rows.ts(System.currentTimeMillis())));
            }
            try (TaskDriver driver = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name()),
                    new WorkerContext(pluginMetrics))) {
                driver.put(rows.toArray(new ChangeEvent[0]));
                driver.awaitApplied();
                // the number the worker gave the task names our MBean too
                assertEquals(12.0, JmxMeters.read(SinkMetrics.ROWS_APPLIED, "driver", "5"));
                for (var m : SinkMetrics.METRICS) {
                    if (m.kind() != io.cdcconnect.codec.metrics.Metric.Kind.COUNTER) continue;
                    assertEquals(JmxMeters.read(m.name(), "driver", "5"),
                            (Double) server.getAttribute(viaWorker, m.name()), m.name());
                }
                assertEquals(12.0, server.getAttribute(viaWorker, SinkMetrics.ROWS_APPLIED));
                // the pool lent the workers connections and timed the waits
                double acquired = (Double) server.getAttribute(viaWorker, SinkMetrics.POOL_ACQUIRED);
                assertTrue(acquired >= 1, "connections acquired " + acquired);
                assertTrue((Double) server.getAttribute(viaWorker, SinkMetrics.POOL_WAIT_TIME) > 0);
                double active = (Double) server.getAttribute(viaWorker, SinkMetrics.POOL_ACTIVE);
                double idle = (Double) server.getAttribute(viaWorker, SinkMetrics.POOL_IDLE);
                assertTrue(active + idle >= 1, "the pool holds connections: active " + active + ", idle " + idle);
            }
            assertTrue(!server.isRegistered(viaWorker), "the worker's metrics of the stopped task are removed");
            assertTrue(worker.metrics().keySet().stream().noneMatch(n -> n.group().equals("plugins")));
        }
    }
}
