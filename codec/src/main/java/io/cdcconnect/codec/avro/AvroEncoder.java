package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encodes row changes as TiCDC's Avro protocol: key = the handle-key columns, value = the row after the change (no
 * before image), delete = key and a null value (a tombstone); each part in the Confluent envelope with the id the
 * registry gave its schema under {@code <topic>-key} / {@code <topic>-value} (dots in the topic become underscores).
 * There are no DDL or watermark messages in this protocol.
 *
 * <p>Thread-safe: encoder groups may share one instance. Schemas are built once per table version (per
 * {@link TableInfo} instance) and registered once per topic.
 */
public final class AvroEncoder {

    /** Cached table versions; cleared when it grows past this (schema building is cheap, registry calls cached). */
    private static final int MAX_CACHED_TABLES = 4096;

    private final AvroOptions options;
    private final AvroSchemaBuilder schemaBuilder;
    private final SchemaRegistryClient registry;
    private final Map<Identity, Registered> cache = new ConcurrentHashMap<>();

    public AvroEncoder(AvroOptions options, SchemaRegistryClient registry) {
        this(options, ColumnDefaults.NONE, registry);
    }

    public AvroEncoder(AvroOptions options, ColumnDefaults defaults, SchemaRegistryClient registry) {
        this.options = options;
        this.schemaBuilder = new AvroSchemaBuilder(options, defaults);
        this.registry = registry;
    }

    public AvroOptions options() {
        return options;
    }

    /**
     * Encodes one row change for a topic.
     *
     * @throws CodecException naming the table (and column) when the row cannot be written, or the registry and
     *                        subject when registration fails; a delete of a table without any key cannot be
     *                        written (it would be a message without key and value)
     */
    public AvroMessage encode(String topic, RowChange row) {
        Registered reg = registered(topic, row.table());
        AvroTableSchema s = reg.schema;
        Object[] image = row.current();
        byte[] key = null;
        if (s.hasKey()) {
            key = write(reg.keyId, s.keyColumns(), image, null, row, "key");
        } else if (row.op() == RowChange.Op.DELETE) {
            throw new CodecException("a delete in " + row.table() + " cannot be written in Avro: the table has no "
                    + "primary or unique key, and a delete travels as a key with a null value");
        }
        byte[] value = row.op() == RowChange.Op.DELETE ? null
                : write(reg.valueId, s.valueColumns(), image, s.extension() ? row : null, row, "value");
        return new AvroMessage(key, value);
    }

    /** The key and value schemas this encoder writes for a table (built afresh, not registered). */
    public AvroTableSchema schemaOf(TableInfo table) {
        return schemaBuilder.build(table);
    }

    private byte[] write(int schemaId, List<AvroColumn> columns, Object[] image, RowChange extensionOf,
                         RowChange row, String part) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(64 + image.length * 16);
        buf.write(new byte[ConfluentEnvelope.HEADER_SIZE], 0, ConfluentEnvelope.HEADER_SIZE);
        BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(buf, null);
        String where = row.table().toString();
        try {
            for (AvroColumn c : columns) {
                c.write(out, image[c.index()], where);
            }
            if (extensionOf != null) {
                out.writeString(extensionOf.op() == RowChange.Op.INSERT ? "c" : "u");
                out.writeLong(extensionOf.commitTs());
                out.writeLong(ChangeEvent.physicalMillis(extensionOf.commitTs()));
            }
            out.flush();
        } catch (IOException e) {
            throw new CodecException("writing the Avro " + part + " of a row of " + where + " failed", e);
        }
        byte[] bytes = buf.toByteArray();
        ConfluentEnvelope.writeHeader(bytes, schemaId);
        return bytes;
    }

    private Registered registered(String topic, TableInfo table) {
        Identity id = new Identity(table, topic);
        Registered r = cache.get(id);
        if (r != null) {
            return r;
        }
        AvroTableSchema schema = schemaBuilder.build(table);
        int keyId = schema.hasKey()
                ? registry.register(AvroNames.keySubject(topic), schema.keyJson(), schema.keySchema()) : -1;
        int valueId = registry.register(AvroNames.valueSubject(topic), schema.valueJson(), schema.valueSchema());
        r = new Registered(schema, keyId, valueId);
        if (cache.size() >= MAX_CACHED_TABLES) {
            cache.clear();
        }
        cache.put(id, r);
        return r;
    }

    private record Registered(AvroTableSchema schema, int keyId, int valueId) {
    }

    /** A table version (by instance: one {@link TableInfo} is shared by all rows of a version) and a topic. */
    private static final class Identity {
        private final TableInfo table;
        private final String topic;

        Identity(TableInfo table, String topic) {
            this.table = table;
            this.topic = topic;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Identity other && other.table == table && other.topic.equals(topic);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(table) * 31 + topic.hashCode();
        }
    }
}
