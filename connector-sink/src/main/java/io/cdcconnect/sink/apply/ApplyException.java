package io.cdcconnect.sink.apply;

/** The sink cannot apply something and will not retry it: the message names what, where from, and why. */
public class ApplyException extends RuntimeException {

    public ApplyException(String message, Throwable cause) {
        super(message, cause);
    }

    public ApplyException(String message) {
        super(message);
    }
}
