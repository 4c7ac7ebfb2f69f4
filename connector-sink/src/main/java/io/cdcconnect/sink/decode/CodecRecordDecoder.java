package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.EventDecoder;
import io.cdcconnect.codec.model.ChangeEvent;
import org.apache.kafka.connect.sink.SinkRecord;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * TiCDC wire formats through the codec's {@link EventDecoder}: the record's key and value as bytes
 * (ByteArrayConverter; a String from StringConverter is taken as UTF-8). Canal-JSON ignores the key and skips
 * tombstones; Open-protocol needs the key (its batches pair keys with values); Avro reads a null value as a delete.
 */
public final class CodecRecordDecoder implements RecordDecoder {

    private final EventDecoder decoder;
    private final boolean nullValueIsTombstone;
    private final SkippedRecords skipped;

    /** Skipped tombstones are logged only (tests, tools). */
    public CodecRecordDecoder(EventDecoder decoder, boolean nullValueIsTombstone) {
        this(decoder, nullValueIsTombstone, SkippedRecords.logged());
    }

    public CodecRecordDecoder(EventDecoder decoder, boolean nullValueIsTombstone, SkippedRecords skipped) {
        this.decoder = decoder;
        this.nullValueIsTombstone = nullValueIsTombstone;
        this.skipped = skipped;
    }

    @Override
    public List<ChangeEvent> decode(SinkRecord record) {
        if (record.value() == null && nullValueIsTombstone) {
            skipped.skip(record, "a tombstone (null value): " + format() + " carries deletes in its messages");
            return List.of();
        }
        return decoder.decode(bytes(record.key(), "key"), bytes(record.value(), "value"));
    }

    private String format() {
        return decoder.format();
    }

    private byte[] bytes(Object v, String what) {
        if (v == null) return null;
        if (v instanceof byte[] b) return b;
        if (v instanceof String s) return s.getBytes(StandardCharsets.UTF_8);
        if (v instanceof ByteBuffer bb) {
            byte[] b = new byte[bb.remaining()];
            bb.duplicate().get(b);
            return b;
        }
        throw new CodecException(format() + " record " + what + " must be bytes (use ByteArrayConverter), got "
                + v.getClass().getName());
    }
}
