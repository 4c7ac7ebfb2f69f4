package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.canal.CanalJsonDecoder;
import io.cdcconnect.codec.model.ChangeEvent;
import org.apache.kafka.connect.sink.SinkRecord;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Canal-JSON values (TiCDC's or our source's) as {@code byte[]} (ByteArrayConverter) or {@code String}
 * (StringConverter). The key is ignored: Canal-JSON messages carry none. A null value is a tombstone and is skipped.
 */
public final class CanalJsonRecordDecoder implements RecordDecoder {

    private final CanalJsonDecoder decoder = new CanalJsonDecoder();

    @Override
    public List<ChangeEvent> decode(SinkRecord record) {
        Object v = record.value();
        if (v == null) return List.of();
        byte[] bytes;
        if (v instanceof byte[] b) {
            bytes = b;
        } else if (v instanceof String s) {
            bytes = s.getBytes(StandardCharsets.UTF_8);
        } else if (v instanceof ByteBuffer bb) {
            bytes = new byte[bb.remaining()];
            bb.duplicate().get(bytes);
        } else {
            throw new CodecException("Canal-JSON value must be bytes or a string (use ByteArrayConverter or "
                    + "StringConverter), got " + v.getClass().getName());
        }
        return decoder.decode(bytes);
    }
}
