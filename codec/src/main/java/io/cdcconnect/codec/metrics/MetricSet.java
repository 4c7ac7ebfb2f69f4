package io.cdcconnect.codec.metrics;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.ReflectionException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

/**
 * A fixed set of metrics read as one MBean, one attribute each (as Kafka's own task metrics are). A counter is a
 * {@link LongAdder} the owner increments (no lock, no allocation); a gauge reads a supplier when JMX asks (0 until
 * one is set). Values are doubles, as Kafka's. Works without JMX too (tests, tools): {@link #value(String)}.
 */
public final class MetricSet implements DynamicMBean {

    private final List<Metric> metrics;
    private final Map<String, Metric> byName = new HashMap<>();
    private final Map<String, LongAdder> counters = new HashMap<>();
    private final Map<String, DoubleSupplier> gauges = new java.util.concurrent.ConcurrentHashMap<>();
    private final MBeanInfo info;

    public MetricSet(String description, List<Metric> metrics) {
        this.metrics = List.copyOf(metrics);
        MBeanAttributeInfo[] attributes = new MBeanAttributeInfo[this.metrics.size()];
        for (int i = 0; i < attributes.length; i++) {
            Metric m = this.metrics.get(i);
            if (byName.put(m.name(), m) != null) throw new IllegalArgumentException("metric twice: " + m.name());
            if (m.kind() == Metric.Kind.COUNTER) counters.put(m.name(), new LongAdder());
            attributes[i] = new MBeanAttributeInfo(m.name(), Double.class.getName(),
                    m.description() + " (" + m.kind().name().toLowerCase(java.util.Locale.ROOT) + ", " + m.unit() + ")",
                    true, false, false);
        }
        info = new MBeanInfo(MetricSet.class.getName(), description, attributes, null, null,
                new javax.management.MBeanNotificationInfo[0]);
    }

    public List<Metric> metrics() {
        return metrics;
    }

    /** The adder behind counter {@code name}; keep it in a field and increment it on the hot path. */
    public LongAdder counter(String name) {
        LongAdder a = counters.get(name);
        if (a == null) throw new IllegalArgumentException("no counter " + name + " among " + byName.keySet());
        return a;
    }

    /** Makes gauge {@code name} read {@code value} (replacing an earlier supplier). */
    public void gauge(String name, DoubleSupplier value) {
        Metric m = byName.get(name);
        if (m == null || m.kind() != Metric.Kind.GAUGE) {
            throw new IllegalArgumentException("no gauge " + name + " among " + byName.keySet());
        }
        gauges.put(name, value);
    }

    /** The current value of metric {@code name}. */
    public double value(String name) {
        LongAdder a = counters.get(name);
        if (a != null) return a.sum();
        if (!byName.containsKey(name)) throw new IllegalArgumentException("no metric " + name);
        DoubleSupplier g = gauges.get(name);
        return g == null ? 0 : g.getAsDouble();
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        if (!byName.containsKey(attribute)) throw new AttributeNotFoundException(attribute);
        return value(attribute);
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList out = new AttributeList();
        for (String a : attributes) {
            if (byName.containsKey(a)) out.add(new Attribute(a, value(a)));
        }
        return out;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException(attribute.getName() + " is read-only");
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
        throw new ReflectionException(new UnsupportedOperationException("no operations: " + actionName));
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return info;
    }
}
