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
 * {@link StandInSinkTaskContext} records what would go to the dead-letter queue.
 */
public class SinkTaskDriver<T extends SinkTask> implements AutoCloseable {

    public static final String TOPIC = "driver-topic";

    protected final T task;
    private long offset;

    public SinkTaskDriver(T task, Map<String, String> props, SinkTaskContext context) {
        this.task = task;
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
        task.put(records);
    }

    /** A record of {@code value} at the next offset, not yet sent. */
    public SinkRecord record(byte[] value) {
        return new SinkRecord(TOPIC, 0, null, null, null, value, offset++);
    }

    public void putRecords(List<SinkRecord> records) {
        task.put(records);
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
            task.put(List.of());
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
