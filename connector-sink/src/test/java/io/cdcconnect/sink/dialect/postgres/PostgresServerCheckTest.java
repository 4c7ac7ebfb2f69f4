package io.cdcconnect.sink.dialect.postgres;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which PostgreSQL servers validation accepts, by the version readLimits reports. */
class PostgresServerCheckTest {

    @Test
    void twelveAndLaterFit() {
        PostgresDialect d = new PostgresDialect();
        assertNull(d.serverMismatch("auto", "PostgreSQL 17.2"));
        assertNull(d.serverMismatch("postgresql", "PostgreSQL 12.0 (Debian 12.0-1)"));
        assertTrue(d.serverMismatch("auto", "PostgreSQL 11.22").contains("needs PostgreSQL 12 or later"));
    }
}
