package io.cdcconnect.codec;

/**
 * Something a codec reads besides the message itself (the schema registry, the claim-check store) cannot be reached,
 * fails, or refuses the codec's credentials. The message may be perfectly good: the caller retries it later, and never
 * treats it as a bad message (no dead-letter queue). Not a {@link CodecException}, so that no handler of bad messages
 * takes it for one. The message names the resource without credentials, and what was being done.
 */
public class UnavailableException extends RuntimeException {

    private final String resource;

    /**
     * @param resource what is unavailable, for messages, e.g. "schema registry http://registry:8081" (no credentials)
     */
    public UnavailableException(String resource, String message, Throwable cause) {
        super(message, cause);
        this.resource = resource;
    }

    /** What is unavailable, e.g. "schema registry http://registry:8081" or "claim-check store file:///data/cc". */
    public String resource() {
        return resource;
    }
}
