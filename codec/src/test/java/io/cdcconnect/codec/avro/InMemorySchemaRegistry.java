package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.CodecException;
import org.apache.avro.Schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stand-in registry for unit tests of the schema mapping and the value conversions, where the registry is not
 * what is tested. The registry protocol itself is tested against a real Apicurio Registry
 * ({@link AvroApicurioRegistryTest}). Same contract: one id per distinct schema text, ids from 1, subjects keep
 * their versions.
 */
final class InMemorySchemaRegistry implements SchemaRegistryClient {

    private final Map<String, Integer> idByText = new HashMap<>();
    private final Map<Integer, Schema> schemaById = new HashMap<>();
    final Map<String, List<Integer>> versions = new LinkedHashMap<>();
    int registrations;
    int lookups;

    @Override
    public synchronized int register(String subject, String schemaJson, Schema schema) {
        registrations++;
        int id = idByText.computeIfAbsent(schemaJson, t -> idByText.size() + 1);
        schemaById.putIfAbsent(id, new Schema.Parser().parse(schemaJson));
        List<Integer> v = versions.computeIfAbsent(subject, s -> new ArrayList<>());
        if (!v.contains(id)) v.add(id);
        return id;
    }

    @Override
    public synchronized Schema schemaById(int id) {
        lookups++;
        Schema s = schemaById.get(id);
        if (s == null) throw new CodecException("schema id " + id + " is unknown to the in-memory registry");
        return s;
    }

    @Override
    public String describe() {
        return "in-memory registry";
    }
}
