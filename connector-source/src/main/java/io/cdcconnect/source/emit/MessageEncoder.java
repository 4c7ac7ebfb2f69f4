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

    /**
     * What the wire format carries, the same for every encoder of one format.
     *
     * @param watermarks    whether the format carries watermarks (resolved ts) at all
     * @param ddlEverywhere whether DDL goes to every partition (Open-protocol) rather than where its table's rows go (Canal-JSON)
     * @param ddl           whether the format carries DDL at all (Avro does not)
     */
    record Traits(boolean watermarks, boolean ddlEverywhere, boolean ddl) {
    }

    /** The format's traits. */
    Traits traits();

    /** Whether the format carries watermarks (resolved ts) at all. */
    default boolean carriesWatermarks() {
        return traits().watermarks();
    }

    /** Whether DDL goes to every partition (Open-protocol) rather than where its table's rows go (Canal-JSON). */
    default boolean ddlOnEveryPartition() {
        return traits().ddlEverywhere();
    }

    /** Whether the format carries DDL at all (Avro does not). */
    default boolean carriesDdl() {
        return traits().ddl();
    }

    /** Bytes handed to encoder threads and not yet taken back (a metric); 0 when encoding on the calling thread. */
    default long queuedBytes() {
        return 0;
    }

    /** Encoder threads encoding now (a metric); 0 when encoding on the calling thread. */
    default int busyThreads() {
        return 0;
    }

    @Override
    default void close() {
    }
}
