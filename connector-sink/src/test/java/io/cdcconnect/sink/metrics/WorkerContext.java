package io.cdcconnect.sink.metrics;

import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkTaskContext;

import java.util.Map;
import java.util.Set;

/** test-support's stand-in context, with the plugin metrics a Kafka 4.1 worker gives the task. */
final class WorkerContext implements SinkTaskContext {
    private final StandInSinkTaskContext standIn = new StandInSinkTaskContext();
    private final PluginMetrics pluginMetrics;

    WorkerContext(PluginMetrics pluginMetrics) {
        this.pluginMetrics = pluginMetrics;
    }

    @Override
    public Map<String, String> configs() {
        return standIn.configs();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        standIn.offset(offsets);
    }

    @Override
    public void offset(TopicPartition tp, long offset) {
        standIn.offset(tp, offset);
    }

    @Override
    public void timeout(long timeoutMs) {
        standIn.timeout(timeoutMs);
    }

    @Override
    public Set<TopicPartition> assignment() {
        return standIn.assignment();
    }

    @Override
    public void pause(TopicPartition... partitions) {
        standIn.pause(partitions);
    }

    @Override
    public void resume(TopicPartition... partitions) {
        standIn.resume(partitions);
    }

    @Override
    public void requestCommit() {
        standIn.requestCommit();
    }

    @Override
    public ErrantRecordReporter errantRecordReporter() {
        return standIn.errantRecordReporter();
    }

    @Override
    public PluginMetrics pluginMetrics() {
        return pluginMetrics;
    }
}
