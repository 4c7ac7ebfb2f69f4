package io.cdcconnect.sink.decode;

import io.cdcconnect.sink.CdcSinkConfig;
import org.apache.kafka.common.config.ConfigException;

/** Chooses the decoder for {@code input.format}. */
public final class RecordDecoders {

    private RecordDecoders() {
    }

    public static RecordDecoder forConfig(CdcSinkConfig config) {
        String format = config.inputFormat();
        return switch (format) {
            case "canal-json" -> new CanalJsonRecordDecoder();
            default -> throw new ConfigException(CdcSinkConfig.INPUT_FORMAT, format,
                    "this build of the sink does not decode " + format + " yet");
        };
    }
}
