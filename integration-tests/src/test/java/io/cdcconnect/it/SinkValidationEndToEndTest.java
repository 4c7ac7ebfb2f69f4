package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink's validation as a user meets it: a real Connect worker with the sink installed from its plugin archive
 * answers {@code PUT /connector-plugins/CdcSinkConnector/config/validate} with errors on the settings they concern,
 * against a real MariaDB and a real PostgreSQL. No answer carries a password.
 */
class SinkValidationEndToEndTest {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SinkValidationEndToEndTest.class);
    private static final String SINK = "io.cdcconnect.sink.CdcSinkConnector";
    private static final String PASSWORD = "Val-" + UUID.randomUUID().toString().substring(0, 12);

    private static ConnectCluster connect;
    private static DatabaseServer mariadb;
    private static String weakUser;
    private static final List<String> answers = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        mariadb = TestServers.database(DatabaseSpec.mariadb("11.4"));
        weakUser = "weak_" + UUID.randomUUID().toString().substring(0, 8);
        mariadb.execute("CREATE USER '" + weakUser + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT SELECT ON `shop_replica`.* TO '" + weakUser + "'@'%'");
        connect = ConnectCluster.start(Pipeline.pluginDir(), Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (connect != null) connect.close();
        if (mariadb != null) mariadb.execute("DROP USER IF EXISTS '" + weakUser + "'@'%'");
    }

    private static Map<String, String> sink(String url, String user, String password, String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("connector.class", SINK);
        m.put("name", "cdc-sink-validated");
        m.put("topics", "cdc.shop.orders");
        m.put("connection.url", url);
        m.put("connection.user", user);
        m.put("connection.password", password);
        m.put("schema.map", "shop=shop_replica");
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private static Map<String, String> mariadbSink(String... kv) {
        return sink("jdbc:mysql://" + mariadb.host() + ":" + mariadb.port() + "/", mariadb.user(),
                mariadb.password(), kv);
    }

    /** The errors of each setting that has any, from the worker's answer. */
    private static Map<String, List<String>> errors(Map<String, String> config) {
        JsonNode answer = connect.validate(SINK, config);
        String text = answer.toString();
        answers.add(text);
        assertFalse(text.contains(PASSWORD), "a password in the validation answer: " + text);
        if (mariadb.password() != null && !mariadb.password().isEmpty()) {
            assertFalse(text.contains(mariadb.password()), "a password in the validation answer: " + text);
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (JsonNode c : answer.path("configs")) {
            List<String> e = new ArrayList<>();
            c.path("value").path("errors").forEach(x -> e.add(x.asText()));
            if (!e.isEmpty()) out.put(c.path("value").path("name").asText(), e);
        }
        assertEquals(answer.path("error_count").asInt(), out.values().stream().mapToInt(List::size).sum(), text);
        LOG.info("validate answered error_count {}: {}", answer.path("error_count").asInt(), out);
        return out;
    }

    private static void assertOnlyError(Map<String, List<String>> errors, String setting, String containing) {
        assertEquals(List.of(setting), List.copyOf(errors.keySet()), errors.toString());
        assertTrue(errors.get(setting).stream().anyMatch(m -> m.contains(containing)), errors.toString());
    }

    @Test
    void aSoundConfigurationHasNoErrors() {
        assertEquals(Map.of(), errors(mariadbSink()));
    }

    @Test
    void avroWithoutARegistryUrl() {
        assertOnlyError(errors(mariadbSink("input.format", "avro")), "schema.registry.url", "set schema.registry.url");
    }

    @Test
    void aBadSchemaMap() {
        assertOnlyError(errors(mariadbSink("schema.map", "shop")), "schema.map", "source=target");
        assertOnlyError(errors(mariadbSink("schema.map", "shop=a,shop=b")), "schema.map", "mapped more than once");
    }

    @Test
    void anUnknownCodecOption() {
        assertOnlyError(errors(mariadbSink("input.codec.options", "claim-check-storage=file:///tmp/claims")),
                "input.codec.options", "unknown option 'claim-check-storage' (known: ");
    }

    @Test
    void anUnreachableTarget() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Map<String, List<String>> e = errors(sink("jdbc:mysql://cdc:" + PASSWORD + "@127.0.0.1:" + closed + "/",
                "cdc", PASSWORD));
        assertOnlyError(e, "connection.url", "cannot connect to jdbc:mysql://cdc:***@127.0.0.1:" + closed);
    }

    @Test
    void aTargetUserWithoutPrivileges() {
        Map<String, List<String>> e = errors(sink("jdbc:mysql://" + mariadb.host() + ":" + mariadb.port() + "/",
                weakUser, PASSWORD));
        assertEquals(List.of("connection.user"), List.copyOf(e.keySet()), e.toString());
        assertTrue(e.get("connection.user").get(0).contains("lacks INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX "
                + "on database `shop_replica`"), e.toString());
        assertTrue(e.get("connection.user").get(1).contains("lacks CREATE, SELECT, INSERT, UPDATE, DELETE on database "
                + "`cdc_connect`"), e.toString());
    }

    @Test
    void aPostgresTarget() throws Exception {
        DatabaseServer pg = TestServers.database(DatabaseSpec.postgres());
        try (TestDatabase db = new TestDatabase(pg, "validate")) {
            String pw = pg.password() == null ? "" : pg.password();
            assertEquals(Map.of(), errors(sink(db.jdbcUrl(), pg.user(), pw)));
            JsonNode answer = connect.validate(SINK, sink(db.jdbcUrl(), pg.user(), pw));
            for (JsonNode c : answer.path("configs")) {
                if (c.path("value").path("name").asText().equals("dialect")) {
                    assertEquals("[\"auto\",\"postgresql\"]", c.path("value").path("recommended_values").toString());
                }
            }
            assertOnlyError(errors(sink(db.jdbcUrl(), pg.user(), pw, "dialect", "mariadb")), "dialect",
                    "does not serve a PostgreSQL URL");
            assertOnlyError(errors(sink(db.jdbcUrl(), "nobody_" + UUID.randomUUID().toString().substring(0, 6),
                    PASSWORD)), "connection.url", "cannot connect to " + db.jdbcUrl());
        }
    }
}
