package io.cdcconnect.sink;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.EventEncoders;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What one put() decodes is bounded before it is decoded: the decode threads hold at most decode.ahead.max.bytes
 * ahead of the task thread, records a put() does not reach for a full buffer wait undecoded, and a record whose
 * claim-check pointers go over their budget is bad input: to the dead-letter queue, naming where it is, while the
 * records around it are applied. Against the embedded MariaDB.
 */
class DecodeBudgetTest {

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo docs;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("budget_src");
        target = SinkTarget.database("budget_dst");
        target.exec("CREATE TABLE docs (id BIGINT PRIMARY KEY, v MEDIUMTEXT)");
        docs = Rows.idValue(source.name(), "docs");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private Map<String, String> props(String... more) {
        Map<String, String> p = new HashMap<>();
        p.put("input.format", "canal-json");
        p.put("schema.map", source.name() + "=" + target.name());
        for (int i = 0; i < more.length; i += 2) p.put(more[i], more[i + 1]);
        return p;
    }

    private Map<Long, String> targetRows() throws Exception {
        Map<Long, String> rows = new TreeMap<>();
        for (List<String> r : target.query("SELECT id, v FROM docs")) rows.put(Long.parseLong(r.get(0)), r.get(1));
        return rows;
    }

    private static String text(String tag, int chars) {
        return (tag + ";").repeat(chars / (tag.length() + 1) + 1).substring(0, chars);
    }

    /**
     * Inserts of ids 0..n/2-1, then updates of id 0 one after the other: the rows end right only if every record is
     * applied, and id 0 ends at the last update only if they are applied in order.
     */
    private List<ChangeEvent> history(int n, int chars, Map<Long, String> expected) {
        List<ChangeEvent> events = new ArrayList<>();
        long ts = 1_000;
        for (int i = 0; i < n / 2; i++) {
            String v = text("i" + i, chars);
            events.add(RowChange.insert(docs, new Object[]{(long) i, v}, Rows.ts(ts++)));
            expected.put((long) i, v);
        }
        String before = expected.get(0L);
        for (int i = n / 2; i < n; i++) {
            String v = text("u" + i, chars);
            events.add(RowChange.update(docs, new Object[]{0L, before}, new Object[]{0L, v}, Rows.ts(ts++)));
            before = v;
        }
        expected.put(0L, before);
        return events;
    }

    @Test
    void aPutDecodingToFarMoreThanTheBoundIsAppliedWholeAndInOrderHoldingNoMoreThanTheBoundAhead() throws Exception {
        long bound = 200_000;
        Map<Long, String> expected = new TreeMap<>();
        List<ChangeEvent> events = history(120, 50_000, expected);
        try (TaskDriver driver = new TaskDriver(props("decode.threads", "2",
                "decode.ahead.max.bytes", Long.toString(bound)))) {
            driver.put(events.toArray(new ChangeEvent[0])); // one put() of 120 records, about 6 MB once decoded
            driver.awaitApplied();
            assertTrue(driver.task().decodeStage().aheadHighWater() <= bound,
                    "held ahead at most: " + driver.task().decodeStage().aheadHighWater());
            assertEquals(0, driver.task().decodeStage().aheadBytes());
        }
        assertEquals(expected, targetRows());
    }

    @Test
    void recordsAPutDoesNotReachForAFullBufferWaitUndecodedAndAreAppliedInOrderLater() throws Exception {
        Map<Long, String> expected = new TreeMap<>();
        List<ChangeEvent> events = history(80, 5_000, expected);
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        try (TaskDriver driver = new TaskDriver(props("buffer.max.bytes", "1024", "buffer.max.wait.ms", "0"),
                context)) {
            driver.put(events.toArray(new ChangeEvent[0]));
            // each record alone fills the buffer, which has no wait: the put() stopped after one or two
            int waiting = driver.task().deferredRecords();
            assertTrue(waiting > 0 && waiting < events.size(), "records left undecoded: " + waiting);
            driver.awaitApplied();
            assertEquals(0, driver.task().deferredRecords());
        }
        assertEquals(expected, targetRows());
    }

    /** Canal-JSON values concatenated: one Kafka record holding several messages. */
    private static byte[] concat(List<EncodedMessage> messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (EncodedMessage m : messages) {
            out.writeBytes(m.value());
            out.write('\n');
        }
        return out.toByteArray();
    }

    @Test
    void aRecordOverItsClaimCheckBudgetGoesToTheDeadLetterQueueAndTheRecordsAroundItAreApplied(@TempDir Path dir)
            throws Exception {
        EventEncoder encoder = EventEncoders.create("canal-json", Map.of("enable-tidb-extension", "true",
                "large-message-handle-option", "claim-check", "claim-check-storage-uri", dir.toUri().toString(),
                "max-message-bytes", "600"));
        Map<Long, String> expected = new TreeMap<>();
        List<SinkRecord> records = new ArrayList<>();
        long ts = 1_000;
        for (long id = 0; id < 6; id++) {
            List<EncodedMessage> messages = new ArrayList<>();
            // record 2 holds three claim-checked rows, record 4 two: one pointer more than the budget allows
            int rows = id == 2 ? 3 : id == 4 ? 2 : 1;
            for (int r = 0; r < rows; r++) {
                long rowId = id * 10 + r;
                String v = text("c" + rowId, 3_000);
                messages.addAll(encoder.encode(TaskDriver.TOPIC, RowChange.insert(docs, new Object[]{rowId, v},
                        Rows.ts(ts++))));
                if (id != 2 && id != 4) expected.put(rowId, v);
            }
            messages.addAll(encoder.flush());
            assertEquals(rows, messages.size());
            records.add(new SinkRecord(TaskDriver.TOPIC, 0, null, null, null, concat(messages), id));
        }
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        try (TaskDriver driver = new TaskDriver(props("errors.tolerance", "all",
                "input.codec.options", "claim-check-storage-uri=" + dir.toUri(),
                "input.claim.check.max.record.pointers", "1"), context)) {
            driver.putRecords(records);
            driver.awaitApplied(records.size());
        }
        assertEquals(List.of(2L, 4L), context.reports.stream().map(r -> r.record().kafkaOffset()).toList());
        for (StandInSinkTaskContext.Report r : context.reports) {
            String reason = r.error().getMessage();
            assertTrue(reason.contains("topic " + TaskDriver.TOPIC + ", partition 0, offset " + r.record().kafkaOffset())
                    && reason.contains("canal-json message #2") && reason.contains("more than 1 claim-check locations")
                    && reason.contains("input.claim.check.max.record.pointers"), reason);
        }
        assertEquals(expected, targetRows());
    }
}
