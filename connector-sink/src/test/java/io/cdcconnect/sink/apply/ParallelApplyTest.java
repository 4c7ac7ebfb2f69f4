package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Several workers on the real MariaDB: the final target state must equal applying the changes one by one in source
 * order, whatever the interleaving.
 */
class ParallelApplyTest {

    private TestDatabase source;
    private TestDatabase target;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("par_src");
        target = SinkTarget.database("par_dst");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private TaskDriver driver(String safeMode) {
        return new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(), "worker.count", "4",
                "safe.mode", safeMode));
    }

    @Test
    void randomChangesOnFewKeysEndInTheSequentialState() throws Exception {
        target.exec("CREATE TABLE kv (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        TableInfo t = Rows.idValue(source.name(), "kv");
        Random random = new Random(42);
        TreeMap<Long, String> model = new TreeMap<>();
        List<ChangeEvent> events = new ArrayList<>();
        long ts = System.currentTimeMillis() + 3_600_000; // outside the replay window: plain writes, which fail on misorder
        for (int i = 0; i < 3000; i++) {
            if (random.nextInt(3) == 0) ts++; // some transactions hold several rows
            ts++;
            long id = random.nextInt(20);
            String current = model.get(id);
            if (current == null) {
                String v = "i" + i;
                events.add(RowChange.insert(t, new Object[]{id, v}, Rows.ts(ts)));
                model.put(id, v);
            } else if (random.nextBoolean()) {
                long newId = random.nextInt(4) == 0 ? 100 + random.nextInt(1000) : id;
                if (newId != id && model.containsKey(newId)) newId = id;
                String v = "u" + i;
                events.add(RowChange.update(t, new Object[]{id, current}, new Object[]{newId, v}, Rows.ts(ts)));
                model.remove(id);
                model.put(newId, v);
            } else {
                events.add(RowChange.delete(t, new Object[]{id, current}, Rows.ts(ts)));
                model.remove(id);
            }
        }
        try (TaskDriver driver = driver("auto")) {
            for (int i = 0; i < events.size(); i += 500) {
                driver.put(events.subList(i, Math.min(events.size(), i + 500)).toArray(new ChangeEvent[0]));
            }
            driver.awaitApplied();
        }
        List<List<String>> expected = new ArrayList<>();
        model.forEach((k, v) -> expected.add(List.of(Long.toString(k), v)));
        assertEquals(expected, target.query("SELECT id, v FROM kv ORDER BY id"));
    }

    @Test
    void uniqueKeysUnderCaseInsensitiveCollationsKeepOrder() throws Exception {
        target.exec("CREATE TABLE users (id BIGINT PRIMARY KEY, email VARCHAR(40) COLLATE utf8mb4_general_ci, "
                + "UNIQUE KEY uk_email (email))");
        TableInfo t = TableInfo.of(source.name(), "users", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("email", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
        List<ChangeEvent> events = new ArrayList<>();
        long ts = System.currentTimeMillis() + 3_600_000;
        int pairs = 300;
        for (int i = 0; i < pairs; i++) {
            // user A frees "Mail<i>@X", then user B takes "mail<i>@x", equal under the case-insensitive collation:
            // B's insert must wait for A's update although their primary keys differ
            long a = 2L * i;
            long b = 2L * i + 1;
            events.add(RowChange.insert(t, new Object[]{a, "Mail" + i + "@X"}, Rows.ts(++ts)));
            events.add(RowChange.update(t, new Object[]{a, "Mail" + i + "@X"}, new Object[]{a, "old" + i + "@x"},
                    Rows.ts(++ts)));
            events.add(RowChange.insert(t, new Object[]{b, "mail" + i + "@x"}, Rows.ts(++ts)));
        }
        try (TaskDriver driver = driver("never")) {
            driver.put(events.toArray(new ChangeEvent[0]));
            driver.awaitApplied();
        }
        assertEquals(2L * pairs, target.count("users"));
        assertEquals(List.of(List.of("1", "mail0@x"), List.of("0", "old0@x")),
                target.query("SELECT id, email FROM users WHERE id IN (0, 1) ORDER BY email"));
    }

    @Test
    void uniqueValuesSwappedInsideOneTransactionLandOnTheRightRowsInSafeMode() throws Exception {
        target.exec("CREATE TABLE codes (id BIGINT PRIMARY KEY, code VARCHAR(10), UNIQUE KEY uk_code (code))",
                "INSERT INTO codes VALUES (1, 'x'), (2, 'y')");
        TableInfo t = TableInfo.of(source.name(), "codes", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("code", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
        long ts = 5000;
        // one source transaction swaps the codes through a temporary value; replayed twice, as after a restart
        ChangeEvent[] swap = {
                RowChange.update(t, new Object[]{1L, "x"}, new Object[]{1L, "tmp"}, Rows.ts(ts)),
                RowChange.update(t, new Object[]{2L, "y"}, new Object[]{2L, "x"}, Rows.ts(ts)),
                RowChange.update(t, new Object[]{1L, "tmp"}, new Object[]{1L, "y"}, Rows.ts(ts))};
        try (TaskDriver driver = driver("always")) {
            driver.put(swap);
            driver.put(swap);
            driver.awaitApplied();
        }
        assertEquals(List.of(List.of("1", "y"), List.of("2", "x")), target.query("SELECT id, code FROM codes ORDER BY id"));
    }

    @Test
    void tablesWithoutKeysApplyOneTransactionAtATimeInOrder() throws Exception {
        target.exec("CREATE TABLE logs (n INT, v VARCHAR(10))");
        TableInfo t = TableInfo.of(source.name(), "logs", List.of(ColumnInfo.of("n", MySqlType.LONG, 0),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
        List<ChangeEvent> events = new ArrayList<>();
        long ts = 1000;
        for (int i = 0; i < 200; i++) {
            events.add(RowChange.insert(t, new Object[]{(long) i, "a"}, Rows.ts(++ts)));
            events.add(RowChange.update(t, new Object[]{(long) i, "a"}, new Object[]{(long) i, "b"}, Rows.ts(++ts)));
            if (i % 2 == 0) events.add(RowChange.delete(t, new Object[]{(long) i, "b"}, Rows.ts(++ts)));
        }
        try (TaskDriver driver = driver("always")) {
            driver.put(events.toArray(new ChangeEvent[0]));
            driver.awaitApplied();
        }
        assertEquals(100, target.count("logs"));
        assertEquals(List.of(List.of("100")), target.query("SELECT COUNT(*) FROM logs WHERE v = 'b' AND n % 2 = 1"));
    }
}
