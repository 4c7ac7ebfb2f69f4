package io.cdcconnect.testsupport.servers;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.ExternalDatabase;
import io.cdcconnect.testsupport.db.Flavor;
import io.cdcconnect.testsupport.registry.SchemaRegistry;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one way tests get servers: they say what they need ("a MariaDB 11.4 with binlog", "a MySQL 8.4", "a TiDB", "a
 * PostgreSQL", "a Kafka with Connect", "a Confluent-compatible registry") and get it from, in this order:
 * <ol>
 *   <li>a server a property names ({@code -Dcdc.test.db.<flavor>-<version>.url=jdbc:mysql://host:port/}, with
 *   {@code .user} and {@code .password}; {@code -Dcdc.test.db.postgres.url=jdbc:postgresql://host:port/db} for a
 *   PostgreSQL of any version); a server that merely happens to run on the machine is never used;</li>
 *   <li>the provider {@value #PROVIDER_PROPERTY} forces ({@code embedded} or {@code containers}), if set;</li>
 *   <li>{@link EmbeddedProvider} when it can serve it (Java and Maven alone);</li>
 *   <li>{@link ContainersProvider} (Testcontainers, where a Docker engine runs).</li>
 * </ol>
 * When none can, the test is aborted, so JUnit reports it skipped with the reason, never passed.
 */
public final class TestServers {
    private static final Logger LOG = LoggerFactory.getLogger(TestServers.class);

    public static final String PROVIDER_PROPERTY = "cdc.test.servers";
    public static final String WORK_DIR_PROPERTY = "cdc.test.work.dir";

    private static final EmbeddedProvider EMBEDDED = new EmbeddedProvider();
    private static volatile ServerProvider containers;
    private static final Map<DatabaseSpec, DatabaseServer> SHARED = new ConcurrentHashMap<>();
    private static int serverIds = 100;

    private TestServers() {
    }

    /**
     * A server for {@code spec} shared by every test of this JVM (started on first use, stopped when the JVM exits).
     * Tests on it create their own databases ({@link io.cdcconnect.testsupport.db.TestDatabase}).
     */
    public static DatabaseServer database(DatabaseSpec spec) {
        ExternalDatabase external = ExternalDatabase.fromProperties(spec);
        if (external != null) {
            LOG.info("{}: using {}", spec, external.provenance());
            return external;
        }
        return SHARED.computeIfAbsent(spec, s -> {
            boolean binlogOff = !s.binlog() && s.flavor() != Flavor.POSTGRES; // PostgreSQL has none to turn off
            DatabaseServer server = startDatabase(s, workDir("shared-" + s.propertyKey() + (binlogOff ? "-nobinlog" : "")));
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "stop-" + s.propertyKey()));
            return server;
        });
    }

    /**
     * The PostgreSQL every test of this JVM shares ({@link DatabaseSpec#postgres()}: the embedded one, or the server
     * {@code -Dcdc.test.db.postgres.url} names); tests create their own databases on it with
     * {@link io.cdcconnect.testsupport.db.TestDatabase}. Aborts the test (skipped, with the reason) where none can be had.
     */
    public static DatabaseServer postgres() {
        return database(DatabaseSpec.postgres());
    }

    /** A server of its own for {@code spec} (a test that stops, restarts or reconfigures it); the caller closes it. */
    public static DatabaseServer startDatabase(DatabaseSpec spec, Path workDir) {
        ServerProvider p = providerFor(spec);
        int id;
        synchronized (TestServers.class) {
            id = ++serverIds;
        }
        DatabaseServer server = p.startDatabase(spec, workDir, id);
        LOG.info("{}: {}", spec, server.describe());
        return server;
    }

    /** A Kafka broker and a Connect worker (in this JVM, or a child JVM with {@code forkedWorker}). */
    public static ConnectCluster kafkaConnect(Path pluginDir, Path workDir, boolean forkedWorker,
                                              Map<String, String> workerProps) {
        ServerProvider p = forced();
        if (p == null) {
            String why = EMBEDDED.whyNotKafka();
            p = why == null ? EMBEDDED : containersOrAbort("a Kafka broker with Connect", why);
        } else {
            abortIfNotNull(p.whyNotKafka(), "a Kafka broker with Connect");
        }
        return p.startKafkaConnect(pluginDir, workDir, forkedWorker, workerProps);
    }

    /**
     * A Kafka broker reachable from containers (a TiCDC changefeed writes into it) with a Connect worker in a child JVM:
     * only the containers provider has one.
     */
    public static ConnectCluster kafkaConnectForContainers(Path pluginDir, Path workDir) {
        ServerProvider p = containersOrAbort("a Kafka broker on the containers' network", null);
        return p.startKafkaConnect(pluginDir, workDir, true, Map.of());
    }

    /** A Confluent-compatible schema registry: Apicurio's (embedded) unless the containers provider is forced. */
    public static SchemaRegistry schemaRegistry() {
        ServerProvider p = forced();
        if (p == null) {
            String why = EMBEDDED.whyNotRegistry();
            p = why == null ? EMBEDDED : containersOrAbort("a schema registry", why);
        } else {
            abortIfNotNull(p.whyNotRegistry(), "a schema registry");
        }
        SchemaRegistry r = p.startSchemaRegistry();
        LOG.info("schema registry: {}", r.describe());
        return r;
    }

    /** Confluent's own Schema Registry (a container, on the containers' Kafka). */
    public static SchemaRegistry confluentSchemaRegistry() {
        ServerProvider p = containersOrAbort("Confluent Schema Registry", null);
        abortIfNotNull(p.whyNotRegistry(), "Confluent Schema Registry");
        return p.startSchemaRegistry();
    }

    /** The MySQL versions the containers tests run on: {@code cdc.test.mysql.versions}, default 8.0 and 8.4. */
    public static List<String> mysqlVersions() {
        List<String> out = new ArrayList<>();
        for (String v : System.getProperty("cdc.test.mysql.versions", "8.0,8.4").split(",")) {
            if (!v.isBlank()) out.add(v.trim());
        }
        return out;
    }

    /** A folder for a server's files: under {@value #WORK_DIR_PROPERTY} (set by surefire), else the temp folder. */
    public static Path workDir(String name) {
        String base = System.getProperty(WORK_DIR_PROPERTY);
        Path root = base != null ? Path.of(base) : Path.of(System.getProperty("java.io.tmpdir"), "cdc-connect-test-servers");
        return root.resolve(name + "-" + ProcessHandle.current().pid());
    }

    static ServerProvider providerFor(DatabaseSpec spec) {
        ServerProvider p = forced();
        if (p != null) {
            abortIfNotNull(p.whyNot(spec), spec.toString());
            return p;
        }
        String why = EMBEDDED.whyNot(spec);
        if (why == null) return EMBEDDED;
        ServerProvider c = containersOrAbort(spec.toString(), why);
        String containersWhy = c.whyNot(spec); // e.g. PostgreSQL, which no image serves: both reasons in the report
        if (containersWhy != null) abortIfNotNull(why + "; containers: " + containersWhy, spec.toString());
        return c;
    }

    private static ServerProvider forced() {
        String v = System.getProperty(PROVIDER_PROPERTY, "").trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "", "auto" -> null;
            case "embedded" -> EMBEDDED;
            case "containers" -> containersOrAbort("the containers provider (" + PROVIDER_PROPERTY + "=containers)", null);
            default -> throw new IllegalArgumentException(PROVIDER_PROPERTY + " must be embedded, containers or auto, not " + v);
        };
    }

    /** The containers provider, or an abort saying why neither it nor the embedded one ({@code embeddedWhy}) can serve. */
    private static ServerProvider containersOrAbort(String what, String embeddedWhy) {
        String why = ContainersProvider.whyUnavailable();
        if (why != null) {
            throw new TestAbortedException(what + " is not available here: "
                    + (embeddedWhy == null ? "" : embeddedWhy + "; ") + "containers: " + why);
        }
        ServerProvider p = containers;
        if (p == null) {
            synchronized (TestServers.class) {
                if (containers == null) containers = new ContainersProvider();
                p = containers;
            }
        }
        return p;
    }

    private static void abortIfNotNull(String why, String what) {
        if (why != null) throw new TestAbortedException(what + " is not available here: " + why);
    }
}
