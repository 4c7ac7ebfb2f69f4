package io.cdcconnect.codec;

/** Kafka message size arithmetic shared by the encoders, the same as TiCDC's {@code common.Message.Length()}. */
public final class MessageSize {

    /** Bytes a Kafka record adds around key and value (record batch v2 worst case), as TiCDC counts them. */
    public static final int RECORD_OVERHEAD = 5 * 5 + 10 + 1;

    /** TiCDC's default {@code max-message-bytes}: 10 MiB. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

    private MessageSize() {
    }

    public static int length(byte[] key, byte[] value) {
        return (key == null ? 0 : key.length) + (value == null ? 0 : value.length) + RECORD_OVERHEAD;
    }
}
