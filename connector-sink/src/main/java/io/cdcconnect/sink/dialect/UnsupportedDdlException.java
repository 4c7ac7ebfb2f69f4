package io.cdcconnect.sink.dialect;

import java.sql.SQLException;

/** The target has no translation for a DDL statement of the stream; {@code ddl.unsupported} says what happens. */
public final class UnsupportedDdlException extends SQLException {

    public UnsupportedDdlException(String reason) {
        super(reason, "0A000");
    }
}
