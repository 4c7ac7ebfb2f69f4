package io.cdcconnect.sink.metrics;

import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SinkMetricsTest {

    @Test
    void metersAreVisibleOverJmxInTheCdcConnectDomainTaggedByConnectorAndTask() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try (SinkMetrics metrics = SinkMetrics.jmx("jmx-test", "7")) {
            metrics.rowsApplied(5, (System.currentTimeMillis() - 2000) << 18);
            metrics.rowsApplied(3, (System.currentTimeMillis() - 2000) << 18);
            metrics.cacheHit();
            metrics.txnFlushed(3_000_000);
            Set<ObjectName> names = server.queryNames(new ObjectName(SinkMetrics.JMX_DOMAIN + ":*"), null);
            ObjectName rows = JmxMeters.find(names, "cdcSinkRowsApplied", "jmx-test", "7");
            assertEquals(8L, ((Number) server.getAttribute(rows, "Count")).longValue());
            ObjectName hits = JmxMeters.find(names, "cdcSinkStmtcacheHits", "jmx-test", "7");
            assertEquals(1L, ((Number) server.getAttribute(hits, "Count")).longValue());
            ObjectName flush = JmxMeters.find(names, "cdcSinkTxnFlushDuration", "jmx-test", "7");
            assertEquals(1L, ((Number) server.getAttribute(flush, "Count")).longValue());
            ObjectName lag = JmxMeters.find(names, "cdcSinkCheckpointLagMs", "jmx-test", "7");
            double lagMs = ((Number) server.getAttribute(lag, "Value")).doubleValue();
            assertTrue(lagMs >= 2000 && lagMs < 60_000, "lag " + lagMs);
        }
        assertTrue(server.queryNames(new ObjectName(SinkMetrics.JMX_DOMAIN + ":*"), null).stream()
                .noneMatch(n -> n.toString().contains("jmx-test")), "closing the task removes its meters");
    }

    @Test
    void twoTasksOfOneConnectorHaveSeparateMeters() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try (SinkMetrics a = SinkMetrics.jmx("two", "0"); SinkMetrics b = SinkMetrics.jmx("two", "1")) {
            a.retry();
            Set<ObjectName> names = server.queryNames(new ObjectName(SinkMetrics.JMX_DOMAIN + ":*"), null);
            assertEquals(1L, ((Number) server.getAttribute(JmxMeters.find(names, "cdcSinkRetries", "two", "0"),
                    "Count")).longValue());
            assertEquals(0L, ((Number) server.getAttribute(JmxMeters.find(names, "cdcSinkRetries", "two", "1"),
                    "Count")).longValue());
            assertFalse(names.isEmpty());
        }
    }
}
