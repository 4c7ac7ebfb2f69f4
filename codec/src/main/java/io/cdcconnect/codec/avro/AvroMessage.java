package io.cdcconnect.codec.avro;

/**
 * One Kafka record's key and value in the Confluent wire format.
 *
 * @param key   the handle-key columns, or null when the table has no key
 * @param value the row after the change, or null for a delete (a tombstone)
 */
public record AvroMessage(byte[] key, byte[] value) {
}
