package io.cdcconnect.testsupport.connect;

import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stand-in for the Connect worker's task context, for tests that drive a source task directly without a worker.
 * Offsets live in memory: the test stores what the worker would have flushed and reads them back on a "restart".
 * (The real worker with Kafka-backed offset storage runs in the integration tests.)
 */
public final class InMemorySourceTaskContext implements SourceTaskContext {
    private final Map<String, String> configs;
    private final Map<Map<String, ?>, Map<String, Object>> offsets = new ConcurrentHashMap<>();

    public InMemorySourceTaskContext(Map<String, String> configs) {
        this.configs = configs;
    }

    /** Records an offset as the worker's offset writer would after the record was acknowledged. */
    public void store(Map<String, ?> partition, Map<String, ?> offset) {
        offsets.put(new HashMap<>(partition), new HashMap<>(offset));
    }

    @Override
    public Map<String, String> configs() {
        return configs;
    }

    /** No metrics registry outside a worker; the task under test does not register plugin metrics. */
    @Override
    public PluginMetrics pluginMetrics() {
        return null;
    }

    @Override
    public OffsetStorageReader offsetStorageReader() {
        return new OffsetStorageReader() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> Map<String, Object> offset(Map<String, T> partition) {
                return offsets.get(partition);
            }

            @Override
            public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
                Map<Map<String, T>, Map<String, Object>> result = new HashMap<>();
                for (Map<String, T> p : partitions) {
                    Map<String, Object> o = offsets.get(p);
                    if (o != null) result.put(p, o);
                }
                return result;
            }
        };
    }
}
