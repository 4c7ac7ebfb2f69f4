package io.cdcconnect.it.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.it.ConnectorConfigFiles;
import io.cdcconnect.it.FormatTestSupport;
import io.cdcconnect.it.Pipeline;
import io.cdcconnect.testsupport.Closeables;
import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The source with Connect's exactly-once support (KIP-618): a worker with {@code exactly.once.source.support=enabled},
 * the connector with {@code exactly.once.support=required}, Open-protocol batches over three partitions (the case
 * where one Kafka message holds rows of several binlog events, and a DDL goes to every partition). The worker, a
 * process of its own, is killed with SIGKILL once in the middle of Debezium's snapshot and twice while rows stream.
 * A {@code read_committed} consumer then sees every upstream change exactly once: each row change is identified by
 * its row's id and version (every update raises the version; ids are never reused), each DDL by its statement.
 *
 * <p>Snapshot rows: Debezium starts an interrupted snapshot over (a new snapshot, not a redelivery;
 * docs/reliability.md), so the rows the first snapshot had committed when the worker died come once more, and only
 * those: the test reads, right after the kill, what had been committed, and expects exactly those rows twice.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExactlyOnceSourceTest {
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceSourceTest.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 3;
    private static final int SNAPSHOT_ROWS = 30_000;
    private static final String TABLE = "versioned";
    private static final String DDL = "CREATE TABLE IF NOT EXISTS " + TABLE + " (id BIGINT NOT NULL PRIMARY KEY,"
            + " version INT NOT NULL, payload VARCHAR(64) NOT NULL) ENGINE=InnoDB";
    private static DatabaseServer db;
    private static ConnectCluster connect;
    private static Pipeline pipeline;

    @BeforeAll
    static void start() throws Exception {
        Path work = FaultSettings.workDir("exactly-once");
        db = TestServers.startDatabase(DatabaseSpec.mariadb("11.4"), work.resolve("source-db"));
        connect = ConnectCluster.startWithForkedWorkers(Pipeline.pluginDir(), work.resolve("connect"), 1,
                Map.of("exactly.once.source.support", "enabled"));
        pipeline = Pipeline.over(db, connect, "eos", null);
        pipeline.putConfigValue("TOPIC_PARTITIONS", Integer.toString(PARTITIONS));
        pipeline.createSchemas(List.of(TABLE), List.of(DDL), false);
    }

    @AfterAll
    static void stop() {
        Closeables.closeAll(pipeline, connect, db);
    }

    private static Map<String, String> sourceConfig(Map<String, String> overrides) {
        Map<String, String> config = ConnectorConfigFiles.load("source-mariadb-open-protocol.json",
                pipeline.configValues());
        config.put("exactly.once.support", "required");
        // a killed worker's open transaction holds back every read_committed reader of the offsets topic, the next
        // worker's too, until it times out (Connect's producers: 60 s); docs/reliability.md
        config.put("producer.override.transaction.timeout.ms", "10000");
        config.putAll(overrides);
        return config;
    }

    @Test
    @Order(1)
    void requiringExactlyOnceWithIntervalTransactionsIsRefusedNamingTheFix() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> connect.putConnector(
                "eos-interval", sourceConfig(Map.of("transaction.boundary", "interval"))));
        assertTrue(refused.getMessage().contains("transaction.boundary=poll (the default) or connector"),
                refused.getMessage());
        assertNull(connect.status("eos-interval"), "the connector is not created");
    }

    @Test
    @Order(2)
    void killedMidSnapshotAndMidStreamEveryChangeIsCommittedExactlyOnce() throws Exception {
        long seed = FaultSettings.seed();
        Random random = new Random(seed);
        Rows rows = new Rows(new Random(seed + 1)); // the writer's own, so that a seed repeats both
        try (Connection c = pipeline.sourceConnection()) {
            rows.preload(c, SNAPSHOT_ROWS);
        }
        connect.putConnector(Pipeline.SOURCE_CONNECTOR, sourceConfig(Map.of()));
        connect.awaitRunning(Pipeline.SOURCE_CONNECTOR, 1, Duration.ofSeconds(90));

        // kill 1: Debezium's snapshot has committed some transactions, not all
        awaitCommittedMessages(50);
        connect.killWorker(0);
        long committedAtKill = stableCommittedMessages();
        Map<String, Integer> beforeRestart = count(FormatTestSupport.readAll(pipeline, "read_committed")).rows;
        String offset = lastCommittedSourceOffset();
        // no offset at all: Debezium starts afresh too (with exactly-once, committed rows always come with one)
        boolean snapshotStartsOver = offset.isEmpty() || offset.contains("\"snapshot\"");
        LOG.info("killed mid-snapshot: {} messages, {} snapshot rows committed; Debezium starts the snapshot over: {}",
                committedAtKill, beforeRestart.size(), snapshotStartsOver);
        assertTrue(beforeRestart.size() < SNAPSHOT_ROWS || snapshotStartsOver,
                "the first kill should land before the snapshot is complete");
        connect.addWorker();
        awaitTaskOnNewestWorker();
        pipeline.awaitSourceSnapshotCommitted(Duration.ofMinutes(3));

        // kills 2 and 3: rows streaming, and a DDL shortly before each kill
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<?> load = writer.submit(() -> {
            try (Connection c = pipeline.sourceConnection()) {
                while (writing.get()) {
                    rows.step(c);
                    Thread.sleep(5);
                }
            }
            return null;
        });
        List<String> ddl = new ArrayList<>();
        try {
            for (int k = 1; k <= 2; k++) {
                Thread.sleep(3_000 + random.nextInt(3_000));
                String alter = "ALTER TABLE " + TABLE + " ADD COLUMN eos_extra_" + k + " INT NULL";
                try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
                    s.execute(alter);
                }
                ddl.add(alter);
                Thread.sleep(random.nextInt(2_000));
                connect.killAndRestartWorker();
                awaitTaskOnNewestWorker();
                assertFalse(load.isDone(), "the writer should still be running after kill " + (k + 1));
            }
            Thread.sleep(2_000);
        } finally {
            writing.set(false);
            writer.shutdown();
        }
        load.get();

        Map<String, Integer> expected = new HashMap<>();
        for (String change : rows.changes) expected.merge(change, 1, Integer::sum);
        if (snapshotStartsOver) {
            for (String change : beforeRestart.keySet()) expected.merge(change, 1, Integer::sum);
        }
        Counts committed = awaitAll(expected.keySet(), Duration.ofSeconds(90));
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            int seen = committed.rows.getOrDefault(e.getKey(), 0);
            if (seen != e.getValue()) wrong.add(e.getKey() + " seen " + seen + " times, expected " + e.getValue());
        }
        for (String change : committed.rows.keySet()) {
            if (!expected.containsKey(change)) wrong.add(change + " was never made upstream");
        }
        assertTrue(wrong.isEmpty(), wrong.size() + " changes not exactly once (seed " + seed + "): "
                + wrong.subList(0, Math.min(20, wrong.size())));
        for (String statement : ddl) {
            assertEquals(PARTITIONS, committed.ddl.getOrDefault(statement, 0),
                    "one copy on each partition of " + statement + "; DDL seen: " + committed.ddl);
        }

        // the figure for the record: what a consumer that ignores transactions sees of the same topics
        Counts uncommitted = count(FormatTestSupport.readAll(pipeline, "read_uncommitted"));
        long total = 0;
        long extra = 0;
        for (Map.Entry<String, Integer> e : uncommitted.rows.entrySet()) {
            total += e.getValue();
            extra += Math.max(0, e.getValue() - expected.getOrDefault(e.getKey(), 0));
        }
        LOG.info("exactly-once run passed: seed {}, {} upstream row changes ({} snapshot rows, {} of them committed "
                        + "by the interrupted snapshot), {} DDL; read_committed: every change exactly once; "
                        + "read_uncommitted: {} row events, {} of them from aborted transactions (duplicates)",
                seed, rows.changes.size(), SNAPSHOT_ROWS, beforeRestart.size(), ddl.size(), total, extra);
        System.out.printf("ExactlyOnceSourceTest: %d upstream row changes, 3 SIGKILLs; read_committed duplicates 0, "
                + "read_uncommitted duplicates %d%n", rows.changes.size(), extra);
    }

    /**
     * Waits until the source task runs on the worker started last: the status topic still says RUNNING for the killed
     * worker's task until the new one takes over.
     */
    private static void awaitTaskOnNewestWorker() throws InterruptedException {
        String worker = connect.restUrl().getHost() + ":" + connect.restUrl().getPort();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        JsonNode status = null;
        while (System.nanoTime() < deadline) {
            connect.assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            status = connect.status(Pipeline.SOURCE_CONNECTOR);
            JsonNode task = status == null ? null : status.path("tasks").path(0);
            if (task != null && "RUNNING".equals(task.path("state").asText())
                    && worker.equals(task.path("worker_id").asText())) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the source task is not running on " + worker + " after 120 s: " + status);
    }

    /** Reads the topics until every expected change is there (or the time is up), then returns what they hold. */
    private static Counts awaitAll(Set<String> expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Counts last;
        do {
            connect.assertNotFailed(Pipeline.SOURCE_CONNECTOR);
            last = count(FormatTestSupport.readAll(pipeline, "read_committed"));
            if (last.rows.keySet().containsAll(expected)) return last;
            Thread.sleep(1_000);
        } while (System.nanoTime() < deadline);
        Set<String> missing = new HashSet<>(expected);
        missing.removeAll(last.rows.keySet());
        throw new AssertionError(missing.size() + " changes never arrived, e.g. "
                + missing.stream().limit(20).toList());
    }

    /** Row changes by identity ({@code I|U|D:id:version}) and DDL statements, with how often each was read. */
    private record Counts(Map<String, Integer> rows, Map<String, Integer> ddl) {
    }

    /**
     * Open-protocol, read here from the bytes (PROTOCOLS.md) rather than with the codec, which the connectors carry in
     * their plugin archives and which is not on this classpath: key = u64 version, then [u64 length][key JSON]…;
     * value = [u64 length][value JSON]…, the n-th key with the n-th value.
     */
    private static Counts count(List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        Map<String, Integer> rows = new HashMap<>();
        Map<String, Integer> ddl = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            ByteBuffer keys = ByteBuffer.wrap(r.key());
            ByteBuffer values = ByteBuffer.wrap(r.value());
            keys.getLong();
            while (keys.hasRemaining()) {
                JsonNode key = JSON.readTree(slice(keys));
                byte[] valueBytes = slice(values);
                int kind = key.path("t").asInt();
                if (kind == 2) {
                    ddl.merge(JSON.readTree(valueBytes).path("q").asText(), 1, Integer::sum);
                } else if (kind == 1 && TABLE.equals(key.path("tbl").asText())) {
                    JsonNode v = JSON.readTree(valueBytes);
                    String op = v.has("d") ? "D" : v.has("p") ? "U" : "I";
                    JsonNode image = v.has("d") ? v.get("d") : v.get("u");
                    rows.merge(op + ":" + image.path("id").path("v").asLong() + ":"
                            + image.path("version").path("v").asInt(), 1, Integer::sum);
                }
            }
        }
        return new Counts(rows, ddl);
    }

    private static byte[] slice(ByteBuffer b) {
        byte[] out = new byte[(int) b.getLong()];
        b.get(out);
        return out;
    }

    private static KafkaConsumer<byte[], byte[]> committedConsumer() {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** The table topic's messages below the last stable offset, over its partitions. */
    private static long committedMessages() {
        try (KafkaConsumer<byte[], byte[]> consumer = committedConsumer()) {
            String topic = Pipeline.TOPIC_PREFIX + "." + pipeline.sourceDb() + "." + TABLE;
            if (!consumer.listTopics().containsKey(topic)) return 0;
            List<TopicPartition> parts = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            return consumer.endOffsets(parts).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static void awaitCommittedMessages(long n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (committedMessages() < n) {
            assertTrue(System.nanoTime() < deadline, "the source committed fewer than " + n + " messages in 2 min");
            Thread.sleep(50);
        }
    }

    /**
     * After a kill: the committed messages once the coordinator has written the markers of the last commit (they
     * follow the commit asynchronously); the killed worker's open transaction stays pending, holding the stable
     * offset, until its successor fences it.
     */
    private static long stableCommittedMessages() throws InterruptedException {
        long before = -1;
        long now = committedMessages();
        while (now != before) {
            Thread.sleep(1_500);
            before = now;
            now = committedMessages();
        }
        return now;
    }

    /** The source's last committed offset in Connect's offsets topic, as JSON ("" when there is none). */
    private static String lastCommittedSourceOffset() {
        String last = "";
        try (KafkaConsumer<byte[], byte[]> consumer = committedConsumer()) {
            List<TopicPartition> parts = consumer.partitionsFor("connect-offsets").stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                assertTrue(System.nanoTime() < deadline, "could not read connect-offsets to " + end);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String key = r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
                    if (key.contains(Pipeline.SOURCE_CONNECTOR) && r.value() != null) {
                        last = new String(r.value(), StandardCharsets.UTF_8);
                    }
                }
            }
        }
        return last;
    }

    /**
     * One table of rows whose every change is identifiable: an insert has version 0, each update raises the version,
     * a deleted id never comes back. Writes random transactions (multi-row inserts, updates of ranges of ids in one
     * statement, so one binlog event holds several rows, deletes, and mixed transactions) and remembers each change.
     */
    private static final class Rows {
        final List<String> changes = new ArrayList<>();
        private final TreeMap<Long, Integer> versions = new TreeMap<>();
        private final Random random;
        private long nextId = 1;

        Rows(Random random) {
            this.random = random;
        }

        void preload(Connection c, int n) throws SQLException {
            BatchInsert.insert(c, "INSERT INTO " + TABLE + " (id, version, payload) VALUES (?, 0, ?)", n, (ps, i) -> {
                long id = nextId++;
                ps.setLong(1, id);
                ps.setString(2, "snapshot row " + id);
                versions.put(id, 0);
                changes.add("I:" + id + ":0");
            });
        }

        /** One transaction; its changes are remembered only once it committed. */
        void step(Connection c) throws SQLException {
            List<String> made = new ArrayList<>();
            Map<Long, Integer> after = new HashMap<>();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                int kind = random.nextInt(4);
                if (kind == 0 || kind == 3) insert(s, 1 + random.nextInt(5), made, after);
                if (kind == 1 || kind == 3) update(s, made, after);
                if (kind == 2 || kind == 3) delete(s, made, after);
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
            for (Map.Entry<Long, Integer> e : after.entrySet()) {
                if (e.getValue() == null) versions.remove(e.getKey());
                else versions.put(e.getKey(), e.getValue());
            }
            changes.addAll(made);
        }

        private int version(long id, Map<Long, Integer> after) {
            // -1: no such row (never inserted, or deleted)
            Integer v = after.containsKey(id) ? after.get(id) : versions.get(id);
            return v == null ? -1 : v;
        }

        private void insert(Statement s, int n, List<String> made, Map<Long, Integer> after) throws SQLException {
            StringBuilder sql = new StringBuilder("INSERT INTO " + TABLE + " (id, version, payload) VALUES ");
            for (int i = 0; i < n; i++) {
                long id = nextId++;
                sql.append(i == 0 ? "" : ", ").append("(").append(id).append(", 0, 'streamed ").append(id).append("')");
                after.put(id, 0);
                made.add("I:" + id + ":0");
            }
            s.executeUpdate(sql.toString());
        }

        /** Ten consecutive ids in one statement: one binlog event of several rows. */
        private void update(Statement s, List<String> made, Map<Long, Integer> after) throws SQLException {
            long from = 1 + (long) (random.nextDouble() * (nextId - 1));
            long to = from + 9;
            s.executeUpdate("UPDATE " + TABLE + " SET version = version + 1 WHERE id BETWEEN " + from + " AND " + to);
            for (long id = from; id <= to; id++) {
                int v = version(id, after);
                if (v < 0) continue;
                after.put(id, v + 1);
                made.add("U:" + id + ":" + (v + 1));
            }
        }

        private void delete(Statement s, List<String> made, Map<Long, Integer> after) throws SQLException {
            Long id = versions.ceilingKey(1 + (long) (random.nextDouble() * (nextId - 1)));
            if (id == null || version(id, after) < 0) return;
            s.executeUpdate("DELETE FROM " + TABLE + " WHERE id = " + id);
            made.add("D:" + id + ":" + version(id, after));
            after.put(id, null);
        }
    }
}
