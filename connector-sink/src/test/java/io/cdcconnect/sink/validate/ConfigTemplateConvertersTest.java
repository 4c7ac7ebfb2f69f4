package io.cdcconnect.sink.validate;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.ConverterRules;
import io.cdcconnect.codec.WireFormat;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every connector template in {@code config/} names its own key and value converters (so that it works on a shared
 * worker whose default converter is another, config/connect-distributed-shared.properties), and they are converters
 * its format needs by the rules both connectors' validation applies ({@link ConverterRules}).
 */
class ConfigTemplateConvertersTest {

    @Test
    void everyTemplateSetsConvertersItsFormatNeeds() throws IOException {
        Path dir = Path.of(System.getProperty("cdc.config.dir", "../config"));
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no templates in " + dir.toAbsolutePath());
        int sources = 0;
        int sinks = 0;
        for (Path f : files) {
            Map<String, String> c = new ObjectMapper().readValue(f.toFile(),
                    new TypeReference<LinkedHashMap<String, String>>() {
                    });
            assertTrue(c.containsKey(ConverterRules.KEY_CONVERTER) && c.containsKey(ConverterRules.VALUE_CONVERTER),
                    f + " does not set both converters");
            List<ConverterRules.Problem> problems;
            if (c.get("connector.class").equals("io.cdcconnect.source.CdcSourceConnector")) {
                sources++;
                problems = ConverterRules.forProducer(WireFormat.encodable(c.getOrDefault("output.format",
                        WireFormat.CANAL_JSON.configName())), c);
            } else {
                sinks++;
                problems = ConverterRules.forConsumer(WireFormat.named(c.getOrDefault("input.format",
                        WireFormat.CANAL_JSON.configName())), false, c);
            }
            assertEquals(List.of(), problems, f.toString());
        }
        assertTrue(sources > 0 && sinks > 0, sources + " source and " + sinks + " sink templates");
    }
}
