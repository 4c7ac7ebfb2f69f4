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

    /** The option names its decoder reads, by TiCDC's names: the one list a configuration is checked against. */
    java.util.Set<String> decoderOptions();

    /**
     * Throws IllegalArgumentException naming an option its decoder does not read (listing those it does) or a bad
     * value, without decoding anything; by default makes a decoder.
     */
    default void checkDecoderOptions(Map<String, String> options) {
        refuseUnknown(options, decoderOptions());
        decoder(options);
    }

    /** IllegalArgumentException naming the first option that is not one of {@code known}, listing those. */
    static void refuseUnknown(Map<String, String> options, java.util.Set<String> known) {
        for (String name : options.keySet()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown option '" + name + "'" + (known.isEmpty()
                        ? ": this format's decoder reads no options"
                        : " (known: " + String.join(", ", new java.util.TreeSet<>(known)) + ")"));
            }
        }
    }
}
