package io.cdcconnect.bench.e2e;

import io.cdcconnect.testsupport.connect.ConnectCluster;

import javax.management.ObjectName;
import java.util.Map;
import java.util.TreeMap;

/**
 * Our sink's own metrics, read over JMX from the Connect worker, wherever it runs (a child process's JMX port, or
 * this JVM when embedded; {@link ConnectCluster#workerMetrics}): the attributes of
 * {@code cdc-connect:type=sink-task-metrics,connector=<connector>,task=*} (docs/monitoring.md), summed over the
 * connector's tasks; the benchmark reports the statement-cache ones beside the server's counters. Empty when the
 * sink registered none.
 */
public final class SinkJmx {
    private SinkJmx() {
    }

    /** Metric (attribute) name → its value summed over the tasks of sink {@code connector}. */
    public static Map<String, Double> read(ConnectCluster connect, String connector) {
        Map<String, Double> out = new TreeMap<>();
        // the sink names its MBeans with the connector name as is, or quoted when it holds characters JMX reserves
        for (String name : new String[] {connector, ObjectName.quote(connector)}) {
            try {
                out.putAll(connect.workerMetrics("cdc-connect:type=sink-task-metrics,connector=" + name + ",task=*"));
            } catch (RuntimeException e) {
                out.put("jmx-error: " + BenchReport.oneLine(e), Double.NaN);
            }
            if (!out.isEmpty()) break;
        }
        return out;
    }
}
