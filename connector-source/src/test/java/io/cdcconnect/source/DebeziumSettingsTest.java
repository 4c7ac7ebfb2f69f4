package io.cdcconnect.source;

import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(io.cdcconnect.source.engine.LeanSourceInfo.class.getName(), dbz.get("sourceinfo.struct.maker"));
        assertFalse(dbz.containsKey("converters"));
        assertEquals("none", dbz.get("skipped.operations"), "truncates are kept: they become TRUNCATE statements");
        assertFalse(dbz.containsKey("output.format"));
        assertFalse(dbz.containsKey("topic.partitions"));
        assertFalse(dbz.containsKey("table.include.list"), "an empty list means unset");
        assertEquals("shop.schema-history", dbz.get("schema.history.internal.kafka.topic"));
    }

    @Test
    void pollIntervalDefaultsToTwentyMillisecondsUnlessTheUserSetsIt() {
        Map<String, String> p = CdcSourceConfigTest.minimal();
        assertEquals("20", DebeziumSettings.forDebezium(p, SourceFlavor.MARIADB).get("poll.interval.ms"));
        p.put("poll.interval.ms", "1000");
        assertEquals("1000", DebeziumSettings.forDebezium(p, SourceFlavor.MARIADB).get("poll.interval.ms"));
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

    /** Debezium settings a deployment may set, none of them forced: each must reach Debezium as written. */
    private static Map<String, String> debeziumSample() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("database.hostname", "db.example");
        d.put("database.port", "3307");
        d.put("database.user", "cdc");
        d.put("database.password", "pw");
        d.put("database.server.id", "184054");
        d.put("database.include.list", "shop");
        d.put("table.include.list", "shop\\.orders");
        d.put("database.ssl.mode", "required");
        d.put("topic.prefix", "shop");
        d.put("snapshot.mode", "no_data");
        d.put("snapshot.locking.mode", "minimal");
        d.put("max.batch.size", "4096");
        d.put("max.queue.size", "16384");
        d.put("poll.interval.ms", "250");
        d.put("heartbeat.interval.ms", "5000");
        d.put("event.processing.failure.handling.mode", "warn");
        d.put("schema.history.internal", CdcSourceConfig.KAFKA_SCHEMA_HISTORY);
        d.put("schema.history.internal.kafka.bootstrap.servers", "kafka:9092");
        d.put("schema.history.internal.kafka.topic", "shop.history");
        return d;
    }

    /** Every setting of ours, at a value it accepts: its default, or one that makes the combination valid. */
    private static Map<String, String> everyOwnSetting() {
        Map<String, String> chosen = Map.of("output.format", "open-protocol", "large.message.handle.option",
                "claim-check", "claim.check.storage.uri", "file:///shared/claim-check", "claim.check.raw.value",
                "false", "open.protocol.max.batch.size", "64", "partition.rule", "columns", "partition.columns",
                "id", "schema.registry.url", "http://registry:8081", "schema.registry.password", "secret");
        Map<String, String> ours = new HashMap<>();
        for (ConfigDef.ConfigKey k : CdcSourceConfig.configDef().configKeys().values()) {
            if (!CdcSourceConfig.isOwnSetting(k.name)) continue;
            String v = chosen.containsKey(k.name) ? chosen.get(k.name) : ConfigDef.convertToString(k.defaultValue, k.type);
            ours.put(k.name, v == null ? "" : v);
        }
        return ours;
    }

    @Test
    void noSettingOfOursReachesDebeziumAndEveryDebeziumSettingPassesUnchanged() {
        Map<String, String> ours = everyOwnSetting();
        Map<String, String> props = new HashMap<>(debeziumSample());
        props.putAll(ours);
        new CdcSourceConfig(props); // a real, valid configuration

        Map<String, String> dbz = DebeziumSettings.forDebezium(props, SourceFlavor.MYSQL);

        Set<String> leaked = new TreeSet<>(ours.keySet());
        leaked.retainAll(dbz.keySet());
        assertEquals(Set.of(), leaked, "settings of ours handed to Debezium");
        for (Map.Entry<String, String> e : debeziumSample().entrySet()) {
            if (e.getKey().equals("schema.history.internal")) continue; // below
            assertEquals(e.getValue(), dbz.get(e.getKey()), e.getKey() + " must reach Debezium unchanged");
        }
        // Debezium's Kafka schema history, read back by assignment instead of through an empty consumer group
        assertEquals(io.cdcconnect.source.history.AssignedKafkaSchemaHistory.class.getName(),
                dbz.get("schema.history.internal"));
        assertTrue(ours.keySet().containsAll(List.of("claim.check.storage.uri", "claim.check.raw.value",
                "open.protocol.max.batch.size", "output.format", "schema.registry.url")));
        assertEquals("4096", dbz.get("max.batch.size"), "Debezium's max.batch.size is no longer shadowed by ours");
    }

    @Test
    void anotherSchemaHistoryReachesDebeziumUnchanged() {
        Map<String, String> props = new HashMap<>(debeziumSample());
        props.put("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        props.put("schema.history.internal.file.filename", "/tmp/history.dat");
        assertEquals("io.debezium.storage.file.history.FileSchemaHistory",
                DebeziumSettings.forDebezium(props, SourceFlavor.MYSQL).get("schema.history.internal"));
    }

    @Test
    void debeziumsDefaultTopicNamingIsTheCachedOneAndAnotherPassesUnchanged() {
        Map<String, String> props = new HashMap<>(debeziumSample());
        String cached = io.cdcconnect.source.engine.CachedTopicNaming.class.getName();
        assertEquals(cached, DebeziumSettings.forDebezium(props, SourceFlavor.MARIADB).get("topic.naming.strategy"));
        props.put("topic.naming.strategy", "io.debezium.schema.DefaultTopicNamingStrategy");
        assertEquals(cached, DebeziumSettings.forDebezium(props, SourceFlavor.MARIADB).get("topic.naming.strategy"));
        props.put("topic.naming.strategy", "io.debezium.schema.SchemaTopicNamingStrategy");
        assertEquals("io.debezium.schema.SchemaTopicNamingStrategy",
                DebeziumSettings.forDebezium(props, SourceFlavor.MARIADB).get("topic.naming.strategy"));
        // Debezium's context headers are never on our records: not computed either, whatever the user wrote
        props.put("extended.headers.enabled", "true");
        assertEquals("false", DebeziumSettings.forDebezium(props, SourceFlavor.MARIADB).get("extended.headers.enabled"));
    }

    @Test
    void ourSettingsAreTheConfigDefsKeysBesideTheDebeziumOnesItDeclares() {
        Set<String> names = CdcSourceConfig.configDef().names();
        Set<String> ours = names.stream().filter(CdcSourceConfig::isOwnSetting).collect(Collectors.toSet());
        Set<String> declared = CdcSourceConfig.declaredDebeziumSettings();
        assertEquals(names.size(), ours.size() + declared.size());
        assertTrue(names.containsAll(declared));
        Map<String, String> excludes = Map.of("database.exclude.list", "tmp", "table.exclude.list", "shop\\.tmp_.*");
        Set<String> sampled = new TreeSet<>(debeziumSample().keySet());
        sampled.addAll(excludes.keySet());
        assertTrue(sampled.containsAll(declared), "each declared Debezium setting is sampled");
        Map<String, String> p = CdcSourceConfigTest.minimal();
        p.putAll(excludes);
        Map<String, String> dbz = DebeziumSettings.forDebezium(p, SourceFlavor.MARIADB);
        excludes.forEach((k, v) -> assertEquals(v, dbz.get(k), k));
        for (String forced : DebeziumSettings.FORCED.keySet()) {
            assertFalse(names.contains(forced), forced + " is forced on Debezium, not a setting of ours");
        }
        assertFalse(CdcSourceConfig.isOwnSetting("max.batch.size"));
        assertFalse(CdcSourceConfig.isOwnSetting("heartbeat.interval.ms"));
    }
}
