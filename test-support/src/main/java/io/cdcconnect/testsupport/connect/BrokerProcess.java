package io.cdcconnect.testsupport.connect;

import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka broker (KRaft, one node) in a child JVM of its own, as users deploy it: the process that starts it shares no
 * heap, no JIT and no garbage collector with it. The child is this class's {@link #main}: it starts the broker, writes
 * its bootstrap address to a file and runs until its standard input closes (the parent went away) or it is stopped.
 */
final class BrokerProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerProcess.class);

    private final Process process;
    private final String bootstrapServers;
    private final Path log;

    private BrokerProcess(Process process, String bootstrapServers, Path log) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
        this.log = log;
    }

    /** Starts a broker with {@code brokerProps} in a child JVM (heap {@code -Xmx1g}, Kafka's default) and waits for it. */
    static BrokerProcess start(Path workDir, Properties brokerProps) {
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(workDir);
            Path props = workDir.resolve("broker.properties");
            Path address = workDir.resolve("broker.address");
            Files.deleteIfExists(address);
            try (var out = Files.newBufferedWriter(props)) {
                brokerProps.store(out, "cdc-connect test broker");
            }
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx1g");
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(BrokerProcess.class.getName());
            cmd.add(props.toString());
            cmd.add(address.toString());
            Path log = workDir.resolve("broker.log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.exists(address) || Files.readString(address).isBlank()) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("Kafka broker process exited with " + p.exitValue() + "; see " + log);
                }
                if (System.nanoTime() > deadline) {
                    p.destroyForcibly();
                    throw new IllegalStateException("Kafka broker process not up after 120 s; see " + log);
                }
                ConnectCluster.sleep(100);
            }
            String bootstrap = Files.readString(address).trim();
            LOG.info("Kafka broker process (pid {}) at {} started in {} ms", p.pid(), bootstrap,
                    (System.nanoTime() - t0) / 1_000_000);
            return new BrokerProcess(p, bootstrap, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a Kafka broker process: " + e.getMessage(), e);
        }
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        if (!process.isAlive()) return;
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                LOG.warn("Kafka broker process did not stop within 30 s; killing it (see {})", log);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** The child: {@code BrokerProcess <broker.properties> <address file>}. */
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (var in = Files.newBufferedReader(Path.of(args[0]))) {
            props.load(in);
        }
        EmbeddedKafkaCluster kafka = new EmbeddedKafkaCluster(1, props);
        kafka.start();
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::stop, "broker-stop"));
        Path address = Path.of(args[1]);
        Path tmp = address.resolveSibling(address.getFileName() + ".tmp");
        Files.writeString(tmp, kafka.bootstrapServers());
        Files.move(tmp, address, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        // runs until the parent closes our standard input (it exited, even by SIGKILL) or stops us
        InputStream in = System.in;
        while (in.read() >= 0) {
            // ignore anything written
        }
        System.exit(0);
    }
}
