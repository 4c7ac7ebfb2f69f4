package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.table.TargetTable;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A schema's tables read together (a new task's first records) are exactly what reading each alone gives: columns in
 * order with type, collation, generated and nullable, unique keys with the primary key first. Real MariaDB 10.11.
 */
class ReadTablesTest {

    private final SqlDialect dialect = Dialects.forUrl(SinkTarget.url());

    @Test
    void tablesReadTogetherAreWhatEachReadAloneGives() throws Exception {
        try (TestDatabase db = SinkTarget.database("readtables")) {
            db.exec("CREATE TABLE a (id INT PRIMARY KEY, email VARCHAR(80) COLLATE utf8mb4_general_ci NOT NULL, "
                            + "code CHAR(4) COLLATE utf8mb4_bin, total DECIMAL(10,2), doubled INT AS (id * 2) VIRTUAL, "
                            + "UNIQUE KEY by_email (email), UNIQUE KEY by_code_total (code, total), KEY plain (total))",
                    "CREATE TABLE b (x BIGINT UNSIGNED, y VARBINARY(16))",
                    "CREATE TABLE c (k1 INT NOT NULL, k2 VARCHAR(10) NOT NULL, PRIMARY KEY (k2, k1))");
            try (Connection c = db.connect()) {
                Map<String, TargetTable> all = dialect.readTables(c, db.name());
                assertEquals(List.of("a", "b", "c"), List.copyOf(all.keySet()));
                for (String t : List.of("a", "b", "c")) {
                    assertEquals(dialect.readTable(c, db.name(), t), all.get(t), t);
                }
                TargetTable a = all.get("a");
                assertEquals(List.of("id"), a.uniqueKeys().get(0), "the primary key first: " + a);
                assertEquals(3, a.uniqueKeys().size(), a.toString());
                assertTrue(a.uniqueKeys().containsAll(List.of(List.of("email"), List.of("code", "total"))),
                        a.toString());
                assertTrue(a.column("doubled").generated() && a.column("email").caseInsensitive()
                        && !a.column("code").caseInsensitive(), a.toString());
                assertEquals(List.of(), all.get("b").uniqueKeys());
                assertEquals(List.of(List.of("k2", "k1")), all.get("c").uniqueKeys());
            }
        }
    }

    @Test
    void aSchemaOfManyTablesIsLeftToReadsOfOneTable() throws Exception {
        try (TestDatabase db = SinkTarget.database("readmany")) {
            String[] ddl = new String[MySqlFamilyDialect.MAX_TABLES_READ_TOGETHER + 1];
            for (int i = 0; i < ddl.length; i++) ddl[i] = "CREATE TABLE t" + i + " (id INT PRIMARY KEY)";
            db.exec(ddl);
            try (Connection c = db.connect()) {
                assertNull(dialect.readTables(c, db.name()));
                assertEquals(List.of(List.of("id")), dialect.readTable(c, db.name(), "t7").uniqueKeys());
            }
        }
    }
}
