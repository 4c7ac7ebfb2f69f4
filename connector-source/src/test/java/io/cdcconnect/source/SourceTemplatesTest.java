package io.cdcconnect.source;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The templates in {@code config/} work on a quiet database and a real cluster: every source template sets
 * {@code heartbeat.interval.ms}, which reaches Debezium's task unchanged (so the stored offset moves while only
 * uncaptured tables change, and lag-ms stays down on an idle source, {@code SourceMetrics#heartbeat}); no template
 * sets a replication factor of 1 (-1 takes the broker's default). The quickstart's connectors (quickstart/connectors/,
 * one broker) are not templates.
 */
class SourceTemplatesTest {

    private static List<Path> templates() throws IOException {
        Path dir = Path.of(System.getProperty("cdc.config.dir", "../config"));
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
        }
    }

    private static Map<String, String> read(Path f) throws IOException {
        return new ObjectMapper().readValue(f.toFile(), new TypeReference<LinkedHashMap<String, String>>() {
        });
    }

    @Test
    void everySourceTemplateSetsAHeartbeatThatReachesDebezium() throws IOException {
        int sources = 0;
        for (Path f : templates()) {
            Map<String, String> c = read(f);
            if (!"io.cdcconnect.source.CdcSourceConnector".equals(c.get("connector.class"))) continue;
            sources++;
            String hb = c.get("heartbeat.interval.ms");
            assertTrue(hb != null && Long.parseLong(hb) > 0 && Long.parseLong(hb) <= 60_000, f + ": heartbeat.interval.ms " + hb);
            SourceFlavor flavor = SourceFlavor.parse(c.getOrDefault("source.flavor", ""));
            assertEquals(hb, DebeziumSettings.forDebezium(c, flavor).get("heartbeat.interval.ms"), f + ": passed to Debezium");
        }
        assertTrue(sources >= 8, sources + " source templates");
    }

    @Test
    void noTemplateSetsAReplicationFactorOfOne() throws IOException {
        List<Path> files = templates();
        assertFalse(files.isEmpty());
        for (Path f : files) {
            for (Map.Entry<String, String> e : read(f).entrySet()) {
                if (e.getKey().endsWith("replication.factor")) {
                    assertNotEquals("1", e.getValue().trim(), f + ": " + e.getKey() + " (use -1, the broker's default)");
                }
            }
        }
    }
}
