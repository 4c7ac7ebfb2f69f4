package io.cdcconnect.sink.decode;

import io.cdcconnect.sink.CdcSinkConfig;
import io.cdcconnect.codec.CodecOptions;
import io.cdcconnect.codec.EventDecoders;
import io.cdcconnect.codec.avro.AvroCodecFactory;
import org.apache.kafka.common.config.ConfigException;

import java.util.HashMap;
import java.util.Map;

/** Chooses the decoder for {@code input.format}. */
public final class RecordDecoders {

    private RecordDecoders() {
    }

    /** The zone of a session time_zone value ("+00:00", "SYSTEM", "Europe/Berlin"). */
    static java.time.ZoneId zoneOf(String sessionZone) {
        if (sessionZone.equalsIgnoreCase("SYSTEM")) return java.time.ZoneId.systemDefault();
        if (sessionZone.startsWith("+") || sessionZone.startsWith("-")) return java.time.ZoneOffset.of(sessionZone);
        return java.time.ZoneId.of(sessionZone);
    }

    public static RecordDecoder forConfig(CdcSinkConfig config) {
        String format = config.inputFormat();
        Map<String, String> codecOptions = new HashMap<>(config.inputCodecOptions());
        codecOptions.put(CodecOptions.MAX_DECODED_BYTES, Long.toString(config.inputMaxDecodedBytes()));
        return switch (format) {
            case "canal-json" -> new CodecRecordDecoder(EventDecoders.create(format, codecOptions), true);
            case "open-protocol" -> new CodecRecordDecoder(EventDecoders.create(format, codecOptions), false);
            case "avro" -> {
                Map<String, String> options = new HashMap<>(codecOptions);
                options.putAll(config.schemaRegistryTls());
                if (!config.schemaRegistryUrl().isBlank()) {
                    options.put(AvroCodecFactory.SCHEMA_REGISTRY, config.schemaRegistryUrl());
                }
                if (!options.containsKey(AvroCodecFactory.SCHEMA_REGISTRY)) {
                    throw new ConfigException(CdcSinkConfig.SCHEMA_REGISTRY_URL, "",
                            "input.format=avro needs the schema registry's URL");
                }
                yield new CodecRecordDecoder(EventDecoders.create(format, options), false);
            }
            case "debezium" -> new DebeziumEnvelopeDecoder(zoneOf(config.timestampTimeZone()));
            default -> throw new ConfigException(CdcSinkConfig.INPUT_FORMAT, format,
                    "this build of the sink does not decode " + format + " yet");
        };
    }
}
