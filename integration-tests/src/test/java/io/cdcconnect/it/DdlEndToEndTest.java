package io.cdcconnect.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Schema changes travel with the rows: the target starts with an empty database, the sink creates the tables from the
 * snapshot's DDL, and later CREATE TABLE, ALTER TABLE ADD COLUMN and TRUNCATE apply in order with the rows around
 * them (rows written after an ALTER carry the new column, which must exist downstream by then).
 */
class DdlEndToEndTest {
    private static Pipeline pipeline;

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = Pipeline.start(Path.of(System.getProperty("cdc.work.dir", "target/it-work")).resolve("ddl"), "ddldb", null);
        pipeline.createSchemas(List.of("items"), List.of(
                "CREATE TABLE items (id INT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, price DECIMAL(8,2) NULL)"), false);
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void tablesAndColumnsAppearDownstreamInOrderWithTheRows() throws Exception {
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO items VALUES (1, 'one', 1.10), (2, 'two', 2.20), (3, 'three', NULL)");
        }
        pipeline.registerConnectors();
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO items VALUES (4, 'four', 4.40)");
            s.execute("ALTER TABLE items ADD COLUMN stock INT NOT NULL DEFAULT 7");
            s.execute("INSERT INTO items VALUES (5, 'five', 5.50, 50)");
            s.execute("UPDATE items SET stock = 11 WHERE id = 1");
            s.execute("CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY, body TEXT NULL)");
            s.execute("INSERT INTO notes VALUES (1, 'created after the connectors started'), (2, NULL)");
            s.execute("CREATE TABLE scratch (id INT NOT NULL PRIMARY KEY)");
            s.execute("INSERT INTO scratch VALUES (1), (2), (3)");
            s.execute("TRUNCATE TABLE scratch");
            s.execute("INSERT INTO scratch VALUES (9)");
            s.execute("DELETE FROM items WHERE id = 2");
        }
        pipeline.compareTables(List.of("items", "notes", "scratch"));
        List<String> progress = new ArrayList<>();
        List<TableComparison.Result> results = pipeline.awaitCaughtUp(Duration.ofMinutes(3), progress::add);
        for (TableComparison.Result r : results) {
            assertTrue(r.matches(), r + "\nprogress: " + progress);
        }
        try (Connection t = pipeline.targetConnection(); Statement s = t.createStatement();
             ResultSet rs = s.executeQuery("SELECT stock FROM items WHERE id = 3")) {
            assertTrue(rs.next());
            assertEquals(7, rs.getInt(1), "the column added downstream takes its default for rows that existed before");
        }
        assertEquals(1, results.get(2).sourceRows(), "scratch holds one row after the truncate");
    }
}
