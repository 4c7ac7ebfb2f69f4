package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.EventDecoder;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.codec.model.ChangeEvent;

import java.util.List;

/** {@link AvroDecoder} as an {@link EventDecoder}: each Kafka record holds one row change. */
public final class AvroEventDecoder implements EventDecoder {

    private final AvroDecoder decoder;

    public AvroEventDecoder(AvroDecoder decoder) {
        this.decoder = decoder;
    }

    @Override
    public List<ChangeEvent> decode(byte[] key, byte[] value) {
        return List.of(decoder.decode(key, value));
    }

    @Override
    public String format() {
        return WireFormat.AVRO.configName();
    }
}
