package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.dialect.SqlFailures;

import java.sql.SQLException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error codes of MySQL, MariaDB and TiDB, classified into what the sink retries, what it tolerates, and what
 * fails the task. Only {@link MySqlFamilyDialect} reads them.
 */
final class MySqlErrors {

    public static final int DUPLICATE_ENTRY = 1062;
    public static final int LOCK_WAIT_TIMEOUT = 1205;
    public static final int DEADLOCK = 1213;

    /**
     * DDL errors that may mean "already done" (a replayed statement), and count as such only when the statement's
     * result is in the target ({@code io.cdcconnect.sink.ddl.DdlEffect}): 1054 is also what MariaDB says of a
     * name in an expression it does not know. 1007 database exists,
     * 1008 database does not exist (drop), 1022 duplicate key, 1050 table exists, 1051 unknown table (drop),
     * 1054 unknown column (rename/change replayed), 1060 duplicate column, 1061 duplicate key name,
     * 1068 multiple primary key, 1091 can't drop (field/key doesn't exist), 1826 duplicate foreign key.
     */
    public static final Set<Integer> DDL_ALREADY_APPLIED = Set.of(1007, 1008, 1022, 1050, 1051, 1054, 1060, 1061,
            1068, 1091, 1826);

    private static final Set<Integer> CONNECTION_LOST = Set.of(1053, 1927, 2006, 2013, 4031);

    /**
     * MySQL and MariaDB errors worth retrying besides deadlocks and lost connections, each of which a later attempt
     * can pass (checked on MySQL 8.0 by {@code MySql8ErrorClassificationTest}):
     * <ul>
     *   <li>a lock not had: 3572 NOWAIT, 1020 a row changed since the transaction read it (MariaDB 11.6's
     *       snapshot isolation);</li>
     *   <li>the server turned read-only during a failover: 1290 ER_OPTION_PREVENTS_STATEMENT (--read-only,
     *       super_read_only), 1792 read-only transaction, 1836 read-only mode; Group Replication refusing a commit
     *       (3100 a member not online, 3101 a transaction that lost certification);</li>
     *   <li>the server out of a shared resource: too many connections (1040, 1203, and 1226 a user's limit), prepared
     *       statements (1461 max_prepared_stmt_count), concurrent transactions (1637);</li>
     *   <li>a statement cut short: killed by an administrator (1317), or by a time limit (3024 max_execution_time,
     *       1969 MariaDB's max_statement_time);</li>
     *   <li>the table changed under the transaction: 1412 a table rebuilt after its read view, 1615 a statement to
     *       re-prepare.</li>
     * </ul>
     * 1105 ("Unknown error") is not here: it says nothing a retry could change, and fails the task.
     */
    static final Set<Integer> MYSQL_FAMILY_RETRYABLE = Set.of(1020, 1040, 1203, 1226, 1290, 1317, 1412, 1461, 1615,
            1637, 1792, 1836, 1969, 3024, 3100, 3101, 3572);

    /**
     * TiDB's transient errors (TiDB error codes, pkg/errno): 8002 and 8022 (transaction retryable), 8027 and 8028
     * (the schema changed under the transaction), 9001 PD timeout, 9002 TiKV timeout, 9003 TiKV busy, 9004 resolve
     * lock timeout, 9005 region unavailable, 9007 write conflict.
     */
    static final Set<Integer> TIDB_RETRYABLE = Set.of(8002, 8022, 8027, 8028, 9001, 9002, 9003, 9004, 9005, 9007);

    /**
     * Errors that reject one row for its data, not the statement or the server: the same row fails the same way on
     * every attempt, and the rows around it are fine. 1048 column cannot be null (also in a multi-row INSERT), 1054
     * unknown column, 1146 unknown table, 1264 out of range, 1265 data truncated (also an ENUM value outside the
     * list), 1292 incorrect (date/time) value, 1300 invalid character string, 1366 incorrect value for a column (also
     * a string the column's character set cannot hold), 1367 illegal value, 1364 a NOT NULL column without a default
     * left out, 1406 data too long, 1411 wrong value for a type, 1416 not a geometry, 1451 and 1452 a foreign key
     * (1216 and 1217 when the user may not see the other table), 1690 value out of range, 3140 invalid JSON (MySQL),
     * 3819 and 4025 a CHECK constraint (MySQL 8.0.16+, MariaDB), 8025 a row larger than TiDB's entry limit. A
     * duplicate key (1062) is one too, but only when the row was already written as an upsert (safe mode): see
     * {@link #rejectsRow}.
     */
    static final Set<Integer> ROW_REJECTED = Set.of(1048, 1054, 1146, 1216, 1217, 1264, 1265, 1292, 1300, 1364, 1366,
            1367, 1406, 1411, 1416, 1451, 1452, 1690, 3140, 3819, 4025, 8025);

    /** "column 'v'", "Column 'v'", "Field 'v'", "column `db`.`t`.`v`" in a server message. */
    private static final Pattern COLUMN = Pattern.compile(
            "(?i)\\b(?:column|field) (?:'([^']+)'|(?:`(?:[^`]|``)*`\\.)*`((?:[^`]|``)+)`)");

    private MySqlErrors() {
    }

    /**
     * The one place that says whether the target rejected a row for its data (value too long, out of range, NULL in a
     * NOT NULL column, unknown column, a bad value, a constraint; see {@link #ROW_REJECTED}), as opposed to an outage
     * or a fault of the statement. Such a row is taken out of its transaction and reported, or fails the task.
     *
     * @param upsert whether the failing statement already wrote the row idempotently (safe mode): then a duplicate key
     *               is one that an upsert cannot absorb, a rejection too; without safe mode it means a replay
     */
    public static boolean rejectsRow(SQLException e, boolean upsert) {
        int code = rootOf(e).getErrorCode();
        return ROW_REJECTED.contains(code) || (upsert && code == DUPLICATE_ENTRY);
    }

    /** The column the server names in its message, or null. */
    public static String column(SQLException e) {
        String m = rootOf(e).getMessage();
        if (m == null) return null;
        Matcher matcher = COLUMN.matcher(m);
        if (!matcher.find()) return null;
        return matcher.group(1) != null ? matcher.group(1) : matcher.group(2).replace("``", "`");
    }

    private static SQLException rootOf(SQLException e) {
        return SqlFailures.rootOf(e);
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
        return SqlFailures.connectionLost(e) || CONNECTION_LOST.contains(e.getErrorCode());
    }

    public static boolean duplicateKey(SQLException e) {
        return e.getErrorCode() == DUPLICATE_ENTRY
                || (e.getCause() instanceof SQLException c && c.getErrorCode() == DUPLICATE_ENTRY);
    }

    /** 1049: the database named by USE does not exist. */
    static final int UNKNOWN_DATABASE = 1049;
}
