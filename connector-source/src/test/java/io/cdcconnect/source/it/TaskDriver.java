package io.cdcconnect.source.it;

import io.cdcconnect.codec.canal.CanalJsonDecoder;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.source.CdcSourceTask;
import org.apache.kafka.connect.source.SourceRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Drives a {@link CdcSourceTask} the way a Connect worker does: initialize, start, poll, acknowledge each record
 * (commitRecord, then remember its offset as the worker's offset writer would), commit, stop. Offsets go to an
 * {@link InMemoryTaskContext} instead of Kafka, so a second task started on the same context resumes from them.
 */
public final class TaskDriver implements AutoCloseable {
    private final CdcSourceTask task = new CdcSourceTask();
    private final InMemoryTaskContext context;
    private final List<SourceRecord> records = new ArrayList<>();
    private final CanalJsonDecoder decoder = new CanalJsonDecoder();

    public TaskDriver(InMemoryTaskContext context) {
        this.context = context;
    }

    public TaskDriver start() {
        task.initialize(context);
        task.start(context.configs());
        return this;
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

    /** Every event in the records' values, decoded with the codec's Canal-JSON decoder, with its topic. */
    public List<Decoded> decoded() {
        List<Decoded> out = new ArrayList<>();
        for (SourceRecord r : records) {
            if (r.topic().startsWith("__debezium-heartbeat")) continue;
            for (ChangeEvent e : decoder.decode((byte[]) r.value())) {
                out.add(new Decoded(r.topic(), r.kafkaPartition(), e, r.sourceOffset()));
            }
        }
        return out;
    }

    /** Every event of Open-protocol records (key and value), with topic and partition. */
    public List<Decoded> decodedOpen() {
        io.cdcconnect.codec.open.OpenProtocolDecoder open = new io.cdcconnect.codec.open.OpenProtocolDecoder();
        List<Decoded> out = new ArrayList<>();
        for (SourceRecord r : records) {
            if (r.topic().startsWith("__debezium-heartbeat")) continue;
            for (ChangeEvent e : open.decode((byte[]) r.key(), (byte[]) r.value())) {
                out.add(new Decoded(r.topic(), r.kafkaPartition(), e, r.sourceOffset()));
            }
        }
        return out;
    }

    public record Decoded(String topic, Integer partition, ChangeEvent event, Map<String, ?> offset) {
    }

    static String describe(List<SourceRecord> records) {
        StringBuilder sb = new StringBuilder();
        for (SourceRecord r : records) {
            sb.append("\n  ").append(r.topic()).append('/').append(r.kafkaPartition()).append(' ')
                    .append(new String((byte[]) r.value(), java.nio.charset.StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    @Override
    public void close() {
        task.stop();
    }
}
