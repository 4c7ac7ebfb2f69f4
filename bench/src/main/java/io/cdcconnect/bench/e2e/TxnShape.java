package io.cdcconnect.bench.e2e;

import io.cdcconnect.bench.codec.BenchRows;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Change;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Kind;
import io.cdcconnect.bench.e2e.SysbenchWorkload.Txn;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.codec.model.RowChange;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.cdcconnect.bench.e2e.BenchContext.SOURCE_DB;

/**
 * The txn100k shape: one source transaction of {@link #ROWS} inserts into one sysbench table, then a one-row
 * transaction after it (so that the sink sees the big one end). Written straight into a topic as Canal-JSON by our
 * codec's encoder, the format and encoder our source uses, every row of the big transaction with the same commit ts:
 * a 100k-row transaction through the source phase would have to go into every source connector's binlog, and change
 * their figures. A copy applied untimed by plain JDBC is the reference both timed variants are checked against.
 */
final class TxnShape {
    /** Rows of the big transaction. */
    static final int ROWS = 100_000;
    /** Topic prefix of the shape's topic ({@code otx.sbtest.sbtest1}). */
    static final String PREFIX = "otx";
    /** The database the reference copy is written into. */
    static final String REFERENCE_DB = "bt_txn100k_ref";
    /** Table number of the shape's one table (sbtest1). */
    static final int TABLE = 1;

    private TxnShape() {
    }

    /** The big transaction and the one-row transaction after it, as the plain-JDBC reference applies them. */
    static List<Txn> txns() {
        Random r = new Random(EndToEndBenchmark.SEED);
        List<Change> big = new ArrayList<>(ROWS);
        for (int id = 1; id <= ROWS; id++) big.add(row(r, id));
        return List.of(new Txn(TABLE, big), new Txn(TABLE, List.of(row(r, ROWS + 1))));
    }

    /** Row changes of {@link #txns()}. */
    static long rowChanges() {
        return ROWS + 1L;
    }

    private static Change row(Random r, int id) {
        return new Change(TABLE, Kind.INSERT, id, r.nextInt(1_000_000), text(r, 119), text(r, 59));
    }

    private static String text(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) sb.append(i % 12 == 11 ? '-' : (char) ('0' + r.nextInt(10)));
        return sb.toString();
    }

    /**
     * Writes the reference copy (untimed, plain JDBC) and the shape's topic: the big transaction's rows with one
     * commit ts, then the one-row transaction with a later one.
     */
    static void prepare(BenchContext ctx) throws Exception {
        List<Txn> txns = txns();
        ctx.execute(null, "DROP DATABASE IF EXISTS `" + REFERENCE_DB + "`", "CREATE DATABASE `" + REFERENCE_DB + "`");
        ctx.execute(REFERENCE_DB, SysbenchWorkload.ddl(TABLE));
        new PlainJdbcCeiling(2, 500, false).apply(txns, () -> ctx.connect(REFERENCE_DB));

        String topic = PREFIX + "." + SOURCE_DB + "." + SysbenchWorkload.table(TABLE);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                ctx.connect.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ctx.connect.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
        EventEncoder encoder = WireFormat.CANAL_JSON.encoder(Map.of());
        long commitTs = System.currentTimeMillis() << 18;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (Txn t : txns) {
                for (Change ch : t.changes()) {
                    Object[] after = {(long) ch.id(), (long) ch.k(), ch.c(), ch.pad()};
                    send(producer, topic, encoder.encode(topic, RowChange.insert(BenchRows.SYSBENCH, after, commitTs)));
                }
                commitTs += 1L << 18; // the next transaction commits a millisecond later
            }
            send(producer, topic, encoder.flush());
            producer.flush();
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, List<EncodedMessage> messages) {
        for (EncodedMessage m : messages) producer.send(new ProducerRecord<>(topic, m.key(), m.value()));
    }
}
