package io.cdcconnect.source.emit;

/**
 * One Kafka message.
 *
 * @param topic     topic
 * @param partition partition
 * @param key       key bytes, or null
 * @param value     value bytes, or null (an Avro delete's tombstone)
 * @param events    positions, in the encoded list, of the events this message completes (a batch holds several;
 *                  an event the format does not carry is counted by the next message of its partition)
 * @param commitTs  commit ts of the last event in it
 */
public record Message(String topic, int partition, byte[] key, byte[] value, int[] events, long commitTs) {
}
