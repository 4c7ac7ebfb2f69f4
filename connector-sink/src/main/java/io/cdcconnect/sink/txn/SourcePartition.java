package io.cdcconnect.sink.txn;

import java.util.Objects;

/** A Kafka topic partition, as a plain value so that the pipeline's pure stages need no Kafka types. */
public record SourcePartition(String topic, int partition) {

    public SourcePartition {
        Objects.requireNonNull(topic, "topic");
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
