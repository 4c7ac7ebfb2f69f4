package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kafka brokers in containers ({@code apache/kafka}, KRaft, through {@code org.testcontainers.kafka.KafkaContainer}),
 * each with two listeners: the host's (mapped port; the forked Connect worker and the tests use it) and one on the
 * containers' network, {@code <name>:19092}, for TiCDC and the schema registry. The running ones are tracked so that a
 * registry can join the broker a test already started, and so that a test can look up the network address of its
 * Connect cluster's broker.
 */
public final class ContainerKafka {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerKafka.class);

    /** The port of the listener on the containers' network. */
    public static final int NETWORK_PORT = 19092;

    /** One running broker: its container, its address on the network and on the host. */
    record Broker(KafkaContainer container, String networkBootstrap, String hostBootstrap) {
    }

    private static final List<Broker> RUNNING = new ArrayList<>();

    private ContainerKafka() {
    }

    /** A new broker on the shared network. */
    static Broker start() {
        String image = ContainerImages.image("kafka");
        String name = Containers.uniqueName("kafka");
        String networkBootstrap = name + ":" + NETWORK_PORT;
        KafkaContainer k = new KafkaContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("apache/kafka"));
        // withListener adds the listener, advertises it and gives the container the network alias `name`
        k.withNetwork(Containers.network())
                .withListener(networkBootstrap)
                .withStartupTimeout(Containers.STARTUP_TIMEOUT);
        long t0 = System.nanoTime();
        Containers.start(k, "a Kafka broker");
        Broker b = new Broker(k, networkBootstrap, k.getBootstrapServers());
        synchronized (RUNNING) {
            RUNNING.add(b);
        }
        LOG.info("Kafka broker in container {} at {} ({} on the containers' network), started in {} ms", image,
                b.hostBootstrap(), networkBootstrap, (System.nanoTime() - t0) / 1_000_000);
        return b;
    }

    /** Stops the broker (again: no effect). */
    static void stop(Broker b) {
        synchronized (RUNNING) {
            RUNNING.remove(b);
        }
        if (b.container().isRunning()) b.container().stop();
    }

    /** The broker started last that still runs, or null. */
    static Broker current() {
        synchronized (RUNNING) {
            for (int i = RUNNING.size() - 1; i >= 0; i--) {
                if (RUNNING.get(i).container().isRunning()) return RUNNING.get(i);
            }
            return null;
        }
    }

    /**
     * A broker in a container and a Connect worker in a child JVM on the host (the worker cannot run inside the test
     * JVM here: the broker is not an {@code EmbeddedKafkaCluster}). Closing the cluster stops the broker.
     */
    public static ConnectCluster startWithConnect(Path pluginDir, Path workDir, Map<String, String> workerProps) {
        if (!workerProps.isEmpty()) {
            throw new IllegalArgumentException("the containers provider runs the Connect worker as a child JVM, which "
                    + "takes no extra worker settings; asked for " + workerProps.keySet());
        }
        Broker b = start();
        try {
            return ConnectCluster.startWithForkedWorker(pluginDir, workDir, b.hostBootstrap(), () -> stop(b));
        } catch (RuntimeException e) {
            stop(b);
            throw e;
        }
    }

    /**
     * The address on the containers' network of the broker whose host address is {@code hostBootstrap} (what
     * {@link ConnectCluster#bootstrapServers()} returns), e.g. {@code kafka-1:19092}.
     */
    public static String networkBootstrap(String hostBootstrap) {
        synchronized (RUNNING) {
            for (Broker b : RUNNING) {
                if (b.hostBootstrap().equals(hostBootstrap)) return b.networkBootstrap();
            }
        }
        throw new IllegalArgumentException("no running Kafka container has the host address " + hostBootstrap
                + ": the Connect cluster must come from the containers provider (TestServers.kafkaConnectForContainers)");
    }
}
