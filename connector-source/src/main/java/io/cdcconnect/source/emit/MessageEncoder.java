package io.cdcconnect.source.emit;

import java.util.List;

/**
 * Turns routed events into Kafka messages, keeping their order. A format that packs several events into one message
 * (Open-protocol) names the last event of each message, whose source offset the message then carries.
 */
public interface MessageEncoder extends AutoCloseable {

    /** Encodes {@code events} (in order) and returns the messages in the same order. */
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
