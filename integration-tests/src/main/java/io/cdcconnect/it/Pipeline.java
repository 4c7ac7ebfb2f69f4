package io.cdcconnect.it;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The whole pipeline on real servers: MariaDB 11.4 with binlog (source) → our source connector → Kafka → our sink
 * connector → MariaDB (target: by default a second database on the same server). Used by the end-to-end tests and by
 * the README's main job.
 */
public final class Pipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

    public static final String SOURCE_CONNECTOR = "cdc-source";
    public static final String SINK_CONNECTOR = "cdc-sink";
    public static final String TOPIC_PREFIX = "cdc";

    /** Where the target lives; null host means the embedded server. */
    public record Target(String host, int port, String user, String password, String database) {
    }

    private final EmbeddedMariaDb mariaDb;
    private final ConnectCluster connect;
    private final String sourceDb;
    private final Target target;
    private final PipelineProgress progress;
    private volatile List<String> tables = Workload.TABLES;
    /** Placeholder values a test adds for its own config files (e.g. SCHEMA_REGISTRY_URL, TOPIC_PARTITIONS). */
    private final Map<String, String> extraConfigValues = new java.util.concurrent.ConcurrentHashMap<>();

    private Pipeline(EmbeddedMariaDb mariaDb, ConnectCluster connect, String sourceDb, Target target) {
        this.mariaDb = mariaDb;
        this.connect = connect;
        this.sourceDb = sourceDb;
        this.target = target;
        this.progress = new PipelineProgress(connect.bootstrapServers(), topicPattern(), SINK_CONNECTOR);
    }

    /** Starts MariaDB and the Connect cluster; {@code target} null = database {@code <sourceDb>_replica} on the same server. */
    public static Pipeline start(Path workDir, String sourceDb, Target target) {
        return start(workDir, sourceDb, target, false);
    }

    /**
     * As {@link #start(Path, String, Target)}; with {@code forkedWorker} the Connect worker runs in a child JVM that
     * {@link ConnectCluster#killAndRestartWorker()} can kill with SIGKILL.
     */
    public static Pipeline start(Path workDir, String sourceDb, Target target, boolean forkedWorker) {
        EmbeddedMariaDb db = EmbeddedMariaDb.start(workDir.resolve("mariadb"), 1);
        ConnectCluster connect;
        try {
            connect = forkedWorker ? ConnectCluster.startWithForkedWorker(pluginDir(), workDir.resolve("connect"))
                    : ConnectCluster.start(pluginDir(), Map.of());
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        Target t = target != null ? target : new Target("127.0.0.1", db.port(), EmbeddedMariaDb.USER,
                EmbeddedMariaDb.PASSWORD, sourceDb + "_replica");
        return new Pipeline(db, connect, sourceDb, t);
    }

    public static Path pluginDir() {
        return Path.of(System.getProperty("cdc.plugin.dir", "integration-tests/target/connect-plugins"));
    }

    public Pattern topicPattern() {
        return Pattern.compile(Pattern.quote(TOPIC_PREFIX + "." + sourceDb + ".") + ".*");
    }

    public EmbeddedMariaDb mariaDb() {
        return mariaDb;
    }

    public ConnectCluster connect() {
        return connect;
    }

    public String sourceDb() {
        return sourceDb;
    }

    public Target target() {
        return target;
    }

    public Connection sourceConnection() throws SQLException {
        return mariaDb.connect(sourceDb);
    }

    public Connection targetConnection() throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + target.host() + ":" + target.port() + "/" + target.database()
                        + "?useSSL=false&allowPublicKeyRetrieval=true&nullDatabaseMeansCurrent=true"
                        + "&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true",
                target.user(), target.password());
    }

    /** Creates the source database and the workload's tables, and the same tables in the target database. */
    public void createSchemas() throws SQLException {
        createSchemas(Workload.TABLES, Workload.DDL);
    }

    /**
     * Creates the source database with {@code ddl}, the target database with the same statements, and makes
     * {@link #compare()} look at {@code tableNames}.
     */
    public void createSchemas(List<String> tableNames, List<String> ddl) throws SQLException {
        createSchemas(tableNames, ddl, true);
    }

    /**
     * As {@link #createSchemas(List, List)}; with {@code tablesDownstream} false the target database is created empty,
     * for the sink to create the tables from the DDL it receives.
     */
    public void createSchemas(List<String> tableNames, List<String> ddl, boolean tablesDownstream) throws SQLException {
        // (never drops anything: the target may be a user's server)
        this.tables = List.copyOf(tableNames);
        try (Connection c = mariaDb.connect(null); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS `" + sourceDb + "`");
        }
        try (Connection c = sourceConnection(); Statement s = c.createStatement()) {
            for (String d : ddl) s.execute(d);
        }
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + target.host() + ":" + target.port()
                + "/?useSSL=false&allowPublicKeyRetrieval=true", target.user(), target.password());
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS `" + target.database() + "`");
        }
        if (!tablesDownstream) return;
        try (Connection c = targetConnection(); Statement s = c.createStatement()) {
            for (String d : ddl) s.execute(d);
        }
    }

    /** Makes {@link #compare()} look at these tables from now on. */
    public void compareTables(List<String> tableNames) {
        this.tables = List.copyOf(tableNames);
    }

    /** The values that fill the placeholders of {@code config/*.json}. */
    public Map<String, String> configValues() {
        Map<String, String> v = new HashMap<>();
        v.put("SOURCE_HOST", mariaDb.host());
        v.put("SOURCE_PORT", Integer.toString(mariaDb.port()));
        v.put("SOURCE_USER", EmbeddedMariaDb.USER);
        v.put("SOURCE_PASSWORD", EmbeddedMariaDb.PASSWORD);
        v.put("SOURCE_DATABASE", sourceDb);
        v.put("SOURCE_SERVER_ID", "5401");
        v.put("TOPIC_PREFIX", TOPIC_PREFIX);
        v.put("KAFKA_BOOTSTRAP", connect.bootstrapServers());
        v.put("TARGET_HOST", target.host());
        v.put("TARGET_PORT", Integer.toString(target.port()));
        v.put("TARGET_USER", target.user());
        v.put("TARGET_PASSWORD", target.password() == null ? "" : target.password());
        v.put("TARGET_DATABASE", target.database());
        v.putAll(extraConfigValues);
        return v;
    }

    /** Adds (or replaces) a placeholder value for the config files, e.g. {@code SCHEMA_REGISTRY_URL}. */
    public void putConfigValue(String name, String value) {
        extraConfigValues.put(name, value);
    }

    /** Registers the source from {@code config/<file>} and waits until its {@code tasks} tasks run. */
    public void registerSource(String file, int tasks) {
        connect.putConnector(SOURCE_CONNECTOR, ConnectorConfigFiles.load(file, configValues()));
        connect.awaitRunning(SOURCE_CONNECTOR, tasks, Duration.ofSeconds(90));
    }

    /** Registers the sink from {@code config/<file>} and waits until its {@code tasks} tasks run. */
    public void registerSink(String file, int tasks) {
        connect.putConnector(SINK_CONNECTOR, ConnectorConfigFiles.load(file, configValues()));
        connect.awaitRunning(SINK_CONNECTOR, tasks, Duration.ofSeconds(90));
    }

    /** Registers both connectors over REST from {@code config/source-mariadb.json} and {@code config/sink-mariadb.json}. */
    public void registerConnectors() {
        registerSource();
        registerSink();
    }

    public void registerSource() {
        connect.putConnector(SOURCE_CONNECTOR, ConnectorConfigFiles.load("source-mariadb.json", configValues()));
        connect.awaitRunning(SOURCE_CONNECTOR, 1, Duration.ofSeconds(90));
    }

    public void registerSink() {
        connect.putConnector(SINK_CONNECTOR, ConnectorConfigFiles.load("sink-mariadb.json", configValues()));
        connect.awaitRunning(SINK_CONNECTOR, 1, Duration.ofSeconds(90));
    }

    public PipelineProgress.Snapshot progress() {
        return progress.read();
    }

    public List<TableComparison.Result> compare() throws SQLException {
        try (Connection s = sourceConnection(); Connection t = targetConnection()) {
            return TableComparison.compareAll(s, sourceDb, t, target.database(), tables);
        }
    }

    /**
     * Waits until every table matches and the sink has committed everything the source wrote. Reports progress
     * through {@code report} every couple of seconds; fails fast if a connector task fails.
     *
     * @return the final comparison (all matching), or the last one seen when {@code timeout} ran out
     */
    public List<TableComparison.Result> awaitCaughtUp(Duration timeout, Consumer<String> report) throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastReport = 0;
        List<TableComparison.Result> last = List.of();
        while (System.nanoTime() < deadline) {
            connect.assertNotFailed(SOURCE_CONNECTOR);
            connect.assertNotFailed(SINK_CONNECTOR);
            PipelineProgress.Snapshot p = progress.read();
            last = compare();
            boolean allMatch = last.stream().allMatch(TableComparison.Result::matches);
            if (report != null && (System.nanoTime() - lastReport > 2_000_000_000L || allMatch)) {
                long differing = last.stream().mapToLong(TableComparison.Result::differenceCount).sum();
                report.accept(String.format("captured %d messages, applied %d, lag %d, rows still differing %d",
                        p.captured(), p.applied(), p.lag(), differing));
                lastReport = System.nanoTime();
            }
            if (allMatch && p.lag() == 0 && p.captured() > 0) return last;
            ConnectCluster.sleep(500);
        }
        LOG.warn("pipeline did not catch up within {}: {}", timeout, last);
        return last;
    }

    @Override
    public void close() {
        progress.close();
        try {
            connect.close();
        } finally {
            mariaDb.close();
        }
    }
}
