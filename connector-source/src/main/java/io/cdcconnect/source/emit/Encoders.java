package io.cdcconnect.source.emit;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.EventEncoders;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.source.CdcSourceConfig;
import io.cdcconnect.source.OutputFormat;

import java.util.List;
import java.util.Map;

/** Builds the {@link MessageEncoder} of the configured output format from the codec's format-neutral encoders. */
public final class Encoders {
    private Encoders() {
    }

    public static MessageEncoder create(CdcSourceConfig config) {
        OutputFormat format = config.outputFormat();
        Map<String, String> options = config.codecOptions();
        switch (format) {
            case CANAL_JSON:
                // Canal-JSON has no watermark message of its own; TiCDC adds one only with its TiDB extension.
                return new PartitionedEncoder(() -> wrap(EventEncoders.create(EventEncoders.CANAL_JSON, options)),
                        config.tidbExtension(), false, true);
            case OPEN_PROTOCOL:
                return new PartitionedEncoder(() -> wrap(EventEncoders.create(EventEncoders.OPEN_PROTOCOL, options)),
                        true, true, true);
            case AVRO: {
                // One message per row and no batches: one encoder (one registry client and schema cache) serves
                // every partition.
                StreamEncoder shared = wrap(EventEncoders.create(EventEncoders.AVRO, options));
                return new PartitionedEncoder(() -> shared, false, false, false);
            }
            default:
                throw new IllegalArgumentException("unknown output.format " + format.configName());
        }
    }

    static StreamEncoder wrap(EventEncoder encoder) {
        return new StreamEncoder() {
            @Override
            public List<EncodedMessage> encode(String topic, ChangeEvent event) {
                return encoder.encode(topic, event);
            }

            @Override
            public List<EncodedMessage> flush() {
                return encoder.flush();
            }
        };
    }
}
