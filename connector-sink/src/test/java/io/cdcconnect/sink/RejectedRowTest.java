package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rows the target rejects for their data, in the middle of multi-row transactions, through the task on the real
 * MariaDB: with {@code errors.tolerance=all} each such record goes alone to the errant-record reporter with a reason
 * naming the error, topic, partition, offset and column, and every other row of its transaction and batch is
 * applied in order; without tolerance the task fails naming the row and commits nothing of its transaction. Before
 * this, any of them failed the task ("applying transaction … failed: INSERT of N row(s) …").
 */
class RejectedRowTest {

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo table;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("reject_src");
        target = SinkTarget.database("reject_dst");
        // the target is narrower and stricter than the source: the source's rows do not all fit
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(5), n TINYINT, w VARCHAR(20) NOT NULL, "
                + "k INT, d DATE)");
        table = TableInfo.of(source.name(), "items", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE),
                ColumnInfo.of("n", MySqlType.LONGLONG, ColumnFlags.NULLABLE),
                ColumnInfo.of("w", MySqlType.VARCHAR, ColumnFlags.NULLABLE),
                ColumnInfo.of("k", MySqlType.VARCHAR, ColumnFlags.NULLABLE),
                ColumnInfo.of("d", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private Map<String, String> props(String tolerance) {
        return props(tolerance, "never");
    }

    private Map<String, String> props(String tolerance, String safeMode) {
        Map<String, String> p = new HashMap<>();
        p.put("schema.map", source.name() + "=" + target.name());
        p.put("safe.mode", safeMode);
        if (tolerance != null) p.put("errors.tolerance", tolerance);
        return p;
    }

    private static Object[] row(long id, String v, Long n, String w, String k, String d) {
        return new Object[]{id, v, n, w, k, d};
    }

    private RowChange insert(long id, String v, Long n, String w, long ts) {
        return RowChange.insert(table, row(id, v, n, w, null, null), Rows.ts(ts));
    }

    /** One source transaction (one commit ts) of 12 rows, 5 of which the target rejects, and what it leaves. */
    private List<SinkRecord> firstTransaction(TaskDriver driver, List<Long> rejectedOffsets) {
        long ts = 1000;
        List<SinkRecord> records = new ArrayList<>();
        records.add(driver.recordOf(insert(1, "ok", 1L, "a", ts)));
        rejectedOffsets.add(driver.nextOffset());
        records.add(driver.recordOf(insert(2, "much too long", 1L, "a", ts)));                   // 1406
        records.add(driver.recordOf(insert(3, "ok", 2L, "a", ts)));
        rejectedOffsets.add(driver.nextOffset());
        records.add(driver.recordOf(insert(4, "ok", 300L, "a", ts)));                            // 1264
        rejectedOffsets.add(driver.nextOffset());
        records.add(driver.recordOf(insert(5, "ok", 3L, null, ts)));                             // 1048
        rejectedOffsets.add(driver.nextOffset());
        records.add(driver.recordOf(RowChange.insert(table, row(6, "ok", 4L, "a", "abc", null), Rows.ts(ts)))); // 1366
        rejectedOffsets.add(driver.nextOffset());
        records.add(driver.recordOf(RowChange.insert(table, row(7, "ok", 5L, "a", null, "2024-13-45"),
                Rows.ts(ts))));                                                                     // 1292
        // one key changed three times, the middle change rejected: the changes around it apply in order
        records.add(driver.recordOf(insert(8, "one", 6L, "a", ts)));
        rejectedOffsets.add(driver.nextOffset());
        records.add(driver.recordOf(RowChange.update(table, row(8, "one", 6L, "a", null, null),
                row(8, "two is too long", 6L, "a", null, null), Rows.ts(ts))));
        records.add(driver.recordOf(RowChange.update(table, row(8, "one", 6L, "a", null, null),
                row(8, "three", 6L, "b", null, null), Rows.ts(ts))));
        records.add(driver.recordOf(insert(9, "ok", 7L, "a", ts)));
        records.add(driver.recordOf(RowChange.delete(table, row(1, "ok", 1L, "a", null, null), Rows.ts(ts))));
        return records;
    }

    @Test
    void rejectedRowsGoAloneToTheDeadLetterQueueAndTheRestOfTheirTransactionIsApplied() throws Exception {
        rejectedRowsGoAlone("never");
    }

    @Test
    void inSafeModeToo() throws Exception {
        rejectedRowsGoAlone("always");
    }

    private void rejectedRowsGoAlone(String safeMode) throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        List<Long> rejectedOffsets = new ArrayList<>();
        try (TaskDriver driver = new TaskDriver(props("all", safeMode), context)) {
            List<SinkRecord> records = firstTransaction(driver, rejectedOffsets);
            // a later transaction in the same batch, and one in a later batch
            records.add(driver.recordOf(insert(10, "later", 8L, "a", 1001)));
            records.add(driver.recordOf(insert(11, "too long again", 8L, "a", 1001)));
            rejectedOffsets.add(driver.nextOffset() - 1);
            driver.putRecords(records);
            driver.put(RowChange.update(table, row(10, "later", 8L, "a", null, null),
                    row(10, "last", 9L, "c", null, null), Rows.ts(1002)));
            driver.awaitApplied();

            List<StandInSinkTaskContext.Report> reports;
            synchronized (context.reports) {
                reports = List.copyOf(context.reports);
            }
            List<Long> reported = reports.stream().map(r -> r.record().kafkaOffset()).sorted().toList();
            assertEquals(rejectedOffsets, reported, "exactly the rejected rows' records are reported");
            Map<Long, String> reasons = new HashMap<>();
            for (StandInSinkTaskContext.Report r : reports) {
                assertEquals(records.get((int) r.record().kafkaOffset()), r.record(), "the original record");
                reasons.put(r.record().kafkaOffset(), r.error().getMessage());
            }
            assertReason(reasons.get(rejectedOffsets.get(0)), rejectedOffsets.get(0), "1406", "v");
            assertReason(reasons.get(rejectedOffsets.get(1)), rejectedOffsets.get(1), "1264", "n");
            assertReason(reasons.get(rejectedOffsets.get(2)), rejectedOffsets.get(2), "1048", "w");
            assertReason(reasons.get(rejectedOffsets.get(3)), rejectedOffsets.get(3), "1366", "k");
            assertReason(reasons.get(rejectedOffsets.get(4)), rejectedOffsets.get(4), "1292", "d");
            assertReason(reasons.get(rejectedOffsets.get(5)), rejectedOffsets.get(5), "1406", "v");
            assertReason(reasons.get(rejectedOffsets.get(6)), rejectedOffsets.get(6), "1406", "v");
            assertEquals(driver.nextOffset(), driver.committable(), "every offset is handled, the reported ones too");
        }
        assertEquals(List.of(
                        Arrays.asList("3", "ok", "2", "a"),
                        Arrays.asList("8", "three", "6", "b"),
                        Arrays.asList("9", "ok", "7", "a"),
                        Arrays.asList("10", "last", "9", "c")),
                target.query("SELECT id, v, n, w FROM items ORDER BY id"));
    }

    @Test
    void rowsOfATableOrColumnTheTargetLacksGoAloneToTheDeadLetterQueue() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        TableInfo ghosts = Rows.idValue(source.name(), "ghosts");
        List<ColumnInfo> wider = new ArrayList<>(table.columns());
        wider.add(ColumnInfo.of("extra", MySqlType.LONG, ColumnFlags.NULLABLE));
        TableInfo widerItems = TableInfo.of(source.name(), "items", wider);
        try (TaskDriver driver = new TaskDriver(props("all"), context)) {
            List<SinkRecord> records = new ArrayList<>();
            records.add(driver.recordOf(insert(1, "ok", 1L, "a", 2000)));
            records.add(driver.recordOf(RowChange.insert(ghosts, new Object[]{1L, "no such table"}, Rows.ts(2000))));
            records.add(driver.recordOf(RowChange.insert(widerItems, new Object[]{2L, "ok", 1L, "a", null, null, 7L},
                    Rows.ts(2000))));
            records.add(driver.recordOf(insert(3, "ok", 1L, "a", 2000)));
            driver.putRecords(records);
            driver.awaitApplied();
            List<StandInSinkTaskContext.Report> reports;
            synchronized (context.reports) {
                reports = List.copyOf(context.reports);
            }
            assertEquals(List.of(1L, 2L), reports.stream().map(r -> r.record().kafkaOffset()).sorted().toList());
            String table = reports.stream().filter(r -> r.record().kafkaOffset() == 1).findFirst().orElseThrow()
                    .error().getMessage();
            assertTrue(table.contains("topic " + TaskDriver.TOPIC + ", partition 0, offset 1")
                    && table.contains("ghosts") && table.contains("does not exist"), table);
            String column = reports.stream().filter(r -> r.record().kafkaOffset() == 2).findFirst().orElseThrow()
                    .error().getMessage();
            assertReason(column, 2, "", "extra");
            assertEquals(4, driver.committable());
        }
        assertEquals(List.of(List.of("1"), List.of("3")), target.query("SELECT id FROM items ORDER BY id"));
    }

    private static void assertReason(String reason, long offset, String code, String column) {
        assertTrue(reason != null && reason.contains("topic " + TaskDriver.TOPIC + ", partition 0, offset " + offset)
                && reason.contains(code.isEmpty() ? "" : "error " + code) && reason.contains("column `" + column + "`"), reason);
    }

    @Test
    void withoutToleranceTheTaskFailsNamingTheRowAndCommitsNothingOfItsTransaction() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        List<Long> rejectedOffsets = new ArrayList<>();
        try (TaskDriver driver = new TaskDriver(props("none"), context)) {
            driver.put(insert(100, "first", 1L, "a", 900));
            driver.awaitApplied();
            long before = driver.committable();
            List<SinkRecord> records = firstTransaction(driver, rejectedOffsets);
            ConnectException e = assertThrows(ConnectException.class, () -> {
                driver.putRecords(records);
                driver.awaitApplied();
            });
            assertTrue(e.getMessage().contains("topic " + TaskDriver.TOPIC + ", partition 0, offset "
                    + rejectedOffsets.get(0)) && e.getMessage().contains("column `v`")
                    && e.getMessage().contains("1406"), e.getMessage());
            assertEquals(before, driver.committable(), "no offset of the failed transaction or later");
            assertTrue(context.reports.isEmpty());
        }
        assertEquals(List.of(List.of("100")), target.query("SELECT id FROM items"),
                "nothing of the failed transaction is committed");
    }

    @Test
    void aRejectedRowWhoseReportFailsFailsTheTaskAndItsOffsetIsNotCommitted() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        context.reportFailure = new IllegalStateException("dead-letter topic not writable");
        try (TaskDriver driver = new TaskDriver(props("all"), context)) {
            driver.put(insert(1, "fine", 1L, "a", 1000));
            driver.awaitApplied();
            long before = driver.committable();
            ConnectException e = assertThrows(ConnectException.class, () -> {
                driver.put(insert(2, "ok", 1L, "a", 1001), insert(3, "far too long", 1L, "a", 1001));
                driver.awaitApplied();
            });
            assertTrue(e.getMessage().contains("offset 2") && e.getMessage().contains("dead-letter topic not writable"),
                    e.getMessage());
            assertEquals(before, driver.committable(), "the rejected record's offset counts only once reported");
        }
    }
}
