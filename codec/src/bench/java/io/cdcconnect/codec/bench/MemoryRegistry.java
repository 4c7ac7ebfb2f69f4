package io.cdcconnect.codec.bench;

import io.cdcconnect.codec.avro.SchemaRegistryClient;
import org.apache.avro.Schema;

import java.util.HashMap;
import java.util.Map;

/** An in-process schema registry for the Avro benchmarks (the codec caches ids, so the registry is off the hot path). */
final class MemoryRegistry implements SchemaRegistryClient {
    private final Map<String, Integer> ids = new HashMap<>();
    private final Map<Integer, Schema> schemas = new HashMap<>();

    @Override
    public synchronized int register(String subject, String schemaJson, Schema schema) {
        return ids.computeIfAbsent(schemaJson, k -> {
            int id = ids.size() + 1;
            schemas.put(id, schema);
            return id;
        });
    }

    @Override
    public synchronized Schema schemaById(int id) {
        return schemas.get(id);
    }

    @Override
    public String describe() {
        return "in-memory registry";
    }
}
