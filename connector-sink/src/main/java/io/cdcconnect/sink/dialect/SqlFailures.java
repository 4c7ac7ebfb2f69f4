package io.cdcconnect.sink.dialect;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;

/** What JDBC itself says about a failure, whatever the database: dialects add their own codes on top. */
public final class SqlFailures {

    private SqlFailures() {
    }

    /** The server's exception under a driver's wrapper, or {@code e}. */
    public static SQLException rootOf(SQLException e) {
        return e.getCause() instanceof SQLException c && c != e ? c : e;
    }

    /** A connection-class exception or SQLSTATE class 08: the connection is unusable. */
    public static boolean connectionLost(SQLException e) {
        if (e instanceof SQLNonTransientConnectionException || e instanceof SQLTransientConnectionException
                || e instanceof SQLRecoverableException) return true;
        String state = e.getSQLState();
        if (state != null && state.startsWith("08")) return true;
        return e.getCause() instanceof SQLException c && c != e && c.getSQLState() != null
                && c.getSQLState().startsWith("08");
    }

    /** "error 1213 (40001): Deadlock found ..." */
    public static String describe(SQLException e) {
        SQLException root = rootOf(e);
        return "error " + root.getErrorCode() + " (" + root.getSQLState() + "): " + root.getMessage();
    }
}
