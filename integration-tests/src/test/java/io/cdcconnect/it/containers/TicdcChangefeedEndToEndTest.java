package io.cdcconnect.it.containers;

import io.cdcconnect.it.Pipeline;
import io.cdcconnect.it.TableComparison;
import io.cdcconnect.it.Workload;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.registry.SchemaRegistry;
import io.cdcconnect.testsupport.servers.ContainersProvider;
import io.cdcconnect.testsupport.servers.TestServers;
import io.cdcconnect.testsupport.servers.containers.ChangefeedSpec;
import io.cdcconnect.testsupport.servers.containers.TicdcUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestReporter;

import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real TiCDC changefeed into our sink, the way a TiDB user runs it: TiDB (PD, TiKV, TiDB, TiCDC in containers) →
 * TiCDC's Kafka sink → a Kafka container → our sink connector (from its plugin folder, in a Connect worker on the host)
 * → MySQL 8.4. Once per protocol: Canal-JSON with TiDB's extension (watermarks), Open-protocol, and Avro with
 * Confluent's Schema Registry. Each creates its tables upstream and downstream, starts a changefeed that sends each
 * table to topic {@code cdc.<db>.<table>} (so the sink's usual {@code config/sink-mariadb*.json} apply unchanged),
 * writes rows, updates (primary-key changes too) and deletes upstream, and compares every row.
 */
@Tag("containers")
@RequiresContainers
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TicdcChangefeedEndToEndTest {
    private ConnectCluster connect;
    private DatabaseServer target;
    private TicdcUpstream upstream;
    private final Map<String, String> servers = new LinkedHashMap<>();

    @BeforeAll
    void startServers() {
        ContainerTests.requireContainers("a TiCDC changefeed");
        connect = TestServers.kafkaConnectForContainers(Pipeline.pluginDir(), ContainerTests.workDir("ticdc").resolve("connect"));
        target = TestServers.database(DatabaseSpec.mysql("8.4").withoutBinlog());
        upstream = ContainersProvider.startTicdcUpstream();
        servers.put("upstream", upstream.tidb().describe() + "; cluster " + upstream.describe());
        servers.put("kafka", connect.bootstrapServers() + " (" + ContainersProvider.networkBootstrapServers(connect)
                + " for TiCDC)");
        servers.put("connect", "forked worker at " + connect.restUrl());
        servers.put("target", target.describe());
    }

    @AfterAll
    void stopServers() {
        try {
            if (upstream != null) upstream.close();
        } finally {
            if (connect != null) connect.close();
        }
    }

    @Test
    void canalJsonWithTidbExtension(TestReporter reporter) throws Exception {
        replicate("canal-json", "sink-mariadb.json", 1, null, cf -> cf.param("enable-tidb-extension", "true"), reporter);
    }

    @Test
    void openProtocol(TestReporter reporter) throws Exception {
        replicate("open-protocol", "sink-mariadb-open-protocol.json", 2, null, cf -> cf, reporter);
    }

    /**
     * Avro: the registry is named by {@code cdc cli}'s {@code --schema-registry} flag; the TiDB extension adds
     * {@code _tidb_op} and the commit ts, which the sink uses for updates and transaction boundaries.
     */
    @Test
    void avroWithConfluentSchemaRegistry(TestReporter reporter) throws Exception {
        try (SchemaRegistry registry = TestServers.confluentSchemaRegistry()) {
            String inNetwork = ContainersProvider.networkUrl(registry);
            replicate("avro", "sink-mariadb-avro.json", 1, registry,
                    cf -> cf.param("enable-tidb-extension", "true").schemaRegistry(inNetwork), reporter);
            List<String> subjects = registry.subjects();
            assertTrue(subjects.stream().anyMatch(s -> s.contains("customers")),
                    "TiCDC registered the tables' schemas: " + subjects);
        }
    }

    private void replicate(String protocol, String sinkConfig, int sinkTasks, SchemaRegistry registry,
                           UnaryOperator<ChangefeedSpec> options, TestReporter reporter) throws Exception {
        String db = "feed_" + protocol.replace('-', '_');
        Pipeline.Target t = Pipeline.Target.on(target, ContainerTests.uniqueName(db + "_replica"));
        ChangefeedSpec feed = options.apply(ChangefeedSpec.of("it-" + protocol, protocol,
                        ContainersProvider.networkBootstrapServers(connect), "ticdc-default-" + protocol)
                .tables(db + ".*")
                .topicPerTable(Pipeline.TOPIC_PREFIX + ".{schema}.{table}"));
        Map<String, String> ran = new LinkedHashMap<>(servers);
        ran.put("changefeed", feed.sinkUri() + (registry == null ? "" : " with " + registry.describe()));
        ContainerTests.report(reporter, "TiCDC " + protocol, ran);

        try (Pipeline pipeline = Pipeline.over(upstream.tidb(), connect, db, t)) {
            pipeline.createSchemas(); // upstream and downstream, before the changefeed: it carries rows only
            upstream.createChangefeed(feed);
            try {
                if (registry != null) pipeline.putConfigValue("SCHEMA_REGISTRY_URL", registry.url());
                pipeline.registerSink(sinkConfig, sinkTasks);
                Workload workload = new Workload(protocol.hashCode());
                try (Connection c = pipeline.sourceConnection()) {
                    workload.preload(c, 100);
                    workload.run(c, 800, 0, null);
                }
                List<TableComparison.Result> results = ContainerTests.awaitRowsMatch(pipeline, Duration.ofMinutes(5));
                ContainerTests.assertAllMatch(results, "TiCDC " + protocol + "; changefeed: " + upstream.query(feed.id()));
            } finally {
                upstream.removeChangefeed(feed);
            }
        } finally {
            ContainerTests.dropDatabase(t);
        }
    }
}
