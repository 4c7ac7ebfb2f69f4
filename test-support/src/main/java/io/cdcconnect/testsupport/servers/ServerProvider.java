package io.cdcconnect.testsupport.servers;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.registry.SchemaRegistry;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where test servers come from. {@link EmbeddedProvider} serves what runs here with nothing but Java and Maven;
 * {@link ContainersProvider} serves everything from images where a Docker engine runs. Tests do not pick one: they ask
 * {@link TestServers} for what they need.
 */
public interface ServerProvider {

    String name();

    /** Why this provider cannot start {@code spec} on this machine, or null when it can. */
    String whyNot(DatabaseSpec spec);

    /** A new server for {@code spec}, its files (if any) under {@code workDir}; the caller closes it. */
    DatabaseServer startDatabase(DatabaseSpec spec, Path workDir, int serverId);

    /** Why this provider cannot start a Kafka broker with a Connect worker here, or null when it can. */
    String whyNotKafka();

    /**
     * A Kafka broker and one distributed Connect worker whose {@code plugin.path} is {@code pluginDir}; with
     * {@code forkedWorker} the worker is a child JVM that a test may kill.
     */
    ConnectCluster startKafkaConnect(Path pluginDir, Path workDir, boolean forkedWorker, Map<String, String> workerProps);

    /** Why this provider cannot start a Confluent-compatible schema registry here, or null when it can. */
    String whyNotRegistry();

    SchemaRegistry startSchemaRegistry();
}
