package io.cdcconnect.source;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CdcSourceConfigTest {

    static Map<String, String> minimal() {
        Map<String, String> p = new HashMap<>();
        p.put("database.hostname", "db.example");
        p.put("database.user", "cdc");
        p.put("database.password", "pw");
        p.put("database.server.id", "184054");
        p.put("topic.prefix", "shop");
        p.put("schema.history.internal.kafka.bootstrap.servers", "kafka:9092");
        return p;
    }

    @Test
    void aPasswordWithoutVerifiedTlsAndRegistryCredentialsOverHttpAreWarnedAbout() {
        Map<String, String> p = minimal();
        List<String> w = new CdcSourceConfig(p).transportWarnings();
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("database.ssl.mode=verify-full") && !w.get(0).contains("=pw"), w.get(0));
        p.put("database.ssl.mode", "verify-full");
        assertTrue(new CdcSourceConfig(p).transportWarnings().isEmpty());
        p.put("output.format", "avro");
        p.put("schema.registry.url", "http://registry.example:8081");
        assertTrue(new CdcSourceConfig(p).transportWarnings().isEmpty(), "no credentials, nothing exposed");
        p.put("schema.registry.username", "reg");
        p.put("schema.registry.password", "regpw");
        w = new CdcSourceConfig(p).transportWarnings();
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("plain http") && !w.get(0).contains("regpw"), w.get(0));
        p.put("schema.registry.url", "https://registry.example:8081");
        assertTrue(new CdcSourceConfig(p).transportWarnings().isEmpty());
    }

    @Test
    void everySettingIsDocumentedWithAGroup() {
        ConfigDef def = CdcSourceConfig.configDef();
        for (ConfigDef.ConfigKey k : def.configKeys().values()) {
            assertNotNull(k.documentation, k.name);
            assertFalse(k.documentation.isBlank(), k.name);
            assertNotNull(k.group, k.name);
        }
        assertTrue(def.names().containsAll(List.of("source.flavor", "output.format", "topic.pattern", "partition.rule",
                "topic.partitions", "watermark.interval.ms", "database.hostname", "topic.prefix", "snapshot.mode")));
    }

    @Test
    void defaultsAreMariadbCanalJsonTopicPerTablePartitionByTable() {
        CdcSourceConfig c = new CdcSourceConfig(minimal());
        assertEquals(SourceFlavor.MARIADB, c.flavor());
        assertEquals(io.cdcconnect.codec.WireFormat.CANAL_JSON, c.outputFormat());
        assertEquals("{prefix}.{schema}.{table}", c.topicPattern());
        assertEquals(1, c.topicPartitions());
        assertFalse(c.tidbExtension());
        assertEquals(3306, c.port());
    }

    @Test
    void invalidValuesAreRejectedNamingTheSetting() {
        Map<String, String> p = minimal();
        p.put("source.flavor", "postgres");
        assertTrue(assertThrows(ConfigException.class, () -> new CdcSourceConfig(p)).getMessage().contains("source.flavor"));
        Map<String, String> q = minimal();
        q.put("topic.pattern", "{db}.{table}");
        assertTrue(assertThrows(ConfigException.class, () -> new CdcSourceConfig(q)).getMessage().contains("placeholder"));
        Map<String, String> r = minimal();
        r.put("partition.rule", "columns");
        assertTrue(assertThrows(ConfigException.class, () -> new CdcSourceConfig(r)).getMessage()
                .contains("partition.columns"));
        Map<String, String> s = minimal();
        s.remove("schema.history.internal.kafka.bootstrap.servers");
        assertTrue(assertThrows(ConfigException.class, () -> new CdcSourceConfig(s)).getMessage()
                .contains("schema.history.internal.kafka.bootstrap.servers"));
        Map<String, String> t = minimal();
        t.put("topic.partitions", "0");
        assertThrows(ConfigException.class, () -> new CdcSourceConfig(t));
    }

    @Test
    void connectorValidationReportsSettingErrorsWithoutTouchingAServer() {
        Map<String, String> p = minimal();
        p.put("source.flavor", "mysql");
        p.put("output.format", "protobuf");
        p.remove("database.server.id");
        Map<String, List<String>> errors = new CdcSourceConnector().validate(p).configValues().stream()
                .filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
        assertEquals(java.util.Set.of("output.format", "database.server.id"), errors.keySet());
    }

    @Test
    void debeziumsOwnRulesAndThePartitionCountAgreementAreValidatedToo() {
        for (String flavor : List.of("mariadb", "mysql")) {
            Map<String, String> p = minimal();
            p.put("source.flavor", flavor);
            p.put("snapshot.mode", "sometimes");
            Map<String, List<String>> errors = errors(p);
            assertEquals(java.util.Set.of("snapshot.mode"), errors.keySet(), flavor + ": " + errors);
            assertTrue(errors.get("snapshot.mode").get(0).startsWith("Debezium"), errors.toString());
        }
        Map<String, String> q = minimal();
        q.put("topic.partitions", "8");
        q.put("topic.creation.default.partitions", "4");
        Map<String, List<String>> errors = errors(q);
        assertEquals(java.util.Set.of("topic.partitions"), errors.keySet());
        assertTrue(errors.get("topic.partitions").get(0).contains("topic.creation.default.partitions"));
        q.put("topic.creation.default.partitions", "8");
        assertEquals(8, new CdcSourceConfig(q).topicPartitions());
    }

    private static Map<String, List<String>> errors(Map<String, String> p) {
        // startup checks off: these are settings problems, found without a server
        Map<String, String> c = new HashMap<>(p);
        c.put("startup.checks.enabled", "false");
        return new CdcSourceConnector().validate(c).configValues().stream()
                .filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }

    @Test
    void oneTaskCarriesTheWholeConfiguration() {
        CdcSourceConnector c = new CdcSourceConnector();
        Map<String, String> p = minimal();
        p.put("startup.checks.enabled", "false");
        c.start(p);
        List<Map<String, String>> tasks = c.taskConfigs(4);
        assertEquals(1, tasks.size(), "a binlog is one ordered stream");
        assertEquals(p, tasks.get(0));
        assertEquals(CdcSourceTask.class, c.taskClass());
        assertNotNull(c.version());
        // (which transaction boundaries keep it exactly-once: ExactlyOnceTest)
        assertEquals(org.apache.kafka.connect.source.ExactlyOnceSupport.SUPPORTED, c.exactlyOnceSupport(p));
        c.stop();
    }

    @Test
    void mysqlFlavourRunsDebeziumsMysqlConnector() {
        Map<String, String> p = minimal();
        p.put("source.flavor", "MySQL");
        CdcSourceConfig c = new CdcSourceConfig(p);
        assertEquals(SourceFlavor.MYSQL, c.flavor());
        Map<String, String> dbz = DebeziumSettings.forDebezium(p, c.flavor());
        assertEquals("io.debezium.connector.mysql.MySqlConnector", dbz.get("connector.class"));
        assertEquals("io.debezium.connector.mysql.MySqlConnectorTask", c.flavor().debeziumTaskClass());
        assertEquals("jdbc:mysql://h:1/", c.flavor().jdbcUrl("h", 1));
    }


    @Test
    void largeMessageHandlingIsCheckedAsTiCdcChecksIt() {
        Map<String, String> p = minimal();
        p.put("large.message.handle.option", "handle-key-only");
        ConfigException noExtension = assertThrows(ConfigException.class, () -> new CdcSourceConfig(p));
        assertTrue(noExtension.getMessage().contains("enable.tidb.extension"), noExtension.getMessage());

        p.put("enable.tidb.extension", "true");
        p.put("large.message.handle.option", "claim-check");
        ConfigException noStore = assertThrows(ConfigException.class, () -> new CdcSourceConfig(p));
        assertTrue(noStore.getMessage().contains("claim.check.storage.uri"), noStore.getMessage());

        p.put("claim.check.storage.uri", "s3://KEYID:s3cr3tv4lue@bucket/claims");
        ConfigException s3 = assertThrows(ConfigException.class, () -> new CdcSourceConfig(p));
        assertTrue(s3.getMessage().contains("only file://"), s3.getMessage());
        assertFalse(s3.getMessage().contains("s3cr3tv4lue"), "credentials in an error: " + s3.getMessage());

        p.put("claim.check.storage.uri", "file:///var/lib/cdc/claims/");
        Map<String, String> codec = new CdcSourceConfig(p).codecOptions();
        assertEquals("claim-check", codec.get("large-message-handle-option"));
        assertEquals("file:///var/lib/cdc/claims/", codec.get("claim-check-storage-uri"));
        assertEquals("false", codec.get("claim-check-raw-value"));

        // read as its validator reads it, whatever the case
        p.put("large.message.handle.option", "Claim-Check");
        assertEquals("claim-check", new CdcSourceConfig(p).codecOptions().get("large-message-handle-option"));
        p.put("large.message.handle.option", "claim-check");

        p.put("output.format", "open-protocol");
        p.put("claim.check.raw.value", "true");
        ConfigException raw = assertThrows(ConfigException.class, () -> new CdcSourceConfig(p));
        assertTrue(raw.getMessage().contains("claim.check.raw.value"), raw.getMessage());
    }
}
