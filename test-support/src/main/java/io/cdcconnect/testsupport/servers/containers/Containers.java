package io.cdcconnect.testsupport.servers.containers;

import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Ulimit;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the containers share: one Docker network (Kafka, the schema registry, the TiDB cluster and TiCDC find each
 * other there by name), unique network names, and starting a container so that a failure says what failed with the
 * end of its log. Ryuk, Testcontainers' reaper, removes containers and the network when the test JVM exits.
 */
final class Containers {

    static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(4);
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static Network network;

    private Containers() {
    }

    static synchronized Network network() {
        if (network == null) network = Network.newNetwork();
        return network;
    }

    /** {@code base} plus a number unique in this JVM, e.g. {@code kafka-1}: a name on the shared network. */
    static String uniqueName(String base) {
        return base + "-" + NAMES.incrementAndGet();
    }

    /** Starts {@code c}; on failure stops it and throws with {@code what}, the image and the end of its output. */
    static void start(GenericContainer<?> c, String what) {
        try {
            c.start();
        } catch (RuntimeException e) {
            String logs = tail(c, 40);
            try {
                c.stop();
            } catch (RuntimeException ignored) {
                // already gone
            }
            throw new IllegalStateException("could not start " + what + " from image " + c.getDockerImageName() + ": "
                    + e.getMessage() + (logs.isEmpty() ? "" : "\nlast lines of its output:\n" + logs), e);
        }
    }

    /** The last {@code lines} lines of the container's output, or "" if it cannot be read. */
    static String tail(GenericContainer<?> c, int lines) {
        try {
            List<String> all = c.getLogs().lines().toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** The entrypoint of the image, set explicitly so that the command means the same whatever the image declares. */
    static void entrypoint(GenericContainer<?> c, String binary) {
        c.withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint(binary));
    }

    /** Open files limit (TiKV refuses to start below 82920; some engines default to 1024). */
    static void manyOpenFiles(GenericContainer<?> c) {
        c.withCreateContainerCmdModifier(cmd -> {
            HostConfig hc = cmd.getHostConfig() != null ? cmd.getHostConfig() : new HostConfig();
            cmd.withHostConfig(hc.withUlimits(new Ulimit[]{new Ulimit("nofile", 1_048_576L, 1_048_576L)}));
        });
    }

    /** A root JDBC URL to a MySQL-protocol server (no database, no TLS, public key retrieval for caching_sha2). */
    static String rootUrl(String host, int port) {
        return "jdbc:mysql://" + host + ":" + port + "/?useSSL=false&allowPublicKeyRetrieval=true&connectTimeout=5000"
                + "&socketTimeout=120000";
    }

    /** Waits until {@code SELECT 1} answers as {@code user}, retrying while the server finishes starting. */
    static void awaitSql(String host, int port, String user, String password, Duration timeout, GenericContainer<?> c) {
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection conn = DriverManager.getConnection(rootUrl(host, port), user, password);
                 Statement s = conn.createStatement()) {
                s.execute("SELECT 1");
                return;
            } catch (SQLException e) {
                last = e;
            }
            if (!c.isRunning()) break;
            sleep(500);
        }
        throw new IllegalStateException(c.getDockerImageName() + " at " + host + ":" + port + " does not answer SELECT 1 as "
                + user + " after " + timeout.toSeconds() + " s: " + (last == null ? "container stopped" : last.getMessage())
                + "\nlast lines of its output:\n" + tail(c, 40), last);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
