package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A worker dies right after the sink ran a destructive DDL statement, before Connect committed the offsets past it:
 * Connect re-delivers the records from before the DDL, in the shape the DDL removed. The second task (a restart) must
 * neither fail nor loop, and the target must end as the stream says. Each case replays the whole history from
 * offset 0 into a second task, as Connect does when its last commit predates the records.
 */
class DdlCrashReplayTest {

    private TestDatabase source;
    private TestDatabase target;
    private String connector;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("ddlcrash_src");
        target = SinkTarget.database("ddlcrash_dst");
        connector = "ddl-crash-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private Map<String, String> props() {
        return Map.of("name", connector, "schema.map", source.name() + "=" + target.name(), "safe.mode", "auto",
                "ddl.checkpoint.database", "cdc_connect");
    }

    private TableInfo wide() {
        return TableInfo.of(source.name(), "items", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE),
                ColumnInfo.of("extra", MySqlType.LONG, ColumnFlags.NULLABLE)));
    }

    private DdlChange ddl(String table, String sql, DdlChange.Kind kind, long millis) {
        return new DdlChange(source.name(), table, sql, kind, Rows.ts(millis));
    }

    /** Applies {@code history} in one task, stops it as a crash would, then replays all of it in a second task. */
    private void applyThenReplay(List<io.cdcconnect.codec.model.ChangeEvent> history) throws Exception {
        List<SinkRecord> records = new ArrayList<>();
        try (TaskDriver first = new TaskDriver(props())) {
            for (io.cdcconnect.codec.model.ChangeEvent e : history) records.add(first.recordOf(e));
            first.putRecords(records);
            first.awaitApplied();
        }
        try (TaskDriver second = new TaskDriver(props())) {
            second.putRecords(records);
            second.awaitApplied(records.size());
        }
    }

    @Test
    void dropColumnThenCrash() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20), extra INT)");
        long t = System.currentTimeMillis() + 3_600_000; // past the replay window: plain statements
        applyThenReplay(List.of(
                RowChange.insert(wide(), new Object[]{1L, "a", 10L}, Rows.ts(t)),
                RowChange.insert(wide(), new Object[]{2L, "b", 20L}, Rows.ts(t + 1)),
                ddl("items", "ALTER TABLE items DROP COLUMN extra", DdlChange.Kind.ALTER, t + 2),
                RowChange.insert(Rows.idValue(source.name(), "items"), new Object[]{3L, "c"}, Rows.ts(t + 3))));
        assertEquals(List.of(List.of("1", "a"), List.of("2", "b"), List.of("3", "c")),
                target.query("SELECT * FROM items ORDER BY id"));
    }

    @Test
    void truncateThenCrash() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        long t = System.currentTimeMillis() + 3_600_000;
        TableInfo items = Rows.idValue(source.name(), "items");
        applyThenReplay(List.of(
                RowChange.insert(items, new Object[]{1L, "before"}, Rows.ts(t)),
                ddl("items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE, t + 1),
                RowChange.insert(items, new Object[]{2L, "after"}, Rows.ts(t + 2))));
        // the row from before the TRUNCATE must not come back
        assertEquals(List.of(List.of("2", "after")), target.query("SELECT * FROM items ORDER BY id"));
    }

    @Test
    void dropTableThenCrash() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE other (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        long t = System.currentTimeMillis() + 3_600_000;
        applyThenReplay(List.of(
                RowChange.insert(Rows.idValue(source.name(), "items"), new Object[]{1L, "gone"}, Rows.ts(t)),
                ddl("items", "DROP TABLE items", DdlChange.Kind.ERASE, t + 1),
                RowChange.insert(Rows.idValue(source.name(), "other"), new Object[]{7L, "kept"}, Rows.ts(t + 2))));
        assertEquals(List.of(), target.query("SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                + target.name() + "' AND table_name = 'items'"));
        assertEquals(List.of(List.of("7", "kept")), target.query("SELECT * FROM other"));
    }

    @Test
    void renameThenCrash() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        long t = System.currentTimeMillis() + 3_600_000;
        applyThenReplay(List.of(
                RowChange.insert(Rows.idValue(source.name(), "items"), new Object[]{1L, "old name"}, Rows.ts(t)),
                ddl("items", "RENAME TABLE items TO goods", DdlChange.Kind.RENAME, t + 1),
                RowChange.insert(Rows.idValue(source.name(), "goods"), new Object[]{2L, "new name"}, Rows.ts(t + 2))));
        assertEquals(List.of(List.of("1", "old name"), List.of("2", "new name")),
                target.query("SELECT * FROM goods ORDER BY id"));
    }

    /**
     * The source crashed too and sends [ADD COLUMN, TRUNCATE, DROP COLUMN] a second time, with their own commit ts; the
     * sink's first task had run only the ADD before it died, so the second task runs the TRUNCATE and the DROP, then
     * meets the copies. Before, statements already run were recognised by identity only, and only in the task that
     * ran them: the copied ADD ran again after the DROP (the second task had not run it), the copied DROP was skipped
     * (it had), and the column stayed downstream. Found by WorkerCrashTest. Now the copies run again in their order,
     * as the first time.
     */
    @Test
    void aResentSequenceOfStatementsIsNotRunAgainOutOfOrder() throws Exception {
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        long t = System.currentTimeMillis() + 3_600_000;
        TableInfo items = Rows.idValue(source.name(), "items");
        List<io.cdcconnect.codec.model.ChangeEvent> once = List.of(
                ddl("items", "ALTER TABLE items ADD COLUMN c INT", DdlChange.Kind.ALTER, t),
                ddl("items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE, t + 1),
                ddl("items", "ALTER TABLE items DROP COLUMN c", DdlChange.Kind.ALTER, t + 2));
        List<SinkRecord> records = new ArrayList<>();
        try (TaskDriver first = new TaskDriver(props())) {
            for (io.cdcconnect.codec.model.ChangeEvent e : once) records.add(first.recordOf(e));
            for (io.cdcconnect.codec.model.ChangeEvent e : once) records.add(first.recordOf(e));
            records.add(first.recordOf(RowChange.insert(items, new Object[]{1L, "after"}, Rows.ts(t + 3))));
            first.putRecords(records.subList(0, 1));
            first.awaitApplied(1);
        }
        try (TaskDriver second = new TaskDriver(props())) {
            second.putRecords(records);
            second.awaitApplied(records.size());
        }
        assertEquals(List.of(List.of("1", "after")), target.query("SELECT * FROM items ORDER BY id"),
                "the column dropped last stays dropped");
    }
}
