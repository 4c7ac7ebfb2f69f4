package io.cdcconnect.sink.metrics;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Set;

/** Finds the sink's meters among JMX names, as an operator's JMX client would. */
public final class JmxMeters {

    private JmxMeters() {
    }

    public static ObjectName find(Set<ObjectName> names, String meter, String connector, String task) {
        for (ObjectName n : names) {
            String s = n.getKeyProperty("name");
            if (s != null && s.startsWith(meter + ".") && s.contains("connector." + connector + ".")
                    && s.endsWith("task." + task)) return n;
        }
        throw new AssertionError("no JMX meter " + meter + " for " + connector + "/" + task + " among " + names);
    }

    /** A counter's count (or a gauge's value) from the platform MBean server. */
    public static double read(String meter, String connector, String task) throws Exception {
        var server = ManagementFactory.getPlatformMBeanServer();
        ObjectName n = find(server.queryNames(new ObjectName(SinkMetrics.JMX_DOMAIN + ":*"), null), meter, connector,
                task);
        for (String attr : new String[]{"Count", "Value"}) {
            try {
                return ((Number) server.getAttribute(n, attr)).doubleValue();
            } catch (javax.management.AttributeNotFoundException e) {
                // counters have Count, gauges Value
            }
        }
        throw new AssertionError("no Count or Value on " + n);
    }
}
