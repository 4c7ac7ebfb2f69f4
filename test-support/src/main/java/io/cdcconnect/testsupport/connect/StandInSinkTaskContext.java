package io.cdcconnect.testsupport.connect;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Stands in for Connect's SinkTaskContext, which exists only inside a running worker (the integration tests
 * use the real one): records what the task reports to the errant-record reporter, as a dead-letter queue would.
 */
public final class StandInSinkTaskContext implements SinkTaskContext {

    /** One reported record and the reason given. */
    public record Report(SinkRecord record, Throwable error) {
    }

    public final List<Report> reports = new ArrayList<>();
    /** When set, every report fails with it, as a dead-letter topic that cannot be written would. */
    public volatile RuntimeException reportFailure;
    /** Partitions paused now, and how often pause was called. */
    public final java.util.Set<TopicPartition> paused = new java.util.HashSet<>();
    public int pauses;
    /** What {@link #assignment()} answers: partition 0 of the driver's topic unless a test assigns others. */
    public final java.util.Set<TopicPartition> assignment =
            new java.util.HashSet<>(Set.of(new TopicPartition(SinkTaskDriver.TOPIC, 0)));
    /** Every timeout put() asked for (Connect's next poll comes that soon). */
    public final List<Long> timeouts = new ArrayList<>();
    /** Whether the worker offers an errant-record reporter (a dead-letter queue); false as on a worker without. */
    public volatile boolean reporting = true;

    @Override
    public Map<String, String> configs() {
        return Map.of();
    }

    /**
     * Seeks the task asked for and the driver has not done yet ({@link SinkTaskDriver} redelivers from them, as
     * Connect's consumer does before its next poll).
     */
    public final Map<TopicPartition, Long> seeks = new java.util.LinkedHashMap<>();
    /** Every seek the task asked for, in order. */
    public final List<Map.Entry<TopicPartition, Long>> seekHistory = new ArrayList<>();

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        offsets.forEach(this::offset);
    }

    @Override
    public void offset(TopicPartition tp, long offset) {
        seeks.put(tp, offset);
        seekHistory.add(Map.entry(tp, offset));
    }

    @Override
    public void timeout(long timeoutMs) {
        timeouts.add(timeoutMs);
    }

    @Override
    public Set<TopicPartition> assignment() {
        return assignment;
    }

    @Override
    public void pause(TopicPartition... partitions) {
        pauses++;
        paused.addAll(java.util.Arrays.asList(partitions));
    }

    @Override
    public void resume(TopicPartition... partitions) {
        paused.removeAll(java.util.Arrays.asList(partitions));
    }

    @Override
    public void requestCommit() {
    }

    @Override
    public ErrantRecordReporter errantRecordReporter() {
        if (!reporting) return null;
        return (record, error) -> {
            RuntimeException failure = reportFailure;
            if (failure != null) return CompletableFuture.failedFuture(failure);
            synchronized (reports) {
                reports.add(new Report(record, error));
            }
            return CompletableFuture.completedFuture(null);
        };
    }

    @Override
    public PluginMetrics pluginMetrics() {
        return null;
    }
}
