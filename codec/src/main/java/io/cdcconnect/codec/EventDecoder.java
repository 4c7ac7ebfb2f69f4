package io.cdcconnect.codec;

import io.cdcconnect.codec.model.ChangeEvent;

import java.util.List;

/**
 * Reads one Kafka record (key and value bytes) into change events, one protocol per implementation
 * ({@link EventDecoders#create}). Canal-JSON ignores the key; Open-protocol needs it; an Avro tombstone has a null
 * value. Not thread-safe (decoders cache tables). Errors are {@link CodecException}s saying what and where in the
 * record; the caller adds topic, partition and offset.
 */
public interface EventDecoder {

    /** @return the events in the record, in order (several for Open-protocol batches); never null */
    List<ChangeEvent> decode(byte[] key, byte[] value);

    String format();
}
