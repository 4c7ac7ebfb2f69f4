package io.cdcconnect.source.emit;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.source.CdcSourceConfig;

import java.util.List;
import java.util.Map;

/** Builds the {@link MessageEncoder} of the configured output format from the codec's format-neutral encoders. */
public final class Encoders {
    private Encoders() {
    }

    public static MessageEncoder create(CdcSourceConfig config) {
        WireFormat format = config.outputFormat();
        Map<String, String> options = config.codecOptions();
        // What the format carries is the registry's: Canal-JSON has watermarks only with TiCDC's TiDB extension,
        // Avro neither DDL nor watermarks.
        boolean watermarks = format.carriesWatermarks(config.tidbExtension());
        boolean ddlEverywhere = format.ddlOnEveryPartition();
        boolean ddl = format.carriesDdl();
        // Fail at start, not at the first row, on a bad option (e.g. a missing schema registry URL).
        EventEncoder probe = format.encoder(options);
        int threads = config.encoderThreads();
        if (threads <= 1) {
            if (format.needsSchemaRegistry() && !format.batchesRows()) {
                // One message per row and no batches: one encoder (one registry client and schema cache) serves
                // every partition.
                StreamEncoder shared = wrap(probe);
                return new PartitionedEncoder(() -> shared, watermarks, ddlEverywhere, ddl);
            }
            return new PartitionedEncoder(() -> wrap(format.encoder(options)), watermarks, ddlEverywhere, ddl);
        }
        return new GroupEncoder(threads, config.encoderMaxInFlightBytes(), config.encoderChunkEvents(),
                () -> format.encoder(options), watermarks, ddlEverywhere, ddl);
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
