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
