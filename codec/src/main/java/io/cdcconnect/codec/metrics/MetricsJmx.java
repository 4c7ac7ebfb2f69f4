package io.cdcconnect.codec.metrics;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The JMX names of cdc-connect's metrics, in one place, shaped as Kafka Connect's and Debezium's: domain
 * {@value #DOMAIN}, key properties {@code type}, {@code connector}, {@code task} (and {@code table} for a table's
 * metrics), in that order (a Prometheus JMX exporter sees them in it). Also registers and unregisters them.
 */
public final class MetricsJmx {

    public static final String DOMAIN = "cdc-connect";
    /** A source task's metrics. */
    public static final String SOURCE_TASK = "source-task-metrics";
    /** One captured table's metrics within a source task (key property {@code table}: {@code schema.table}). */
    public static final String SOURCE_TABLE = "source-table-metrics";
    /** A sink task's metrics. */
    public static final String SINK_TASK = "sink-task-metrics";

    /** What Kafka's own JMX names accept unquoted (its Sanitizer.jmxSanitize); anything else is quoted. */
    private static final Pattern PLAIN = Pattern.compile("[\\w.%\\- \\t]*");

    /** Which set holds each name now: a task restarted before its predecessor stopped takes the name over. */
    private static final Map<ObjectName, Object> OWNERS = new ConcurrentHashMap<>();

    private MetricsJmx() {
    }

    /** {@code cdc-connect:type=<type>,connector=<connector>,task=<task>}. */
    public static ObjectName taskName(String type, String connector, String task) {
        return name(DOMAIN + ":type=" + type + ",connector=" + quote(connector) + ",task=" + quote(task));
    }

    /** {@code cdc-connect:type=<type>,connector=<connector>,task=<task>,table=<table>}. */
    public static ObjectName tableName(String type, String connector, String task, String table) {
        return name(DOMAIN + ":type=" + type + ",connector=" + quote(connector) + ",task=" + quote(task)
                + ",table=" + quote(table));
    }

    private static ObjectName name(String s) {
        try {
            return new ObjectName(s);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a JMX name: " + s, e);
        }
    }

    static String quote(String value) {
        return PLAIN.matcher(value).matches() ? value : ObjectName.quote(value);
    }

    /** Per connector, the next number handed to a task the worker did not give one (see {@link #taskId}). */
    private static final Map<String, java.util.concurrent.atomic.AtomicInteger> NEXT_TASK = new ConcurrentHashMap<>();

    /**
     * The task's number. A task is not told its number, but a Kafka 4.1+ worker tags the task's plugin metrics with
     * it ({@code pluginMetrics}, may be null); {@code task.id} in the task's settings stands in where there are none
     * (tests); failing both (an older worker), the tasks of {@code connector} started in this JVM are numbered in the
     * order they start, from 0.
     */
    public static String taskId(Map<String, String> props, String connector,
                                org.apache.kafka.common.metrics.PluginMetrics pluginMetrics) {
        String fromWorker = pluginMetrics == null ? null : WorkerMetrics.taskNumber(pluginMetrics);
        if (fromWorker != null) return fromWorker;
        String explicit = props.get("task.id");
        if (explicit != null) return explicit;
        return Integer.toString(NEXT_TASK.computeIfAbsent(connector, c -> new java.util.concurrent.atomic.AtomicInteger())
                .getAndIncrement());
    }

    /** A registration that {@link #close()} removes, unless a successor has taken the name over since. */
    public static final class Registration implements AutoCloseable {
        private final ObjectName name;
        private final Object mbean;

        private Registration(ObjectName name, Object mbean) {
            this.name = name;
            this.mbean = mbean;
        }

        public ObjectName name() {
            return name;
        }

        @Override
        public void close() {
            synchronized (OWNERS) {
                if (!OWNERS.remove(name, mbean)) return;
                try {
                    server().unregisterMBean(name);
                } catch (InstanceNotFoundException e) {
                    // already gone
                } catch (JMException e) {
                    throw new IllegalStateException("cannot unregister " + name + ": " + e, e);
                }
            }
        }
    }

    /**
     * Registers {@code mbean} in the platform MBean server under {@code name}, replacing what is there: a restarted
     * task's new instance may start before the old one has stopped, and the newest is the one that counts.
     */
    public static Registration register(ObjectName name, Object mbean) {
        synchronized (OWNERS) {
            MBeanServer server = server();
            try {
                try {
                    server.registerMBean(mbean, name);
                } catch (InstanceAlreadyExistsException e) {
                    server.unregisterMBean(name);
                    server.registerMBean(mbean, name);
                }
            } catch (JMException e) {
                throw new IllegalStateException("cannot register " + name + ": " + e, e);
            }
            OWNERS.put(name, mbean);
            return new Registration(name, mbean);
        }
    }

    private static MBeanServer server() {
        return ManagementFactory.getPlatformMBeanServer();
    }
}
