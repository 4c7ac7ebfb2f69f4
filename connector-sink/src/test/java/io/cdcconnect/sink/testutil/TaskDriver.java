package io.cdcconnect.sink.testutil;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.sink.CdcSinkConfig;
import io.cdcconnect.sink.CdcSinkTask;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives a {@link CdcSinkTask} as Connect's WorkerSinkTask would (start, put, preCommit, stop), with records built
 * here. It stands in for Connect's worker: no SinkTaskContext is set, so there is no errant-record reporter.
 */
public final class TaskDriver implements AutoCloseable {

    public static final String TOPIC = "driver-topic";

    private final CanalJsonEncoder encoder = new CanalJsonEncoder(CanalJsonOptions.defaults());
    private final CdcSinkTask task = new CdcSinkTask();
    private long offset;

    public TaskDriver(Map<String, String> extra) {
        this(extra, null);
    }

    /** With a context standing in for Connect's (e.g. to provide an errant-record reporter). */
    public TaskDriver(Map<String, String> extra, org.apache.kafka.connect.sink.SinkTaskContext context) {
        if (context != null) task.initialize(context);
        Map<String, String> props = new HashMap<>();
        props.put("name", "driver");
        props.put(CdcSinkConfig.CONNECTION_URL, TestDatabase.HOST_URL);
        props.put(CdcSinkConfig.CONNECTION_USER, "root");
        props.putAll(extra);
        task.start(props);
    }

    public CdcSinkTask task() {
        return task;
    }

    /** Sends the events as Canal-JSON records on partition 0. */
    public void put(ChangeEvent... events) {
        List<SinkRecord> records = new ArrayList<>();
        for (ChangeEvent e : events) {
            records.add(new SinkRecord(TOPIC, 0, null, null, null, encoder.encode(e), offset++));
        }
        task.put(records);
    }

    /** A Canal-JSON record of {@code e} at the next offset, not yet sent. */
    public SinkRecord recordOf(ChangeEvent e) {
        return new SinkRecord(TOPIC, 0, null, null, null, encoder.encode(e), offset++);
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
