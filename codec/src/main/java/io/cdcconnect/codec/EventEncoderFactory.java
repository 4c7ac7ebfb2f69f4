package io.cdcconnect.codec;

import java.util.Map;

/**
 * Makes encoders and decoders of one format from TiCDC-named options ({@link CodecOptions}). Built-in: canal-json,
 * open-protocol. Avro is found by {@link EventEncoders} as the class {@code io.cdcconnect.codec.avro.AvroCodecFactory}
 * (public, no-argument constructor) so that this package need not depend on Avro's.
 */
public interface EventEncoderFactory {

    /** The format name, e.g. "avro". */
    String format();

    /** A new encoder; throws IllegalArgumentException naming a bad option. */
    EventEncoder encoder(Map<String, String> options);

    /** A new decoder; throws IllegalArgumentException naming a bad option. */
    EventDecoder decoder(Map<String, String> options);
}
