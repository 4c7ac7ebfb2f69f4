package io.cdcconnect.testsupport.connect;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.sink.SinkTaskContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Drives a {@link SinkTask} as Connect's WorkerSinkTask would (start, put, preCommit, stop) with byte-array values on
 * one partition of {@value #TOPIC}. Without a context there is no errant-record reporter; a
 * {@link StandInSinkTaskContext} records what would go to the dead-letter queue, and the seeks the task asks for,
 * which the driver then does as Connect's consumer would: it delivers again, from the records it was given, each
 * sought partition from the sought offset (from its first record when the offset is past its end, as
 * {@code auto.offset.reset=earliest} does).
 */
public class SinkTaskDriver<T extends SinkTask> implements AutoCloseable {

    public static final String TOPIC = "driver-topic";

    protected final T task;
    private final SinkTaskContext context;
    /** What the task was given, per partition by offset: the log a seek delivers from. */
    private final Map<TopicPartition, java.util.TreeMap<Long, SinkRecord>> log = new java.util.HashMap<>();
    private long offset;

    public SinkTaskDriver(T task, Map<String, String> props, SinkTaskContext context) {
        this.task = task;
        this.context = context;
        if (context != null) task.initialize(context);
        task.start(props);
    }

    public T task() {
        return task;
    }

    /** Sends the values as records on partition 0, at the next offsets. */
    public void putValues(byte[]... values) {
        List<SinkRecord> records = new ArrayList<>();
        for (byte[] v : values) records.add(record(v));
        putRecords(records);
    }

    /** A record of {@code value} at the next offset, not yet sent. */
    public SinkRecord record(byte[] value) {
        return new SinkRecord(TOPIC, 0, null, null, null, value, offset++);
    }

    public void putRecords(List<SinkRecord> records) {
        for (SinkRecord r : records) {
            log.computeIfAbsent(new TopicPartition(r.originalTopic(), r.originalKafkaPartition()),
                    tp -> new java.util.TreeMap<>()).put(r.originalKafkaOffset(), r);
        }
        task.put(records);
        seek();
    }

    /** Does the seeks the task asked for, delivering again from the log, until it asks for none. */
    private void seek() {
        if (!(context instanceof StandInSinkTaskContext c)) return;
        for (int rounds = 0; !c.seeks.isEmpty(); rounds++) {
            if (rounds > 100) throw new AssertionError("the task keeps seeking: " + c.seekHistory);
            List<SinkRecord> again = new ArrayList<>();
            Map<TopicPartition, Long> seeks = new java.util.LinkedHashMap<>(c.seeks);
            c.seeks.clear();
            seeks.forEach((tp, at) -> {
                java.util.TreeMap<Long, SinkRecord> records = log.getOrDefault(tp, new java.util.TreeMap<>());
                // past the end: the consumer goes back to the earliest offset
                long from = records.isEmpty() || at <= records.lastKey() + 1 ? at : records.firstKey();
                again.addAll(records.tailMap(from).values());
            });
            task.put(again);
        }
    }

    public long nextOffset() {
        return offset;
    }

    /** The offset Connect would commit now, or -1. */
    public long committable() {
        Map<TopicPartition, OffsetAndMetadata> current = Map.of(new TopicPartition(TOPIC, 0),
                new OffsetAndMetadata(Math.max(offset, 1)));
        OffsetAndMetadata om = task.preCommit(current).get(new TopicPartition(TOPIC, 0));
        return om == null ? -1 : om.offset();
    }

    /** Idles (empty puts, as Connect does when nothing arrives) until everything sent is applied. */
    public void awaitApplied() throws InterruptedException {
        awaitApplied(offset);
    }

    /** Idles until every record below {@code next} is applied. */
    public void awaitApplied(long next) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            putRecords(List.of());
            if (committable() >= next) return;
            Thread.sleep(10);
        }
        throw new AssertionError("records below offset " + next + " were not applied in time");
    }

    @Override
    public void close() {
        task.stop();
    }
}
