package io.cdcconnect.sink.validate;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.sink.CdcSinkConnector;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sink on {@code topics.regex} without {@code consumer.override.metadata.max.age.ms} would read a new table's topic
 * up to 5 minutes late (Kafka's default metadata refresh): validate() logs a WARN naming the fix (Connect's validation
 * has no warnings), reports no error for it, and stays quiet when the override is there or the sink names its topics.
 * Every sink template on a pattern sets the override below the default, and both worker files let connectors
 * override client settings.
 */
class TopicPatternWarningTest {

    private static final String SECRET = "pw-Tp9-never-shown";

    private static Map<String, String> props(String... kv) {
        Map<String, String> m = new HashMap<>();
        try (ServerSocket s = new ServerSocket(0)) {
            m.put("connection.url", "jdbc:mysql://127.0.0.1:" + s.getLocalPort() + "/");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        m.put("connection.user", "u");
        m.put("connection.password", SECRET);
        m.put("schema.include", "shop");
        m.put("name", "pattern-sink");
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    /** What validate() logs at WARN or above, and its answer's errors. */
    private static List<String> warnings(Map<String, String> props, List<String> errors) {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        AppenderSkeleton capture = new AppenderSkeleton() {
            @Override
            protected void append(LoggingEvent event) {
                if (event.getLevel().isGreaterOrEqual(Level.WARN)) lines.add(event.getRenderedMessage());
            }

            @Override
            public void close() {
            }

            @Override
            public boolean requiresLayout() {
                return false;
            }
        };
        Logger log = Logger.getLogger(SinkValidation.class);
        log.addAppender(capture);
        try {
            for (ConfigValue v : new CdcSinkConnector().validate(props).configValues()) {
                for (String e : v.errorMessages()) errors.add(v.name() + ": " + e);
            }
        } finally {
            log.removeAppender(capture);
        }
        return lines.stream().filter(l -> l.contains("metadata.max.age.ms")).toList();
    }

    @Test
    void aPatternWithoutTheOverrideIsWarnedAboutNamingTheFix() {
        List<String> errors = new ArrayList<>();
        List<String> w = warnings(props("topics.regex", "cdc\\.shop\\..*"), errors);
        assertEquals(1, w.size(), w.toString());
        String m = w.get(0);
        assertTrue(m.startsWith("sink pattern-sink: topics.regex is used without consumer.override.metadata.max.age.ms"), m);
        assertTrue(m.contains("300000 ms, 5 minutes") && m.contains("connector.client.config.override.policy=All"), m);
        assertFalse(m.contains(SECRET), m);
        assertTrue(errors.stream().noneMatch(e -> e.contains("metadata.max.age.ms") || e.startsWith("topics.regex")),
                "a warning, not an error: " + errors);
    }

    @Test
    void anOverrideNoShorterThanTheDefaultIsWarnedAboutToo() {
        List<String> w = warnings(props("topics.regex", "cdc\\..*",
                "consumer.override.metadata.max.age.ms", "300000"), new ArrayList<>());
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("is used with consumer.override.metadata.max.age.ms=300000, no shorter than Kafka's default"), w.get(0));
    }

    @Test
    void noWarningWithTheOverrideOrWithNamedTopics() {
        assertEquals(List.of(), warnings(props("topics.regex", "cdc\\..*",
                "consumer.override.metadata.max.age.ms", "30000"), new ArrayList<>()));
        assertEquals(List.of(), warnings(props("topics", "cdc.shop.orders"), new ArrayList<>()));
    }

    @Test
    void everySinkTemplateOnAPatternSetsTheOverrideAndTheWorkersAllowIt() throws IOException {
        Path dir = Path.of(System.getProperty("cdc.config.dir", "../config"));
        List<Path> sinks;
        try (Stream<Path> s = Files.list(dir)) {
            sinks = s.filter(p -> p.getFileName().toString().matches("sink-.*\\.json")).sorted().toList();
        }
        assertFalse(sinks.isEmpty(), "no sink templates in " + dir.toAbsolutePath());
        for (Path f : sinks) {
            Map<String, String> c = new ObjectMapper().readValue(f.toFile(), new TypeReference<LinkedHashMap<String, String>>() {
            });
            if (!c.containsKey("topics.regex")) continue;
            assertEquals(null, SinkValidation.topicPatternWarning("sink", c), f.toString());
            assertTrue(Long.parseLong(c.get(SinkValidation.METADATA_MAX_AGE_OVERRIDE)) <= 30_000, f + ": seen within 30 s");
        }
        for (String worker : List.of("connect-distributed-shared.properties", "connect-distributed-dedicated.properties")) {
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(dir.resolve(worker))));
            String policy = p.getProperty("connector.client.config.override.policy", "None");
            boolean allows = policy.equals("All") || policy.equals("Allowlist") && List.of(p.getProperty(
                    "connector.client.config.override.allowlist", "").split("\\s*,\\s*")).contains("metadata.max.age.ms");
            assertTrue(allows, worker + ": the sink's consumer.override.metadata.max.age.ms needs an override policy that allows it, not " + policy);
        }
    }
}
