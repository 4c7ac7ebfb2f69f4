package io.cdcconnect.codec;

import java.util.Map;

/**
 * Makes encoders and decoders of one format from TiCDC-named options ({@link CodecOptions}). Each {@link WireFormat}
 * names its factory; Avro's is found by class name ({@code io.cdcconnect.codec.avro.AvroCodecFactory}, public,
 * no-argument constructor) so that this package need not depend on Avro's.
 */
public interface EventEncoderFactory {

    /** A new encoder; throws IllegalArgumentException naming a bad option. */
    EventEncoder encoder(Map<String, String> options);

    /** A new decoder; throws IllegalArgumentException naming a bad option. */
    EventDecoder decoder(Map<String, String> options);

    /**
     * Throws IllegalArgumentException naming a bad encoder option, without making an encoder (which may open
     * connections); by default makes one.
     */
    default void checkEncoderOptions(Map<String, String> options) {
        encoder(options);
    }
}
