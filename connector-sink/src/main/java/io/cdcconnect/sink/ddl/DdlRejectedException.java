package io.cdcconnect.sink.ddl;

import java.sql.SQLException;

/**
 * A DDL statement refused for what it says, not for an outage: the sink will not run it (it does not read as one
 * schema change it writes out again), or the target failed it with an error no retry changes (a syntax it does not
 * speak, an option it lacks, a column that cannot hold its rows). Under {@code errors.tolerance=all} its record goes
 * to the dead-letter queue and the stream goes on; otherwise the task fails naming it.
 */
public final class DdlRejectedException extends SQLException {

    public DdlRejectedException(String message, String sqlState, int errorCode) {
        super(message, sqlState, errorCode);
    }
}
