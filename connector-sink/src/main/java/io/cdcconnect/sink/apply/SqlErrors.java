package io.cdcconnect.sink.apply;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/** Classifies server errors into what the sink retries, what it tolerates, and what fails the task. */
public final class SqlErrors {

    public static final int DUPLICATE_ENTRY = 1062;
    public static final int LOCK_WAIT_TIMEOUT = 1205;
    public static final int DEADLOCK = 1213;

    /**
     * DDL errors that mean "already done": replaying a DDL statement must be harmless. 1007 database exists,
     * 1008 database does not exist (drop), 1022 duplicate key, 1050 table exists, 1051 unknown table (drop),
     * 1054 unknown column (rename/change replayed), 1060 duplicate column, 1061 duplicate key name,
     * 1068 multiple primary key, 1091 can't drop (field/key doesn't exist), 1826 duplicate foreign key.
     */
    public static final Set<Integer> DDL_ALREADY_APPLIED = Set.of(1007, 1008, 1022, 1050, 1051, 1054, 1060, 1061,
            1068, 1091, 1826);

    private static final Set<Integer> CONNECTION_LOST = Set.of(1053, 1927, 2006, 2013, 4031);

    private SqlErrors() {
    }

    /** Deadlock, lock wait timeout or a lost connection: worth retrying the whole transaction. */
    public static boolean retryable(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            int code = x.getErrorCode();
            if (code == DEADLOCK || code == LOCK_WAIT_TIMEOUT) return true;
            if (connectionLost(x)) return true;
            if (x.getCause() instanceof SQLException c && c != x && (c.getErrorCode() == DEADLOCK
                    || c.getErrorCode() == LOCK_WAIT_TIMEOUT || connectionLost(c))) return true;
            if (x.getNextException() == x) break;
        }
        return false;
    }

    /** The connection is unusable: it must be discarded and a new one taken. */
    public static boolean connectionLost(SQLException e) {
        if (e instanceof SQLNonTransientConnectionException || e instanceof SQLTransientConnectionException
                || e instanceof SQLRecoverableException) return true;
        String state = e.getSQLState();
        if (state != null && state.startsWith("08")) return true;
        if (CONNECTION_LOST.contains(e.getErrorCode())) return true;
        return e.getCause() instanceof SQLException c && c != e && (c.getSQLState() != null
                && c.getSQLState().startsWith("08"));
    }

    public static boolean duplicateKey(SQLException e) {
        return e.getErrorCode() == DUPLICATE_ENTRY
                || (e.getCause() instanceof SQLException c && c.getErrorCode() == DUPLICATE_ENTRY);
    }

    /** "error 1213 (40001): Deadlock found ..." */
    public static String describe(SQLException e) {
        SQLException root = e.getCause() instanceof SQLException c ? c : e;
        return "error " + root.getErrorCode() + " (" + root.getSQLState() + "): " + root.getMessage();
    }
}
