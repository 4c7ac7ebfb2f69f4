package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.CodecException;

/**
 * The Confluent wire envelope: byte {@code 0x00}, the schema id as a 4-byte big-endian int, then the Avro binary
 * body (no container-file header).
 */
final class ConfluentEnvelope {

    static final byte MAGIC = 0x00;
    static final int HEADER_SIZE = 5;

    private ConfluentEnvelope() {
    }

    static void writeHeader(byte[] out, int schemaId) {
        out[0] = MAGIC;
        out[1] = (byte) (schemaId >>> 24);
        out[2] = (byte) (schemaId >>> 16);
        out[3] = (byte) (schemaId >>> 8);
        out[4] = (byte) schemaId;
    }

    /** The schema id of an enveloped message; {@code what} says which part (key/value) for errors. */
    static int schemaId(byte[] message, String what) {
        if (message.length < HEADER_SIZE) {
            throw new CodecException("Avro " + what + " of " + message.length
                    + " bytes is shorter than the 5-byte Confluent header");
        }
        if (message[0] != MAGIC) {
            String hint = switch (message[0]) {
                case 0x01 -> " (0x01 starts TiCDC's test-only Avro DDL message, which this decoder does not read)";
                case 0x02 -> " (0x02 starts TiCDC's test-only Avro watermark message, which this decoder does not read)";
                case 0x03 -> " (0x03 starts the AWS Glue registry envelope, which this decoder does not read)";
                default -> "";
            };
            throw new CodecException(String.format("Avro %s starts with byte 0x%02x, not the Confluent magic byte 0x00%s",
                    what, message[0] & 0xFF, hint));
        }
        return ((message[1] & 0xFF) << 24) | ((message[2] & 0xFF) << 16) | ((message[3] & 0xFF) << 8)
                | (message[4] & 0xFF);
    }
}
