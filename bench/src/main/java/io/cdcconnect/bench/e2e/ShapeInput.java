package io.cdcconnect.bench.e2e;

import io.cdcconnect.bench.codec.BenchRows;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Change;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Kind;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Txn;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.cdcconnect.bench.e2e.BenchContext.SOURCE_DB;

/**
 * The input of the shapes that bring rows of their own, not the workload's: txn100k (one source transaction of
 * {@link #TXN_ROWS} inserts into one table, then a one-row transaction after it, so that the sink sees the big one
 * end) and tables64 (the workload's shape and size over 64 tables). Written straight into topics as Canal-JSON by our
 * codec's encoder, the format and encoder our source uses, every row of a transaction with its commit ts: through the
 * source phase they would go into every source connector's binlog and change their figures. A copy applied untimed by
 * plain JDBC is the reference the timed variants are checked against.
 */
final class ShapeInput {
    /** Rows of txn100k's big transaction. */
    static final int TXN_ROWS = 100_000;

    /**
     * One shape's rows: its transactions over sbtest1..sbtest{@code tables}, the topic prefix they are written under and
     * the database holding the reference copy.
     */
    record Dataset(String shape, String prefix, String referenceDb, int tables, List<Txn> txns, boolean wide) {
        Dataset(String shape, String prefix, String referenceDb, int tables, List<Txn> txns) {
            this(shape, prefix, referenceDb, tables, txns, false);
        }

        long rowChanges() {
            return txns.stream().mapToLong(t -> t.changes().size()).sum();
        }
    }

    private ShapeInput() {
    }

    /** txn100k: the big transaction on sbtest1 and the one-row transaction after it. */
    static Dataset txn100k() {
        Random r = new Random(EndToEndBenchmark.SEED);
        List<Change> big = new ArrayList<>(TXN_ROWS);
        for (int id = 1; id <= TXN_ROWS; id++) big.add(row(r, id));
        return new Dataset("txn100k", "otx", "bt_txn100k_ref", 1,
                List.of(new Txn(1, big), new Txn(1, List.of(row(r, TXN_ROWS + 1)))));
    }

    /**
     * ticdc: the workload itself (its tables, preload and row changes) as a TiCDC changefeed writes it in Canal-JSON
     * without the TiDB extension: every source transaction with a commit time of its own, one millisecond after the
     * one before, so the sink sees the source's transactions (34,831 for the default workload) rather than the
     * second-long groups a MariaDB binlog's timestamps give our source's messages.
     */
    static Dataset ticdc(SysbenchWorkload w) {
        return new Dataset("ticdc", "otc", "bt_ticdc_ref", w.tables(), w.all());
    }

    /** tables64: as many rows preloaded and row changes after as the workload, over 64 tables. */
    static Dataset tables64(SysbenchWorkload w) {
        int tables = 64;
        int rowsPerTable = Math.max(1, w.rowsPerTable() * w.tables() / tables);
        SysbenchWorkload t64 = SysbenchWorkload.generate(tables, rowsPerTable, (int) w.operationChanges(),
                EndToEndBenchmark.SEED);
        return new Dataset("tables64", "o64", "bt_tables64_ref", tables, t64.all());
    }

    /**
     * wide60: a quarter of the workload's preload and row changes over its tables, every row of 60 columns
     * ({@link WideRows}, about 1.3 KB of values; a quarter, because each Canal-JSON message is about 5 KB).
     */
    static Dataset wide60(SysbenchWorkload w) {
        SysbenchWorkload q = SysbenchWorkload.generate(w.tables(), Math.max(1, w.rowsPerTable() / 4),
                (int) Math.max(1, w.operationChanges() / 4), EndToEndBenchmark.SEED);
        return new Dataset("wide60", "owd", "bt_wide60_ref", w.tables(), q.all(), true);
    }

    private static Change row(Random r, int id) {
        return new Change(1, Kind.INSERT, id, r.nextInt(1_000_000), text(r, 119), text(r, 59));
    }

    private static String text(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) sb.append(i % 12 == 11 ? '-' : (char) ('0' + r.nextInt(10)));
        return sb.toString();
    }

    /** Creates sbtest1..sbtest{@code d.tables()} in {@code database}. */
    static void createTables(Connection c, Dataset d) throws java.sql.SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            for (int t = 1; t <= d.tables(); t++) s.execute(d.wide() ? WideRows.ddl(t) : SysbenchWorkload.ddl(t));
        }
    }

    /**
     * Writes the reference copy (untimed, plain JDBC in order) and the shape's topics (one partition a table): every
     * transaction's rows with one commit ts, the next transaction a millisecond later.
     */
    static void prepare(BenchContext ctx, Dataset d) throws Exception {
        ctx.execute(null, "DROP DATABASE IF EXISTS `" + d.referenceDb() + "`", "CREATE DATABASE `" + d.referenceDb() + "`");
        try (Connection c = ctx.connect(d.referenceDb())) {
            createTables(c, d);
        }
        new PlainJdbcCeiling(2, 500, PlainJdbcCeiling.Mode.IN_ORDER, false, d.wide())
                .apply(d.txns(), () -> ctx.connect(d.referenceDb()));

        // the shape's topics, written and then checked: every message there, or written again into new topics
        for (int attempt = 1; ; attempt++) {
            String failure = writeTopics(ctx, d);
            if (failure == null) return;
            if (attempt == 3) {
                throw new IllegalStateException("the " + d.shape() + " shape's topics could not be written in 3 "
                        + "attempts: " + failure);
            }
            System.out.println("      " + d.shape() + ": " + failure + "; its topics are deleted and written again");
        }
    }

    /**
     * Creates the shape's topics and writes its messages; null when every send was acknowledged and every topic holds
     * exactly its table's changes, else what went wrong (the topics are deleted then). A send that failed used to be
     * dropped unseen: in the run of 2026-11-28 18:08 one topic's producer met NOT_LEADER_OR_FOLLOWER and then
     * OUT_OF_ORDER_SEQUENCE_NUMBER until its batches expired, and the sink's rounds, rightly, did not match the
     * reference.
     */
    private static String writeTopics(BenchContext ctx, Dataset d) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (int t = 1; t <= d.tables(); t++) topics.add(new NewTopic(topic(d, t), 1, (short) 1));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                ctx.connect.bootstrapServers()))) {
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
            awaitLeaders(admin, topics);
            String failure = produce(ctx, d);
            if (failure == null) failure = checkCounts(admin, d);
            if (failure != null) {
                List<String> names = topics.stream().map(NewTopic::name).toList();
                admin.deleteTopics(names).all().get(60, TimeUnit.SECONDS);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().anyMatch(names::contains)) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException("topics not deleted in 60 s");
                    Thread.sleep(200);
                }
            }
            return failure;
        }
    }

    /** Whether each topic holds exactly as many messages as its table has changes (one Canal-JSON message a row). */
    private static String checkCounts(Admin admin, Dataset d) throws Exception {
        long[] expected = new long[d.tables() + 1];
        for (Txn txn : d.txns()) expected[txn.table()] += txn.changes().size();
        Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new HashMap<>();
        for (int t = 1; t <= d.tables(); t++) {
            latest.put(new org.apache.kafka.common.TopicPartition(topic(d, t), 0),
                    org.apache.kafka.clients.admin.OffsetSpec.latest());
        }
        var ends = admin.listOffsets(latest).all().get(60, TimeUnit.SECONDS);
        for (int t = 1; t <= d.tables(); t++) {
            long end = ends.get(new org.apache.kafka.common.TopicPartition(topic(d, t), 0)).offset();
            if (end != expected[t]) return topic(d, t) + " holds " + end + " messages, not " + expected[t];
        }
        return null;
    }

    /** Writes the shape's messages; null when every send was acknowledged, else the first failure. */
    private static String produce(BenchContext ctx, Dataset d) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ctx.connect.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
        // a producer stuck in retries gives up after 40 s rather than Kafka's 2 minutes: the topics are written again
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "40000");
        EventEncoder encoder = WireFormat.CANAL_JSON.encoder(Map.of());
        TableInfo[] tables = new TableInfo[d.tables() + 1];
        List<Map<Integer, Object[]>> rows = new ArrayList<>();
        rows.add(null);
        for (int t = 1; t <= d.tables(); t++) {
            tables[t] = TableInfo.of(SOURCE_DB, SysbenchWorkload.table(t),
                    d.wide() ? WideRows.columns() : BenchRows.SYSBENCH.columns());
            rows.add(new HashMap<>());
        }
        java.util.concurrent.atomic.AtomicReference<Exception> failed = new java.util.concurrent.atomic.AtomicReference<>();
        long commitTs = System.currentTimeMillis() << 18;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (Txn txn : d.txns()) {
                String topic = topic(d, txn.table());
                TableInfo table = tables[txn.table()];
                Map<Integer, Object[]> current = rows.get(txn.table());
                for (Change ch : txn.changes()) {
                    Object[] image = d.wide() ? WideRows.values(ch)
                            : new Object[] {(long) ch.id(), (long) ch.k(), ch.c(), ch.pad()};
                    RowChange change = switch (ch.kind()) {
                        case INSERT -> RowChange.insert(table, image, commitTs);
                        case UPDATE -> RowChange.update(table, current.get(ch.id()), image, commitTs);
                        case DELETE -> RowChange.delete(table, image, commitTs);
                    };
                    if (ch.kind() == Kind.DELETE) current.remove(ch.id());
                    else current.put(ch.id(), image);
                    for (EncodedMessage m : encoder.encode(topic, change)) {
                        producer.send(new ProducerRecord<>(topic, m.key(), m.value()), (meta, e) -> {
                            if (e != null) failed.compareAndSet(null, e);
                        });
                    }
                }
                commitTs += 1L << 18;
            }
            // Canal-JSON encodes each event into a message of its own at once: nothing is held back
            if (!encoder.flush().isEmpty()) throw new IllegalStateException("the Canal-JSON encoder held messages back");
            producer.flush();
        }
        Exception e = failed.get();
        return e == null ? null : "a send failed: " + e;
    }

    /**
     * Waits until every new topic's partition has a leader: a producer that starts before that gets
     * NOT_LEADER_OR_FOLLOWER, and its idempotent retries then met OUT_OF_ORDER_SEQUENCE_NUMBER for ever (17:43 run
     * of 2026-11-28, 64 topics).
     */
    private static void awaitLeaders(Admin admin, List<NewTopic> topics) throws Exception {
        List<String> names = topics.stream().map(NewTopic::name).toList();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            boolean all = true;
            try {
                for (var d : admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
                    for (var p : d.partitions()) all &= p.leader() != null && !p.leader().isEmpty();
                }
            } catch (java.util.concurrent.ExecutionException e) {
                all = false; // a topic not known to the broker's metadata yet
            }
            if (all) return;
            if (System.nanoTime() > deadline) throw new IllegalStateException("topics without a leader after 60 s");
            Thread.sleep(100);
        }
    }

    private static String topic(Dataset d, int table) {
        return d.prefix() + "." + SOURCE_DB + "." + SysbenchWorkload.table(table);
    }
}
