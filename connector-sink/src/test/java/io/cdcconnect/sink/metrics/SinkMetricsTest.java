package io.cdcconnect.sink.metrics;

import io.cdcconnect.codec.metrics.Metric;
import io.cdcconnect.codec.metrics.MetricsJmx;
import org.junit.jupiter.api.Test;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SinkMetricsTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @Test
    void aTaskIsOneMBeanNamedAsKafkaConnectNamesItsTaskMetricsWithEveryMetricAnAttribute() throws Exception {
        ObjectName name = new ObjectName("cdc-connect:type=sink-task-metrics,connector=jmx-test,task=7");
        try (SinkMetrics metrics = SinkMetrics.jmx("jmx-test", "7")) {
            metrics.rowsApplied(5, (System.currentTimeMillis() - 2000) << 18);
            metrics.rowsApplied(3, (System.currentTimeMillis() - 2000) << 18);
            metrics.cacheHit();
            metrics.txnFlushed(3_000_000);
            assertEquals(8.0, SERVER.getAttribute(name, SinkMetrics.ROWS_APPLIED));
            assertEquals(1.0, SERVER.getAttribute(name, SinkMetrics.CACHE_HITS));
            assertEquals(1.0, SERVER.getAttribute(name, SinkMetrics.TXN_FLUSH_COUNT));
            assertEquals(3_000_000.0, SERVER.getAttribute(name, SinkMetrics.TXN_FLUSH_TIME));
            double lagMs = (Double) SERVER.getAttribute(name, SinkMetrics.LAG);
            assertTrue(lagMs >= 2000 && lagMs < 60_000, "lag " + lagMs);
            List<String> attributes = Arrays.stream(SERVER.getMBeanInfo(name).getAttributes())
                    .map(MBeanAttributeInfo::getName).toList();
            assertEquals(SinkMetrics.METRICS.stream().map(Metric::name).toList(), attributes);
        }
        assertFalse(SERVER.isRegistered(name), "closing the task removes its MBean");
    }

    @Test
    void twoTasksOfOneConnectorHaveSeparateMBeans() throws Exception {
        try (SinkMetrics a = SinkMetrics.jmx("two", "0"); SinkMetrics b = SinkMetrics.jmx("two", "1")) {
            a.retry();
            assertEquals(1.0, JmxMeters.read(SinkMetrics.RETRIES, "two", "0"));
            assertEquals(0.0, JmxMeters.read(SinkMetrics.RETRIES, "two", "1"));
        }
    }

    @Test
    void aRestartedTaskWhosePredecessorStopsLateKeepsItsMBean() throws Exception {
        ObjectName name = MetricsJmx.taskName(MetricsJmx.SINK_TASK, "restart", "0");
        SinkMetrics old = SinkMetrics.jmx("restart", "0");
        try (SinkMetrics successor = SinkMetrics.jmx("restart", "0")) {
            successor.errantRecord();
            old.close();
            assertEquals(1.0, SERVER.getAttribute(name, SinkMetrics.ERRANT_RECORDS));
        }
        assertFalse(SERVER.isRegistered(name));
    }
}
