package io.cdcconnect.sink.validate;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.sink.CdcSinkConfig;
import io.cdcconnect.sink.CdcSinkConnector;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bridge for JDBC-sink users through the sink's validate(): each setting of Confluent's and Debezium's JDBC
 * sinks is either this sink's own with the same meaning, or refused on its field naming what does the job here; any
 * other unknown setting is warned about with the closest known name. No target is reachable (a closed port).
 */
class JdbcSinkSettingsTest {

    private static final String SECRET = "pw-Jd8-never-shown";

    private static Map<String, String> props(String... kv) {
        Map<String, String> m = new HashMap<>();
        m.put("name", "bridge-test");
        m.put("connection.url", "jdbc:mysql://127.0.0.1:" + closedPort() + "/");
        m.put("connection.user", "u");
        m.put("schema.include", "shop");
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private static int closedPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, ConfigValue> validate(Map<String, String> props) {
        Map<String, ConfigValue> out = new HashMap<>();
        for (ConfigValue v : new CdcSinkConnector().validate(props).configValues()) out.put(v.name(), v);
        return out;
    }

    private static List<String> errors(Map<String, ConfigValue> values, String name) {
        ConfigValue v = values.get(name);
        return v == null ? List.of() : v.errorMessages();
    }

    /** One error on the setting, naming the settings that do the job here; only the setting is refused. */
    private static String refused(String setting, String value, String... naming) {
        Map<String, ConfigValue> v = validate(props(setting, value));
        List<String> e = errors(v, setting);
        assertEquals(1, e.size(), setting + ": " + v);
        assertTrue(e.get(0).startsWith(setting + " is a setting of "), e.get(0));
        assertTrue(e.get(0).contains("JDBC sink, not of cdc-connect's"), e.get(0));
        for (String n : naming) assertTrue(e.get(0).contains(n), n + " in " + e.get(0));
        assertTrue(e.get(0).contains("remove " + setting) || e.get(0).contains("Remove " + setting), e.get(0));
        for (ConfigValue other : v.values()) {
            if (other.name().equals(setting) || other.name().equals(CdcSinkConfig.CONNECTION_URL)) continue;
            assertEquals(List.of(), other.errorMessages(), other.name());
        }
        return e.get(0);
    }

    @Test
    void tableNameFormatIsRefusedNamingSchemaMap() {
        String e = refused("table.name.format", "kafka_${topic}", "schema.map", "change event names");
        assertTrue(e.contains("Set schema.map instead"), e);
        refused("collection.name.format", "${topic}", "schema.map");
    }

    @Test
    void insertModeIsRefusedNamingSafeMode() {
        String upsert = refused("insert.mode", "upsert", "safe.mode=always", "Set safe.mode instead");
        assertEquals(upsert, refused("insert.mode", "insert", "safe.mode=never"));
        refused("insert.mode", "update", "safe.mode");
    }

    @Test
    void keySettingsAreRefusedSayingKeysComeFromTheTargetTable() {
        for (String[] s : List.of(new String[] {"pk.mode", "record_key"}, new String[] {"pk.mode", "none"},
                new String[] {"primary.key.mode", "record_key"}, new String[] {"pk.fields", "id"},
                new String[] {"primary.key.fields", "id,region"})) {
            String e = refused(s[0], s[1], "target table's own primary key");
            assertTrue(e.contains("Remove " + s[0]) && !e.contains(" instead"), e);
        }
    }

    @Test
    void deleteEnabledIsRefusedEitherWaySinceDeletesAreAlwaysApplied() {
        refused("delete.enabled", "true", "deletes are always applied");
        refused("delete.enabled", "false", "no setting turns that off");
    }

    @Test
    void batchSizeIsRefusedNamingMaxTxnRows() {
        refused("batch.size", "3000", "Set max.txn.rows instead", "committed whole");
    }

    @Test
    void schemaEvolutionIsRefusedNamingAutoCreateAndAutoEvolve() {
        refused("schema.evolution", "basic", "auto.create / auto.evolve", "auto.create=true with auto.evolve=true");
    }

    @Test
    void debeziumsUserNameAndConfluentsRetriesAreRefusedNamingOurs() {
        refused("connection.username", "u", "Set connection.user instead");
        refused("max.retries", "10", "Set retry.max.attempts instead");
        // reported even when the configuration lacks what it needs to be read at all (no connection.user)
        Map<String, String> debezium = props("connection.username", "u");
        debezium.remove("connection.user");
        Map<String, ConfigValue> v = validate(debezium);
        assertTrue(errors(v, "connection.username").get(0).contains("Set connection.user instead"), v.toString());
        assertFalse(errors(v, CdcSinkConfig.CONNECTION_USER).isEmpty(), v.toString());
    }

    @Test
    void everyRefusedEntryOfTheListIsRefusedWithItsOwnMessage() {
        for (JdbcSinkSettings.Entry e : JdbcSinkSettings.ENTRIES) {
            if (e.fate() != JdbcSinkSettings.Fate.REFUSED) continue;
            assertEquals(List.of(e.refusal()), errors(validate(props(e.setting(), "1")), e.setting()), e.setting());
            for (String ours : e.instead()) {
                assertTrue(CdcSinkConfig.configDef().names().contains(ours), e.setting() + " names " + ours);
            }
        }
    }

    @Test
    void autoCreateAndAutoEvolveAreAcceptedWithTheirMeaning() {
        Map<String, String> p = props("auto.create", "true", "auto.evolve", "true");
        Map<String, ConfigValue> v = validate(p);
        assertEquals(List.of(), errors(v, CdcSinkConfig.AUTO_CREATE));
        assertEquals(List.of(), errors(v, CdcSinkConfig.AUTO_EVOLVE));
        CdcSinkConfig config = CdcSinkConfig.withoutRules(p);
        assertTrue(config.autoCreate() && config.autoEvolve());
        for (JdbcSinkSettings.Entry e : JdbcSinkSettings.ENTRIES) {
            // a setting called the same is the sink's own exactly when the list says so
            boolean ours = CdcSinkConfig.configDef().names().contains(e.setting());
            assertEquals(e.fate() == JdbcSinkSettings.Fate.SAME, ours, e.setting());
        }
        assertEquals(List.of(), JdbcSinkSettings.refusals(p));
    }

    @Test
    void anUnknownSettingIsOnlyWarnedAboutNamingTheClosestKnownOne() {
        Map<String, String> p = props("worker.cont", "8", "tasks.maxx", "2", "safe_mode", "always",
                "connection.pasword", SECRET);
        List<ConfigProblem> w = JdbcSinkSettings.warnings("sink bridge-test", p);
        Map<String, String> closest = new HashMap<>();
        for (ConfigProblem c : w) {
            assertTrue(c.message().startsWith("sink bridge-test: '" + c.setting() + "' is not a setting"), c.message());
            assertFalse(c.message().contains(SECRET), c.message());
            closest.put(c.setting(), c.message().replaceAll(".*closest known setting is '([^']+)'.*", "$1"));
        }
        assertEquals(Map.of("worker.cont", "worker.count", "tasks.maxx", "tasks.max", "safe_mode", "safe.mode",
                "connection.pasword", "connection.password"), closest);
        // validation does not refuse them: no error anywhere but the unreachable target's
        Map<String, ConfigValue> v = validate(p);
        for (ConfigValue value : v.values()) {
            if (value.name().equals(CdcSinkConfig.CONNECTION_URL)) continue;
            assertEquals(List.of(), value.errorMessages(), value.name());
        }
    }

    @Test
    void connectsOwnSettingsAndTheBridgesAreNotWarnedAbout() {
        Map<String, String> p = props("connector.class", CdcSinkConnector.class.getName(), "tasks.max", "2",
                "topics.regex", "cdc\\..*", "key.converter", "x", "key.converter.schemas.enable", "false",
                "value.converter", "x", "header.converter", "x", "transforms", "r", "transforms.r.type", "x",
                "predicates", "p", "predicates.p.type", "x", "errors.tolerance", "all",
                "errors.deadletterqueue.topic.name", "dlq", "consumer.override.auto.offset.reset", "earliest",
                "config.action.reload", "restart", "insert.mode", "upsert", "auto.create", "true");
        assertEquals(List.of(), JdbcSinkSettings.warnings("sink", p));
    }

    @Test
    void editDistanceCountsSingleCharacterEdits() {
        assertEquals(3, JdbcSinkSettings.distance("kitten", "sitting"));
        assertEquals(0, JdbcSinkSettings.distance("safe.mode", "safe.mode"));
        assertEquals(9, JdbcSinkSettings.distance("", "safe.mode"));
        assertEquals("max.txn.rows", JdbcSinkSettings.closest("max.txn.row", List.of("max.txn.rows", "safe.mode")));
    }

    @Test
    void noSinkTemplateUsesARefusedOrUnknownSetting() throws IOException {
        Path dir = Path.of(System.getProperty("cdc.config.dir", "../config"));
        List<Path> sinks;
        try (Stream<Path> s = Files.list(dir)) {
            sinks = s.filter(f -> f.getFileName().toString().matches("sink-.*\\.json")).sorted().toList();
        }
        assertFalse(sinks.isEmpty(), dir.toAbsolutePath().toString());
        for (Path f : sinks) {
            Map<String, String> c = new ObjectMapper().readValue(f.toFile(),
                    new TypeReference<LinkedHashMap<String, String>>() {
                    });
            assertEquals(List.of(), JdbcSinkSettings.refusals(c), f.toString());
            assertEquals(List.of(), JdbcSinkSettings.warnings("sink", c), f.toString());
        }
    }

    @Test
    void sinkMdShowsTheMappingAsTheClassSaysIt() throws IOException {
        Path doc = Path.of(System.getProperty("cdc.docs.dir", "../docs")).resolve("sink.md");
        String text = Files.readString(doc);
        String table = JdbcSinkSettings.markdownTable();
        assertTrue(text.contains(table), doc.toAbsolutePath() + " should hold, under \"Coming from a JDBC sink\", "
                + "exactly the table JdbcSinkSettings.markdownTable() renders:\n" + table);
        for (JdbcSinkSettings.Entry e : JdbcSinkSettings.ENTRIES) {
            assertTrue(table.contains("| `" + e.setting() + "` |"), e.setting());
        }
    }
}
