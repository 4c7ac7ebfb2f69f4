package io.cdcconnect.codec;

import java.util.Map;

/** Decoders by format name; see {@link WireFormat} for the formats and {@link CodecOptions} for the options. */
public final class EventDecoders {

    private EventDecoders() {
    }

    public static EventDecoder create(String format, Map<String, String> options) {
        return EventEncoders.decoder(format, options);
    }
}
