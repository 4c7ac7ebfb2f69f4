package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.dialect.ForeignKeyChecks;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MySqlFamilyDialectTest {

    @Test
    void choosesByServerVersion() {
        assertEquals("mariadb", MySqlFamilyDialect.fromVersion("10.11.19-MariaDB-0+deb12u1").name());
        assertEquals("tidb", MySqlFamilyDialect.fromVersion("8.0.11-TiDB-v7.5.0").name());
        assertEquals("mysql8", MySqlFamilyDialect.fromVersion("8.0.20").name());
        assertEquals("mysql8", MySqlFamilyDialect.fromVersion("8.4.3").name());
        assertEquals("mysql57", MySqlFamilyDialect.fromVersion("8.0.19").name());
        assertEquals("mysql57", MySqlFamilyDialect.fromVersion("5.7.44-log").name());
    }

    @Test
    void replicaForeignKeyChecksAreOffPerSessionAndOnPerDeleteOrUpdateWhereTheServerCanSaySo() {
        MariaDbDialect maria = new MariaDbDialect();
        assertEquals(ForeignKeyChecks.REPLICA, ForeignKeyChecks.REPLICA.on(maria));
        assertEquals(maria.sessionInitSql("+00:00") + ", SESSION foreign_key_checks = 0",
                maria.sessionInitSql("+00:00", ForeignKeyChecks.REPLICA));
        assertEquals(maria.sessionInitSql("+00:00"), maria.sessionInitSql("+00:00", ForeignKeyChecks.SERVER));
        assertEquals("SET STATEMENT foreign_key_checks = 1 FOR DELETE FROM `t` WHERE `id` IN (?)",
                maria.withForeignKeyChecks("DELETE FROM `t` WHERE `id` IN (?)"));
        // MySQL's hint SET_VAR(foreign_key_checks=1) makes a prepared statement fail with 1615 (needs to be
        // re-prepared) on every execution in a session without checks (MySQL 8.0.15): no per-statement switch there
        assertEquals(ForeignKeyChecks.SERVER, ForeignKeyChecks.REPLICA.on(new MySql8Dialect()));
        assertEquals(ForeignKeyChecks.SERVER, ForeignKeyChecks.REPLICA.on(MySqlFamilyDialect.fromVersion("5.7.44")));
        assertEquals(ForeignKeyChecks.SERVER, ForeignKeyChecks.REPLICA.on(new TiDbDialect()));
        assertEquals(ForeignKeyChecks.OFF, ForeignKeyChecks.OFF.on(new TiDbDialect()));
    }

    @Test
    void tidbSessionsAllowExplicitAutoRandomIdsAsTicdcDoes() {
        String common = new MariaDbDialect().sessionInitSql("+00:00");
        assertTrue(common.startsWith("SET SESSION time_zone = '+00:00', SESSION sql_mode = "), common);
        assertTrue(common.contains("',ANSI_QUOTES,'") && common.contains("',NO_BACKSLASH_ESCAPES,'"), common);
        assertEquals(common + ", SESSION allow_auto_random_explicit_insert = 1",
                new TiDbDialect().sessionInitSql("+00:00"));
        assertEquals(common, new MySql8Dialect().sessionInitSql("+00:00"));
    }

    @Test
    void configuredNameWins() {
        assertEquals("mysql57", MySqlFamilyDialect.choose("mysql57", "8.4.0").name());
        assertThrows(IllegalArgumentException.class, () -> MySqlFamilyDialect.choose("oracle", "x"));
    }

    @Test
    void mariaDbUpsertUsesValuesFunction() {
        assertEquals("INSERT INTO `d`.`t` (`id`,`v`) VALUES (?,?),(?,?) ON DUPLICATE KEY UPDATE `v`=VALUES(`v`)",
                new MariaDbDialect().upsert("`d`.`t`", List.of("id", "v"), List.of("id"), 2));
    }

    @Test
    void mysql8UpsertUsesRowAlias() {
        assertEquals("INSERT INTO `d`.`t` (`id`,`v`) VALUES (?,?) AS `_new` ON DUPLICATE KEY UPDATE `v`=`_new`.`v`",
                new MySql8Dialect().upsert("`d`.`t`", List.of("id", "v"), List.of("id"), 1));
    }

    @Test
    void upsertOfKeyOnlyTableStillHasAnAssignment() {
        assertEquals("INSERT INTO t (`a`,`b`) VALUES (?,?) ON DUPLICATE KEY UPDATE `a`=`a`",
                new TiDbDialect().upsert("t", List.of("a", "b"), List.of("a", "b"), 1));
    }

    @Test
    void deletesByKeyUseInListOrDisjunction() {
        MariaDbDialect d = new MariaDbDialect();
        assertEquals("DELETE FROM t WHERE `id` IN (?,?,?)", d.deleteByKey("t", List.of("id"), 3));
        assertEquals("DELETE FROM t WHERE (`a`=? AND `b`=?) OR (`a`=? AND `b`=?)",
                d.deleteByKey("t", List.of("a", "b"), 2));
    }

    @Test
    void rowsWithoutKeyAreMatchedNullSafelyOneAtATime() {
        assertEquals("DELETE FROM t WHERE `a` <=> ? AND `b` <=> ? LIMIT 1",
                new MariaDbDialect().deleteByRow("t", List.of("a", "b")));
        assertEquals("UPDATE t SET `a`=?,`b`=? WHERE `a` <=> ? AND `b` <=> ? LIMIT 1",
                new MariaDbDialect().updateByRow("t", List.of("a", "b")));
    }

    @Test
    void identifiersAreQuotedWithBackticksDoubled() {
        assertEquals("`we``ird`", new MariaDbDialect().quote("we`ird"));
    }
}
