package io.cdcconnect.source;

import io.cdcconnect.source.engine.CachedTopicNaming;
import io.cdcconnect.source.engine.LeanSourceInfo;
import io.cdcconnect.source.history.AssignedKafkaSchemaHistory;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns the connector's settings into the settings of Debezium's task: every setting that is not ours passes
 * through, then the settings our conversion depends on are forced, whatever the user wrote.
 */
public final class DebeziumSettings {

    static final String TOPIC_NAMING_STRATEGY = "topic.naming.strategy";
    static final String DEFAULT_TOPIC_NAMING = "io.debezium.schema.DefaultTopicNamingStrategy";
    static final String SOURCE_INFO_STRUCT_MAKER = "sourceinfo.struct.maker";

    /** Settings forced on Debezium, and why each one is needed. */
    static final Map<String, String> FORCED;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        // Each field's schema then carries the column's SQL type, length and scale: the only place the binlog
        // record tells INT from MEDIUMINT, CHAR from TEXT, the fsp of a TIME, or a column's UNSIGNED.
        m.put("column.propagate.source.type", ".*");
        // Exact values: DECIMAL as BigDecimal, BIGINT UNSIGNED without overflow, binary columns as bytes.
        m.put("decimal.handling.mode", "precise");
        m.put("bigint.unsigned.handling.mode", "precise");
        m.put("binary.handling.mode", "bytes");
        // Microsecond TIME/DATETIME, days for DATE, and TIME beyond 24 h (MySQL TIME spans -838..838 hours).
        m.put("time.precision.mode", "adaptive_time_microseconds");
        // Transaction boundaries: rows of one transaction share one commit ts.
        m.put("provide.transaction.metadata", "true");
        // DDL events, forwarded in order with the rows around them.
        m.put("include.schema.changes", "true");
        // Our formats carry deletes themselves; a Debezium tombstone has nothing to convert.
        m.put("tombstones.on.delete", "false");
        // Debezium's context headers (connector name, task id) on every record: our records are built anew and carry
        // none of them, and adding them took 5% of a cold snapshot's reading thread.
        m.put("extended.headers.enabled", "false");
        // Debezium's source block of each event, cut to the fields that are read (LeanSourceInfo): building the full
        // block took a third of a cold snapshot's reading thread. Only where this Debezium's source info can be read.
        if (LeanSourceInfo.available()) m.put(SOURCE_INFO_STRUCT_MAKER, LeanSourceInfo.class.getName());
        FORCED = Collections.unmodifiableMap(m);
    }

    /**
     * Debezium settings whose default we change, and the user may still set. {@code poll.interval.ms}: when Debezium's
     * queue is empty, its poll sleeps this long before it looks again; at Debezium's 500 ms a change that arrives
     * just after waits up to half a second before it is converted (the latency benchmark measured a source-side p99 of
     * about 580 ms at 1k to 2k rows/s; 50 ms brought it to about 90 ms). An idle task then wakes 50 times a second.
     */
    static final Map<String, String> DEFAULTS = Map.of("poll.interval.ms", "20");

    private DebeziumSettings() {
    }

    static String withoutTruncate(String skipped) {
        if (skipped == null) return "none";
        StringBuilder sb = new StringBuilder();
        for (String op : skipped.split(",")) {
            String o = op.trim();
            if (o.isEmpty() || o.equalsIgnoreCase("t") || o.equalsIgnoreCase("none")) continue;
            if (sb.length() > 0) sb.append(',');
            sb.append(o);
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    /** The settings for Debezium's task of the given flavour. */
    public static Map<String, String> forDebezium(Map<String, String> connectorProps, SourceFlavor flavor) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : connectorProps.entrySet()) {
            if (e.getValue() != null && !CdcSourceConfig.isOwnSetting(e.getKey())) {
                out.put(e.getKey(), e.getValue());
            }
        }
        // Debezium's task chooses its snapshot and offset services by the connector class.
        out.put("connector.class", flavor.debeziumConnectorClass());
        // Custom converters would change the value types the conversion relies on.
        out.remove("converters");
        out.putAll(FORCED);
        DEFAULTS.forEach(out::putIfAbsent);
        // The binlog connectors report TRUNCATE only as a truncate record (op "t"), never as a schema change, and
        // skip it by default: keep it, it becomes a TRUNCATE statement. Other skipped operations stay the user's call.
        out.put("skipped.operations", withoutTruncate(connectorProps.get("skipped.operations")));
        String prefix = connectorProps.get(CdcSourceConfig.TOPIC_PREFIX);
        String history = connectorProps.getOrDefault(CdcSourceConfig.SCHEMA_HISTORY, CdcSourceConfig.KAFKA_SCHEMA_HISTORY);
        out.put(CdcSourceConfig.SCHEMA_HISTORY, history);
        if (CdcSourceConfig.KAFKA_SCHEMA_HISTORY.equals(history.trim())) {
            // the same history, read back at a restart from its assigned partition, not through an empty consumer
            // group that waits group.initial.rebalance.delay.ms (AssignedKafkaSchemaHistory)
            out.put(CdcSourceConfig.SCHEMA_HISTORY, AssignedKafkaSchemaHistory.class.getName());
            String topic = connectorProps.get(CdcSourceConfig.SCHEMA_HISTORY_TOPIC);
            if (topic == null || topic.isBlank()) {
                out.put(CdcSourceConfig.SCHEMA_HISTORY_TOPIC, prefix + ".schema-history");
            }
        }
        // Debezium's topic names are never seen (the dispatch rules name our topics), but Debezium computes one per
        // event: the same names, remembered per table (CachedTopicNaming)
        String naming = out.get(TOPIC_NAMING_STRATEGY);
        if (naming == null || naming.isBlank() || DEFAULT_TOPIC_NAMING.equals(naming.trim())) {
            out.put(TOPIC_NAMING_STRATEGY, CachedTopicNaming.class.getName());
        }
        // Empty include/exclude lists mean "not set" to us; Debezium rejects an include and an exclude list together
        // even when one is empty.
        for (String list : new String[] {CdcSourceConfig.DATABASE_INCLUDE_LIST, CdcSourceConfig.DATABASE_EXCLUDE_LIST,
                CdcSourceConfig.TABLE_INCLUDE_LIST, CdcSourceConfig.TABLE_EXCLUDE_LIST}) {
            String v = out.get(list);
            if (v != null && v.isBlank()) out.remove(list);
        }
        return out;
    }
}
