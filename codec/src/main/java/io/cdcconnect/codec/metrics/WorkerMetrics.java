package io.cdcconnect.codec.metrics;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.PluginMetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A task's metrics registered through the worker's own metrics (KIP-877, Kafka 4.1): the worker names them
 * {@code kafka.connect:type=plugins,connector=<connector>,task=<task>[,table=<table>]} in JMX and hands them to
 * every reporter of its {@code metric.reporters}. The values are read from the same {@link MetricSet} the
 * {@code cdc-connect} MBean shows; each metric is declared once, in the connector's list.
 *
 * <p>On a worker older than Kafka 4.1 {@link PluginMetrics} does not exist: the tasks ask their context for it with a
 * plain call inside a {@code try} that catches the {@link LinkageError}, and pass null on. Neither a lambda nor a
 * method reference may stand in for that call: linking one whose type names {@code PluginMetrics} loads the class
 * where it is written, and the {@code NoClassDefFoundError} fails the task's {@code start} (a Kafka 3.9 worker showed
 * it, OldWorkerCompatibilityTest). With null, nothing here is called and the {@code cdc-connect} MBeans carry the
 * metrics alone.
 */
public final class WorkerMetrics {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WorkerMetrics.class);

    /** The tag the worker gives a task's plugin metrics, holding the task's number. */
    static final String TASK_TAG = "task";

    private WorkerMetrics() {
    }

    /** The task's number as the worker tags its plugin metrics, or null if it does not. */
    public static String taskNumber(PluginMetrics metrics) {
        if (metrics == null) return null;
        try {
            return metrics.metricName("task-number", "", new LinkedHashMap<>()).tags().get(TASK_TAG);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Registers every metric of {@code set} with the worker, under its tags plus {@code tags}, until closed. */
    public static Registration register(PluginMetrics metrics, MetricSet set, LinkedHashMap<String, String> tags) {
        List<MetricName> names = new ArrayList<>();
        List<MetricName> skipped = new ArrayList<>();
        try {
            for (Metric m : set.metrics()) {
                MetricName name = metrics.metricName(m.name(), m.description() + " ("
                        + m.kind().name().toLowerCase(java.util.Locale.ROOT) + ", " + m.unit() + ")", tags);
                String attribute = m.name();
                try {
                    metrics.addMetric(name, (Measurable) (config, now) -> set.value(attribute));
                } catch (IllegalArgumentException exists) {
                    // an earlier instance of this task still holds the name: the worker gave up waiting for its stop
                    // (task.shutdown.graceful.timeout.ms) and started this one. Metrics never fail a task: this
                    // one goes without the worker's copy of the metric (its cdc-connect MBean still reads it), and
                    // the earlier instance's copy goes when the worker closes that instance.
                    if (skipped.isEmpty()) {
                        LOG.warn("{} is still registered by an earlier instance of this task; the worker's copy of "
                                + "this task's metrics waits for the next start (the cdc-connect MBeans have them)",
                                name.name());
                    }
                    skipped.add(name);
                    continue;
                }
                names.add(name);
            }
        } catch (RuntimeException e) {
            new Registration(metrics, names).close();
            throw e;
        }
        return new Registration(metrics, names);
    }

    /** Removes what {@link #register} added. */
    public static final class Registration implements AutoCloseable {
        private final PluginMetrics metrics;
        private final List<MetricName> names;

        private Registration(PluginMetrics metrics, List<MetricName> names) {
            this.metrics = metrics;
            this.names = names;
        }

        public List<MetricName> names() {
            return List.copyOf(names);
        }

        @Override
        public void close() {
            for (MetricName n : names) {
                try {
                    metrics.removeMetric(n);
                } catch (RuntimeException e) {
                    // the worker closes a task's plugin metrics itself once the task has stopped
                }
            }
        }
    }
}
