package io.cdcconnect.testsupport.registry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Apicurio Registry 3.0.x (a Quarkus app, in-memory H2 storage) run as a child JVM for tests, serving the
 * Confluent-compatible API under {@code /apis/ccompat/v7}.
 *
 * <p>The distribution ({@code io.apicurio:apicurio-registry-app:<v>:tar.gz:all} from Maven Central) is unpacked by
 * test-support's build into {@code test-support/target/apicurio-registry}, which the root pom hands every module's
 * tests as the system property {@code apicurio.registry.home} (test-support/pom.xml: the maven-dependency-plugin 2.8
 * {@code unpack} in the {@code apicurio-registry-for-tests} profile). The server listens
 * on a free loopback port; {@link #close()} stops it, a shutdown hook stops it if a test run ends first, and a
 * watchdog shell stops it if the test JVM is killed outright, so no child process outlives the test JVM. Its output goes to {@code apicurio-<port>.log} beside the distribution.
 */
public final class ApicurioRegistry implements SchemaRegistry {

    public static final String HOME_PROPERTY = "apicurio.registry.home";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Process process;
    private final int port;
    private final Path log;
    private final Thread shutdownHook;

    private ApicurioRegistry(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.shutdownHook = new Thread(this::stopProcess, "apicurio-registry-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a registry and waits until it reports ready. */
    public static ApicurioRegistry start() throws IOException, InterruptedException {
        String home = System.getProperty(HOME_PROPERTY);
        if (home == null || !Files.isDirectory(Path.of(home))) {
            throw new IllegalStateException("Apicurio Registry not found: system property " + HOME_PROPERTY + " is "
                    + home + "; run the tests through Maven from the project root, whose test-support build unpacks it");
        }
        Path dir = Path.of(home);
        Path jar = runnerJar(dir);
        int port = freePort();
        Path log = dir.resolve("apicurio-" + port + ".log");
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m",
                // Start fast on small machines: the C1 compiler only, one GC thread.
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.log.level=WARN",
                "-jar", jar.toString()));
        Process p = new ProcessBuilder(watchdog(cmd))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        ApicurioRegistry server = new ApicurioRegistry(p, port, log);
        try {
            server.awaitReady();
        } catch (IOException | RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * Wraps the command in a small shell that also stops the registry when this JVM disappears without running its
     * shutdown hooks (killed with SIGKILL, e.g. by a build timeout): it polls this JVM's pid every second. Stopping
     * the shell (SIGTERM from {@link Process#destroy()}) stops the registry too.
     */
    private static List<String> watchdog(List<String> cmd) {
        if (!Files.isExecutable(Path.of("/bin/sh"))) {
            return cmd;
        }
        String script = "\"$@\" & c=$!; trap 'kill $c 2>/dev/null; wait $c; exit 143' TERM INT; "
                + "while kill -0 " + ProcessHandle.current().pid() + " 2>/dev/null && kill -0 $c 2>/dev/null; "
                + "do sleep 1; done; kill $c 2>/dev/null; wait $c";
        List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", script, "apicurio-registry"));
        wrapped.addAll(cmd);
        return wrapped;
    }

    private static Path runnerJar(Path dir) throws IOException {
        Path quarkusRun = dir.resolve("quarkus-app").resolve("quarkus-run.jar");
        if (Files.isRegularFile(quarkusRun)) return quarkusRun;
        if (Files.isRegularFile(dir.resolve("quarkus-run.jar"))) return dir.resolve("quarkus-run.jar");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-runner.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no Apicurio Registry runner jar in " + dir));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private void awaitReady() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Apicurio Registry exited with status " + process.exitValue()
                        + " while starting; its log: " + log + "\n" + tail());
            }
            try {
                HttpResponse<String> r = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) return;
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("Apicurio Registry not ready after " + START_TIMEOUT.toSeconds()
                + " s; its log: " + log + "\n" + tail());
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Base URL of the Confluent-compatible API, e.g. {@code http://127.0.0.1:41234/apis/ccompat/v7}. */
    public String url() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    public int port() {
        return port;
    }

    @Override
    public String describe() {
        return "Apicurio Registry (child JVM, Confluent-compatible API) at " + url();
    }

    /** True while the wrapper or the registry JVM is alive. */
    public boolean isRunning() {
        return process.isAlive() || process.descendants().anyMatch(ProcessHandle::isAlive);
    }

    @Override
    public void close() {
        stopProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run
        }
    }

    private void stopProcess() {
        if (!process.isAlive()) return;
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        // The registry JVM itself, should the shell have gone first.
        for (ProcessHandle child : children) {
            if (child.isAlive()) child.destroyForcibly();
        }
    }
}
