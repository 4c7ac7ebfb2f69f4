package io.cdcconnect.source;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class DebeziumSettingsTest {

    @Test
    void debeziumSettingsPassThroughOursStayOutAndConversionSettingsAreForced() {
        Map<String, String> p = CdcSourceConfigTest.minimal();
        p.put("snapshot.mode", "no_data");
        p.put("heartbeat.interval.ms", "5000");
        p.put("decimal.handling.mode", "double");
        p.put("time.precision.mode", "connect");
        p.put("converters", "boolean");
        p.put("output.format", "canal-json");
        p.put("topic.partitions", "4");
        p.put("table.include.list", "");
        Map<String, String> dbz = DebeziumSettings.forDebezium(p, SourceFlavor.MARIADB);

        assertEquals("no_data", dbz.get("snapshot.mode"));
        assertEquals("5000", dbz.get("heartbeat.interval.ms"));
        assertEquals("db.example", dbz.get("database.hostname"));
        assertEquals("pw", dbz.get("database.password"));
        assertEquals("io.debezium.connector.mariadb.MariaDbConnector", dbz.get("connector.class"));
        assertEquals("precise", dbz.get("decimal.handling.mode"));
        assertEquals("precise", dbz.get("bigint.unsigned.handling.mode"));
        assertEquals("bytes", dbz.get("binary.handling.mode"));
        assertEquals("adaptive_time_microseconds", dbz.get("time.precision.mode"));
        assertEquals(".*", dbz.get("column.propagate.source.type"));
        assertEquals("true", dbz.get("provide.transaction.metadata"));
        assertEquals("true", dbz.get("include.schema.changes"));
        assertEquals("false", dbz.get("tombstones.on.delete"));
        assertFalse(dbz.containsKey("converters"));
        assertEquals("none", dbz.get("skipped.operations"), "truncates are kept: they become TRUNCATE statements");
        assertFalse(dbz.containsKey("output.format"));
        assertFalse(dbz.containsKey("topic.partitions"));
        assertFalse(dbz.containsKey("table.include.list"), "an empty list means unset");
        assertEquals("shop.schema-history", dbz.get("schema.history.internal.kafka.topic"));
    }

    @Test
    void skippedOperationsKeepTheUsersChoiceButNeverTruncate() {
        assertEquals("d", DebeziumSettings.withoutTruncate("t, d"));
        assertEquals("c,u", DebeziumSettings.withoutTruncate("c,u"));
        assertEquals("none", DebeziumSettings.withoutTruncate("t"));
        assertEquals("none", DebeziumSettings.withoutTruncate(null));
    }

    @Test
    void anExplicitSchemaHistoryTopicIsKept() {
        Map<String, String> p = CdcSourceConfigTest.minimal();
        p.put("schema.history.internal.kafka.topic", "hist");
        assertEquals("hist", DebeziumSettings.forDebezium(p, SourceFlavor.MYSQL).get("schema.history.internal.kafka.topic"));
    }
}
