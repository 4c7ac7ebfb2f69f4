package io.cdcconnect.it;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The whole pipeline on real servers: a database with binlog (source; MariaDB 11.4 unless a test asks for another) →
 * our source connector → Kafka → our sink connector → a database (target: by default a second database on the source's
 * server). Servers come from {@link TestServers}. Used by the end-to-end tests and by the README's main job.
 */
public final class Pipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

    public static final String SOURCE_CONNECTOR = "cdc-source";
    public static final String SINK_CONNECTOR = "cdc-sink";
    public static final String TOPIC_PREFIX = "cdc";

    /** Where the rows are applied. */
    public record Target(String host, int port, String user, String password, String database) {
        /** Database {@code database} on {@code server}. */
        public static Target on(DatabaseServer server, String database) {
            return new Target(server.host(), server.port(), server.user(), server.password(), database);
        }

        /** A mysql-connector-j URL (UTC session, metadata scoped to the database). */
        public String jdbcUrl(String db) {
            return "jdbc:mysql://" + host + ":" + port + "/" + (db == null ? "" : db)
                    + "?useSSL=false&allowPublicKeyRetrieval=true&nullDatabaseMeansCurrent=true"
                    + "&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true";
        }
    }

    private final DatabaseServer source;
    /** Whether close() stops the source server (it was started for this pipeline). */
    private final boolean ownsSource;
    private final ConnectCluster connect;
    private final String sourceDb;
    private final Target target;
    private final PipelineProgress progress;
    private volatile List<String> tables = Workload.TABLES;
    /** Placeholder values a test adds for its own config files (e.g. SCHEMA_REGISTRY_URL, TOPIC_PARTITIONS). */
    private final Map<String, String> extraConfigValues = new java.util.concurrent.ConcurrentHashMap<>();

    private Pipeline(DatabaseServer source, boolean ownsSource, ConnectCluster connect, String sourceDb, Target target) {
        this.source = source;
        this.ownsSource = ownsSource;
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
        return start(DatabaseSpec.mariadb("11.4"), workDir, sourceDb, target, forkedWorker);
    }

    /** As {@link #start(Path, String, Target, boolean)} with a source server of its own for {@code sourceSpec}. */
    public static Pipeline start(DatabaseSpec sourceSpec, Path workDir, String sourceDb, Target target, boolean forkedWorker) {
        DatabaseServer db = TestServers.startDatabase(sourceSpec, workDir.resolve("source-db"));
        ConnectCluster connect;
        try {
            connect = TestServers.kafkaConnect(pluginDir(), workDir.resolve("connect"), forkedWorker, Map.of());
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return new Pipeline(db, true, connect, sourceDb, target != null ? target : Target.on(db, sourceDb + "_replica"));
    }

    /**
     * A pipeline over servers the caller started and closes (source and Connect cluster); {@link #close()} leaves them
     * running. {@code target} null = database {@code <sourceDb>_replica} on the source's server.
     */
    public static Pipeline over(DatabaseServer source, ConnectCluster connect, String sourceDb, Target target) {
        return new Pipeline(source, false, connect, sourceDb, target != null ? target : Target.on(source, sourceDb + "_replica"));
    }

    public static Path pluginDir() {
        return Path.of(System.getProperty("cdc.plugin.dir", "integration-tests/target/connect-plugins"));
    }

    public Pattern topicPattern() {
        return Pattern.compile(Pattern.quote(TOPIC_PREFIX + "." + sourceDb + ".") + ".*");
    }

    /** The source server. */
    public DatabaseServer source() {
        return source;
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
        return source.connect(sourceDb);
    }

    public Connection targetConnection() throws SQLException {
        return java.sql.DriverManager.getConnection(target.jdbcUrl(target.database()), target.user(), target.password());
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
        try (Connection c = source.connect(null); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS `" + sourceDb + "`");
        }
        try (Connection c = sourceConnection(); Statement s = c.createStatement()) {
            for (String d : ddl) s.execute(d);
        }
        try (Connection c = java.sql.DriverManager.getConnection(target.jdbcUrl(null), target.user(), target.password());
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
        v.put("SOURCE_HOST", source.host());
        v.put("SOURCE_PORT", Integer.toString(source.port()));
        v.put("SOURCE_USER", source.user());
        v.put("SOURCE_PASSWORD", source.password());
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
        registerSink(file, tasks, Map.of());
    }

    /** As {@link #registerSink(String, int)}, with settings of the file replaced or added. */
    public void registerSink(String file, int tasks, Map<String, String> overrides) {
        Map<String, String> config = ConnectorConfigFiles.load(file, configValues());
        config.putAll(overrides);
        connect.putConnector(SINK_CONNECTOR, config);
        connect.awaitRunning(SINK_CONNECTOR, tasks, Duration.ofSeconds(90));
    }

    /** Registers a source named {@code name} from {@code config/<file>}, settings replaced or added, and waits for it. */
    public void registerSourceAs(String name, String file, Map<String, String> overrides) {
        Map<String, String> config = ConnectorConfigFiles.load(file, configValues());
        config.putAll(overrides);
        connect.putConnector(name, config);
        connect.awaitRunning(name, 1, Duration.ofSeconds(90));
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

    /**
     * Waits until Debezium reports its snapshot completed and the worker has committed a source offset past it (one
     * without Debezium's {@code "snapshot"} flag). Until then a stop or a kill of the source task makes Debezium
     * snapshot again from a later consistent point, and a row deleted between the two points stays downstream
     * (docs/reliability.md): a fault test that wants no such divergence injects its faults after this.
     */
    public void awaitSourceSnapshotCommitted(Duration timeout) {
        awaitSourceSnapshotCommitted(SOURCE_CONNECTOR, timeout);
    }

    /** As {@link #awaitSourceSnapshotCommitted(Duration)}, for the source connector registered as {@code connector}. */
    public void awaitSourceSnapshotCommitted(String connector, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Object> completed = List.of();
        String offsets = "";
        while (System.nanoTime() < deadline) {
            completed = connect.workerAttributes("debezium.*:type=connector-metrics,context=snapshot,*",
                    "SnapshotCompleted");
            if (!completed.isEmpty() && completed.stream().allMatch(Boolean.TRUE::equals)) {
                offsets = connect.offsets(connector);
                if (offsets.contains("\"pos\"") && !offsets.contains("\"snapshot\"")) return;
            }
            ConnectCluster.sleep(250);
        }
        throw new AssertionError("Debezium's snapshot was not completed and committed within " + timeout
                + " (SnapshotCompleted " + completed + ", committed offsets " + offsets + ")");
    }

    @Override
    public void close() {
        progress.close();
        if (!ownsSource) return;
        try {
            connect.close();
        } finally {
            source.close();
        }
    }
}
