package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.codec.MessageSize;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;

import java.util.List;

/**
 * {@link AvroEncoder} as an {@link EventEncoder}: one message per row; DDL and watermarks produce nothing (the
 * protocol has no such messages) and are counted by the next message's {@link EncodedMessage#events()}.
 */
public final class AvroEventEncoder implements EventEncoder {

    private final AvroEncoder encoder;
    private final int maxMessageBytes;
    private int skipped;

    public AvroEventEncoder(AvroEncoder encoder, int maxMessageBytes) {
        this.encoder = encoder;
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public List<EncodedMessage> encode(String topic, ChangeEvent event) {
        if (!(event instanceof RowChange row)) {
            skipped++;
            return List.of();
        }
        AvroMessage m;
        try {
            m = encoder.encode(topic, row);
        } catch (CodecException e) {
            throw new CodecException(e.getMessage() + " (commit ts " + row.commitTs() + ")", e);
        }
        int length = MessageSize.length(m.key(), m.value());
        if (length > maxMessageBytes) {
            throw new CodecException("an Avro message of " + row.table() + " at commit ts " + row.commitTs() + " is "
                    + length + " bytes, more than max-message-bytes " + maxMessageBytes
                    + " (Avro has no large-message handling; raise the topic's and the option's limit)");
        }
        int events = 1 + skipped;
        skipped = 0;
        return List.of(new EncodedMessage(m.key(), m.value(), EncodedMessage.Kind.ROW, 1, events, row.commitTs()));
    }

    @Override
    public List<EncodedMessage> flush() {
        return List.of();
    }

    @Override
    public String format() {
        return WireFormat.AVRO.configName();
    }

    public AvroEncoder avroEncoder() {
        return encoder;
    }
}
