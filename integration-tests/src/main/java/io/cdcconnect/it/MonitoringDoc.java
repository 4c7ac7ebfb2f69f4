package io.cdcconnect.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics docs/monitoring.md lists, MBean by MBean: the one list that the connectors' declared metrics, the
 * Prometheus exporter's rules, the Grafana dashboard and the test against a running worker are all checked against.
 *
 * <p>The page names each MBean in a heading ({@code ### ... `domain:type=...,connector=<connector>,...`}), with
 * {@code <placeholders>} for the parts a deployment fills, and lists its attributes in the table under it:
 * {@code | `attribute` | type | unit | meaning |}.
 */
public final class MonitoringDoc {

    /** Sample values of the placeholders, as a deployment would have them. */
    private static final Map<String, String> SAMPLES = Map.of("connector", "my-connector", "task", "0",
            "table", "shop.orders", "server", "cdc", "flavour", "mysql");
    private static final Pattern HEADING_MBEAN = Pattern.compile("^#+ .*`([\\w.<>|-]+:type=[^`]+)`");
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]+) \\| ([^|]+) \\| (.+) \\|$");
    private static final Pattern PLACEHOLDER = Pattern.compile("<([a-z]+)>");

    /** One documented metric. */
    public record Entry(String mbean, String attribute, String type, String unit, String meaning) {

        /** Ours (domain {@code cdc-connect}), as opposed to Kafka Connect's and Debezium's. */
        public boolean ours() {
            return mbean.startsWith("cdc-connect:");
        }

        /** The MBean's {@code type} key property. */
        public String mbeanType() {
            Matcher m = Pattern.compile("[:,]type=([^,]+)").matcher(mbean);
            return m.find() ? m.group(1) : "";
        }

        /** The MBean name as a JMX pattern: each placeholder a wildcard. */
        public String pattern() {
            return PLACEHOLDER.matcher(mbean).replaceAll("*");
        }

        /** The MBean name filled with sample values. */
        public String sample() {
            return PLACEHOLDER.matcher(mbean).replaceAll(r -> {
                String v = SAMPLES.get(r.group(1));
                if (v == null) throw new IllegalStateException("no sample for placeholder " + r.group() + " in " + mbean);
                return v;
            });
        }

        /** The key property names in the order the page writes them (the order a JMX exporter sees). */
        public List<String> keys() {
            List<String> keys = new ArrayList<>();
            for (String kv : mbean.substring(mbean.indexOf(':') + 1).split(",")) keys.add(kv.substring(0, kv.indexOf('=')));
            return keys;
        }
    }

    private MonitoringDoc() {
    }

    public static Path path() {
        return ConnectorConfigFiles.configDir().resolveSibling("docs").resolve("monitoring.md");
    }

    /** docs/monitoring.md's metrics. */
    public static List<Entry> read() {
        try {
            return parse(Files.readString(path()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path(), e);
        }
    }

    public static List<Entry> parse(String markdown) {
        List<Entry> out = new ArrayList<>();
        String mbean = null;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("#")) {
                Matcher h = HEADING_MBEAN.matcher(line);
                mbean = h.find() ? h.group(1) : null;
                continue;
            }
            Matcher r = ROW.matcher(line.strip());
            if (mbean != null && r.matches()) {
                out.add(new Entry(mbean, r.group(1), r.group(2).strip(), r.group(3).strip(), r.group(4).strip()));
            }
        }
        return out;
    }

    /**
     * The metrics the connectors declare, read from the plugin archives ({@code SourceMetrics.TASK},
     * {@code SourceMetrics.TABLE}, {@code SinkMetrics.METRICS}), as entries of the MBean each belongs to.
     */
    public static List<Entry> declared(Path pluginDir) {
        List<Entry> out = new ArrayList<>();
        declared(out, pluginDir, "cdc-connect-source", "io.cdcconnect.source.metrics.SourceMetrics", "TASK",
                "cdc-connect:type=source-task-metrics,connector=<connector>,task=<task>");
        declared(out, pluginDir, "cdc-connect-source", "io.cdcconnect.source.metrics.SourceMetrics", "TABLE",
                "cdc-connect:type=source-table-metrics,connector=<connector>,task=<task>,table=<table>");
        declared(out, pluginDir, "cdc-connect-sink", "io.cdcconnect.sink.metrics.SinkMetrics", "METRICS",
                "cdc-connect:type=sink-task-metrics,connector=<connector>,task=<task>");
        return out;
    }

    private static void declared(List<Entry> out, Path pluginDir, String plugin, String className, String field,
                                 String mbean) {
        try {
            Class<?> c = ConfigReference.pluginClass(pluginDir, plugin, className);
            for (Object m : (List<?>) c.getField(field).get(null)) {
                Method name = m.getClass().getMethod("name");
                Method kind = m.getClass().getMethod("kind");
                Method unit = m.getClass().getMethod("unit");
                Method description = m.getClass().getMethod("description");
                out.add(new Entry(mbean, (String) name.invoke(m),
                        kind.invoke(m).toString().toLowerCase(java.util.Locale.ROOT), (String) unit.invoke(m),
                        (String) description.invoke(m)));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + className + "." + field + " from " + plugin + ": " + e, e);
        }
    }

    /** {@code entries} as the page's table rows, for a message that says what to write. */
    public static String rows(List<Entry> entries) {
        StringBuilder sb = new StringBuilder();
        String mbean = null;
        for (Entry e : entries) {
            if (!e.mbean().equals(mbean)) {
                mbean = e.mbean();
                sb.append("\n`").append(mbean).append("`\n");
            }
            sb.append("| `").append(e.attribute()).append("` | ").append(e.type()).append(" | ").append(e.unit())
                    .append(" | ").append(e.meaning()).append(" |\n");
        }
        return sb.toString();
    }
}
