package io.cdcconnect.codec.metrics;

import java.util.Objects;

/**
 * One metric of a connector task: its JMX attribute name (Kafka's style: lower case, dashes, {@code -total} for a
 * count since the task started), whether it only grows, its unit and what it means. docs/monitoring.md lists the
 * same, and a test holds them equal.
 *
 * @param name        the JMX attribute, e.g. {@code rows-applied-total}
 * @param kind        counter (only grows while the task runs) or gauge (a value now)
 * @param unit        e.g. rows, bytes, ms, ns
 * @param description what it counts or shows
 */
public record Metric(String name, Kind kind, String unit, String description) {

    public enum Kind { COUNTER, GAUGE }

    public Metric {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.COUNTER != name.endsWith("-total")) {
            throw new IllegalArgumentException("a counter's name ends with -total, a gauge's does not: " + name);
        }
    }

    public static Metric counter(String name, String unit, String description) {
        return new Metric(name, Kind.COUNTER, unit, description);
    }

    public static Metric gauge(String name, String unit, String description) {
        return new Metric(name, Kind.GAUGE, unit, description);
    }
}
