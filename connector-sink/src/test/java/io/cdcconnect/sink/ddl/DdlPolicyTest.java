package io.cdcconnect.sink.ddl;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DdlPolicyTest {

    private static final DdlPolicy ALL = DdlPolicy.parse(List.of("all"), "cdc_connect");

    private static DdlPolicy.Verdict verdict(DdlPolicy p, String sql) {
        return p.decide(sql, "shop").verdict();
    }

    @Test
    void theSchemaChangesOfAChangefeedRun() {
        for (String sql : List.of(
                "CREATE TABLE `t` (id BIGINT PRIMARY KEY, v VARCHAR(20) DEFAULT 'a;b')",
                "create table if not exists shop.t2 like shop.t",
                "ALTER TABLE t ADD COLUMN note VARCHAR(10) COMMENT 'it''s; fine'",
                "ALTER TABLE `t` DROP COLUMN c;",
                "TRUNCATE TABLE t", "TRUNCATE t", "DROP TABLE IF EXISTS t", "RENAME TABLE t TO t_old, t_new TO t",
                "CREATE UNIQUE INDEX uk ON t (v)", "DROP INDEX uk ON t", "CREATE DATABASE IF NOT EXISTS shop",
                "ALTER DATABASE shop CHARACTER SET utf8mb4", "DROP DATABASE shop",
                "/* from TiCDC */ CREATE TABLE t3 (id BIGINT /*T![auto_rand] AUTO_RANDOM(5) */ PRIMARY KEY "
                        + "/*T![clustered_index] CLUSTERED */)",
                "-- a comment\nALTER TABLE t ADD INDEX i (v)")) {
            assertEquals(DdlPolicy.Verdict.APPLY, verdict(ALL, sql), sql);
        }
    }

    @Test
    void theCheckedStatementTravelsAndAnUncheckedChangeIsNotRun() {
        DdlPolicy.Decision d = ALL.decide("alter table t add column c int", "shop");
        DdlChange raw = new DdlChange("shop", "t", "alter table t add column c int", DdlChange.Kind.ALTER, 7);
        DdlChange checked = raw.checkedAs(d.statement().canonical(), d.statement());
        assertSame(d.statement(), ParsedDdl.of(checked));
        assertEquals("ALTER TABLE `t` ADD COLUMN `c` INT", checked.query());
        assertEquals(7, checked.commitTs());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ParsedDdl.of(raw));
        assertTrue(e.getMessage().contains("without being checked"), e.getMessage());
    }

    @Test
    void nothingButOneSchemaChangeRunsWhateverThePolicy() {
        for (String sql : List.of(
                "CREATE USER 'evil'@'%' IDENTIFIED BY 'x'",
                "GRANT ALL ON *.* TO 'evil'@'%'",
                "SET GLOBAL read_only = 1",
                "CREATE PROCEDURE p() BEGIN END",
                "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.v = 1",
                "CREATE DEFINER=root@localhost VIEW v AS SELECT 1",
                "CREATE OR REPLACE TABLE t (id INT)",
                "CREATE TEMPORARY TABLE t (id INT)",
                "DROP USER evil",
                "INSERT INTO t VALUES (1)",
                "ALTER TABLE t ADD COLUMN c INT; DROP DATABASE shop",
                "ALTER TABLE t ADD COLUMN c INT;\nCREATE USER x",
                "ALTER TABLE t ADD COLUMN c INT /*!50000 ; CREATE USER x */",
                "ALTER TABLE t /*!50000 ADD COLUMN c INT */",
                "ALTER TABLE t ADD COLUMN c INT /*M! , ADD COLUMN d INT */",
                "CREATE TABLE copy AS SELECT * FROM shop.t",
                "CREATE TABLE copy (id INT) SELECT user FROM t",
                "DROP TABLE mysql.user", "ALTER TABLE `mysql`.`user` ADD COLUMN c INT",
                "RENAME TABLE t TO mysql.t", "DROP DATABASE mysql", "DROP DATABASE IF EXISTS `sys`",
                "TRUNCATE TABLE cdc_connect.ddl_checkpoint", "CREATE TABLE t (v VARCHAR(3) DEFAULT 'x",
                "", "  ;  ")) {
            DdlPolicy.Decision d = ALL.decide(sql, "shop");
            assertEquals(DdlPolicy.Verdict.REFUSE, d.verdict(), sql + " -> " + d);
            assertTrue(d.reason() != null && !d.reason().isBlank(), sql);
        }
        // a comment never reaches the server: the statement runs as the sink writes it, without the comment
        for (String sql : List.of("CREATE TABLE t /*T! ; CREATE USER x */ (id INT)",
                "/*T![clustered_index] DROP DATABASE cdc_connect #*/ CREATE TABLE t (id INT)",
                "CREATE TABLE t -- CREATE USER x\n (id INT)", "CREATE TABLE t # ; DROP DATABASE d\n (id INT)")) {
            DdlPolicy.Decision d = ALL.decide(sql, "shop");
            assertEquals(DdlPolicy.Verdict.APPLY, d.verdict(), sql + " -> " + d);
            assertEquals("CREATE TABLE `t` (`id` INT)", d.statement().canonical().replace("  ", " "), sql);
        }
        // a table without a database, in a message without one, would run wherever the connection is
        DdlPolicy.Decision unplaced = ALL.decide("DROP TABLE t", "");
        assertEquals(DdlPolicy.Verdict.REFUSE, unplaced.verdict());
        assertTrue(unplaced.reason().contains("without a database"), unplaced.reason());
        assertEquals(DdlPolicy.Verdict.APPLY, ALL.decide("DROP TABLE shop.t", "").verdict());
        // nor anything at all in the server's own databases, named by the message's database field
        assertEquals(DdlPolicy.Verdict.REFUSE, ALL.decide("DROP TABLE user", "mysql").verdict());
        assertEquals(DdlPolicy.Verdict.REFUSE, ALL.decide("DROP TABLE ddl_checkpoint", "cdc_connect").verdict());
    }

    @Test
    void kindsLeftOutOfThePolicyAreSkippedNotRun() {
        DdlPolicy some = DdlPolicy.parse(List.of("create-table", "alter-table"), "");
        assertEquals(DdlPolicy.Verdict.APPLY, verdict(some, "ALTER TABLE t ADD COLUMN c INT"));
        DdlPolicy.Decision trunc = some.decide("TRUNCATE TABLE t", "shop");
        assertEquals(DdlPolicy.Verdict.SKIP, trunc.verdict());
        assertEquals(ParsedDdl.Kind.TRUNCATE_TABLE, trunc.kind());
        DdlPolicy none = DdlPolicy.parse(List.of("none"), "");
        assertEquals(DdlPolicy.Verdict.SKIP, verdict(none, "CREATE TABLE t (id INT)"));
        // the check comes first: a policy of none still refuses what is not a schema change
        assertEquals(DdlPolicy.Verdict.REFUSE, verdict(none, "CREATE USER x"));
    }

    @Test
    void anUnknownKindInTheSettingIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DdlPolicy.parse(List.of("create-table", "grant"), ""));
        assertTrue(e.getMessage().contains("'grant'") && e.getMessage().contains("drop-table"), e.getMessage());
    }

    @Test
    void theTargetsOwnSchemasAreProtectedToo() {
        DdlPolicy pg = DdlPolicy.parse(List.of("all"), "cdc_connect", java.util.Set.of("pg_catalog", "pg_toast"));
        assertEquals(DdlPolicy.Verdict.REFUSE, pg.decide("CREATE TABLE pg_catalog.t (id INT)", "shop").verdict());
        assertEquals(DdlPolicy.Verdict.REFUSE, pg.decide("CREATE TABLE t (id INT)", "pg_catalog").verdict());
        assertEquals(DdlPolicy.Verdict.APPLY, pg.decide("CREATE TABLE t (id INT)", "shop").verdict());
    }
}
