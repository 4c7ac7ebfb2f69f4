package io.cdcconnect.sink.ddl.sql;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parser reads with ANTLR's SLL prediction first and with full LL only when SLL cannot read a statement: every
 * statement must read alike both ways (the same {@link ParsedDdl}, or the same refusal). Over the generated statements
 * of {@link GeneratedDdlTest} (comments, quoting, odd names, hostile text) and the warm-up's typical DDL.
 */
class SllPredictionTest {

    @Test
    void sllFirstReadsEveryStatementAsFullLlDoes() {
        List<String> statements = new ArrayList<>(MySqlDdlParser.WARM_UP);
        statements.add("ALTER TABLE t ADD COLUMN x INT GENERATED ALWAYS AS (a + b) VIRTUAL, ADD CONSTRAINT c CHECK (x > 0)");
        statements.add("CREATE TABLE p (id INT PRIMARY KEY) PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (10))");
        statements.add("ALTER TABLE c ADD CONSTRAINT fk FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE");
        statements.add("RENAME TABLE t TO _t_del, _t_gho TO t");
        statements.add("ALTER TABLE t ADD COLUMN IF NOT EXISTS y INT");
        statements.add("CREATE TABLE t (a INT) ENGINE=InnoDB; DROP TABLE t");
        statements.add("SELECT 1");
        for (int seed = 0; seed < 2000; seed++) statements.add(GeneratedDdlTest.statement(new Random(seed)));
        int read = 0;
        for (String sql : statements) {
            Object sll = outcome(sql, true);
            Object ll = outcome(sql, false);
            assertEquals(ll, sll, sql);
            if (sll instanceof ParsedDdl) read++;
        }
        assertTrue(read > 1000 && read < statements.size(), read + " of " + statements.size() + " read");
    }

    private static Object outcome(String sql, boolean sllFirst) {
        try {
            return MySqlDdlParser.parse(sql, sllFirst);
        } catch (RefusedDdlException e) {
            return "refused: " + e.getMessage();
        }
    }
}
