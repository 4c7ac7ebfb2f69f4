package io.cdcconnect.bench.e2e;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;

/**
 * Our sink's own metrics, read over JMX from this JVM (the embedded Connect worker runs here): the attributes of
 * {@code cdc-connect:type=sink-task-metrics,connector=<connector>,task=*} (docs/monitoring.md), summed over the
 * connector's tasks; the benchmark reports the statement-cache ones beside the server's counters. Empty when the
 * sink registered none.
 */
public final class SinkJmx {
    private SinkJmx() {
    }

    /** Metric (attribute) name → its value summed over the tasks of sink {@code connector}. */
    public static Map<String, Double> read(String connector) {
        Map<String, Double> out = new TreeMap<>();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            for (ObjectName n : server.queryNames(new ObjectName("cdc-connect:type=sink-task-metrics,*"), null)) {
                String c = n.getKeyProperty("connector");
                if (!connector.equals(c) && !ObjectName.quote(connector).equals(c)) continue;
                for (MBeanAttributeInfo a : server.getMBeanInfo(n).getAttributes()) {
                    if (server.getAttribute(n, a.getName()) instanceof Number num) {
                        out.merge(a.getName(), num.doubleValue(), Double::sum);
                    }
                }
            }
        } catch (Exception e) {
            out.put("jmx-error: " + e.getClass().getSimpleName(), Double.NaN);
        }
        return out;
    }
}
