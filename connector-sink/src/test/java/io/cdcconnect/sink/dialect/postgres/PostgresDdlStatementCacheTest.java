package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.PostgresTarget;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 22, item 13: a DDL evicts the workers' cached server-side statements of the tables it changes. PostgreSQL
 * fixes the parameter types of a prepared statement when it is prepared ({@code stringtype=unspecified}: the server
 * types each parameter by its column) and keeps them when it re-plans the statement after a DDL; a statement prepared
 * for the table's old definition then fails against the new one ({@code 42804: column "c_json" is of type jsonb but
 * expression is of type text}), until fresh connections are opened.
 *
 * <p>A table re-created with the same column types does not show it (the statement is re-planned with the same
 * types), so the JSON column is first a text column, as MariaDB defines JSON. MariaDB itself re-prepares a statement
 * whose table changed ({@code Com_stmt_reprepare}), so no MySQL-family target fails this way; the eviction there is
 * checked on MariaDB's server-side statements in {@code ConnectionStatementCacheTest}.
 */
class PostgresDdlStatementCacheTest {

    /** A JSON column as MariaDB writes it: LONGTEXT with a check (a text column on PostgreSQL). */
    private static final String CREATE_V1 = "CREATE TABLE `docs` (`id` int NOT NULL, `c_json` longtext CHARACTER SET "
            + "utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`c_json`)), `note` varchar(20) DEFAULT NULL, "
            + "PRIMARY KEY (`id`))";
    /** Re-created with a JSON column (jsonb on PostgreSQL). */
    private static final String CREATE_V2 = "CREATE TABLE `docs` (`id` int NOT NULL, `c_json` json DEFAULT NULL, "
            + "`note` varchar(20) DEFAULT NULL, PRIMARY KEY (`id`))";

    private static final TableInfo V1 = TableInfo.of("src", "docs", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("c_json", MySqlType.JSON, ColumnFlags.NULLABLE),
            ColumnInfo.of("note", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
    private static final TableInfo V3 = TableInfo.of("src", "docs", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("c_json", MySqlType.JSON, ColumnFlags.NULLABLE),
            ColumnInfo.of("note", MySqlType.VARCHAR, ColumnFlags.NULLABLE),
            ColumnInfo.of("extra", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));

    private static TestDatabase target;

    @BeforeAll
    static void createTarget() throws Exception {
        target = PostgresTarget.database("pg_stmt_ddl");
        target.exec("CREATE SCHEMA dst_w1", "CREATE SCHEMA dst_w3");
    }

    @AfterAll
    static void dropTarget() throws Exception {
        if (target != null) target.close();
    }

    private static Map<String, String> settings(String workers) {
        Map<String, String> m = new HashMap<>(Map.of("schema.map", "src=dst_w" + workers, "safe.mode", "always",
                "worker.count", workers));
        return PostgresTarget.sinkSettings(target, m);
    }

    private static RowChange doc(TableInfo t, long id, String json, long ts) {
        Object[] v = new Object[t.columnCount()];
        v[0] = id;
        v[1] = json;
        v[2] = "n" + id;
        return RowChange.insert(t, v, Rows.ts(ts));
    }

    /**
     * Written, dropped and re-created with the column's type changed, written again, a column added, a row of mostly
     * NULLs: every row arrives and the task does not fail. One worker, so the statement prepared before the DDL is
     * the one its connection would use after it.
     */
    @Test
    void aDroppedAndRecreatedTableIsWrittenThroughFreshStatements() throws Exception {
        run("1", 20);
    }

    /** The same with several workers: every connection's cache is evicted, not only the one that ran the rows last. */
    @Test
    void everyWorkersCacheIsEvicted() throws Exception {
        run("3", 40);
    }

    private void run(String workers, int firstRows) throws Exception {
        String schema = "dst_w" + workers;
        long ts = 5000;
        try (TaskDriver driver = new TaskDriver(settings(workers))) {
            driver.put(new DdlChange("src", "docs", CREATE_V1, DdlChange.Kind.CREATE, Rows.ts(ts++)));
            driver.awaitApplied();
            // one row per transaction: the one-row upsert is prepared (prepareThreshold=1) on every worker that runs one
            for (int i = 1; i <= firstRows; i++) {
                driver.put(doc(V1, i, "{\"v\": " + i + "}", ts++));
                if (i % 4 == 0) driver.awaitApplied();
            }
            driver.awaitApplied();
            assertEquals(List.of(List.of(Integer.toString(firstRows))),
                    target.query("SELECT count(*)::text FROM " + schema + ".docs"));
            assertEquals(List.of(List.of("text")), target.query("SELECT format_type(atttypid, atttypmod) FROM "
                    + "pg_attribute WHERE attrelid = '" + schema + ".docs'::regclass AND attname = 'c_json'"));

            driver.put(new DdlChange("src", "docs", "DROP TABLE `docs`", DdlChange.Kind.ERASE, Rows.ts(ts++)),
                    new DdlChange("src", "docs", CREATE_V2, DdlChange.Kind.CREATE, Rows.ts(ts++)));
            for (int i = 101; i <= 100 + firstRows; i++) {
                driver.put(doc(V1, i, "{\"w\": " + i + "}", ts++));
                if (i % 4 == 0) driver.awaitApplied();
            }
            driver.awaitApplied();
            driver.put(new DdlChange("src", "docs", "ALTER TABLE `docs` ADD COLUMN `extra` varchar(10) DEFAULT NULL",
                    DdlChange.Kind.ALTER, Rows.ts(ts++)));
            Object[] mostlyNull = new Object[V3.columnCount()];
            mostlyNull[0] = 1000L;
            driver.put(RowChange.insert(V3, mostlyNull, Rows.ts(ts++)));
            driver.put(doc(V1, 1001, "[1, 2]", ts++));
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("jsonb")), target.query("SELECT format_type(atttypid, atttypmod) FROM "
                + "pg_attribute WHERE attrelid = '" + schema + ".docs'::regclass AND attname = 'c_json'"));
        List<List<String>> rows = target.query("SELECT d.id::text, d.c_json::text, COALESCE(d.note, '-'), "
                + "COALESCE(d.extra, '-') FROM " + schema + ".docs d ORDER BY d.id");
        assertEquals(firstRows + 2, rows.size(), rows.toString());
        assertEquals(List.of("101", "{\"w\": 101}", "n101", "-"), rows.get(0));
        assertEquals(Arrays.asList("1000", null, "-", "-"), rows.get(firstRows));
        assertEquals(List.of("1001", "[1, 2]", "n1001", "-"), rows.get(firstRows + 1));
    }
}
