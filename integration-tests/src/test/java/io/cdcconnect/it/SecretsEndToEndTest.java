package io.cdcconnect.it;

import io.cdcconnect.testsupport.Closeables;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Secrets through a real pipeline (MariaDB with users that have passwords, a schema registry that asks for basic
 * authentication, Kafka and a Connect worker), Avro so that every kind of secret setting is used:
 * <ol>
 *   <li>the connectors' passwords come from the worker's {@code FileConfigProvider}
 *   ({@code config/source-mariadb-avro-secrets.json}, {@code config/sink-mariadb-avro-secrets.json}): database
 *   passwords, a registry URL with {@code user:password@}, and a registry password inside {@code input.codec.options}.
 *   Every row arrives, and the REST API's connector and task configs hold the references, not the values;</li>
 *   <li>a second sink with every secret written into its settings (a password in the JDBC URL, in the registry URL
 *   and in the codec options), a sink whose target cannot be reached and a source whose password is wrong (both
 *   refused when saved, by validation): nothing the worker logged (INFO and above, the level a worker runs at, with Kafka's own config listings) and no
 *   validation answer, status or task trace of the REST API shows any of the passwords.</li>
 * </ol>
 * The registry is test-support's stand-in, which refuses a request without the right credentials (401): the
 * registry's protocol is not what is tested here, and the real one (Apicurio) takes no credentials.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecretsEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SOURCE_DB = "shop_secrets";
    private static final String LITERAL_DB = "shop_secrets_literal";
    private static final String REGISTRY_USER = "cdc-registry";
    private static final String SOURCE_USER = "cdc_capture";
    private static final String TARGET_USER = "cdc_apply";

    private static final String SOURCE_PW = secret("Src");
    private static final String TARGET_PW = secret("Tgt");
    private static final String REGISTRY_PW = secret("Reg");
    private static final String WRONG_PW = secret("Wrong");

    private static WorkerLogCapture logs;
    private static DatabaseServer db;
    private static StandInSchemaRegistry registry;
    private static ConnectCluster connect;
    private static Pipeline pipeline;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static String secret(String prefix) {
        byte[] b = new byte[9];
        new SecureRandom().nextBytes(b);
        return prefix + "Pw" + HexFormat.of().formatHex(b);
    }

    /** Every secret, and the form a password takes in an HTTP basic-authentication header. */
    private static Map<String, String> secrets() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("source password", SOURCE_PW);
        s.put("target password", TARGET_PW);
        s.put("registry password", REGISTRY_PW);
        s.put("wrong source password", WRONG_PW);
        s.put("registry basic-auth header", Base64.getEncoder()
                .encodeToString((REGISTRY_USER + ":" + REGISTRY_PW).getBytes(StandardCharsets.UTF_8)));
        return s;
    }

    @BeforeAll
    static void start() throws Exception {
        logs = new WorkerLogCapture();
        Path work = FormatTestSupport.workDir("secrets");
        db = TestServers.startDatabase(DatabaseSpec.mariadb("11.4"), work.resolve("source-db"));
        db.execute("CREATE USER '" + SOURCE_USER + "'@'%' IDENTIFIED BY '" + SOURCE_PW + "'",
                "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR, LOCK TABLES ON *.* TO '"
                        + SOURCE_USER + "'@'%'",
                "CREATE USER '" + TARGET_USER + "'@'%' IDENTIFIED BY '" + TARGET_PW + "'",
                "GRANT ALL PRIVILEGES ON *.* TO '" + TARGET_USER + "'@'%'");
        registry = StandInSchemaRegistry.start(REGISTRY_USER, REGISTRY_PW);

        Path secretsDir = Files.createDirectories(work.resolve("secrets"));
        Path secretsFile = secretsDir.resolve("secrets.properties");
        Files.writeString(secretsFile, "source.password=" + SOURCE_PW + "\n"
                + "target.password=" + TARGET_PW + "\n"
                + "schema.registry.url=http://" + REGISTRY_USER + ":" + REGISTRY_PW + "@127.0.0.1:" + registry.port()
                + "\n"
                + "schema.registry.password=" + REGISTRY_PW + "\n");

        Map<String, String> worker = Map.of(
                "config.providers", "file",
                "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider",
                "config.providers.file.param.allowed.paths", secretsDir.toAbsolutePath().toString());
        connect = TestServers.kafkaConnect(Pipeline.pluginDir(), work.resolve("connect"), false, worker);
        pipeline = Pipeline.over(db, connect, SOURCE_DB,
                new Pipeline.Target(db.host(), db.port(), TARGET_USER, TARGET_PW, SOURCE_DB + "_replica"));
        pipeline.putConfigValue("SOURCE_USER", SOURCE_USER);
        pipeline.putConfigValue("SOURCE_PASSWORD", "(not used: the file provider has it)");
        pipeline.putConfigValue("SECRETS_FILE", secretsFile.toAbsolutePath().toString());
        pipeline.putConfigValue("SCHEMA_REGISTRY_URL", registry.url());
        pipeline.putConfigValue("SCHEMA_REGISTRY_USER", REGISTRY_USER);
    }

    @AfterAll
    static void stop() {
        Closeables.closeAll(pipeline, connect, db, registry, logs);
    }

    @Test
    @Order(1)
    void passwordsFromTheWorkersFileConfigProviderReachEveryConnection() throws Exception {
        pipeline.createSchemas();
        Workload workload = new Workload(71);
        try (Connection c = pipeline.sourceConnection()) {
            workload.preload(c, 40);
        }
        pipeline.registerSource("source-mariadb-avro-secrets.json", 1);
        pipeline.registerSink("sink-mariadb-avro-secrets.json", 1);
        try (Connection c = pipeline.sourceConnection()) {
            workload.run(c, 200, 0, null);
        }
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));
        // (the stand-in answers 401 to a request without the right credentials: rows that arrived prove them)
        assertTrue(registry.registrations() > 0 && registry.lookups() > 0, "schemas went through the registry");

        for (String name : List.of(Pipeline.SOURCE_CONNECTOR, Pipeline.SINK_CONNECTOR)) {
            for (String path : List.of("/connectors/" + name + "/config", "/connectors/" + name + "/tasks")) {
                String body = get(path);
                assertTrue(body.contains("${file:"), path + " keeps the reference: " + body);
                assertNoSecret("GET " + path, body);
            }
        }
    }

    @Test
    @Order(2)
    void noPasswordInTheLogsValidationAnswersStatusesOrTraces() throws Exception {
        List<String> answers = new ArrayList<>();
        String literalRegistryUrl = "http://" + REGISTRY_USER + ":" + REGISTRY_PW + "@127.0.0.1:" + registry.port();

        // a second sink with every secret written into its settings, applying into a database of its own
        try (Connection c = pipeline.targetConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS `" + LITERAL_DB + "`");
            s.execute("USE `" + LITERAL_DB + "`");
            for (String ddl : Workload.DDL) s.execute(ddl);
        }
        Map<String, String> literalSink = ConnectorConfigFiles.load("sink-mariadb-avro.json", pipeline.configValues());
        literalSink.put("connection.url", "jdbc:mysql://" + TARGET_USER + ":" + TARGET_PW + "@" + db.host() + ":"
                + db.port() + "/?password=" + TARGET_PW);
        literalSink.put("connection.password", TARGET_PW);
        literalSink.put("schema.registry.url", literalRegistryUrl);
        literalSink.put("input.codec.options", "schema-registry-username=" + REGISTRY_USER
                + ",schema-registry-password=" + REGISTRY_PW);
        literalSink.put("schema.map", SOURCE_DB + "=" + LITERAL_DB);
        connect.putConnector("cdc-sink-literal", literalSink);
        connect.awaitRunning("cdc-sink-literal", 1, Duration.ofSeconds(90));
        awaitEqual(LITERAL_DB, Duration.ofMinutes(3));

        // a sink whose target does not answer: validation tries it, so Connect refuses to save it, saying where
        Map<String, String> brokenSink = new LinkedHashMap<>(literalSink);
        brokenSink.put("connection.url", "jdbc:mysql://" + TARGET_USER + ":" + TARGET_PW + "@127.0.0.1:"
                + closedPort() + "/?password=" + TARGET_PW);
        brokenSink.put("connection.password", TARGET_PW);
        brokenSink.put("topics.regex", "cdc-secrets-nothing");
        HttpResponse<String> refusedSink = put("/connectors/cdc-sink-broken/config", brokenSink);
        assertEquals(400, refusedSink.statusCode(), refusedSink.body());
        assertTrue(refusedSink.body().contains("cannot connect to jdbc:mysql://" + TARGET_USER + ":***@127.0.0.1:"),
                "the answer names the target: " + refusedSink.body());
        answers.add(refusedSink.body());

        // a source with a wrong password and the registry's credentials in its URL: Connect refuses to save it, with
        // the start-up check's answer
        Map<String, String> brokenSource = ConnectorConfigFiles.load("source-mariadb-avro.json", pipeline.configValues());
        brokenSource.put("database.password", WRONG_PW);
        brokenSource.put("schema.registry.url", literalRegistryUrl);
        brokenSource.put("topic.prefix", "cdc_broken");
        brokenSource.put("database.server.id", "5499");
        HttpResponse<String> refused = put("/connectors/cdc-source-broken/config", brokenSource);
        assertEquals(400, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("Access denied for user '" + SOURCE_USER + "'"), refused.body());
        answers.add(refused.body());

        // validation of the same settings, sound and broken
        Map<String, String> literalSource = new LinkedHashMap<>(brokenSource);
        literalSource.put("database.password", SOURCE_PW);
        answers.add(validate(literalSink));
        answers.add(validate(brokenSink));
        answers.add(validate(literalSource));
        String brokenValidation = validate(brokenSource);
        assertTrue(brokenValidation.contains("cannot connect"), "validation tried the password: " + brokenValidation);
        answers.add(brokenValidation);

        answers.add(get("/connectors?expand=status"));
        for (String name : List.of(Pipeline.SOURCE_CONNECTOR, Pipeline.SINK_CONNECTOR, "cdc-sink-literal")) {
            answers.add(get("/connectors/" + name + "/status"));
        }
        for (String a : answers) assertNoSecret("a REST answer", a);

        List<String> lines = logs.lines();
        String all = String.join("\n", lines);
        assertTrue(all.contains("CdcSinkConfig values"), "Kafka listed the sink's settings at task start");
        assertTrue(all.contains("connection.url = [hidden]"), "the JDBC URL is listed hidden");
        assertTrue(all.contains("input.codec.options = [hidden]"), "the codec options are listed hidden");
        for (String line : lines) assertNoSecret("the worker log", line);
        System.out.printf("scanned %d log lines and %d REST answers for %d secrets%n", lines.size(), answers.size(),
                secrets().size());
    }

    private static void assertNoSecret(String where, String text) {
        for (Map.Entry<String, String> s : secrets().entrySet()) {
            if (text.contains(s.getValue())) {
                fail("the " + s.getKey() + " appears in " + where + ": "
                        + text.replace(s.getValue(), "<" + s.getKey() + ">"));
            }
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void awaitEqual(String targetDb, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TableComparison.Result> last = List.of();
        while (System.nanoTime() < deadline) {
            connect.assertNotFailed("cdc-sink-literal");
            try (Connection s = pipeline.sourceConnection(); Connection t = pipeline.targetConnection()) {
                last = TableComparison.compareAll(s, SOURCE_DB, t, targetDb, Workload.TABLES);
            }
            if (last.stream().allMatch(TableComparison.Result::matches)) return;
            Thread.sleep(500);
        }
        fail("the sink with literal secrets did not catch up: " + last);
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(connect.restUrl().resolve(path))
                .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return r.body();
    }

    private static HttpResponse<String> put(String path, Map<String, String> config) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(connect.restUrl().resolve(path)).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@code PUT /connector-plugins/{class}/config/validate}, as a UI does before it saves a connector. */
    private static String validate(Map<String, String> config) throws Exception {
        String cls = config.get("connector.class");
        URI uri = connect.restUrl().resolve("/connector-plugins/" + cls.substring(cls.lastIndexOf('.') + 1)
                + "/config/validate");
        HttpResponse<String> r = put(uri.getPath(), config);
        assertEquals(200, r.statusCode(), "validate: " + r.body());
        return r.body();
    }
}
