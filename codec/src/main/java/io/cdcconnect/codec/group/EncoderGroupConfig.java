package io.cdcconnect.codec.group;

/**
 * @param threads          encoding threads (default: the number of cores)
 * @param maxInFlightBytes bound on the bytes of submitted events not yet taken back (estimated from the row values,
 *                         then replaced by the encoded size); {@code submit} blocks above it. Default 64 MiB.
 */
public record EncoderGroupConfig(int threads, long maxInFlightBytes) {

    public static final long DEFAULT_MAX_IN_FLIGHT_BYTES = 64L << 20;

    public EncoderGroupConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, was " + threads);
        }
        if (maxInFlightBytes < 1) {
            throw new IllegalArgumentException("maxInFlightBytes must be positive, was " + maxInFlightBytes);
        }
    }

    public static EncoderGroupConfig defaults() {
        return new EncoderGroupConfig(Runtime.getRuntime().availableProcessors(), DEFAULT_MAX_IN_FLIGHT_BYTES);
    }
}
