package io.cdcconnect.sink;

import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Where a record is in Kafka: its original topic, partition and offset (KIP-793, Kafka 3.6+), which a transform such
 * as {@code RegexRouter} or {@code TimestampRouter} does not change. Connect commits offsets and pauses partitions by
 * these, so the sink keeps its order, checkpoint and offsets by them too; on an older worker, the record's own.
 */
final class Coordinates {

    private static final boolean ORIGINALS = hasOriginals();

    private Coordinates() {
    }

    private static boolean hasOriginals() {
        try {
            SinkRecord.class.getMethod("originalTopic");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    static String topic(SinkRecord r) {
        return ORIGINALS ? r.originalTopic() : r.topic();
    }

    static int partition(SinkRecord r) {
        if (!ORIGINALS) return r.kafkaPartition();
        Integer p = r.originalKafkaPartition();
        return p == null ? r.kafkaPartition() : p;
    }

    static long offset(SinkRecord r) {
        return ORIGINALS ? r.originalKafkaOffset() : r.kafkaOffset();
    }
}
