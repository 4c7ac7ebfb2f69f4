package io.cdcconnect.source;

import io.cdcconnect.codec.CodecOptions;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TiCDC's encoder options and dispatchers as source settings: TiCDC's defaults, handed to the codec by TiCDC's names
 * for the formats whose encoder reads them, refused (naming the setting) where TiCDC would silently ignore them.
 */
class TicdcOptionSettingsTest {

    private static CdcSourceConfig config(String... kv) {
        Map<String, String> p = CdcSourceConfigTest.minimal();
        for (int i = 0; i < kv.length; i += 2) p.put(kv[i], kv[i + 1]);
        return new CdcSourceConfig(p);
    }

    private static void assertRefused(String setting, String mentions, String... kv) {
        ConfigException e = assertThrows(ConfigException.class, () -> config(kv));
        assertTrue(e.getMessage().contains(setting), e.getMessage());
        assertTrue(e.getMessage().contains(mentions), e.getMessage());
    }

    @Test
    void ticdcsDefaultsReachTheCodecForTheFormatsThatReadThem() {
        Map<String, String> canal = config().codecOptions();
        assertEquals("false", canal.get(CodecOptions.ONLY_OUTPUT_UPDATED_COLUMNS));
        assertEquals("false", canal.get(CodecOptions.DELETE_ONLY_HANDLE_KEY_COLUMNS));
        assertEquals("false", canal.get(CodecOptions.CONTENT_COMPATIBLE));
        assertFalse(canal.containsKey(CodecOptions.OPEN_OUTPUT_OLD_VALUE));
        Map<String, String> open = config("output.format", "open-protocol").codecOptions();
        assertEquals("true", open.get(CodecOptions.OPEN_OUTPUT_OLD_VALUE));
        assertFalse(open.containsKey(CodecOptions.CONTENT_COMPATIBLE));
        assertFalse(config().outputRawChangeEvent());
        assertTrue(config().dispatchRules().isEmpty());
    }

    @Test
    void settingsReachTheCodecByTicdcsNames() {
        Map<String, String> open = config("output.format", "open-protocol", "only.output.updated.columns", "true",
                "delete.only.output.handle.key.columns", "true", "open.output.old.value", "false").codecOptions();
        assertEquals("true", open.get(CodecOptions.ONLY_OUTPUT_UPDATED_COLUMNS));
        assertEquals("true", open.get(CodecOptions.DELETE_ONLY_HANDLE_KEY_COLUMNS));
        assertEquals("false", open.get(CodecOptions.OPEN_OUTPUT_OLD_VALUE));
        assertEquals("true", config("content.compatible", "true").codecOptions().get(CodecOptions.CONTENT_COMPATIBLE));
    }

    @Test
    void anOptionTheFormatIgnoresIsRefusedNamingTheSettingAndItsFormats() {
        assertRefused("content.compatible", "canal-json", "output.format", "open-protocol", "content.compatible",
                "true");
        assertRefused("open.output.old.value", "open-protocol", "open.output.old.value", "false");
        assertRefused("only.output.updated.columns", "canal-json or open-protocol", "output.format", "avro",
                "schema.registry.url", "http://registry:8081", "only.output.updated.columns", "true");
        assertRefused("delete.only.output.handle.key.columns", "avro", "output.format", "avro",
                "schema.registry.url", "http://registry:8081", "delete.only.output.handle.key.columns", "true");
        config("output.format", "avro", "schema.registry.url", "http://registry:8081", "content.compatible", "false");
    }

    @Test
    void rawChangeEventsWithoutTheOldRowAreRefused() {
        assertRefused("output.raw.change.event", "open.output.old.value", "output.format", "open-protocol",
                "output.raw.change.event", "true", "open.output.old.value", "false");
        config("output.format", "open-protocol", "output.raw.change.event", "true");
    }

    @Test
    void badDispatchersAreRefusedNamingTheRule() {
        assertRefused("dispatchers", "rule 1", "dispatchers", "[{\"matcher\": [\"shop\"]}]");
        assertRefused("dispatchers", "columns", "dispatchers", "[{\"matcher\": [\"shop.*\"], \"partition\": "
                + "\"columns\"}]");
        assertEquals(2, config("dispatchers", "[{\"matcher\": [\"shop.*\"], \"partition\": \"index-value\"}, "
                + "{\"matcher\": [\"*.*\"], \"topic\": \"all\"}]").dispatchRules().size());
        assertEquals("index-value", config("partition.rule", "index-value").partitionRule().configName());
    }

    @Test
    void noNewSettingIsHandedToDebezium() {
        for (String s : new String[] {"dispatchers", "output.raw.change.event", "only.output.updated.columns",
                "delete.only.output.handle.key.columns", "content.compatible", "open.output.old.value"}) {
            assertTrue(CdcSourceConfig.isOwnSetting(s), s);
        }
    }
}
