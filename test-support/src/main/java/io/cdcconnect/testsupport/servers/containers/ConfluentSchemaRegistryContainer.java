package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.registry.SchemaRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * Confluent's own Schema Registry ({@code confluentinc/cp-schema-registry}) on the containers' network, storing its
 * schemas in a Kafka container: the broker a test already runs, else one of its own, stopped with it. Each registry
 * gets its own schemas topic and group, so two registries on one broker do not share schemas or ids.
 */
public final class ConfluentSchemaRegistryContainer implements SchemaRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(ConfluentSchemaRegistryContainer.class);
    static final int PORT = 8081;

    private final GenericContainer<?> container;
    private final String image;
    private final String networkName;
    private final String url;
    /** The broker started for this registry alone, or null when it uses one a test started. */
    private final ContainerKafka.Broker ownBroker;

    private ConfluentSchemaRegistryContainer(GenericContainer<?> container, String image, String networkName,
                                             ContainerKafka.Broker ownBroker) {
        this.container = container;
        this.image = image;
        this.networkName = networkName;
        this.url = "http://" + container.getHost() + ":" + container.getMappedPort(PORT);
        this.ownBroker = ownBroker;
    }

    public static SchemaRegistry start() {
        ContainerKafka.Broker kafka = ContainerKafka.current();
        ContainerKafka.Broker own = null;
        if (kafka == null) {
            own = ContainerKafka.start();
            kafka = own;
        }
        String image = ContainerImages.image("schema-registry");
        String name = Containers.uniqueName("schema-registry");
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image));
        c.withNetwork(Containers.network())
                .withNetworkAliases(name)
                .withExposedPorts(PORT)
                .withEnv("SCHEMA_REGISTRY_HOST_NAME", name)
                .withEnv("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:" + PORT)
                .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://" + kafka.networkBootstrap())
                .withEnv("SCHEMA_REGISTRY_KAFKASTORE_TOPIC", "_schemas_" + name.replace('-', '_'))
                .withEnv("SCHEMA_REGISTRY_KAFKASTORE_TOPIC_REPLICATION_FACTOR", "1")
                .withEnv("SCHEMA_REGISTRY_SCHEMA_REGISTRY_GROUP_ID", name)
                .waitingFor(Wait.forHttp("/subjects").forPort(PORT).forStatusCode(200)
                        .withStartupTimeout(Containers.STARTUP_TIMEOUT));
        long t0 = System.nanoTime();
        try {
            Containers.start(c, "Confluent Schema Registry");
        } catch (RuntimeException e) {
            if (own != null) ContainerKafka.stop(own);
            throw e;
        }
        ConfluentSchemaRegistryContainer r = new ConfluentSchemaRegistryContainer(c, image, name, own);
        LOG.info("Confluent Schema Registry in container {} at {} ({} on the containers' network, schemas in {}), "
                + "started in {} ms", image, r.url, r.networkUrl(), kafka.networkBootstrap(), (System.nanoTime() - t0) / 1_000_000);
        return r;
    }

    /** The registry's address on the containers' network (for TiCDC), e.g. {@code http://schema-registry-2:8081}. */
    public String networkUrl() {
        return "http://" + networkName + ":" + PORT;
    }

    /** {@link #networkUrl()} of {@code registry}, which must be one of these. */
    public static String networkUrlOf(SchemaRegistry registry) {
        if (registry instanceof ConfluentSchemaRegistryContainer c) return c.networkUrl();
        throw new IllegalArgumentException("not a schema registry container: " + registry.describe());
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public String describe() {
        return "Confluent Schema Registry (container " + image + ") at " + url;
    }

    @Override
    public void close() {
        try {
            if (container.isRunning()) container.stop();
        } finally {
            if (ownBroker != null) ContainerKafka.stop(ownBroker);
        }
    }
}
