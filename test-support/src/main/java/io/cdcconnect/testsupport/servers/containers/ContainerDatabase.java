package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.Flavor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A MySQL, MariaDB or TiDB server in a container, reached at the container host's mapped port. After start, as root,
 * it gets the user {@value #USER} with every privilege on every database (replication included) from any host, and
 * logs in once as that user: MySQL 8's caching_sha2_password then has the password cached, so clients without TLS or
 * RSA key retrieval (a binlog reader, the sink's pool) log in too.
 */
public final class ContainerDatabase implements DatabaseServer {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerDatabase.class);

    public static final String USER = "cdc";
    public static final String PASSWORD = "cdc-secret";
    /** Root's password in the MySQL and MariaDB containers (TiDB's root has none). */
    static final String ROOT_PASSWORD = "cdc-root";

    private final DatabaseSpec spec;
    private final GenericContainer<?> container;
    private final String image;
    private final String host;
    private final int port;
    private final boolean owned;

    ContainerDatabase(DatabaseSpec spec, GenericContainer<?> container, String image, int internalPort, boolean owned) {
        this.spec = spec;
        this.container = container;
        this.image = image;
        this.host = container.getHost();
        this.port = container.getMappedPort(internalPort);
        this.owned = owned;
    }

    /** Starts the server {@code spec} asks for; {@code serverId} is its binlog server id. */
    public static DatabaseServer start(DatabaseSpec spec, int serverId) {
        String image = ContainerImages.forDatabase(spec);
        long t0 = System.nanoTime();
        ContainerDatabase db = switch (spec.flavor()) {
            case MYSQL -> startMysql(spec, image, serverId);
            case MARIADB -> startMariaDb(spec, image, serverId);
            case TIDB -> startTidb(spec, image);
            case POSTGRES -> throw new IllegalArgumentException("no PostgreSQL container: " + spec
                    + " is embedded or named by a property");
        };
        LOG.info("{} in container {} at {}:{} (started in {} ms)", spec, image, db.host, db.port,
                (System.nanoTime() - t0) / 1_000_000);
        return db;
    }

    private static ContainerDatabase startMysql(DatabaseSpec spec, String image, int serverId) {
        MySQLContainer<?> c = new MySQLContainer<>(DockerImageName.parse(image).asCompatibleSubstituteFor("mysql"));
        c.withPassword(ROOT_PASSWORD) // MySQLContainer gives root the same password
                .withCommand(ServerArgs.mysql(spec, serverId).toArray(String[]::new))
                .withNetwork(Containers.network())
                .withNetworkAliases(Containers.uniqueName("mysql"))
                // MySQLContainer waits by JDBC with its own timeout, not the wait strategy's
                .withStartupTimeoutSeconds((int) Containers.STARTUP_TIMEOUT.toSeconds());
        Containers.start(c, spec.toString());
        return prepare(spec, c, image, ServerArgs.MYSQL_PORT, "root", ROOT_PASSWORD, true);
    }

    private static ContainerDatabase startMariaDb(DatabaseSpec spec, String image, int serverId) {
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image));
        c.withEnv("MARIADB_ROOT_PASSWORD", ROOT_PASSWORD)
                .withExposedPorts(ServerArgs.MYSQL_PORT)
                .withCommand(ServerArgs.mariadb(spec, serverId).toArray(String[]::new))
                .withNetwork(Containers.network())
                .withNetworkAliases(Containers.uniqueName("mariadb"))
                // the image's entrypoint first runs a server without networking to initialise: the port opens only
                // when the real one is up
                .waitingFor(Wait.forListeningPort().withStartupTimeout(Containers.STARTUP_TIMEOUT));
        Containers.start(c, spec.toString());
        return prepare(spec, c, image, ServerArgs.MYSQL_PORT, "root", ROOT_PASSWORD, true);
    }

    private static ContainerDatabase startTidb(DatabaseSpec spec, String image) {
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image));
        Containers.entrypoint(c, "/tidb-server");
        c.withCommand(ServerArgs.tidbStandalone().toArray(String[]::new))
                .withExposedPorts(ServerArgs.TIDB_PORT, ServerArgs.TIDB_STATUS_PORT)
                .withNetwork(Containers.network())
                .withNetworkAliases(Containers.uniqueName("tidb"))
                // the status port answers once the store is bootstrapped; SELECT 1 on 4000 is checked after
                .waitingFor(Wait.forHttp("/status").forPort(ServerArgs.TIDB_STATUS_PORT).forStatusCode(200)
                        .withStartupTimeout(Containers.STARTUP_TIMEOUT));
        Containers.start(c, spec.toString());
        return prepare(spec, c, image, ServerArgs.TIDB_PORT, "root", "", true);
    }

    /** Waits for SQL as root, creates the test user, logs in as it once; stops the container if any of it fails. */
    static ContainerDatabase prepare(DatabaseSpec spec, GenericContainer<?> c, String image, int internalPort,
                                     String rootUser, String rootPassword, boolean owned) {
        try {
            ContainerDatabase db = new ContainerDatabase(spec, c, image, internalPort, owned);
            Containers.awaitSql(db.host, db.port, rootUser, rootPassword, Duration.ofMinutes(2), c);
            try (Connection conn = DriverManager.getConnection(Containers.rootUrl(db.host, db.port), rootUser, rootPassword);
                 Statement s = conn.createStatement()) {
                s.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
                s.execute("GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'%' WITH GRANT OPTION");
                if (spec.flavor() == Flavor.MARIADB) s.execute("FLUSH PRIVILEGES");
            }
            Containers.awaitSql(db.host, db.port, USER, PASSWORD, Duration.ofSeconds(30), c);
            return db;
        } catch (SQLException | RuntimeException e) {
            String logs = Containers.tail(c, 40);
            c.stop();
            throw new IllegalStateException("could not prepare " + spec + " in container " + image + ": " + e.getMessage()
                    + (logs.isEmpty() ? "" : "\nlast lines of its output:\n" + logs), e);
        }
    }

    @Override
    public DatabaseSpec spec() {
        return spec;
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String user() {
        return USER;
    }

    @Override
    public String password() {
        return PASSWORD;
    }

    @Override
    public String provenance() {
        return "container " + image;
    }

    /** Stops the container (unless it belongs to a cluster that stops it, e.g. a TiCDC upstream's TiDB). */
    @Override
    public void close() {
        if (owned && container.isRunning()) container.stop();
    }
}
