package io.cdcconnect.bench.e2e;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;

/**
 * Our sink's own meters, read over JMX from this JVM (the embedded Connect worker runs here). The sink registers
 * them in the JMX domain {@code cdc-connect}, tagged with the connector's name; the benchmark reports the
 * statement-cache ones beside the server's counters. Empty when the sink registered none.
 */
public final class SinkJmx {
    private SinkJmx() {
    }

    /** Meter name → Count (counters) or Value (gauges), for the MBeans whose name mentions {@code connector}. */
    public static Map<String, Double> read(String domain, String connector) {
        Map<String, Double> out = new TreeMap<>();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            for (ObjectName n : server.queryNames(new ObjectName(domain + ":*"), null)) {
                String name = n.getCanonicalName();
                if (!name.contains(connector)) continue;
                for (MBeanAttributeInfo a : server.getMBeanInfo(n).getAttributes()) {
                    if (!a.getName().equals("Count") && !a.getName().equals("Value")) continue;
                    Object v = server.getAttribute(n, a.getName());
                    if (v instanceof Number num) {
                        String key = n.getKeyProperty("name") != null ? n.getKeyProperty("name") : name;
                        out.merge(key, num.doubleValue(), Double::sum);
                    }
                }
            }
        } catch (Exception e) {
            out.put("jmx-error: " + e.getClass().getSimpleName(), Double.NaN);
        }
        return out;
    }
}
