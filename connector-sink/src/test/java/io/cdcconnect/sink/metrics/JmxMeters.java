package io.cdcconnect.sink.metrics;

import io.cdcconnect.codec.metrics.MetricsJmx;

import java.lang.management.ManagementFactory;

/** Reads a sink task's metric from the platform MBean server, as an operator's JMX client would. */
public final class JmxMeters {

    private JmxMeters() {
    }

    /** Metric {@code metric} (one of {@link SinkMetrics#METRICS}) of sink task {@code task} of {@code connector}. */
    public static double read(String metric, String connector, String task) throws Exception {
        return ((Number) ManagementFactory.getPlatformMBeanServer().getAttribute(
                MetricsJmx.taskName(MetricsJmx.SINK_TASK, connector, task), metric)).doubleValue();
    }
}
