package io.cdcconnect.codec;

/**
 * One Kafka message produced by an {@link EventEncoder}.
 *
 * @param key      the Kafka key, or null (Canal-JSON has none)
 * @param value    the Kafka value, or null for an Avro delete's tombstone
 * @param kind     what the message carries; it decides where it goes: ROW to the row's partition, DDL to partition 0
 *                 (Canal-JSON) or every partition (Open-protocol), WATERMARK to every partition
 * @param rows     how many row changes it holds (Open-protocol batches several; 0 for DDL and watermarks)
 * @param events   how many input events it completes: the events given to the encoder since the previous message
 *                 (a watermark that produced no message, e.g. Canal-JSON without the TiDB extension, is counted
 *                 here by the next message); a caller maps messages back to inputs with it
 * @param commitTs commit ts of the last event in it (watermark ts for a watermark)
 */
public record EncodedMessage(byte[] key, byte[] value, Kind kind, int rows, int events, long commitTs) {

    /** Kind of message. */
    public enum Kind { ROW, DDL, WATERMARK }

    /** Bytes the message occupies in Kafka, counted the way TiCDC counts them. */
    public int length() {
        return MessageSize.length(key, value);
    }
}
