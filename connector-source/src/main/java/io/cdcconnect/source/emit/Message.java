package io.cdcconnect.source.emit;

/**
 * One Kafka message.
 *
 * @param topic     topic
 * @param partition partition
 * @param key       key bytes, or null
 * @param value     value bytes
 * @param last      the last of the events it carries: its source offset is the message's
 */
public record Message(String topic, int partition, byte[] key, byte[] value, Outgoing last) {
}
