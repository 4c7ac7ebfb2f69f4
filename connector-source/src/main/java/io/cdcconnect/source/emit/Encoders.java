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
        String name = switch (format) {
            case CANAL_JSON -> EventEncoders.CANAL_JSON;
            case OPEN_PROTOCOL -> EventEncoders.OPEN_PROTOCOL;
            case AVRO -> EventEncoders.AVRO;
        };
        // Canal-JSON has no watermark message of its own; TiCDC adds one only with its TiDB extension. Avro carries
        // neither DDL nor watermarks.
        boolean watermarks = format == OutputFormat.OPEN_PROTOCOL
                || (format == OutputFormat.CANAL_JSON && config.tidbExtension());
        boolean ddlEverywhere = format == OutputFormat.OPEN_PROTOCOL;
        boolean ddl = format != OutputFormat.AVRO;
        // Fail at start, not at the first row, on a bad option (e.g. a missing schema registry URL).
        EventEncoder probe = EventEncoders.create(name, options);
        int threads = config.encoderThreads();
        if (threads <= 1) {
            if (format == OutputFormat.AVRO) {
                // One message per row and no batches: one encoder (one registry client and schema cache) serves
                // every partition.
                StreamEncoder shared = wrap(probe);
                return new PartitionedEncoder(() -> shared, watermarks, ddlEverywhere, ddl);
            }
            return new PartitionedEncoder(() -> wrap(EventEncoders.create(name, options)), watermarks, ddlEverywhere,
                    ddl);
        }
        return new GroupEncoder(threads, config.encoderMaxInFlightBytes(), config.encoderChunkEvents(),
                () -> EventEncoders.create(name, options), watermarks, ddlEverywhere, ddl);
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
