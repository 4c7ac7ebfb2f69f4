package io.cdcconnect.source.history;

import io.debezium.config.Configuration;
import io.debezium.document.DocumentReader;
import io.debezium.relational.history.HistoryRecord;
import io.debezium.relational.history.HistoryRecordComparator;
import io.debezium.relational.history.SchemaHistory;
import io.debezium.relational.history.SchemaHistoryListener;
import io.debezium.storage.kafka.history.KafkaSchemaHistory;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Debezium's Kafka schema history, read back at a restart by assigning the history topic's one partition instead of
 * joining a consumer group.
 *
 * <p>Debezium's {@link KafkaSchemaHistory} subscribes a consumer to the topic to read it at every restart. Its group is
 * empty then (its last member left when the task stopped), and a broker with Kafka's defaults hands the first member
 * of an empty group its partitions only after {@code group.initial.rebalance.delay.ms}, 3 s: measured, a restarted
 * source spent most of its 4 s before the first binlog event waiting for that. The topic has one partition (Debezium
 * creates it so and refuses others) and the history is read from its beginning to its end without committing an
 * offset, so nothing of a group is needed: this class reads the same records, in the same order, into the same
 * schema, from an assigned partition, and leaves storing, topic creation and checks to Debezium's class.
 */
public class AssignedKafkaSchemaHistory extends KafkaSchemaHistory {

    private static final Logger LOG = LoggerFactory.getLogger(AssignedKafkaSchemaHistory.class);
    private static final String CONSUMER_PREFIX = SchemaHistory.CONFIGURATION_FIELD_PREFIX_STRING + "consumer.";

    private final DocumentReader reader = DocumentReader.defaultReader();
    private String topic;
    private Duration pollInterval;
    private int maxIdlePolls;
    private Properties consumerProperties;

    @Override
    public void configure(Configuration config, HistoryRecordComparator comparator, SchemaHistoryListener listener,
                          boolean useCatalogBeforeSchema) {
        super.configure(config, comparator, listener, useCatalogBeforeSchema);
        this.topic = config.getString(TOPIC);
        this.pollInterval = Duration.ofMillis(config.getInteger(RECOVERY_POLL_INTERVAL_MS));
        this.maxIdlePolls = config.getInteger(RECOVERY_POLL_ATTEMPTS);
        String name = config.getString(SchemaHistory.NAME, UUID.randomUUID().toString());
        // the settings Debezium's own reader takes (schema.history.internal.consumer.*, then its defaults), but
        // without a group: the partition is assigned and no offset is committed
        Properties p = config.subset(CONSUMER_PREFIX, true).edit()
                .withDefault(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.getString(BOOTSTRAP_SERVERS))
                .withDefault(ConsumerConfig.CLIENT_ID_CONFIG, name)
                .withDefault(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1)
                .withDefault(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest")
                .withDefault(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class)
                .withDefault(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class)
                .build().asProperties();
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        p.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        this.consumerProperties = p;
    }

    @Override
    protected void recoverRecords(Consumer<HistoryRecord> records) {
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProperties)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long read = 0;
            int idlePolls = 0;
            // position, not the last record's offset, decides the end: it also passes transaction markers
            while (consumer.position(partition) < end) {
                if (idlePolls > maxIdlePolls) {
                    throw new IllegalStateException("the schema history topic '" + topic + "' could not be read to "
                            + "its end offset " + end + " (at " + consumer.position(partition) + " after " + idlePolls
                            + " empty polls of " + RECOVERY_POLL_INTERVAL_MS.name() + "); consider raising "
                            + RECOVERY_POLL_INTERVAL_MS.name() + " or " + RECOVERY_POLL_ATTEMPTS.name());
                }
                int polled = 0;
                for (ConsumerRecord<String, String> record : consumer.poll(pollInterval)) {
                    polled++;
                    if (record.offset() >= end) continue; // written after the read began: not part of this history
                    accept(record, records);
                    read++;
                }
                idlePolls = polled == 0 ? idlePolls + 1 : 0;
            }
            LOG.info("Read {} schema history records from {} (offsets up to {}) by assignment", read, partition, end);
        }
    }

    private void accept(ConsumerRecord<String, String> record, Consumer<HistoryRecord> records) {
        if (record.value() == null) {
            LOG.warn("Skipping a null schema history record at offset {} of '{}'", record.offset(), topic);
            return;
        }
        HistoryRecord history;
        try {
            history = new HistoryRecord(reader.read(record.value()));
        } catch (IOException e) {
            // as Debezium's reader: a record that is not a document is reported and left out
            LOG.error("Skipping a schema history record at offset {} of '{}' that cannot be read: {}",
                    record.offset(), topic, e.getMessage());
            return;
        }
        if (!history.isValid()) {
            LOG.warn("Skipping an invalid schema history record at offset {} of '{}'", record.offset(), topic);
            return;
        }
        records.accept(history);
    }
}
