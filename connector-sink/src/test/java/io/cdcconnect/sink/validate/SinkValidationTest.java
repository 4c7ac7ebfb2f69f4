package io.cdcconnect.sink.validate;

import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.sink.CdcSinkConfig;
import io.cdcconnect.sink.CdcSinkConnector;
import io.cdcconnect.sink.dialect.ServerLimits;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink's validate(): the rules that span settings, each reported on its setting, and the recommenders. No target
 * is reachable here (a closed port): the live check against real servers is {@link TargetCheckTest}.
 */
class SinkValidationTest {

    private static final String SECRET = "pw-Zq81-never-shown";

    private static Map<String, String> props(String... kv) {
        Map<String, String> m = new HashMap<>();
        m.put("connection.url", "jdbc:mysql://127.0.0.1:" + closedPort() + "/");
        m.put("connection.user", "u");
        m.put("connection.password", SECRET);
        m.put("schema.include", "shop");
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private static int closedPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, ConfigValue> validate(Map<String, String> props) {
        Config c = new CdcSinkConnector().validate(props);
        Map<String, ConfigValue> out = new HashMap<>();
        for (ConfigValue v : c.configValues()) out.put(v.name(), v);
        return out;
    }

    private static List<String> errors(Map<String, ConfigValue> values, String name) {
        return values.get(name).errorMessages();
    }

    @Test
    void avroWithoutARegistryUrlIsReportedOnSchemaRegistryUrl() {
        Map<String, ConfigValue> v = validate(props("input.format", "avro"));
        assertEquals(1, errors(v, CdcSinkConfig.SCHEMA_REGISTRY_URL).size(), v.toString());
        assertTrue(errors(v, CdcSinkConfig.SCHEMA_REGISTRY_URL).get(0).contains("set schema.registry.url"));
        // the registry may also come as the codec's own option
        v = validate(props("input.format", "avro", "input.codec.options", "schema-registry=http://r:8081"));
        assertTrue(errors(v, CdcSinkConfig.SCHEMA_REGISTRY_URL).isEmpty(), v.toString());
    }

    @Test
    void anUnknownCodecOptionIsRefusedNamingTheKnownOnes() {
        Map<String, ConfigValue> v = validate(props("input.codec.options", "large-message-handle-compresion=lz4"));
        List<String> e = errors(v, CdcSinkConfig.INPUT_CODEC_OPTIONS);
        assertEquals(1, e.size(), v.toString());
        assertTrue(e.get(0).contains("unknown option 'large-message-handle-compresion'"), e.get(0));
        for (String known : WireFormat.CANAL_JSON.decoderOptions()) assertTrue(e.get(0).contains(known), e.get(0));
        // Avro's decoder knows other options; debezium's none
        e = errors(validate(props("input.format", "avro", "schema.registry.url", "http://r:8081",
                "input.codec.options", "claim-check-storage-uri=file:///tmp/x")), CdcSinkConfig.INPUT_CODEC_OPTIONS);
        assertTrue(e.get(0).contains(WireFormat.AVRO.decoderOptions().iterator().next()), e.toString());
        e = errors(validate(props("input.format", "debezium", "input.codec.options", "a=b")),
                CdcSinkConfig.INPUT_CODEC_OPTIONS);
        assertTrue(e.get(0).contains("reads no options"), e.toString());
    }

    @Test
    void aBadCodecOptionValueIsReportedWithoutItsSecretNeighbours() {
        List<String> e = errors(validate(props("input.format", "avro", "schema.registry.url", "http://r:8081",
                "input.codec.options", "schema-registry-password=" + SECRET + ",schema-registry-timeout-ms=soon")),
                CdcSinkConfig.INPUT_CODEC_OPTIONS);
        assertEquals(1, e.size());
        assertTrue(e.get(0).contains("schema-registry-timeout-ms"), e.get(0));
        assertFalse(e.get(0).contains(SECRET), e.get(0));
    }

    @Test
    void theConfigItselfRefusesAnUnknownCodecOption() {
        ConfigException e = assertThrows(ConfigException.class, () -> new CdcSinkConfig(Map.of("connection.user", "u", "connection.url",
                "jdbc:mysql://h/", "input.codec.options", "enable-tidb-extension=true", "schema.include", "shop")));
        assertTrue(e.getMessage().contains("input.codec.options") && e.getMessage().contains("unknown option"),
                e.getMessage());
    }

    @Test
    void aBadSchemaMapIsReportedOnSchemaMap() {
        assertTrue(errors(validate(props("schema.map", "shop")), CdcSinkConfig.SCHEMA_MAP).get(0)
                .contains("source=target"));
        assertTrue(errors(validate(props("schema.map", "shop=a,shop=b")), CdcSinkConfig.SCHEMA_MAP).get(0)
                .contains("'shop' is mapped more than once"));
        assertTrue(errors(validate(props("schema.map", "shop=mysql")), CdcSinkConfig.SCHEMA_MAP).get(0)
                .contains("system database"));
        assertTrue(errors(validate(props("schema.map", "shop=cdc_connect")), CdcSinkConfig.SCHEMA_MAP).get(0)
                .contains("a sink's control database"));
        assertTrue(errors(validate(props("schema.map", "shop=cdc_connect", "ddl.checkpoint.database", "ctl2")),
                CdcSinkConfig.SCHEMA_MAP).stream().anyMatch(m -> m.contains("a sink's control database")),
                "the default control database is another connector's");
        assertFalse(errors(validate(props("schema.map", "shop=ctl2", "ddl.checkpoint.database", "")),
                CdcSinkConfig.SCHEMA_MAP).stream().anyMatch(m -> m.contains("control database")));
        String pg = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/db";
        assertTrue(errors(validate(props("connection.url", pg, "schema.map", "shop=pg_catalog")),
                CdcSinkConfig.SCHEMA_MAP).get(0).contains("system database"));
    }

    @Test
    void aConfigurationThatNamesNoDatabaseOrAProtectedOneIsReportedOnSchemaInclude() {
        List<String> none = errors(validate(props("schema.include", "")), CdcSinkConfig.SCHEMA_INCLUDE);
        assertTrue(none.get(0).contains("schema.include") && none.get(0).contains("schema.map"), none.toString());
        List<String> system = errors(validate(props("schema.include", "shop,performance_schema")),
                CdcSinkConfig.SCHEMA_INCLUDE);
        assertTrue(system.get(0).contains("'performance_schema'"), system.toString());
        assertEquals(List.of(), errors(validate(props("schema.include", "", "schema.map", "shop=shop2")),
                CdcSinkConfig.SCHEMA_INCLUDE));
    }

    @Test
    void aDialectOfAnotherFamilyIsReportedOnDialect() {
        List<String> e = errors(validate(props("dialect", "postgresql")), CdcSinkConfig.DIALECT);
        assertTrue(e.get(0).contains("does not serve a MySQL"), e.toString());
    }

    @Test
    void anUnreachableTargetIsReportedOnTheUrlWithTheDriversWordsAndNoPassword() {
        int port = closedPort();
        String url = "jdbc:mysql://cdc:" + SECRET + "@127.0.0.1:" + port + "/?password=" + SECRET;
        long start = System.nanoTime();
        Map<String, ConfigValue> v = validate(props("connection.url", url));
        long ms = (System.nanoTime() - start) / 1_000_000;
        List<String> e = errors(v, CdcSinkConfig.CONNECTION_URL);
        assertEquals(1, e.size(), v.toString());
        assertTrue(e.get(0).startsWith("cannot connect to jdbc:mysql://cdc:***@127.0.0.1:" + port), e.get(0));
        assertTrue(e.get(0).contains("Communications link failure"), e.get(0));
        assertTrue(ms < TargetCheck.TIMEOUT_MS + 3_000, ms + " ms");
        for (ConfigValue value : v.values()) {
            assertFalse(String.valueOf(value.errorMessages()).contains(SECRET), value.toString());
        }
    }

    @Test
    void noLiveCheckWhileTheConnectionSettingsAreWrong() {
        Map<String, ConfigValue> v = validate(props("dialect", "nosuch"));
        assertEquals(1, errors(v, CdcSinkConfig.DIALECT).size(), v.toString());
        assertTrue(errors(v, CdcSinkConfig.CONNECTION_URL).isEmpty(), v.toString());
        // a setting wrong on its own gets its own error once, and the others are still checked
        v = validate(props("safe.mode", "sometimes", "schema.map", "x"));
        assertEquals(1, errors(v, CdcSinkConfig.SAFE_MODE).size(), v.toString());
        assertEquals(1, errors(v, CdcSinkConfig.SCHEMA_MAP).size(), v.toString());
    }

    @Test
    void recommendedValuesComeFromTheRegistries() {
        Map<String, ConfigValue> v = validate(props());
        assertEquals(WireFormat.names(f -> true), v.get(CdcSinkConfig.INPUT_FORMAT).recommendedValues());
        assertEquals(List.of("auto", "mariadb", "mysql57", "mysql8", "tidb"),
                v.get(CdcSinkConfig.DIALECT).recommendedValues());
        assertEquals(List.of("auto", "always", "never"), v.get(CdcSinkConfig.SAFE_MODE).recommendedValues());
        assertEquals(CdcSinkConfig.DDL_UNSUPPORTED_VALUES, v.get(CdcSinkConfig.DDL_UNSUPPORTED).recommendedValues());
        assertTrue(v.get(CdcSinkConfig.DDL_APPLY).recommendedValues().containsAll(List.of("all", "none",
                "create-table", "truncate-table")));
        v = validate(props("connection.url", "jdbc:postgresql://127.0.0.1:" + closedPort() + "/db"));
        assertEquals(List.of("auto", "postgresql"), v.get(CdcSinkConfig.DIALECT).recommendedValues());
    }

    @Test
    void registrySettingsShowOnlyForAFormatWithARegistry() {
        Map<String, ConfigValue> canal = validate(props());
        Map<String, ConfigValue> avro = validate(props("input.format", "avro"));
        for (String name : List.of(CdcSinkConfig.SCHEMA_REGISTRY_URL, CdcSinkConfig.SCHEMA_REGISTRY_TRUSTSTORE,
                CdcSinkConfig.SCHEMA_REGISTRY_TRUSTSTORE_TYPE)) {
            assertFalse(canal.get(name).visible(), name);
            assertTrue(avro.get(name).visible(), name);
        }
        // Avro carries no DDL: the DDL settings are hidden
        assertTrue(canal.get(CdcSinkConfig.DDL_APPLY).visible());
        assertFalse(avro.get(CdcSinkConfig.DDL_APPLY).visible());
        assertFalse(validate(props("input.format", "debezium")).get(CdcSinkConfig.INPUT_CODEC_OPTIONS).visible());
        assertTrue(CdcSinkConfig.configDef().configKeys().get(CdcSinkConfig.INPUT_FORMAT).dependents
                .contains(CdcSinkConfig.SCHEMA_REGISTRY_URL));
    }

    @Test
    void aStatementBudgetThatLeavesNoneIsReportedOnTheCacheSize() {
        CdcSinkConfig config = CdcSinkConfig.withoutRules(Map.of("connection.user", "u", "connection.url", "jdbc:mysql://h/",
                "worker.count", "8"));
        // 9 connections x 4 tasks = 36; half of 40 is 20: nothing per connection
        ConfigProblem p = TargetCheck.statementBudget(config, new ServerLimits("10.11", 1 << 24, 40), 4);
        assertEquals(CdcSinkConfig.STATEMENT_CACHE_SIZE, p.setting());
        assertTrue(p.message().contains("max_prepared_stmt_count is 40") && p.message().contains("at least 72"),
                p.message());
        assertNull(TargetCheck.statementBudget(config, new ServerLimits("10.11", 1 << 24, 72), 4));
        assertNull(TargetCheck.statementBudget(config, new ServerLimits("PostgreSQL 17", 1 << 24, -1), 4));
        CdcSinkConfig text = CdcSinkConfig.withoutRules(Map.of("connection.user", "u", "connection.url", "jdbc:mysql://h/",
                "statement.cache.size", "0"));
        assertNull(TargetCheck.statementBudget(text, new ServerLimits("10.11", 1 << 24, 0), 4));
    }
}
