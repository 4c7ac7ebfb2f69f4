package io.cdcconnect.sink.dialect.mysql;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MySqlErrorsTest {

    @Test
    void deadlockLockWaitAndLostConnectionsAreRetried() {
        assertTrue(MySqlErrors.retryable(new SQLException("Deadlock found", "40001", 1213)));
        assertTrue(MySqlErrors.retryable(new SQLException("Lock wait timeout exceeded", "HY000", 1205)));
        assertTrue(MySqlErrors.retryable(new SQLNonTransientConnectionException("gone", "08S01", 0)));
        assertTrue(MySqlErrors.retryable(new SQLException("server has gone away", "HY000", 2006)));
    }

    @Test
    void aFailoverToReadOnlyAndTidbTransientErrorsAreRetried() {
        assertTrue(MySqlErrors.retryable(new SQLException("The MariaDB server is running with the --read-only option",
                "HY000", 1290)));
        assertTrue(MySqlErrors.retryable(new SQLException("Cannot execute statement in a READ ONLY transaction",
                "25006", 1792)));
        assertTrue(MySqlErrors.retryable(new SQLException("Write conflict, txnStartTS=1", "HY000", 9007)));
        assertTrue(MySqlErrors.retryable(new SQLException("Information schema is changed", "HY000", 8028)));
        assertTrue(MySqlErrors.retryable(new SQLException("Region is unavailable", "HY000", 9005)));
        // wrapped in the sink's own message, as TransactionApplier throws it
        assertTrue(MySqlErrors.retryable(new SQLException("INSERT of 8 row(s): ...", "HY000", 9007,
                new SQLException("Write conflict", "HY000", 9007))));
        // TiDB's "GC life time is shorter than transaction duration" needs an operator, not a retry
        assertFalse(MySqlErrors.retryable(new SQLException("GC life time is shorter", "HY000", 9006)));
    }

    @Test
    void noCodeIsBothRetriedAndARejectedRow() {
        for (int code : MySqlErrors.ROW_REJECTED) {
            assertFalse(MySqlErrors.MYSQL_FAMILY_RETRYABLE.contains(code), "" + code);
            assertFalse(MySqlErrors.TIDB_RETRYABLE.contains(code), "" + code);
        }
    }

    @Test
    void theUnknownErrorIsNeitherRetriedNorARejectedRow() {
        SQLException unknown = new SQLException("Unknown error", "HY000", 1105);
        assertFalse(MySqlErrors.retryable(unknown));
        assertFalse(MySqlErrors.rejectsRow(unknown, true));
    }

    @Test
    void aWrappedRetryableErrorIsStillRetried() {
        SQLException inner = new SQLException("Deadlock found", "40001", 1213);
        assertTrue(MySqlErrors.retryable(new SQLException("INSERT of 1 row(s): ...", "40001", 1213, inner)));
    }

    @Test
    void duplicatesAndSyntaxErrorsAreNot() {
        SQLException dup = new SQLException("Duplicate entry '1' for key 'PRIMARY'", "23000", 1062);
        assertFalse(MySqlErrors.retryable(dup));
        assertTrue(MySqlErrors.duplicateKey(dup));
        assertFalse(MySqlErrors.retryable(new SQLException("syntax", "42000", 1064)));
    }

    @Test
    void ddlErrorsThatMeanAlreadyDoneAreTolerated() {
        for (int code : new int[]{1050, 1060, 1061, 1091}) {
            assertTrue(MySqlErrors.DDL_ALREADY_APPLIED.contains(code));
        }
        assertFalse(MySqlErrors.DDL_ALREADY_APPLIED.contains(1064));
    }

    @Test
    void rowsRejectedForTheirDataAreToldFromEverythingElse() {
        assertTrue(MySqlErrors.rejectsRow(new SQLException("Data too long for column 'v' at row 1", "22001", 1406), false));
        assertTrue(MySqlErrors.rejectsRow(new SQLException("Out of range value for column 'n' at row 3", "22003", 1264),
                false));
        assertTrue(MySqlErrors.rejectsRow(new SQLException("Column 'w' cannot be null", "23000", 1048), false));
        assertTrue(MySqlErrors.rejectsRow(new SQLException("Field 'x' doesn't have a default value", "HY000", 1364),
                false));
        assertTrue(MySqlErrors.rejectsRow(new SQLException("Unknown column 'z' in 'field list'", "42S22", 1054), false));
        // wrapped as TransactionApplier throws it
        assertTrue(MySqlErrors.rejectsRow(new SQLException("INSERT of 8 row(s) into `d`.`t`: ...", "22001", 1406,
                new SQLException("Data too long for column 'v' at row 5", "22001", 1406)), false));
        // a duplicate is a replay without safe mode, a rejection when the row was already an upsert
        SQLException dup = new SQLException("Duplicate entry 'x' for key 'code'", "23000", 1062);
        assertFalse(MySqlErrors.rejectsRow(dup, false));
        assertTrue(MySqlErrors.rejectsRow(dup, true));
        // outages and statement faults are not
        assertFalse(MySqlErrors.rejectsRow(new SQLException("Deadlock found", "40001", 1213), true));
        assertFalse(MySqlErrors.rejectsRow(new SQLNonTransientConnectionException("gone", "08S01", 0), true));
        assertFalse(MySqlErrors.rejectsRow(new SQLException("syntax", "42000", 1064), true));
        assertFalse(MySqlErrors.rejectsRow(new SQLException("Access denied", "42000", 1142), true));
    }

    @Test
    void theColumnIsTakenFromTheServersMessage() {
        assertEquals("v", MySqlErrors.column(new SQLException("Data truncation: Data too long for column 'v' at row 1")));
        assertEquals("w", MySqlErrors.column(new SQLException("Column 'w' cannot be null")));
        assertEquals("x", MySqlErrors.column(new SQLException("Field 'x' doesn't have a default value")));
        assertEquals("k", MySqlErrors.column(new SQLException(
                "Incorrect integer value: 'abc' for column `db`.`items`.`k` at row 1")));
        assertEquals("odd`name", MySqlErrors.column(new SQLException(
                "Incorrect date value: '1' for column `db`.`t`.`odd``name` at row 1")));
        assertNull(MySqlErrors.column(new SQLException("Duplicate entry 'x' for key 'code'")));
    }
}
