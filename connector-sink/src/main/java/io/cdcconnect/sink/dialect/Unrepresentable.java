package io.cdcconnect.sink.dialect;

import java.sql.SQLDataException;

/**
 * A value the target cannot represent, as its {@link ValueConverter} said: bound, it fails the statement with an
 * {@link UnrepresentableValueException} that every dialect counts as a rejected row (dead-letter queue or a failed
 * task naming the row), like a value the server itself refuses.
 *
 * @param reason names the column and the rule
 */
public record Unrepresentable(String reason) {

    /** Thrown when an {@link Unrepresentable} is bound. */
    public static final class UnrepresentableValueException extends SQLDataException {
        public UnrepresentableValueException(String reason) {
            super(reason, "22000");
        }
    }

    /** Whether {@code e}, or what it wraps, is a value the converter refused. */
    public static boolean causedBy(java.sql.SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnrepresentableValueException) return true;
            if (t.getCause() == t) break;
        }
        return false;
    }
}
