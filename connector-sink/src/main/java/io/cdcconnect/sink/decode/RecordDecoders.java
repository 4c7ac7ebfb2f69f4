package io.cdcconnect.sink.decode;

import io.cdcconnect.sink.CdcSinkConfig;
import org.apache.kafka.common.config.ConfigException;

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
        return switch (format) {
            case "canal-json" -> new CanalJsonRecordDecoder();
            case "debezium" -> new DebeziumEnvelopeDecoder(zoneOf(config.timestampTimeZone()));
            default -> throw new ConfigException(CdcSinkConfig.INPUT_FORMAT, format,
                    "this build of the sink does not decode " + format + " yet");
        };
    }
}
