package io.cdcconnect.sink.txn;

import java.util.Objects;

/** A Kafka topic partition, as a plain value so that the pipeline's pure stages need no Kafka types. */
public record SourcePartition(String topic, int partition) {

    public SourcePartition {
        Objects.requireNonNull(topic, "topic");
    }

    /** "topic t, partition p, offset o": how every message of the sink names a record. */
    public String where(long offset) {
        return "topic " + topic + ", partition " + partition + ", offset " + offset;
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
