package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.sink.dialect.registry.Dialects;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SQL text and error classification of the PostgreSQL dialect (the statements run in PostgresSinkTest). */
class PostgresDialectTest {

    private final PostgresDialect d = new PostgresDialect();

    @Test
    void theUrlPicksTheFamily() {
        assertEquals("postgresql", Dialects.forUrl("jdbc:postgresql://h:5432/db").name());
        assertEquals("mariadb", Dialects.forUrl("jdbc:mysql://h:3306/").refine("auto", "10.11.9-MariaDB").name());
        assertEquals("mysql8", Dialects.forUrl("jdbc:mysql://h/").refine("auto", "8.4.3").name());
        assertNull(Dialects.familyOf("jdbc:oracle:thin:@h:1521/x"));
        assertNull(Dialects.mismatch("jdbc:postgresql://h/db", "auto"));
        assertTrue(Dialects.mismatch("jdbc:postgresql://h/db", "mysql8").contains("postgresql"));
    }

    @Test
    void upsertsOnTheIdentityKey() {
        assertEquals("INSERT INTO \"d\".\"t\" (\"id\",\"v\") VALUES (?,?),(?,?) ON CONFLICT (\"id\") DO UPDATE SET "
                + "\"v\"=EXCLUDED.\"v\"", d.upsert("\"d\".\"t\"", List.of("id", "v"), List.of("id"), 2));
        assertEquals("INSERT INTO t (\"a\",\"b\") VALUES (?,?) ON CONFLICT (\"a\",\"b\") DO NOTHING",
                d.upsert("t", List.of("a", "b"), List.of("a", "b"), 1));
        assertFalse(d.hasReplace());
    }

    @Test
    void rowsWithoutKeyAreMatchedNullSafelyOneAtATime() {
        assertEquals("DELETE FROM t WHERE ctid = (SELECT ctid FROM t WHERE \"a\" IS NOT DISTINCT FROM ? AND \"b\" IS "
                + "NOT DISTINCT FROM ? LIMIT 1)", d.deleteByRow("t", List.of("a", "b")));
        assertEquals("UPDATE t SET \"a\"=?,\"b\"=? WHERE ctid = (SELECT ctid FROM t WHERE \"a\" IS NOT DISTINCT FROM "
                + "? AND \"b\" IS NOT DISTINCT FROM ? LIMIT 1)", d.updateByRow("t", List.of("a", "b")));
        assertEquals("DELETE FROM t WHERE \"id\" IN (?,?)", d.deleteByKey("t", List.of("id"), 2));
    }

    @Test
    void identifiersKeepTheirCase() {
        assertEquals("\"We\"\"ird\"", d.quote("We\"ird"));
        assertEquals("\"S\".\"T\"", d.qualified("S", "T"));
    }

    @Test
    void sessionTimeZoneReadsOffsetsTheIsoWay() {
        assertEquals("SET TIME ZONE INTERVAL '+08:00' HOUR TO MINUTE", d.sessionInitSql("+08:00"));
        assertEquals("SET TIME ZONE DEFAULT", d.sessionInitSql("SYSTEM"));
        assertEquals("SET TIME ZONE 'Europe/Berlin'", d.sessionInitSql("Europe/Berlin"));
    }

    @Test
    void errorsAreClassifiedBySqlState() {
        assertTrue(d.retryable(new SQLException("deadlock detected", "40P01")));
        assertTrue(d.retryable(new SQLException("could not obtain lock", "55P03")));
        assertTrue(d.retryable(new SQLException("cannot execute INSERT in a read-only transaction", "25006")));
        assertTrue(d.retryable(new SQLException("connection refused", "08001")));
        assertFalse(d.retryable(new SQLException("syntax error", "42601")));
        SQLException dup = new SQLException("duplicate key value violates unique constraint", "23505");
        assertTrue(d.duplicateKey(dup));
        assertFalse(d.rejectsRow(dup, false));
        assertTrue(d.rejectsRow(dup, true));
        assertTrue(d.rejectsRow(new SQLException("value too long for type character varying(5)", "22001"), false));
        assertTrue(d.rejectsRow(new SQLException("null value in column \"w\" of relation \"t\" violates not-null "
                + "constraint", "23502"), false));
        assertEquals("w", d.rejectedColumn(new SQLException("null value in column \"w\" of relation \"t\" violates "
                + "not-null constraint", "23502")));
        assertTrue(d.ddlAlreadyApplied(new SQLException("relation \"t\" already exists", "42P07")));
        assertFalse(d.ddlAlreadyApplied(new SQLException("syntax error", "42601")));
    }
}
