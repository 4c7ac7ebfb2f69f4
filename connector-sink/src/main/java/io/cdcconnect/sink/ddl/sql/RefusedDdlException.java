package io.cdcconnect.sink.ddl.sql;

/** DDL text the sink will not run: it does not parse, or it is not one schema change the sink writes out again. */
public final class RefusedDdlException extends IllegalArgumentException {

    public RefusedDdlException(String reason) {
        super(reason);
    }
}
