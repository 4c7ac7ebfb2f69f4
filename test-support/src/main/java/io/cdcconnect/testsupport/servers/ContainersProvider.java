package io.cdcconnect.testsupport.servers;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.Flavor;
import io.cdcconnect.testsupport.registry.SchemaRegistry;
import io.cdcconnect.testsupport.servers.containers.ConfluentSchemaRegistryContainer;
import io.cdcconnect.testsupport.servers.containers.ContainerDatabase;
import io.cdcconnect.testsupport.servers.containers.ContainerImages;
import io.cdcconnect.testsupport.servers.containers.ContainerKafka;
import io.cdcconnect.testsupport.servers.containers.TicdcUpstream;
import org.opentest4j.TestAbortedException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Servers from images through Testcontainers, where a Docker engine runs: MySQL 8.x ({@code MySQLContainer}), MariaDB,
 * TiDB (one container, unistore: a target), a Kafka broker ({@code apache/kafka}) with a Connect worker in a child JVM,
 * Confluent's Schema Registry, and a TiDB cluster with TiCDC for changefeeds ({@link #startTicdcUpstream()}). Every
 * container joins one Docker network, where they reach each other by name. Images: {@link ContainerImages}.
 *
 * <p>Testcontainers is an optional dependency of test-support: this class loads and answers
 * {@link #whyUnavailable()} without it. Only the classes of {@code servers.containers} name Testcontainers types, and
 * they are reached only once {@link #whyUnavailable()} has returned null.
 */
public final class ContainersProvider implements ServerProvider {

    private static final Object LOCK = new Object();
    private static volatile boolean checked;
    private static volatile String why;

    /**
     * Why no container can be started here (Testcontainers missing, no Docker engine), or null. Asked once per JVM:
     * Testcontainers' look for an engine takes a while when there is none.
     */
    public static String whyUnavailable() {
        if (!checked) {
            synchronized (LOCK) {
                if (!checked) {
                    why = computeWhyUnavailable();
                    checked = true;
                }
            }
        }
        return why;
    }

    private static String computeWhyUnavailable() {
        if (!onClasspath("org.testcontainers.DockerClientFactory")) {
            return "Testcontainers is not on this module's test classpath (org.testcontainers:testcontainers)";
        }
        try {
            if (Docker.available()) return null;
        } catch (RuntimeException | LinkageError e) {
            return "Testcontainers could not look for a Docker engine (" + e + "); " + dockerHints();
        }
        return "no Docker engine reachable (" + dockerHints() + ")";
    }

    /** Where Testcontainers looked, for the reason a test is skipped. */
    static String dockerHints() {
        String host = System.getenv("DOCKER_HOST");
        Path socket = Path.of("/var/run/docker.sock");
        String s = "DOCKER_HOST=" + (host == null || host.isBlank() ? "unset" : host) + ", " + socket + " "
                + (Files.exists(socket) ? "exists but no engine answers on it" : "does not exist");
        Path props = Path.of(System.getProperty("user.home", ""), ".testcontainers.properties");
        if (Files.isRegularFile(props)) s += ", see also " + props;
        return s;
    }

    private static boolean onClasspath(String className) {
        try {
            Class.forName(className, false, ContainersProvider.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The one place that names a Testcontainers type: loaded only after the class was found on the classpath. */
    private static final class Docker {
        static boolean available() {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        }
    }

    @Override
    public String name() {
        return "containers";
    }

    @Override
    public String whyNot(DatabaseSpec spec) {
        String w = whyUnavailable();
        if (w != null) return w;
        if (spec.flavor() == Flavor.POSTGRES) {
            return "PostgreSQL is not served from an image: it is embedded (zonky's binaries), or named by "
                    + "-Dcdc.test.db.postgres.url";
        }
        if (spec.flavor() == Flavor.MYSQL && !onClasspath("org.testcontainers.containers.MySQLContainer")) {
            return "Testcontainers' mysql module (org.testcontainers:mysql) is not on this module's test classpath";
        }
        return null;
    }

    @Override
    public DatabaseServer startDatabase(DatabaseSpec spec, Path workDir, int serverId) {
        requireAvailable(whyNot(spec), spec.toString());
        return ContainerDatabase.start(spec, serverId);
    }

    @Override
    public String whyNotKafka() {
        String w = whyUnavailable();
        if (w != null) return w;
        if (!onClasspath("org.testcontainers.kafka.KafkaContainer")) {
            return "Testcontainers' kafka module (org.testcontainers:kafka) is not on this module's test classpath";
        }
        if (!onClasspath("org.apache.kafka.connect.cli.ConnectDistributed")) {
            return "Kafka Connect's runtime (org.apache.kafka:connect-runtime) is not on this module's test classpath, "
                    + "so no Connect worker can be forked";
        }
        return null;
    }

    /**
     * A Kafka container on the containers' network and a Connect worker in a child JVM on the host (always forked:
     * {@code forkedWorker} is ignored, and extra worker settings are refused). Its broker's address on the network:
     * {@link #networkBootstrapServers(ConnectCluster)}.
     */
    @Override
    public ConnectCluster startKafkaConnect(Path pluginDir, Path workDir, boolean forkedWorker, Map<String, String> workerProps) {
        requireAvailable(whyNotKafka(), "a Kafka broker with Connect");
        return ContainerKafka.startWithConnect(pluginDir, workDir, workerProps);
    }

    @Override
    public String whyNotRegistry() {
        String w = whyUnavailable();
        if (w != null) return w;
        if (!onClasspath("org.testcontainers.kafka.KafkaContainer")) {
            return "Testcontainers' kafka module (org.testcontainers:kafka) is not on this module's test classpath "
                    + "(the registry stores its schemas in Kafka)";
        }
        return null;
    }

    /** Confluent's Schema Registry on the Kafka container that runs (one of its own if none does). */
    @Override
    public SchemaRegistry startSchemaRegistry() {
        requireAvailable(whyNotRegistry(), "Confluent Schema Registry");
        return ConfluentSchemaRegistryContainer.start();
    }

    /**
     * A TiDB cluster (PD, TiKV, TiDB) with a TiCDC server, to create changefeeds on; the caller closes it. Aborts the
     * test (skipped, with the reason) where no container can run.
     */
    public static TicdcUpstream startTicdcUpstream() {
        requireAvailable(whyUnavailable(), "a TiDB cluster with TiCDC");
        return TicdcUpstream.start();
    }

    /**
     * Where containers reach the broker of {@code connect} (from {@link TestServers#kafkaConnectForContainers}), e.g.
     * {@code kafka-1:19092}: the address a TiCDC sink URI names.
     */
    public static String networkBootstrapServers(ConnectCluster connect) {
        requireAvailable(whyUnavailable(), "the containers' network");
        return ContainerKafka.networkBootstrap(connect.bootstrapServers());
    }

    /** Where containers reach {@code registry} (from {@link TestServers#confluentSchemaRegistry()}). */
    public static String networkUrl(SchemaRegistry registry) {
        requireAvailable(whyUnavailable(), "the containers' network");
        return ConfluentSchemaRegistryContainer.networkUrlOf(registry);
    }

    private static void requireAvailable(String why, String what) {
        if (why != null) throw new TestAbortedException(what + " is not available here: containers: " + why);
    }
}
