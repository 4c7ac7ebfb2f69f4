package io.cdcconnect.codec;

/**
 * A message could not be encoded or decoded. The message names what was wrong and where (table, column, message
 * number within a Kafka value); row values are left out because they may be confidential.
 */
public class CodecException extends RuntimeException {

    public CodecException(String message) {
        super(message);
    }

    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
