package io.cdcconnect.sink.connect;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.CdcSinkConnector;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connector in a real Kafka broker and Connect worker (EmbeddedConnectCluster; the connector is on the worker's
 * class path here, the integration tests install it from its plugin archive): Connect's own errant-record reporter
 * sends an undecodable record to the dead-letter queue with the sink's reason, the good records are applied, and the
 * consumer group's committed offset passes both.
 */
class ConnectWorkerTest {

    private static final String TOPIC = "shop.items";
    private static final String DLQ = "sink-dlq";

    private static EmbeddedConnectCluster connect;

    @BeforeAll
    static void startWorker() {
        Map<String, String> worker = new HashMap<>();
        worker.put("offset.flush.interval.ms", "500");
        worker.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        worker.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        Properties broker = new Properties();
        broker.put("auto.create.topics.enable", "false");
        connect = new EmbeddedConnectCluster.Builder().name("sink-worker-test").numWorkers(1).numBrokers(1)
                .brokerProps(broker).workerProps(worker).maskExitProcedures(true).build();
        connect.start();
    }

    @AfterAll
    static void stopWorker() {
        if (connect != null) connect.stop();
    }

    @Test
    void undecodableRecordsGoToTheDeadLetterQueueAndTheRestIsApplied() throws Exception {
        try (TestDatabase source = SinkTarget.database("worker_src"); TestDatabase target = SinkTarget.database("worker_dst")) {
            target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
            connect.kafka().createTopic(TOPIC, 1);
            connect.kafka().createTopic(DLQ, 1);
            TableInfo t = Rows.idValue(source.name(), "items");
            CanalJsonEncoder encoder = new CanalJsonEncoder(CanalJsonOptions.defaults());
            byte[] bad = "{\"id\":0,\"database\":".getBytes(StandardCharsets.UTF_8);
            List<byte[]> values = List.of(encoder.encode(RowChange.insert(t, new Object[]{1L, "one"}, Rows.ts(1000))),
                    bad, encoder.encode(RowChange.insert(t, new Object[]{2L, "two"}, Rows.ts(1001))));
            try (var producer = connect.kafka().createProducer(Map.of())) {
                for (byte[] v : values) producer.send(new ProducerRecord<>(TOPIC, null, v)).get();
            }
            Map<String, String> config = new HashMap<>();
            config.put("connector.class", CdcSinkConnector.class.getName());
            config.put("tasks.max", "1");
            config.put("topics", TOPIC);
            config.put("connection.url", SinkTarget.url());
            config.put("connection.user", SinkTarget.user());
            config.put("connection.password", SinkTarget.password());
            config.put("schema.map", source.name() + "=" + target.name());
            config.put("errors.tolerance", "all");
            config.put("errors.deadletterqueue.topic.name", DLQ);
            config.put("errors.deadletterqueue.topic.replication.factor", "1");
            config.put("errors.deadletterqueue.context.headers.enable", "true");
            config.put("consumer.override.auto.offset.reset", "earliest");
            connect.configureConnector("cdc-sink", config);
            connect.assertions().assertConnectorAndAtLeastNumTasksAreRunning("cdc-sink", 1, "sink did not start");

            ConsumerRecords<byte[], byte[]> dead = connect.kafka().consume(1, 30_000, DLQ);
            ConsumerRecord<byte[], byte[]> record = dead.iterator().next();
            assertArrayEquals(bad, record.value());
            Header reason = record.headers().lastHeader("__connect.errors.exception.message");
            String message = new String(reason.value(), StandardCharsets.UTF_8);
            assertTrue(message.contains("canal-json") && message.contains("offset 1"), message);

            long deadline = System.currentTimeMillis() + 30_000;
            while (target.count("items") < 2 && System.currentTimeMillis() < deadline) Thread.sleep(100);
            assertEquals(List.of(List.of("1", "one"), List.of("2", "two")), target.query("SELECT * FROM items ORDER BY id"));

            // the sink reports offsets only after its rows are committed; Connect then commits them
            long committed = -1;
            while (committed < 3 && System.currentTimeMillis() < deadline) {
                Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> offsets;
                try (var admin = connect.kafka().createAdminClient()) {
                    offsets = admin.listConsumerGroupOffsets("connect-cdc-sink").partitionsToOffsetAndMetadata().get();
                }
                var om = offsets.get(new org.apache.kafka.common.TopicPartition(TOPIC, 0));
                committed = om == null ? -1 : om.offset();
                if (committed < 3) Thread.sleep(200);
            }
            assertEquals(3, committed);
            connect.deleteConnector("cdc-sink");
        }
    }
}
