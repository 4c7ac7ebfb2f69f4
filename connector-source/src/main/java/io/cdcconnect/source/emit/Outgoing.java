package io.cdcconnect.source.emit;

import io.cdcconnect.codec.model.ChangeEvent;

/**
 * One event bound for one topic partition, with the position in the source it came from.
 *
 * @param topic     output topic
 * @param partition output partition
 * @param event     row change, DDL or watermark
 * @param origin    opaque handle of the Debezium record whose source offset the message carries
 */
public record Outgoing(String topic, int partition, ChangeEvent event, Object origin) {
}
