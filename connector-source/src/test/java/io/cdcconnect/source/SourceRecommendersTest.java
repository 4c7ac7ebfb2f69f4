package io.cdcconnect.source;

import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.source.dispatch.PartitionRule;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the source's validation answer recommends and shows, derived from the registries that hold the values. */
class SourceRecommendersTest {

    private static Map<String, ConfigValue> validate(String... kv) {
        Map<String, String> p = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) p.put(kv[i], kv[i + 1]);
        Map<String, ConfigValue> out = new HashMap<>();
        for (ConfigValue v : CdcSourceConfig.configDef().validate(p)) out.put(v.name(), v);
        return out;
    }

    @Test
    void enumerableSettingsRecommendTheirValues() {
        Map<String, ConfigValue> v = validate();
        assertEquals(WireFormat.names(WireFormat::encodable), v.get(CdcSourceConfig.OUTPUT_FORMAT).recommendedValues());
        assertEquals(Arrays.asList(PartitionRule.configNames()),
                v.get(CdcSourceConfig.PARTITION_RULE).recommendedValues());
        assertEquals(List.of("mariadb", "mysql"), v.get(CdcSourceConfig.SOURCE_FLAVOR).recommendedValues());
        assertEquals(List.of("none", "snappy", "lz4"), v.get(CdcSourceConfig.COMPRESSION).recommendedValues());
        assertEquals(List.of(), v.get(CdcSourceConfig.TOPIC_PATTERN).recommendedValues());
    }

    @Test
    void settingsOfOneKindOfFormatShowOnlyForIt() {
        Map<String, ConfigValue> canal = validate();
        Map<String, ConfigValue> open = validate(CdcSourceConfig.OUTPUT_FORMAT, "open-protocol");
        Map<String, ConfigValue> avro = validate(CdcSourceConfig.OUTPUT_FORMAT, "avro");
        for (String registry : List.of(CdcSourceConfig.SCHEMA_REGISTRY_URL, CdcSourceConfig.AVRO_DECIMAL_HANDLING)) {
            assertFalse(canal.get(registry).visible(), registry);
            assertTrue(avro.get(registry).visible(), registry);
        }
        assertTrue(canal.get(CdcSourceConfig.COMPRESSION).visible());
        assertFalse(avro.get(CdcSourceConfig.COMPRESSION).visible());
        assertFalse(canal.get(CdcSourceConfig.OPEN_PROTOCOL_MAX_BATCH_SIZE).visible());
        assertTrue(open.get(CdcSourceConfig.OPEN_PROTOCOL_MAX_BATCH_SIZE).visible());
        assertTrue(canal.get(CdcSourceConfig.CONTENT_COMPATIBLE).visible());
        assertFalse(open.get(CdcSourceConfig.CONTENT_COMPATIBLE).visible());
        assertTrue(open.get(CdcSourceConfig.OPEN_OUTPUT_OLD_VALUE).visible());
        assertTrue(CdcSourceConfig.configDef().configKeys().get(CdcSourceConfig.OUTPUT_FORMAT).dependents
                .contains(CdcSourceConfig.SCHEMA_REGISTRY_URL));
    }

    @Test
    void partitionColumnsShowOnlyForTheColumnsRule() {
        assertFalse(validate().get(CdcSourceConfig.PARTITION_COLUMNS).visible());
        assertTrue(validate(CdcSourceConfig.PARTITION_RULE, "columns").get(CdcSourceConfig.PARTITION_COLUMNS)
                .visible());
    }
}
