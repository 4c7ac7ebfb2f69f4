package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.model.RowChange;
import org.apache.avro.Schema;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decodes TiCDC's Avro protocol (Confluent envelope) back into {@link RowChange}s, fetching writer schemas from the
 * registry by id (cached by the registry client) and reconstructing the table from them
 * (see {@link AvroSchemaReader}).
 *
 * <p>What the protocol cannot carry comes back as follows:
 * <ul>
 *   <li>a value without key-side information is an INSERT, unless TiCDC's extension says {@code _tidb_op = "u"}:
 *       then an UPDATE whose before image holds only the key columns (from the Kafka key), the rest null;</li>
 *   <li>a null value is a DELETE of a table made from the key schema alone, its before image the key;</li>
 *   <li>the commit ts is {@code _tidb_commit_ts}, or 0 (unknown) without the extension and for deletes;</li>
 *   <li>column types collapse as TiCDC's own decoder collapses them (INT for every integer narrower than BIGINT,
 *       VARCHAR for text, LONGBLOB for binary); values keep the model's Java types.</li>
 * </ul>
 * Thread-safe.
 */
public final class AvroDecoder {

    private final SchemaRegistryClient registry;
    private final Map<Long, AvroSchemaReader.Layout> layouts = new ConcurrentHashMap<>();
    private final Map<Integer, AvroRecordReader> readers = new ConcurrentHashMap<>();

    public AvroDecoder(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    /**
     * Decodes one Kafka record.
     *
     * @param key   the record key (null for tables without key)
     * @param value the record value (null for a delete)
     * @throws CodecException naming the schema id, the registry, the table and field when the bytes cannot be read
     */
    public RowChange decode(byte[] key, byte[] value) {
        if (value == null || value.length == 0) {
            if (key == null || key.length == 0) {
                throw new CodecException("Avro record has neither key nor value");
            }
            return decodeDelete(key);
        }
        int valueId = ConfluentEnvelope.schemaId(value, "value");
        int keyId = key == null || key.length == 0 ? -1 : ConfluentEnvelope.schemaId(key, "key");
        AvroSchemaReader.Layout layout = layouts.computeIfAbsent(pair(keyId, valueId), k -> {
            Schema valueSchema = schema(valueId, "value");
            Schema keySchema = keyId < 0 ? null : schema(keyId, "key");
            return AvroSchemaReader.valueLayout(valueSchema, keySchema, describe(keyId, valueId, valueSchema));
        });
        Object[] record = read(valueId, value, layout, "value");
        Object[] after = image(layout, record, layout.fieldPos());
        long commitTs = 0;
        if (layout.commitTsPos() >= 0 && record[layout.commitTsPos()] instanceof Number n) {
            commitTs = n.longValue();
        }
        boolean update = layout.opPos() >= 0 && record[layout.opPos()] != null
                && "u".equals(record[layout.opPos()].toString());
        if (!update) {
            return RowChange.insert(layout.table(), after, commitTs);
        }
        Object[] before = new Object[after.length];
        Object[] keyRecord = keyId < 0 ? null : read(keyId, key, keyLayout(keyId), "key");
        for (int i = 0; i < after.length; i++) {
            if (layout.keyPos()[i] >= 0) {
                before[i] = layout.columns()[i].toModel(keyRecord[layout.keyPos()[i]], layout.table().toString());
            }
        }
        return RowChange.update(layout.table(), before, after, commitTs);
    }

    private RowChange decodeDelete(byte[] key) {
        int keyId = ConfluentEnvelope.schemaId(key, "key");
        AvroSchemaReader.Layout layout = keyLayout(keyId);
        Object[] record = read(keyId, key, layout, "key");
        return RowChange.delete(layout.table(), image(layout, record, layout.fieldPos()), 0);
    }

    private AvroSchemaReader.Layout keyLayout(int keyId) {
        return layouts.computeIfAbsent(pair(keyId, -1), k -> {
            Schema keySchema = schema(keyId, "key");
            return AvroSchemaReader.keyLayout(keySchema, "key schema id " + keyId + " (" + keySchema.getFullName()
                    + ") from " + registry.describe());
        });
    }

    private static Object[] image(AvroSchemaReader.Layout layout, Object[] record, int[] positions) {
        Object[] image = new Object[layout.columns().length];
        String where = layout.table().toString();
        for (int i = 0; i < image.length; i++) {
            image[i] = layout.columns()[i].toModel(record[positions[i]], where);
        }
        return image;
    }

    private Object[] read(int schemaId, byte[] message, AvroSchemaReader.Layout layout, String part) {
        AvroRecordReader reader = readers.computeIfAbsent(schemaId, id -> new AvroRecordReader(schema(id, part)));
        try {
            return reader.read(message, ConfluentEnvelope.HEADER_SIZE);
        } catch (IllegalStateException e) {
            throw new CodecException("Avro " + part + " of " + layout.table() + " (schema id " + schemaId
                    + ") has " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            // Avro's own limits (SystemLimitException: UnsupportedOperationException), its runtime exceptions, and
            // out-of-range lengths in the generic reader: all say the bytes are not a record of this schema
            if (e instanceof CodecException c) throw c;
            throw new CodecException("Avro " + part + " of " + layout.table() + " (schema id " + schemaId
                    + ") cannot be read: " + e.getClass().getSimpleName() + " " + e.getMessage(), e);
        }
    }

    private Schema schema(int id, String part) {
        try {
            return registry.schemaById(id);
        } catch (CodecException e) {
            throw new CodecException("the writer schema of an Avro " + part + " (schema id " + id
                    + ") is not available: " + e.getMessage(), e);
        }
    }

    private String describe(int keyId, int valueId, Schema valueSchema) {
        return "value schema id " + valueId + (keyId >= 0 ? " / key schema id " + keyId : "") + " ("
                + valueSchema.getFullName() + ") from " + registry.describe();
    }

    private static long pair(int keyId, int valueId) {
        return ((long) keyId << 32) | (valueId & 0xFFFFFFFFL);
    }
}
