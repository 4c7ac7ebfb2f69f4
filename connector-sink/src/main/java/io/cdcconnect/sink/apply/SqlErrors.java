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

    /**
     * MySQL and MariaDB errors worth retrying besides deadlocks and lost connections: the server turned read-only
     * during a failover (1290 ER_OPTION_PREVENTS_STATEMENT with --read-only, 1792 read-only transaction, 1836
     * read-only mode), too many connections (1040), a query killed by a timeout or an admin (1317, 1969).
     */
    static final Set<Integer> MYSQL_FAMILY_RETRYABLE = Set.of(1040, 1290, 1317, 1792, 1836, 1969);

    /**
     * TiDB's transient errors (TiDB error codes, pkg/errno): 8002 and 8022 (transaction retryable), 8027 and 8028
     * (the schema changed under the transaction), 9001 PD timeout, 9002 TiKV timeout, 9003 TiKV busy, 9004 resolve
     * lock timeout, 9005 region unavailable, 9007 write conflict.
     */
    static final Set<Integer> TIDB_RETRYABLE = Set.of(8002, 8022, 8027, 8028, 9001, 9002, 9003, 9004, 9005, 9007);

    private SqlErrors() {
    }

    /**
     * Worth retrying the whole transaction: a deadlock, a lock wait timeout, a lost connection, or one of the
     * transient errors of the MySQL family ({@link #MYSQL_FAMILY_RETRYABLE}) or of TiDB ({@link #TIDB_RETRYABLE}).
     */
    public static boolean retryable(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            if (transientCode(x.getErrorCode()) || connectionLost(x)) return true;
            if (x.getCause() instanceof SQLException c && c != x && (transientCode(c.getErrorCode())
                    || connectionLost(c))) return true;
            if (x.getNextException() == x) break;
        }
        return false;
    }

    private static boolean transientCode(int code) {
        return code == DEADLOCK || code == LOCK_WAIT_TIMEOUT || MYSQL_FAMILY_RETRYABLE.contains(code)
                || TIDB_RETRYABLE.contains(code);
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
