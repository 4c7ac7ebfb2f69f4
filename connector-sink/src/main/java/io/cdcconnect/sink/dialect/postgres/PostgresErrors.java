package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.sink.dialect.SqlFailures;

import java.sql.SQLException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's SQLSTATEs, classified into what the sink retries, what it tolerates, and what fails the task. Only
 * {@link PostgresDialect} reads them.
 */
final class PostgresErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    /**
     * Worth retrying: 40001 serialization failure, 40P01 deadlock, 55P03 lock not available, 57014 statement
     * cancelled (a timeout or an admin), 53300 too many connections, 25006 read-only transaction (a standby during a
     * failover, default_transaction_read_only), 57P01/57P02/57P03 the server shutting down or starting.
     */
    static final Set<String> RETRYABLE = Set.of("40001", "40P01", "55P03", "57014", "53300", "25006", "57P01",
            "57P02", "57P03");

    /**
     * A row rejected for its data: class 22 (data exception: too long, out of range, a bad date or number, an invalid
     * byte sequence), 23502 NOT NULL, 23503 foreign key, 23514 CHECK, 42703 unknown column, 42P01 unknown table.
     * 23505 too, when the row was already written as an upsert.
     */
    static final Set<String> ROW_REJECTED = Set.of("23502", "23503", "23514", "42703", "42P01");

    /**
     * DDL errors that may mean "already done", counted as such only when the statement's result is in the target
     * ({@code io.cdcconnect.sink.ddl.DdlEffect}): 42P07 table exists, 42701 column exists, 42P06 schema exists, 42710 object
     * (constraint, index) exists, 42P01 table missing, 42703 column missing, 42704 object missing. (A missing schema,
     * 3F000, is not: the statement did not run.)
     */
    static final Set<String> DDL_ALREADY_APPLIED = Set.of("42P07", "42701", "42P06", "42710", "42P01", "42703",
            "42704");

    /**
     * Two sessions creating the same object at once ({@code CREATE ... IF NOT EXISTS}): the later one fails with 23505
     * on one of the catalog's own unique indexes ({@code pg_namespace_nspname_index}, {@code pg_type_typname_nsp_index},
     * ...) instead of finding the object there. The object exists: the statement's work is done.
     */
    static boolean catalogRace(SQLException e) {
        String m = e.getMessage();
        return UNIQUE_VIOLATION.equals(state(e)) && m != null && m.contains("constraint \"pg_");
    }

    private static final Pattern COLUMN = Pattern.compile("column \"((?:[^\"]|\"\")+)\"");

    private PostgresErrors() {
    }

    static String state(SQLException e) {
        String s = e.getSQLState();
        if (s == null && e.getCause() instanceof SQLException c) s = c.getSQLState();
        return s == null ? "" : s;
    }

    static boolean retryable(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            if (RETRYABLE.contains(state(x)) || SqlFailures.connectionLost(x)) return true;
            if (x.getNextException() == x) break;
        }
        return false;
    }

    static boolean rejectsRow(SQLException e, boolean upsert) {
        String s = state(SqlFailures.rootOf(e));
        return s.startsWith("22") || ROW_REJECTED.contains(s) || (upsert && UNIQUE_VIOLATION.equals(s));
    }

    static String column(SQLException e) {
        String m = SqlFailures.rootOf(e).getMessage();
        if (m == null) return null;
        Matcher matcher = COLUMN.matcher(m);
        return matcher.find() ? matcher.group(1).replace("\"\"", "\"") : null;
    }
}
