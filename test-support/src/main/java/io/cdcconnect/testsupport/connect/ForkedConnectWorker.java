package io.cdcconnect.testsupport.connect;

import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A real Kafka broker (in this JVM, or a container's) and a distributed Connect worker ({@code ConnectDistributed}) in a
 * child JVM, on the same classpath. The child can be killed with SIGKILL: no graceful task stop, no final offset commit, no producer
 * flush, exactly what a crash leaves behind. Its output goes to {@code worker-N.log} in the work folder.
 */
final class ForkedConnectWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ForkedConnectWorker.class);

    private final String bootstrapServers;
    private final AutoCloseable broker;
    private final Path pluginDir;
    private final Path workDir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Thread reaper;
    private Process process;
    private int restPort;
    private int generation;

    private ForkedConnectWorker(String bootstrapServers, AutoCloseable broker, Path pluginDir, Path workDir) {
        this.bootstrapServers = bootstrapServers;
        this.broker = broker;
        this.pluginDir = pluginDir;
        this.workDir = workDir;
        this.reaper = new Thread(this::destroyNow, "forked-connect-worker-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    static ForkedConnectWorker start(Path pluginDir, Path workDir, Properties brokerProps) {
        long t0 = System.nanoTime();
        EmbeddedKafkaCluster kafka = new EmbeddedKafkaCluster(1, brokerProps);
        kafka.start();
        return start(pluginDir, workDir, kafka.bootstrapServers(), kafka::stop, t0);
    }

    /** A worker on a broker that runs elsewhere (e.g. a container); {@code broker} is closed with the worker. */
    static ForkedConnectWorker start(Path pluginDir, Path workDir, String bootstrapServers, AutoCloseable broker, long t0) {
        ForkedConnectWorker w = new ForkedConnectWorker(bootstrapServers, broker, pluginDir, workDir);
        try {
            w.launch();
        } catch (RuntimeException e) {
            w.close();
            throw e;
        }
        LOG.info("Kafka broker at {} and forked Connect worker at {} started in {} ms", bootstrapServers,
                w.restUrl(), (System.nanoTime() - t0) / 1_000_000);
        return w;
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    URI restUrl() {
        return URI.create("http://127.0.0.1:" + restPort + "/");
    }

    /** Stops the worker (SIGKILL when {@code kill}, else SIGTERM and a graceful shutdown) and starts a new one. */
    void restart(boolean kill) {
        long t0 = System.nanoTime();
        if (kill) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        LOG.info("Connect worker {} (pid {})", kill ? "killed with SIGKILL" : "stopped", process.pid());
        launch();
        LOG.info("new Connect worker up at {} {} ms after the old one went down", restUrl(), (System.nanoTime() - t0) / 1_000_000);
    }

    private void launch() {
        try {
            restPort = EmbeddedMariaDb.freePort();
            generation++;
            Files.createDirectories(workDir);
            Map<String, String> props = ConnectCluster.workerProps(pluginDir);
            props.put("bootstrap.servers", bootstrapServers);
            props.put("group.id", "cdc-connect-forked");
            props.put("config.storage.topic", "connect-configs");
            props.put("offset.storage.topic", "connect-offsets");
            props.put("status.storage.topic", "connect-status");
            props.put("config.storage.replication.factor", "1");
            props.put("offset.storage.replication.factor", "1");
            props.put("status.storage.replication.factor", "1");
            props.put("listeners", "http://127.0.0.1:" + restPort);
            props.put("scheduled.rebalance.max.delay.ms", "1000");
            Path propsFile = workDir.resolve("worker-" + generation + ".properties");
            StringBuilder sb = new StringBuilder();
            props.forEach((k, v) -> sb.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
            Files.writeString(propsFile, sb);
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx1g");
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add("org.apache.kafka.connect.cli.ConnectDistributed");
            cmd.add(propsFile.toString());
            Path log = workDir.resolve("worker-" + generation + ".log");
            process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            awaitHealthy(log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a Connect worker process: " + e.getMessage(), e);
        }
    }

    private void awaitHealthy(Path log) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Connect worker process exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(restUrl().resolve("/health"))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) return;
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            ConnectCluster.sleep(250);
        }
        throw new IllegalStateException("Connect worker not healthy after 120 s; see " + log);
    }

    private void destroyNow() {
        if (process != null && process.isAlive()) process.destroyForcibly();
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        try {
            broker.close();
        } catch (Exception e) {
            LOG.warn("stopping the Kafka broker failed: {}", e.getMessage());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException e) {
            // already shutting down
        }
    }
}
