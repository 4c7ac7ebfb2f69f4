package io.cdcconnect.sink.apply;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlErrorsTest {

    @Test
    void deadlockLockWaitAndLostConnectionsAreRetried() {
        assertTrue(SqlErrors.retryable(new SQLException("Deadlock found", "40001", 1213)));
        assertTrue(SqlErrors.retryable(new SQLException("Lock wait timeout exceeded", "HY000", 1205)));
        assertTrue(SqlErrors.retryable(new SQLNonTransientConnectionException("gone", "08S01", 0)));
        assertTrue(SqlErrors.retryable(new SQLException("server has gone away", "HY000", 2006)));
    }

    @Test
    void aFailoverToReadOnlyAndTidbTransientErrorsAreRetried() {
        assertTrue(SqlErrors.retryable(new SQLException("The MariaDB server is running with the --read-only option",
                "HY000", 1290)));
        assertTrue(SqlErrors.retryable(new SQLException("Cannot execute statement in a READ ONLY transaction",
                "25006", 1792)));
        assertTrue(SqlErrors.retryable(new SQLException("Write conflict, txnStartTS=1", "HY000", 9007)));
        assertTrue(SqlErrors.retryable(new SQLException("Information schema is changed", "HY000", 8028)));
        assertTrue(SqlErrors.retryable(new SQLException("Region is unavailable", "HY000", 9005)));
        // wrapped in the sink's own message, as TransactionApplier throws it
        assertTrue(SqlErrors.retryable(new SQLException("INSERT of 8 row(s): ...", "HY000", 9007,
                new SQLException("Write conflict", "HY000", 9007))));
        // TiDB's "GC life time is shorter than transaction duration" needs an operator, not a retry
        assertFalse(SqlErrors.retryable(new SQLException("GC life time is shorter", "HY000", 9006)));
    }

    @Test
    void aWrappedRetryableErrorIsStillRetried() {
        SQLException inner = new SQLException("Deadlock found", "40001", 1213);
        assertTrue(SqlErrors.retryable(new SQLException("INSERT of 1 row(s): ...", "40001", 1213, inner)));
    }

    @Test
    void duplicatesAndSyntaxErrorsAreNot() {
        SQLException dup = new SQLException("Duplicate entry '1' for key 'PRIMARY'", "23000", 1062);
        assertFalse(SqlErrors.retryable(dup));
        assertTrue(SqlErrors.duplicateKey(dup));
        assertFalse(SqlErrors.retryable(new SQLException("syntax", "42000", 1064)));
    }

    @Test
    void ddlErrorsThatMeanAlreadyDoneAreTolerated() {
        for (int code : new int[]{1050, 1060, 1061, 1091}) {
            assertTrue(SqlErrors.DDL_ALREADY_APPLIED.contains(code));
        }
        assertFalse(SqlErrors.DDL_ALREADY_APPLIED.contains(1064));
    }
}
