package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.UnavailableException;
import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.CdcSinkConfig;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decode stage hands out every record's outcome in record order, whichever thread decoded it, with a bad record's
 * exception in its place; the real Canal-JSON decoder of {@code input.format=canal-json} does the decoding.
 */
class DecodeStageTest {

    private static final TableInfo TABLE = TableInfo.of("shop", "items", List.of(
            ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("name", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));

    private static final CanalJsonEncoder ENCODER = new CanalJsonEncoder(CanalJsonOptions.defaults());

    private static RecordDecoder canal() {
        return RecordDecoders.forConfig(new CdcSinkConfig(Map.of("connection.user", "u", "connection.url",
                "jdbc:mysql://db/", "schema.include", "shop")));
    }

    /** Records over 3 partitions; every 97th is not JSON. */
    private static List<SinkRecord> records(int n) {
        List<SinkRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] value = i % 97 == 50 ? "{not json".getBytes(StandardCharsets.UTF_8)
                    : ENCODER.encode(RowChange.insert(TABLE, new Object[]{(long) i, "item " + i}, (1000L + i) << 18));
            out.add(new SinkRecord("shop.items", i % 3, null, null, null, value, i / 3));
        }
        return out;
    }

    @Test
    void outcomesComeInRecordOrderWhicheverThreadDecodedThem() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try (DecodeStage stage = new DecodeStage(() -> {
            RecordDecoder d = canal();
            return new RecordDecoder() {
                @Override
                public List<ChangeEvent> decode(SinkRecord record) {
                    threads.add(Thread.currentThread().getName());
                    return d.decode(record);
                }
            };
        }, 2, "t")) {
            for (int round = 0; round < 20; round++) {
                List<SinkRecord> records = records(500);
                DecodeStage.Batch batch = stage.decode(records);
                assertEquals(500, batch.size());
                for (int n = 0; n < 500; n++) {
                    int i = n;
                    DecodeStage.Decoded d = batch.get(i);
                    assertTrue(batch.record(i) == records.get(i));
                    if (i % 97 == 50) {
                        assertNotNull(d.error(), "record " + i + " is not JSON");
                        assertEquals(List.of(), d.events());
                    } else {
                        assertNull(d.error(), () -> "record " + i + ": " + d.error());
                        RowChange row = (RowChange) d.events().get(0);
                        assertEquals((long) i, ((Number) row.after()[0]).longValue(), "record " + i);
                        assertTrue(d.bytes() > 0);
                    }
                }
            }
        }
        assertTrue(threads.stream().anyMatch(t -> t.startsWith("t-decode-")),
                "the pool decoded some runs: " + threads);
    }

    @Test
    void aSmallBatchOrNoPoolDecodesOnTheCallingThread() {
        String me = Thread.currentThread().getName();
        for (int threads : new int[]{0, 2}) {
            Set<String> seen = ConcurrentHashMap.newKeySet();
            try (DecodeStage stage = new DecodeStage(() -> {
                RecordDecoder d = canal();
                return record -> {
                    seen.add(Thread.currentThread().getName());
                    return d.decode(record);
                };
            }, threads, "t")) {
                List<SinkRecord> records = records(threads == 0 ? 300 : DecodeStage.MIN_PARALLEL_BATCH - 1);
                DecodeStage.Batch batch = stage.decode(records);
                for (int i = 0; i < batch.size(); i++) assertNotNull(batch.get(i));
            }
            assertEquals(Set.of(me), seen, "threads=" + threads);
        }
    }

    @Test
    void anOutageIsHandedBackAsTheRecordsOutcome() {
        try (DecodeStage stage = new DecodeStage(() -> record -> {
            throw new UnavailableException("schema registry", "connection refused", null);
        }, 2, "t")) {
            DecodeStage.Batch batch = stage.decode(records(100));
            for (int i = 0; i < 100; i++) {
                assertInstanceOf(UnavailableException.class, batch.get(i).error());
            }
        }
    }

    /** Records of rows with a text of {@code chars} characters each. */
    private static List<SinkRecord> bigRecords(int n, int chars) {
        List<SinkRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = (i + ":").repeat(chars / 2 + 1).substring(0, chars);
            out.add(new SinkRecord("shop.items", 0, null, null, null,
                    ENCODER.encode(RowChange.insert(TABLE, new Object[]{(long) i, text}, (1000L + i) << 18)), i));
        }
        return out;
    }

    /** Waits (a guard against a hang, not a timing) until every pool thread waits for room ahead. */
    private static void awaitPoolWaiting(DecodeStage stage, int threads) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (stage.waitingForRoom() < threads) {
            assertTrue(System.currentTimeMillis() < deadline, "the pool threads never waited for room");
            Thread.sleep(5);
        }
    }

    @Test
    void whatThePoolHoldsAheadStaysWithinItsBoundAndTheRestIsDecodedInOrder() throws Exception {
        long bound = 100_000;
        List<SinkRecord> records = bigRecords(200, 20_000);
        try (DecodeStage stage = new DecodeStage(DecodeStageTest::canal, 2, bound, "t")) {
            DecodeStage.Batch batch = stage.decode(records);
            // nothing is taken yet: the pool decodes ahead until the bound leaves no room, then waits
            awaitPoolWaiting(stage, 2);
            long held = stage.aheadBytes();
            assertTrue(held > 0 && held <= bound, "held ahead: " + held);
            long total = 0;
            for (int i = 0; i < records.size(); i++) {
                DecodeStage.Decoded d = batch.get(i);
                assertNull(d.error());
                RowChange row = (RowChange) d.events().get(0);
                assertEquals((long) i, ((Number) row.after()[0]).longValue(), "record " + i + " in its place");
                assertTrue(((String) row.after()[1]).startsWith(i + ":"));
                total += d.bytes();
            }
            assertTrue(total > 10 * bound, "the batch decodes to far more than the bound: " + total);
            assertTrue(stage.aheadHighWater() <= bound, "never held more than the bound ahead: "
                    + stage.aheadHighWater());
            assertEquals(0, stage.aheadBytes(), "everything held ahead was taken");
        }
    }

    @Test
    void aRecordLargerThanTheBoundIsDecodedByTheTaskThreadInItsPlace() throws Exception {
        String me = Thread.currentThread().getName();
        Map<Long, String> decodedBy = new ConcurrentHashMap<>();
        List<SinkRecord> records = bigRecords(64, 2_000);
        // one record decodes to more than the bound alone
        records.set(40, bigRecords(41, 50_000).get(40));
        try (DecodeStage stage = new DecodeStage(() -> {
            RecordDecoder d = canal();
            return record -> {
                decodedBy.put(record.kafkaOffset(), Thread.currentThread().getName());
                return d.decode(record);
            };
        }, 2, 20_000, "t")) {
            DecodeStage.Batch batch = stage.decode(records);
            for (int i = 0; i < records.size(); i++) {
                RowChange row = (RowChange) batch.get(i).events().get(0);
                assertEquals((long) i, ((Number) row.after()[0]).longValue());
            }
            assertEquals(50_000, ((String) ((RowChange) stage.decode(records.subList(40, 41)).get(0).events().get(0))
                    .after()[1]).length());
            assertTrue(stage.aheadHighWater() <= 20_000, "high water " + stage.aheadHighWater());
        }
        assertEquals(me, decodedBy.get(40L), "no pool thread could hold it ahead");
    }

    @Test
    void cancellingABatchDropsWhatIsHeldAheadAndFreesThePool() throws Exception {
        try (DecodeStage stage = new DecodeStage(DecodeStageTest::canal, 2, 100_000, "t")) {
            DecodeStage.Batch batch = stage.decode(bigRecords(200, 20_000));
            awaitPoolWaiting(stage, 2);
            assertTrue(stage.aheadBytes() > 0);
            batch.cancel();
            assertEquals(0, stage.aheadBytes());
            // the next batch is decoded whole, its pool threads no longer waiting on the first
            List<SinkRecord> next = records(100);
            DecodeStage.Batch second = stage.decode(next);
            for (int i = 0; i < next.size(); i++) {
                DecodeStage.Decoded d = second.get(i);
                assertTrue(d.error() != null || d.events().size() == 1, "record " + i);
            }
            assertEquals(0, stage.aheadBytes());
        }
    }
}
