package io.cdcconnect.sink.decode;

import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.codec.CodecOptions;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.codec.avro.AvroCodecFactory;
import org.apache.kafka.common.config.ConfigException;

import java.util.HashMap;
import java.util.Map;

/** Chooses the decoder for {@code input.format} by what the format registry ({@link WireFormat}) declares. */
public final class RecordDecoders {

    private RecordDecoders() {
    }

    /** The zone of a session time_zone value ("+00:00", "SYSTEM", "Europe/Berlin"). */
    static java.time.ZoneId zoneOf(String sessionZone) {
        if (sessionZone.equalsIgnoreCase("SYSTEM")) return java.time.ZoneId.systemDefault();
        if (sessionZone.startsWith("+") || sessionZone.startsWith("-")) return java.time.ZoneOffset.of(sessionZone);
        return java.time.ZoneId.of(sessionZone);
    }

    /** The decoder of {@code config}'s input format; records it skips on purpose are logged only. */
    public static RecordDecoder forConfig(SinkConfig config) {
        return forConfig(config, SkippedRecords.logged());
    }

    /** The decoder of {@code config}'s input format; records it skips on purpose go to {@code skipped}. */
    public static RecordDecoder forConfig(SinkConfig config, SkippedRecords skipped) {
        WireFormat format = config.inputWireFormat();
        if (format == WireFormat.DEBEZIUM) {
            // Declared in the registry as decoded by the sink: Debezium envelopes arrive as Connect Structs.
            return new DebeziumEnvelopeDecoder(zoneOf(config.timestampTimeZone()), skipped);
        }
        if (!format.codecDecoded()) {
            throw new ConfigException(SinkConfig.INPUT_FORMAT, format.configName(),
                    "this build of the sink does not decode " + format + " yet");
        }
        Map<String, String> options = codecOptions(config);
        if (format.needsSchemaRegistry() && !options.containsKey(AvroCodecFactory.SCHEMA_REGISTRY)) {
            throw new ConfigException(SinkConfig.SCHEMA_REGISTRY_URL, "",
                    "input.format=" + format + " needs the schema registry's URL");
        }
        return new CodecRecordDecoder(format.decoder(options), format.nullValueIsTombstone(), skipped);
    }

    /** Whether the decoder of a format that needs a schema registry is told where it is. */
    public static boolean hasSchemaRegistry(SinkConfig config) {
        return codecOptions(config).containsKey(AvroCodecFactory.SCHEMA_REGISTRY);
    }

    /** The options the codec's decoder gets: input.codec.options, plus what the sink's own settings say. */
    private static Map<String, String> codecOptions(SinkConfig config) {
        Map<String, String> options = new HashMap<>(config.inputCodecOptions());
        options.put(CodecOptions.MAX_DECODED_BYTES, Long.toString(config.inputMaxDecodedBytes()));
        if (config.inputWireFormat().largeMessageHandling()) {
            options.put(CodecOptions.CLAIM_CHECK_MAX_RECORD_BYTES,
                    Long.toString(config.inputClaimCheckMaxRecordBytes()));
            options.put(CodecOptions.CLAIM_CHECK_MAX_RECORD_POINTERS,
                    Integer.toString(config.inputClaimCheckMaxRecordPointers()));
        }
        if (config.inputWireFormat().needsSchemaRegistry()) {
            options.putAll(config.schemaRegistryTls());
            if (!config.schemaRegistryUrl().isBlank()) {
                options.put(AvroCodecFactory.SCHEMA_REGISTRY, config.schemaRegistryUrl());
            }
        }
        return options;
    }
}
