package io.cdcconnect.source.ddl;

import io.cdcconnect.codec.model.DdlChange;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DdlRulesTest {

    private static Optional<DdlChange> snap(String ddl) {
        return DdlRules.forward("db", ddl, true, 1L).stream().findFirst().map(DdlStatement::change);
    }

    private static Optional<DdlChange> stream(String ddl) {
        return DdlRules.forward("db", ddl, false, 1L).stream().findFirst().map(DdlStatement::change);
    }

    @Test
    void snapshotDropsAndSessionStatementsAreNeverForwarded() {
        assertTrue(snap("DROP TABLE IF EXISTS `db`.`t`").isEmpty());
        assertTrue(snap("DROP DATABASE IF EXISTS `db`").isEmpty());
        assertTrue(snap("SET character_set_server=utf8mb4, collation_server=utf8mb4_general_ci").isEmpty());
        assertTrue(snap("USE `db`").isEmpty());
    }

    @Test
    void snapshotCreatesBecomeIfNotExists() {
        DdlChange t = snap("CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n  PRIMARY KEY (`id`)\n)").orElseThrow();
        assertEquals("CREATE TABLE IF NOT EXISTS `t` (\n  `id` int(11) NOT NULL,\n  PRIMARY KEY (`id`)\n)", t.query());
        assertEquals(DdlChange.Kind.CREATE, t.kind());
        DdlChange d = snap("CREATE DATABASE `db` CHARSET utf8mb4 COLLATE utf8mb4_general_ci").orElseThrow();
        assertEquals("CREATE DATABASE IF NOT EXISTS `db` CHARSET utf8mb4 COLLATE utf8mb4_general_ci", d.query());
        assertEquals(DdlChange.Kind.QUERY, d.kind());
        assertEquals("", d.table());
        assertEquals("CREATE TABLE IF NOT EXISTS x (a int)", snap("create table if not exists x (a int)")
                .map(c -> c.query().replace("create table if not exists", "CREATE TABLE IF NOT EXISTS")).orElseThrow());
    }

    @Test
    void streamingSchemaChangesAreForwardedUnchanged() {
        assertEquals("DROP TABLE `t`", stream("DROP TABLE `t`").orElseThrow().query());
        assertEquals(DdlChange.Kind.ERASE, stream("DROP TABLE `t`").orElseThrow().kind());
        assertEquals("CREATE TABLE t2 (a INT)", stream("/* note */ CREATE TABLE t2 (a INT);").orElseThrow().query());
        assertTrue(stream("FLUSH TABLES").isEmpty());
        assertTrue(stream("GRANT SELECT ON *.* TO x").isEmpty());
        assertTrue(stream("SET @x = 1").isEmpty());
        assertEquals(DdlChange.Kind.QUERY, stream("DROP DATABASE d2").orElseThrow().kind());
        assertEquals("CREATE OR REPLACE VIEW v AS SELECT 1", stream("CREATE OR REPLACE VIEW v AS SELECT 1").orElseThrow().query());
    }

    @Test
    void triggersRoutinesEventsAndUsersStayAtTheSource() {
        assertTrue(stream("CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1").isEmpty());
        assertTrue(stream("CREATE DEFINER=`root`@`%` TRIGGER trg AFTER UPDATE ON t FOR EACH ROW SET @x = 1").isEmpty());
        assertTrue(stream("DROP TRIGGER trg").isEmpty());
        assertTrue(stream("CREATE PROCEDURE p() BEGIN END").isEmpty());
        assertTrue(stream("CREATE FUNCTION f() RETURNS INT RETURN 1").isEmpty());
        assertTrue(stream("CREATE EVENT e ON SCHEDULE EVERY 1 HOUR DO DELETE FROM t").isEmpty());
        assertTrue(stream("CREATE USER u").isEmpty());
        assertTrue(stream("ALTER USER u IDENTIFIED BY 'x'").isEmpty());
        assertTrue(stream("RENAME USER a TO b").isEmpty());
        DdlChange view = stream("CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `v`"
                + " AS select 1 AS `a`").orElseThrow();
        assertEquals(DdlChange.Kind.CREATE, view.kind());
        assertEquals(DdlChange.Kind.CREATE, stream("CREATE TABLE `trigger` (a int)").orElseThrow().kind());
    }

    @Test
    void statementsMapToCanalEventTypesAsTiCdcDoes() {
        assertEquals(DdlChange.Kind.CREATE, DdlRules.kind("CREATE TABLE t (a int)"));
        assertEquals(DdlChange.Kind.CREATE, DdlRules.kind("CREATE OR REPLACE VIEW v AS SELECT 1"));
        assertEquals(DdlChange.Kind.QUERY, DdlRules.kind("CREATE DATABASE d"));
        assertEquals(DdlChange.Kind.QUERY, DdlRules.kind("DROP DATABASE d"));
        assertEquals(DdlChange.Kind.CINDEX, DdlRules.kind("CREATE UNIQUE INDEX i ON t (a)"));
        assertEquals(DdlChange.Kind.CINDEX, DdlRules.kind("ALTER TABLE t ADD INDEX i (a, b)"));
        assertEquals(DdlChange.Kind.CINDEX, DdlRules.kind("ALTER TABLE `d`.`t` ADD UNIQUE KEY u (a)"));
        assertEquals(DdlChange.Kind.CINDEX, DdlRules.kind("ALTER TABLE t ADD CONSTRAINT u UNIQUE (a)"));
        assertEquals(DdlChange.Kind.ALTER, DdlRules.kind("ALTER TABLE t ADD CONSTRAINT ck CHECK (c > 0)"));
        assertEquals(DdlChange.Kind.ALTER, DdlRules.kind("ALTER TABLE t ADD CONSTRAINT `c k` CHECK (c > 0)"));
        assertEquals(DdlChange.Kind.ALTER, DdlRules.kind("ALTER TABLE t ADD CONSTRAINT CHECK (c > 0)"));
        assertEquals(DdlChange.Kind.ALTER, DdlRules.kind("ALTER TABLE t ADD CHECK (c > 0)"));
        assertEquals(DdlChange.Kind.DINDEX, DdlRules.kind("DROP INDEX i ON t"));
        assertEquals(DdlChange.Kind.DINDEX, DdlRules.kind("ALTER TABLE t DROP INDEX i"));
        assertEquals(DdlChange.Kind.RENAME, DdlRules.kind("RENAME TABLE a TO b"));
        assertEquals(DdlChange.Kind.RENAME, DdlRules.kind("ALTER TABLE a RENAME TO b"));
        assertEquals(DdlChange.Kind.ALTER, DdlRules.kind("ALTER TABLE a RENAME COLUMN x TO y"));
        assertEquals(DdlChange.Kind.ALTER, DdlRules.kind("ALTER TABLE t ADD COLUMN c INT, ADD INDEX i (c)"));
        assertEquals(DdlChange.Kind.ALTER, DdlRules.kind("ALTER TABLE t MODIFY c DECIMAL(10,2)"));
        assertEquals(DdlChange.Kind.ERASE, DdlRules.kind("DROP TABLE IF EXISTS t"));
        assertEquals(DdlChange.Kind.TRUNCATE, DdlRules.kind("TRUNCATE TABLE t"));
        assertEquals(DdlChange.Kind.QUERY, DdlRules.kind("ALTER DATABASE d CHARACTER SET utf8mb4"));
    }

    @Test
    void aForwardedStatementNamesItsTablesAndAMultiTableRenameIsForwardedPairByPair() {
        java.util.List<DdlStatement> cut = DdlRules.forward("db", "/* gh-ost */ RENAME TABLE `t` TO `_t_del`, "
                + "`_t_gho` TO `t`;", false, 7L);
        assertEquals(2, cut.size());
        assertEquals("RENAME TABLE `t` TO `_t_del`", cut.get(0).change().query());
        assertEquals(java.util.List.of(new TableRef("db", "t"), new TableRef("db", "_t_del")), cut.get(0).tables());
        assertEquals("RENAME TABLE `_t_gho` TO `t`", cut.get(1).change().query());
        assertEquals("_t_gho", cut.get(1).change().table());
        assertEquals("t", cut.get(1).on(new TableRef("db", "t")).table(), "the copy on t's topic names t");
        assertEquals("", cut.get(1).on(new TableRef("other", "t")).table(), "another database's table: none");
        for (DdlStatement s : cut) {
            assertEquals(DdlChange.Kind.RENAME, s.change().kind());
            assertEquals(7L, s.change().commitTs());
            assertEquals("db", s.change().schema());
        }
        DdlStatement index = DdlRules.forward("db", "CREATE INDEX i ON t (a)", false, 1L).get(0);
        assertEquals("t", index.change().table());
        assertEquals(DdlChange.Kind.CINDEX, index.change().kind());
        DdlChange outsideADatabase = DdlRules.forward("", "CREATE INDEX i ON s.t (a)", false, 1L).get(0).change();
        assertEquals("s", outsideADatabase.schema(), "run outside a database: the qualified table's");
        assertEquals("t", outsideADatabase.table());
        assertEquals("", DdlRules.forward("", "CREATE INDEX i ON t (a)", false, 1L).get(0).change().schema());
        DdlStatement snapshotCreate = DdlRules.forward("db", "CREATE TABLE `t` (a int)", true, 1L).get(0);
        assertEquals(java.util.List.of(new TableRef("db", "t")), snapshotCreate.tables());
        assertTrue(DdlRules.forward("db", "CREATE DATABASE d2", false, 1L).get(0).databaseLevel());
        DdlStatement unreadable = DdlRules.forward("db", "CREATE INDEX i", false, 1L).get(0);
        assertTrue(unreadable.databaseLevel(), "a table that cannot be read: sent as database-level, with a warning");
    }
}
