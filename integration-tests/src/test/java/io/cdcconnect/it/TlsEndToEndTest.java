package io.cdcconnect.it;

import io.cdcconnect.testsupport.Closeables;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import io.cdcconnect.testsupport.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * TLS everywhere a connector connects: a MariaDB started with certificates the test makes (a CA of its own, with
 * {@code openssl}) and {@code require_secure_transport=ON}, and a schema registry served over https with the same
 * CA's certificate. The source (its start-up checks, its key catalog, Debezium's snapshot connection and binlog
 * reader) connects with {@code database.ssl.mode=verify-ca} and a trust store; the sink with Connector/J's
 * {@code sslMode=VERIFY_CA} in {@code connection.url}; both reach the registry with
 * {@code schema.registry.ssl.truststore.*}. Every row arrives. Plaintext is refused: a JDBC connection without TLS,
 * a source with {@code database.ssl.mode=disable}, and an http request to the registry's port.
 *
 * <p>The registry is test-support's stand-in serving https (the registry's protocol is not what is tested here).
 * Skipped, with the reason, where {@code openssl} is not installed.
 */
class TlsEndToEndTest {
    private static final String SOURCE_DB = "shop_tls";
    private static final String TARGET_DB = "shop_tls_replica";
    private static final String STORE_PW = password();

    private static String password() {
        byte[] b = new byte[6];
        new SecureRandom().nextBytes(b);
        return "Ts" + HexFormat.of().formatHex(b);
    }

    private static Path tls;
    private static Path trustStore;
    private static EmbeddedMariaDb db;
    private static StandInSchemaRegistry registry;
    private static ConnectCluster connect;
    private static Pipeline pipeline;
    private static WorkerLogCapture logs;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(openssl("version") == 0, "openssl is not installed: the test makes its certificates with it");
        Path work = FormatTestSupport.workDir("tls");
        tls = Files.createDirectories(work.resolve("certs"));
        makeCertificates();
        logs = new WorkerLogCapture();
        db = EmbeddedMariaDb.start(DatabaseSpec.mariadb("11.4"), work.resolve("source-db"), 5811, List.of(
                "--ssl-ca=" + tls.resolve("ca.pem"), "--ssl-cert=" + tls.resolve("server-cert.pem"),
                "--ssl-key=" + tls.resolve("server-key.pem"), "--require-secure-transport=ON"));
        registry = StandInSchemaRegistry.startTls(serverContext());
        connect = TestServers.kafkaConnect(Pipeline.pluginDir(), work.resolve("connect"), false, Map.of());
        pipeline = Pipeline.over(db, connect, SOURCE_DB,
                new Pipeline.Target(db.host(), db.port(), db.user(), db.password(), TARGET_DB));
        pipeline.putConfigValue("SCHEMA_REGISTRY_URL", registry.url());
    }

    @AfterAll
    static void stop() {
        Closeables.closeAll(pipeline, connect, db, registry, logs);
    }

    @Test
    void everyConnectionIsTlsAndPlaintextIsRefused() throws Exception {
        // plaintext is refused by the server and by the registry
        SQLException plain = assertThrows(SQLException.class, () -> DriverManager.getConnection("jdbc:mysql://"
                + db.host() + ":" + db.port() + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true", db.user(), db.password()));
        assertTrue(plain.getMessage().contains("insecure transport"), plain.getMessage());
        assertThrows(IOException.class, () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(registry.url().replace("https:", "http:") + "/subjects")).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString()));

        try (Connection c = tlsConnection(null); Statement s = c.createStatement()) {
            assertFalse(variable(s, "Ssl_cipher").isEmpty(), "the test's own connection is TLS");
            s.execute("CREATE DATABASE `" + SOURCE_DB + "`");
            s.execute("CREATE DATABASE `" + TARGET_DB + "`");
        }
        for (String dbName : List.of(SOURCE_DB, TARGET_DB)) {
            try (Connection c = tlsConnection(dbName); Statement s = c.createStatement()) {
                for (String ddl : Workload.DDL) s.execute(ddl);
            }
        }
        Workload workload = new Workload(97);
        try (Connection c = tlsConnection(SOURCE_DB)) {
            workload.preload(c, 30);
        }

        Map<String, String> sourceTls = Map.of(
                "database.ssl.mode", "verify-ca",
                "database.ssl.truststore", trustStore.toString(),
                "database.ssl.truststore.password", STORE_PW,
                "schema.registry.ssl.truststore.location", trustStore.toString(),
                "schema.registry.ssl.truststore.password", STORE_PW);
        // a source told not to use TLS is refused at validation: its start-up check cannot connect
        Map<String, String> plainSource = new java.util.HashMap<>(ConnectorConfigFiles.load("source-mariadb-avro.json",
                pipeline.configValues()));
        plainSource.put("database.ssl.mode", "disable");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> connect.putConnector("cdc-source-plaintext", plainSource));
        assertTrue(refused.getMessage().contains("insecure transport"), refused.getMessage());

        pipeline.registerSourceAs(Pipeline.SOURCE_CONNECTOR, "source-mariadb-avro.json", sourceTls);
        pipeline.registerSink("sink-mariadb-avro.json", 1, Map.of(
                "connection.url", "jdbc:mysql://" + db.host() + ":" + db.port() + "/?sslMode=VERIFY_CA"
                        + "&trustCertificateKeyStoreUrl=" + trustStore.toUri()
                        + "&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=" + STORE_PW,
                "schema.registry.ssl.truststore.location", trustStore.toString(),
                "schema.registry.ssl.truststore.password", STORE_PW));
        try (Connection c = tlsConnection(SOURCE_DB)) {
            workload.run(c, 150, 0, null);
        }
        awaitEqual(Duration.ofMinutes(3));
        assertTrue(registry.registrations() > 0 && registry.lookups() > 0, "schemas went through the https registry");

        String all = String.join("\n", logs.lines());
        assertFalse(all.contains("Cannot read the unique keys"), "the source's key catalog connected over TLS");
        assertFalse(all.contains(STORE_PW), "a trust store password was logged");
    }

    private static void awaitEqual(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TableComparison.Result> last = List.of();
        while (System.nanoTime() < deadline) {
            connect.assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            connect.assertNotFailed(Pipeline.SINK_CONNECTOR);
            try (Connection s = tlsConnection(SOURCE_DB); Connection t = tlsConnection(TARGET_DB)) {
                last = TableComparison.compareAll(s, SOURCE_DB, t, TARGET_DB, Workload.TABLES);
            }
            if (last.stream().allMatch(TableComparison.Result::matches)) return;
            Thread.sleep(500);
        }
        fail("the pipeline over TLS did not catch up: " + last);
    }

    private static Connection tlsConnection(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + db.host() + ":" + db.port() + "/"
                + (database == null ? "" : database) + "?sslMode=VERIFY_CA&trustCertificateKeyStoreUrl="
                + trustStore.toUri() + "&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=" + STORE_PW
                + "&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true&nullDatabaseMeansCurrent=true",
                db.user(), db.password());
    }

    private static String variable(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE '" + name + "'")) {
            return rs.next() ? rs.getString(2) : "";
        }
    }

    // ---------------------------------------------------------------- certificates

    /** A CA, a server certificate for 127.0.0.1 and localhost signed by it, and a PKCS12 trust store of the CA. */
    private static void makeCertificates() throws Exception {
        Files.writeString(tls.resolve("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                + "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n");
        run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca-key.pem", "-out", "ca.pem", "-days", "2",
                "-subj", "/CN=cdc-connect test CA");
        run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server-key.pem", "-out", "server.csr",
                "-subj", "/CN=127.0.0.1");
        run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
                "-out", "server-cert.pem", "-days", "2", "-extfile", "server.ext");
        run("pkcs12", "-export", "-in", "server-cert.pem", "-inkey", "server-key.pem", "-certfile", "ca.pem",
                "-name", "server", "-out", "server.p12", "-passout", "pass:" + STORE_PW);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(tls.resolve("ca.pem"))) {
            trust.setCertificateEntry("cdc-test-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        trustStore = tls.resolve("truststore.p12");
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            trust.store(out, STORE_PW.toCharArray());
        }
    }

    /** The registry's key and certificate. */
    private static SSLContext serverContext() throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.resolve("server.p12"))) {
            keys.load(in, STORE_PW.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, STORE_PW.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        return context;
    }

    private static void run(String... args) throws Exception {
        int rc = openssl(args);
        if (rc != 0) throw new IllegalStateException("openssl " + args[0] + " failed with exit code " + rc);
    }

    private static int openssl(String... args) {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).directory(tls == null ? null : tls.toFile())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
