package io.cdcconnect.source.emit;

import java.util.List;

/**
 * Turns routed events into Kafka messages. Within a partition the messages keep the events' order; across partitions
 * a batching format (Open-protocol) may close batches in another order, so each message names the events it
 * completes and the caller works out which source offset it may carry.
 */
public interface MessageEncoder extends AutoCloseable {

    /** Encodes {@code events} (in source order) and flushes every open batch: nothing stays pending afterwards. */
    List<Message> encode(List<Outgoing> events);

    /** Whether the format carries watermarks (resolved ts) at all. */
    boolean carriesWatermarks();

    /** Whether DDL goes to every partition (Open-protocol) rather than partition 0 (Canal-JSON). */
    boolean ddlOnEveryPartition();

    /** Whether the format carries DDL at all (Avro does not). */
    boolean carriesDdl();

    @Override
    default void close() {
    }
}
