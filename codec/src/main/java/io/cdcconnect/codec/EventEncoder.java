package io.cdcconnect.codec;

import io.cdcconnect.codec.model.ChangeEvent;

import java.util.List;

/**
 * Turns change events into Kafka messages, one protocol per implementation ({@link EventEncoders#create}).
 *
 * <p>Contract, for implementers too (the Avro encoder plugs in through {@link EventEncoderFactory}):
 * <ul>
 *   <li>{@link #encode} returns the messages this event completes, in order. A batching protocol (Open-protocol)
 *       returns none while a batch fills; before a DDL or watermark message it returns the pending batch first, so
 *       the output order is the input order. A protocol with nothing to say for an event (Canal-JSON watermarks
 *       without the TiDB extension, Avro DDL and watermarks) returns none; the next message then counts that event
 *       in {@link EncodedMessage#events()}.</li>
 *   <li>{@link #flush} returns what is pending (the open batch), possibly nothing.</li>
 *   <li>Feed one encoder the events of one Kafka partition only: batches never mix partitions.</li>
 *   <li>Not thread-safe: one encoder per thread. Errors are {@link CodecException}s naming the table and commit ts
 *       (and column when a value is at fault); after one, the encoder may be used again.</li>
 * </ul>
 */
public interface EventEncoder {

    /**
     * @param topic the Kafka topic the messages go to (Avro's subject names derive from it; others ignore it)
     * @param event a row change, DDL or watermark
     * @return the messages completed by this event, in order; never null
     */
    List<EncodedMessage> encode(String topic, ChangeEvent event);

    /** Closes any open batch and returns it; an empty list when nothing is pending. */
    List<EncodedMessage> flush();

    /** The protocol name ("canal-json", "open-protocol", "avro"). */
    String format();
}
