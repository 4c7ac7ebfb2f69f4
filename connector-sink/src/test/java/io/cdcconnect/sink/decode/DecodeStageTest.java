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
}
