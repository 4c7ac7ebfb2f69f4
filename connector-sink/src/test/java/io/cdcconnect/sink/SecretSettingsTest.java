package io.cdcconnect.sink;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every sink setting that can carry a password is a password setting: Kafka's config class logs it as [hidden] when
 * the task starts, and Connect's validation answer shows it as [hidden]; the sink still reads the real value.
 */
class SecretSettingsTest {

    private static final String SECRET = "Pw4Sink-" + Long.toHexString(System.nanoTime());

    private static Map<String, String> props() {
        return Map.of(
                "connection.user", "app",
                "connection.url", "jdbc:mysql://app:" + SECRET + "@db.example:3306/?password=" + SECRET,
                "connection.password", SECRET,
                "schema.include", "shop",
                "input.format", "avro",
                "schema.registry.url", "https://reg:" + SECRET + "@registry.example:8081",
                "input.codec.options", "schema-registry-username=reg,schema-registry-password=" + SECRET);
    }

    @Test
    void everySettingThatCanHoldAPasswordIsOfTypePassword() {
        ConfigDef def = CdcSinkConfig.configDef();
        for (String name : List.of("connection.url", "connection.password", "schema.registry.url",
                "input.codec.options")) {
            assertEquals(ConfigDef.Type.PASSWORD, def.configKeys().get(name).type, name);
        }
    }

    @Test
    void theSinkReadsTheValuesThemselves() {
        CdcSinkConfig c = new CdcSinkConfig(props());
        assertTrue(c.connectionUrl().contains(SECRET));
        assertTrue(c.schemaRegistryUrl().contains(SECRET));
        assertEquals(SECRET, c.inputCodecOptions().get("schema-registry-password"));
        assertEquals("reg", c.inputCodecOptions().get("schema-registry-username"));
    }

    @Test
    void kafkasConfigLogShowsNoSecret() {
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        AppenderSkeleton capture = new AppenderSkeleton() {
            @Override
            protected void append(LoggingEvent event) {
                lines.add(event.getRenderedMessage());
            }

            @Override
            public void close() {
            }

            @Override
            public boolean requiresLayout() {
                return false;
            }
        };
        Logger configLog = Logger.getLogger(AbstractConfig.class);
        Level before = configLog.getLevel();
        configLog.setLevel(Level.INFO);
        configLog.addAppender(capture);
        try {
            new CdcSinkConfig(props());
        } finally {
            configLog.removeAppender(capture);
            configLog.setLevel(before);
        }
        String all = String.join("\n", lines);
        assertTrue(all.contains("connection.url = [hidden]"), "Kafka logs the values at start: " + all);
        assertTrue(all.contains("schema.registry.url = [hidden]"), all);
        assertTrue(all.contains("input.codec.options = [hidden]"), all);
        assertFalse(all.contains(SECRET), all);
    }

    @Test
    void theValidationAnswerShowsNoSecret() {
        Config answer = new CdcSinkConnector().validate(props());
        for (ConfigValue v : answer.configValues()) {
            String shown = ConfigDef.convertToString(v.value(), CdcSinkConfig.configDef().configKeys()
                    .get(v.name()).type);
            assertFalse(String.valueOf(shown).contains(SECRET), v.name() + " shown as " + shown);
            assertFalse(String.join(" ", v.errorMessages()).contains(SECRET), v.name() + ": " + v.errorMessages());
        }
    }

    /**
     * Connect's validation of a sink whose URL carries a wrong password in each of the forms a pattern over the text
     * missed (a host block, address=(...), the second host's user info, a percent-encoded key), against the real
     * target: the answer says why it cannot connect, and names the host, but shows no password.
     */
    @Test
    void aWrongPasswordInTheUrlIsNotInTheValidationAnswer() {
        String host = io.cdcconnect.sink.testutil.SinkTarget.server().host();
        int port = io.cdcconnect.sink.testutil.SinkTarget.server().port();
        String wrong = "Wr0ng-" + Long.toHexString(System.nanoTime());
        List<String> urls = List.of(
                "jdbc:mysql://(host=" + host + ",port=" + port + ",password=" + wrong + ")/",
                "jdbc:mysql://address=(host=" + host + ")(port=" + port + ")(password=" + wrong + ")/",
                "jdbc:mysql://u1:" + wrong + "a@" + host + ":" + port + ",u2:" + wrong + "b@" + host + ":" + port
                        + "/",
                "jdbc:mysql://" + host + ":" + port + "/?pass%77ord=" + wrong);
        for (String url : urls) {
            Config answer = new CdcSinkConnector().validate(Map.of("connection.url", url, "connection.user",
                    io.cdcconnect.sink.testutil.SinkTarget.user()));
            StringBuilder all = new StringBuilder();
            for (ConfigValue v : answer.configValues()) {
                all.append(v.name()).append('=').append(ConfigDef.convertToString(v.value(),
                        CdcSinkConfig.configDef().configKeys().get(v.name()).type)).append(' ')
                        .append(v.errorMessages()).append('\n');
            }
            List<String> urlErrors = answer.configValues().stream().filter(v -> v.name().equals("connection.url"))
                    .findFirst().orElseThrow().errorMessages();
            assertEquals(1, urlErrors.size(), url + ": " + all);
            assertTrue(urlErrors.get(0).startsWith("cannot connect to jdbc:mysql:") && urlErrors.get(0).contains(host),
                    urlErrors.get(0));
            assertTrue(urlErrors.get(0).contains("Access denied"), urlErrors.get(0));
            assertFalse(all.toString().contains(wrong), all.toString());
        }
    }

    @Test
    void aMalformedOptionIsNotEchoed() {
        Map<String, String> p = new java.util.HashMap<>(props());
        p.put("input.codec.options", "schema-registry-password" + SECRET);
        org.apache.kafka.common.config.ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(
                org.apache.kafka.common.config.ConfigException.class, () -> new CdcSinkConfig(p).inputCodecOptions());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }
}
