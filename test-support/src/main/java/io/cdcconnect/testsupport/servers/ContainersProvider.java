package io.cdcconnect.testsupport.servers;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.registry.SchemaRegistry;

import java.nio.file.Path;
import java.util.Map;

/** Servers from images through Testcontainers (placeholder being written). */
public final class ContainersProvider implements ServerProvider {

    /** Why no container can be started here (Testcontainers missing, no Docker engine), or null. */
    public static String whyUnavailable() {
        return "not written yet";
    }

    @Override
    public String name() {
        return "containers";
    }

    @Override
    public String whyNot(DatabaseSpec spec) {
        return whyUnavailable();
    }

    @Override
    public DatabaseServer startDatabase(DatabaseSpec spec, Path workDir, int serverId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public String whyNotKafka() {
        return whyUnavailable();
    }

    @Override
    public ConnectCluster startKafkaConnect(Path pluginDir, Path workDir, boolean forkedWorker, Map<String, String> workerProps) {
        throw new UnsupportedOperationException();
    }

    @Override
    public String whyNotRegistry() {
        return whyUnavailable();
    }

    @Override
    public SchemaRegistry startSchemaRegistry() {
        throw new UnsupportedOperationException();
    }
}
