package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.ddl.sql.MySqlDdlParser;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.sink.dialect.UnsupportedDdlException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link MySqlDropConstraint}: MariaDB's DROP CONSTRAINT for a MySQL before 8.0.19 (and DROP CHECK before 8.0.16). */
class MySqlDropConstraintTest {

    /** The target's constraints of {@code t}, by name: a foreign key, a unique key, a CHECK (8.0.16+ only). */
    private static final Map<String, List<String>> CATALOG = Map.of("fk_p", List.of("FOREIGN KEY"),
            "uq_code", List.of("UNIQUE"), "chk_kept", List.of("CHECK"), "dup_name", List.of("FOREIGN KEY", "UNIQUE"));

    private static MySqlDropConstraint.Rewrite rewrite(String sql, boolean dropConstraint, boolean keepsChecks)
            throws SQLException {
        return MySqlDropConstraint.rewrite(MySqlDdlParser.parse(sql), dropConstraint, keepsChecks, "MySQL 8.0.15",
                name -> CATALOG.getOrDefault(name, List.of()));
    }

    private static String written(MySqlDropConstraint.Rewrite r) {
        return r.statement() == null ? null : r.statement().mysql(UnaryOperator.identity(), false);
    }

    @Test
    void eachClauseBecomesWhatTheNameIsOnTheTarget() throws SQLException {
        // MySQL 8.0.15: neither DROP CONSTRAINT nor CHECK constraints
        assertEquals("ALTER TABLE `t` DROP FOREIGN KEY `fk_p`",
                written(rewrite("ALTER TABLE t DROP CONSTRAINT fk_p", false, false)));
        assertEquals("ALTER TABLE `t` DROP INDEX `uq_code`",
                written(rewrite("ALTER TABLE t DROP CONSTRAINT uq_code", false, false)));
        assertEquals("ALTER TABLE `d`.`t` DROP FOREIGN KEY `fk_p`, ADD COLUMN `x` INT",
                written(rewrite("ALTER TABLE d.t DROP CONSTRAINT IF EXISTS fk_p, ADD COLUMN x INT", false, false)));
        // MySQL 8.0.16 to 8.0.18: DROP CHECK, no DROP CONSTRAINT
        assertEquals("ALTER TABLE `t` DROP CHECK `chk_kept`",
                written(rewrite("ALTER TABLE t DROP CONSTRAINT chk_kept", false, true)));
        assertEquals("ALTER TABLE `t` DROP CHECK `nosuch`",
                written(rewrite("ALTER TABLE t DROP CONSTRAINT nosuch", false, true)), "the server names what is missing");
    }

    @Test
    void aCheckTheServerNeverKeptLeavesItsClauseOut() throws SQLException {
        MySqlDropConstraint.Rewrite alone = rewrite("ALTER TABLE t DROP CONSTRAINT chk_qty", false, false);
        assertNull(alone.statement(), "nothing left to run");
        assertEquals(1, alone.leftOut().size());
        assertTrue(alone.leftOut().get(0).startsWith("DROP CONSTRAINT `chk_qty` left out: `t` has no foreign key, "
                + "unique key or primary key of that name, and MySQL 8.0.15 keeps no CHECK constraint"),
                alone.leftOut().get(0));
        // first, middle, last of several clauses: the other clauses and their commas stay right
        assertEquals("ALTER TABLE `t` ADD COLUMN `x` INT",
                written(rewrite("ALTER TABLE t DROP CONSTRAINT chk_a, ADD COLUMN x INT", false, false)));
        assertEquals("ALTER TABLE `t` ADD COLUMN `x` INT, DROP COLUMN `y`",
                written(rewrite("ALTER TABLE t ADD COLUMN x INT, DROP CHECK chk_a, DROP COLUMN y", false, false)));
        assertEquals("ALTER TABLE `t` ADD COLUMN `x` INT DEFAULT (GREATEST(1, 2))",
                written(rewrite("ALTER TABLE t ADD COLUMN x INT DEFAULT (GREATEST(1, 2)), DROP CONSTRAINT chk_a",
                        false, false)));
        MySqlDropConstraint.Rewrite two = rewrite("ALTER TABLE t DROP CONSTRAINT chk_a, DROP CONSTRAINT fk_p, "
                + "DROP CHECK chk_b", false, false);
        assertEquals("ALTER TABLE `t` DROP FOREIGN KEY `fk_p`", written(two));
        assertEquals(2, two.leftOut().size());
        // 8.0.16+: IF EXISTS of an absent one leaves it out too
        assertNull(rewrite("ALTER TABLE t DROP CONSTRAINT IF EXISTS nosuch", false, true).statement());
    }

    @Test
    void serversThatHaveThemAndOtherStatementsAreLeftAlone() throws SQLException {
        ParsedDdl parsed = MySqlDdlParser.parse("ALTER TABLE t DROP CONSTRAINT chk_qty");
        assertSame(parsed, MySqlDropConstraint.rewrite(parsed, true, true, "MySQL 8.0.36", n -> List.of()).statement());
        // 8.0.16 to 8.0.18 run DROP CHECK as it is
        assertEquals("ALTER TABLE `t` DROP CHECK `chk_kept`",
                written(rewrite("ALTER TABLE t DROP CHECK chk_kept", false, true)));
        // ADD CONSTRAINT, DROP FOREIGN KEY, a CHECK in a column's definition: not clauses this touches
        for (String sql : List.of("ALTER TABLE t ADD CONSTRAINT chk_qty CHECK (qty > 0)",
                "ALTER TABLE t DROP FOREIGN KEY fk_p", "ALTER TABLE t ADD COLUMN fee INT CHECK (fee >= 0)",
                "CREATE TABLE t (id INT PRIMARY KEY, CONSTRAINT chk CHECK (id > 0))")) {
            ParsedDdl p = MySqlDdlParser.parse(sql);
            MySqlDropConstraint.Rewrite r = MySqlDropConstraint.rewrite(p, false, false, "MySQL 8.0.15",
                    n -> List.of());
            assertSame(p, r.statement(), sql);
            assertEquals(List.of(), r.leftOut(), sql);
        }
    }

    @Test
    void aNameOfSeveralConstraintsIsRefused() {
        UnsupportedDdlException e = assertThrows(UnsupportedDdlException.class,
                () -> rewrite("ALTER TABLE t DROP CONSTRAINT dup_name", false, false));
        assertTrue(e.getMessage().contains("has several constraints of that name (FOREIGN KEY, UNIQUE)"), e.getMessage());
    }

    @Test
    void theDialectKnowsItsRelease() {
        MySql57Dialect v15 = (MySql57Dialect) MySqlFamilyDialect.fromVersion("8.0.15");
        assertTrue(!v15.dropsConstraintsByName() && !v15.keepsCheckConstraints());
        MySql57Dialect v16 = (MySql57Dialect) MySqlFamilyDialect.fromVersion("8.0.16");
        assertTrue(!v16.dropsConstraintsByName() && v16.keepsCheckConstraints());
        MySql57Dialect v19 = (MySql57Dialect) MySqlFamilyDialect.fromVersion("8.0.19");
        assertTrue(v19.dropsConstraintsByName() && v19.keepsCheckConstraints());
        MySql57Dialect v57 = (MySql57Dialect) MySqlFamilyDialect.choose("mysql57", "5.7.44-log");
        assertTrue(!v57.dropsConstraintsByName() && !v57.keepsCheckConstraints());
        assertEquals("MySQL 5.7.44", v57.serverName());
        assertTrue(new MySql8Dialect().dropsConstraintsByName() && new MariaDbDialect().dropsConstraintsByName());
    }
}
