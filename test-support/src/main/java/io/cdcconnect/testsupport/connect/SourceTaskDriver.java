package io.cdcconnect.testsupport.connect;

import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Drives a {@link SourceTask} the way a Connect worker does: initialize, start, poll, acknowledge each record
 * (commitRecord, then remember its offset as the worker's offset writer would), commit, stop. Offsets go to an
 * {@link InMemorySourceTaskContext} instead of Kafka, so a second task started on the same context resumes from them.
 */
public class SourceTaskDriver<T extends SourceTask> implements AutoCloseable {
    protected final T task;
    private final InMemorySourceTaskContext context;
    private final List<SourceRecord> records = new ArrayList<>();

    public SourceTaskDriver(T task, InMemorySourceTaskContext context) {
        this.task = task;
        this.context = context;
    }

    public SourceTaskDriver<T> start() {
        task.initialize(context);
        task.start(context.configs());
        return this;
    }

    public T task() {
        return task;
    }

    /** Polls until {@code done} holds for the records received so far, or fails after {@code timeoutMs}. */
    public List<SourceRecord> pollUntil(Predicate<List<SourceRecord>> done, long timeoutMs) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMs;
        while (!done.test(records)) {
            if (System.currentTimeMillis() > end) {
                throw new AssertionError("timed out after " + timeoutMs + " ms with " + records.size()
                        + " records: " + describe(records));
            }
            List<SourceRecord> batch = task.poll();
            if (batch == null) continue;
            for (SourceRecord r : batch) {
                records.add(r);
                task.commitRecord(r, null);
            }
        }
        return records;
    }

    /** Acknowledges records 0..n-1 as a worker's offset flush would, and lets the task commit. */
    public void flushOffsets(int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            SourceRecord r = records.get(i);
            context.store(r.sourcePartition(), r.sourceOffset());
        }
        task.commit();
    }

    public List<SourceRecord> records() {
        return records;
    }

    static String describe(List<SourceRecord> records) {
        StringBuilder sb = new StringBuilder();
        for (SourceRecord r : records) {
            sb.append("\n  ").append(r.topic()).append('/').append(r.kafkaPartition()).append(' ');
            Object v = r.value();
            sb.append(v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(v));
        }
        return sb.toString();
    }

    @Override
    public void close() {
        task.stop();
    }
}
