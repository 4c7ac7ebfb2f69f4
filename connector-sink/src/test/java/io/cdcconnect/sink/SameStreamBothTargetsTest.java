package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.PostgresTarget;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One stream of migration statements and rows (a generated column, a CHECK, expression defaults, hash partitioning),
 * applied by the sink to MariaDB (which runs the statements as the sink writes them) and to PostgreSQL (which gets
 * them translated): both end with the same rows, the generated values computed by each target, never written.
 */
class SameStreamBothTargetsTest {

    private static final TableInfo ORDERS = TableInfo.of("src", "orders", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("qty", MySqlType.LONG, 0),
            ColumnInfo.of("price", MySqlType.NEWDECIMAL, 0),
            ColumnInfo.of("total", MySqlType.NEWDECIMAL, ColumnFlags.NULLABLE),
            ColumnInfo.of("label", MySqlType.VARCHAR, ColumnFlags.NULLABLE | ColumnFlags.GENERATED)));

    private static ChangeEvent[] stream() {
        long ts = 70_000;
        return new ChangeEvent[]{
                new DdlChange("src", "orders", "CREATE TABLE orders (id INT NOT NULL, qty INT NOT NULL CHECK (qty > 0), "
                        + "price DECIMAL(10,2) NOT NULL, total DECIMAL(12,2) AS (qty * price) STORED, "
                        + "label VARCHAR(40) AS (CONCAT('#', id, ':', qty)) VIRTUAL, PRIMARY KEY (id)) "
                        + "ENGINE=InnoDB PARTITION BY HASH (id) PARTITIONS 3", DdlChange.Kind.CREATE, Rows.ts(++ts)),
                // the source's rows carry the generated values (here: wrong ones): the targets compute their own
                RowChange.insert(ORDERS, new Object[]{1L, 3L, new BigDecimal("2.50"), new BigDecimal("0"), "x"},
                        Rows.ts(++ts)),
                RowChange.insert(ORDERS, new Object[]{2L, 1L, new BigDecimal("10.00"), null, null}, Rows.ts(++ts)),
                new DdlChange("src", "orders", "ALTER TABLE orders ADD COLUMN due DATE DEFAULT (CURRENT_DATE + "
                        + "INTERVAL 30 DAY), ADD COLUMN note VARCHAR(10) DEFAULT (LOWER('NEW'))",
                        DdlChange.Kind.ALTER, Rows.ts(++ts)),
                RowChange.update(ORDERS, new Object[]{2L, 1L, new BigDecimal("10.00"), null, null},
                        new Object[]{2L, 4L, new BigDecimal("10.00"), null, null}, Rows.ts(++ts))};
    }

    private static List<List<String>> apply(TestDatabase target, Map<String, String> settings, String select)
            throws Exception {
        try (TaskDriver driver = new TaskDriver(settings)) {
            driver.put(stream());
            driver.awaitApplied();
        }
        return target.query(select);
    }

    @Test
    void mariaDbAndPostgresEndWithTheSameRows() throws Exception {
        List<List<String>> expected = List.of(List.of("1", "3", "7.50", "#1:3", "30", "new"),
                List.of("2", "4", "40.00", "#2:4", "30", "new"));
        try (TestDatabase maria = SinkTarget.database("both_maria")) {
            Map<String, String> m = new HashMap<>(Map.of("schema.map", "src=" + maria.name()));
            assertEquals(expected, apply(maria, m, "SELECT CAST(id AS CHAR), CAST(qty AS CHAR), CAST(total AS CHAR), "
                    + "label, CAST(DATEDIFF(due, CURRENT_DATE) AS CHAR), note FROM orders ORDER BY id"));
        }
        try (TestDatabase pg = PostgresTarget.database("both_pg")) {
            Map<String, String> m = PostgresTarget.sinkSettings(pg, Map.of("schema.map", "src=dst"));
            assertEquals(expected, apply(pg, m, "SELECT id::text, qty::text, total::text, label, "
                    + "(due - CURRENT_DATE)::text, note FROM dst.orders ORDER BY id"));
        }
    }
}
