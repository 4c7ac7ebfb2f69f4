package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.sink.CdcSinkConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** input.format reads the format registry: its names, and the decoder each format declares. */
class RecordDecodersTest {

    private static CdcSinkConfig config(String format, boolean registry) {
        Map<String, String> p = new HashMap<>(Map.of("connection.user", "u", "connection.url", "jdbc:mysql://db/",
                "input.format", format, "schema.include", "shop"));
        if (registry) p.put("schema.registry.url", "http://127.0.0.1:1");
        return new CdcSinkConfig(p);
    }

    @Test
    void everyFormatOfTheRegistryIsAcceptedAndGetsItsDecoder() {
        assertEquals(WireFormat.names(f -> true), CdcSinkConfig.INPUT_FORMATS);
        for (WireFormat f : WireFormat.values()) {
            CdcSinkConfig c = config(f.configName(), f.needsSchemaRegistry());
            assertEquals(f, c.inputWireFormat());
            RecordDecoder d = RecordDecoders.forConfig(c);
            if (f.codecDecoded()) {
                assertInstanceOf(CodecRecordDecoder.class, d, f.configName());
            } else {
                assertInstanceOf(DebeziumEnvelopeDecoder.class, d, f.configName());
            }
            if (f.nullValueIsTombstone()) {
                SinkRecord tombstone = new SinkRecord("t", 0, null, null, null, null, 1);
                assertEquals(List.of(), d.decode(tombstone), f.configName());
            }
        }
    }

    @Test
    void anUnknownFormatIsRefusedListingTheRegistrysNames() {
        ConfigException e = assertThrows(ConfigException.class, () -> config("protobuf", false));
        for (String name : WireFormat.names(f -> true)) assertTrue(e.getMessage().contains(name), e.getMessage());
        String doc = CdcSinkConfig.configDef().configKeys().get(CdcSinkConfig.INPUT_FORMAT).documentation;
        assertTrue(doc.contains(WireFormat.describe(f -> true)), doc);
    }

    @Test
    void aFormatThatNeedsARegistryIsRefusedWithoutOne() {
        for (WireFormat f : WireFormat.values()) {
            if (!f.needsSchemaRegistry()) continue;
            ConfigException e = assertThrows(ConfigException.class,
                    () -> RecordDecoders.forConfig(config(f.configName(), false)));
            assertTrue(e.getMessage().contains(CdcSinkConfig.SCHEMA_REGISTRY_URL), e.getMessage());
        }
    }
}
