package io.cdcconnect.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * {@link ColumnShape}: the column metadata the DDL corpus left on MariaDB 10.11/11.4 and on MySQL 8.0.15 (read off
 * both servers on 2026-12-07) reads the same where it means the same, and differently where it does not.
 */
class ColumnShapeTest {

    @Test
    void generationExpressionsOfBothServersReadTheSame() {
        String[][] pairs = {
                {"`width` * `height`", "(`width` * `height`)"},
                {"ucase(`label`)", "upper(`label`)"},
                {"round(`width` / `height`,4)", "round((`width` / `height`),4)"},
                {"octet_length(`label`)", "length(`label`)"},
                {"`price_cents` * 10", "(`price_cents` * 10)"},
                {"2 * (`width` + `height`)", "(2 * (`width` + `height`))"},
        };
        for (String[] p : pairs) {
            assertEquals(ColumnShape.generation(p[0], "stored generated", false),
                    ColumnShape.generation(p[1], "STORED GENERATED".toLowerCase(), true), p[0] + " vs " + p[1]);
        }
        // MySQL 8.0.15 lists a literal's quotes escaped, with the charset introducer it added
        assertEquals(ColumnShape.generation("json_unquote(json_extract(`payload`,'$.type'))", "stored generated", false),
                ColumnShape.generation("json_unquote(json_extract(`payload`,_utf8mb4\\'$.type\\'))", "stored generated",
                        true));
    }

    @Test
    void precedenceAndKindStillCount() {
        assertNotEquals(ColumnShape.canonical("(`a` + `b`) * `c`", false), ColumnShape.canonical("`a` + `b` * `c`", false));
        assertEquals(ColumnShape.canonical("`a` + `b` * `c`", false), ColumnShape.canonical("(`a` + (`b` * `c`))", true));
        assertNotEquals(ColumnShape.generation("`a` * 2", "stored generated", false),
                ColumnShape.generation("(`a` * 2)", "virtual generated", true));
        assertNotEquals(ColumnShape.canonical("'$.a'", false), ColumnShape.canonical("'$.b'", false));
        assertEquals("", ColumnShape.generation(null, "", false));
        assertEquals("", ColumnShape.generation("", "default_generated", true), "an expression default is no generation");
    }

    @Test
    void defaultsOfBothServersReadTheSame() {
        // a string literal: quoted by MariaDB only
        assertEquals(ColumnShape.mariaDbDefault("'USD'"), ColumnShape.mySqlDefault("USD", ""));
        assertEquals(ColumnShape.mariaDbDefault("''"), ColumnShape.mySqlDefault("", ""));
        assertEquals(ColumnShape.mariaDbDefault("'it''s'"), ColumnShape.mySqlDefault("it's", ""));
        // numbers
        assertEquals(ColumnShape.mariaDbDefault("0.00"), ColumnShape.mySqlDefault("0.00", ""));
        assertEquals(ColumnShape.mariaDbDefault("10"), ColumnShape.mySqlDefault("10", ""));
        // none, and DEFAULT NULL
        assertEquals(ColumnShape.mariaDbDefault(null), ColumnShape.mySqlDefault(null, ""));
        assertEquals(ColumnShape.mariaDbDefault("NULL"), ColumnShape.mySqlDefault(null, ""));
        // expressions: MySQL marks them DEFAULT_GENERATED
        assertEquals(ColumnShape.mariaDbDefault("current_timestamp()"),
                ColumnShape.mySqlDefault("CURRENT_TIMESTAMP", "default_generated"));
        assertEquals(ColumnShape.mariaDbDefault("curdate()"), ColumnShape.mySqlDefault("curdate()", "default_generated"));
        assertEquals(ColumnShape.mariaDbDefault("(curdate() + interval 30 day)"),
                ColumnShape.mySqlDefault("(curdate() + interval 30 day)", "default_generated"));
        assertEquals(ColumnShape.mariaDbDefault("uuid()"), ColumnShape.mySqlDefault("uuid()", "default_generated"));
        assertEquals(ColumnShape.mariaDbDefault("greatest(1,5)"), ColumnShape.mySqlDefault("greatest(1,5)", "default_generated"));
        assertEquals(ColumnShape.mariaDbDefault("rand(42)"), ColumnShape.mySqlDefault("rand(42)", "default_generated"));
        // a literal is not the expression of the same text, nor one interval another
        assertNotEquals(ColumnShape.mariaDbDefault("'uuid()'"), ColumnShape.mySqlDefault("uuid()", "default_generated"));
        assertNotEquals(ColumnShape.mariaDbDefault("(curdate() + interval 30 day)"),
                ColumnShape.mySqlDefault("(curdate() + interval 14 day)", "default_generated"));
    }
}
