package io.cdcconnect.source;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Batches converted ahead come out whole and in order, a failure comes after the batches converted before it, and a
 * stop leaves the conversion (even one waiting, as in Debezium's poll) and drops what was not taken. The steps here
 * stand in for Debezium's poll: the real one runs in MariaDbCaptureTest and the end-to-end tests.
 */
class ConvertAheadTest {

    private static SourceRecord record(int n) {
        return new SourceRecord(Map.of("server", "s"), Map.of("pos", n), "t", 0, Schema.OPTIONAL_BYTES_SCHEMA, null,
                Schema.OPTIONAL_BYTES_SCHEMA, new byte[]{(byte) n});
    }

    @Test
    void batchesComeWholeAndInOrder() throws Exception {
        AtomicInteger next = new AtomicInteger();
        try (ConvertAhead ahead = new ConvertAhead(() -> {
            int b = next.getAndIncrement();
            if (b % 3 == 2) return null; // Debezium had nothing this time
            List<SourceRecord> batch = new ArrayList<>();
            for (int i = 0; i < 5; i++) batch.add(record(b * 5 + i));
            return batch;
        }, 2, "test")) {
            int expected = 0;
            List<Integer> seen = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen.size() < 200 && System.nanoTime() < deadline) {
                List<SourceRecord> batch = ahead.take();
                if (batch == null) continue;
                assertEquals(5, batch.size());
                for (SourceRecord r : batch) seen.add((Integer) r.sourceOffset().get("pos"));
            }
            assertEquals(200, seen.size());
            for (int i = 0; i < seen.size(); i++) {
                while (expected / 5 % 3 == 2) expected += 5;
                assertEquals(expected, seen.get(i), "position " + i);
                expected++;
            }
        }
    }

    @Test
    void aFailureComesAfterTheBatchesConvertedBeforeIt() throws Exception {
        AtomicInteger next = new AtomicInteger();
        try (ConvertAhead ahead = new ConvertAhead(() -> {
            if (next.getAndIncrement() < 2) return List.of(record(next.get()));
            throw new IllegalStateException("cannot convert column x");
        }, 4, "test")) {
            List<SourceRecord> first = null;
            while (first == null) first = ahead.take();
            List<SourceRecord> second = null;
            while (second == null) second = ahead.take();
            assertEquals(1, first.get(0).sourceOffset().get("pos"));
            assertEquals(2, second.get(0).sourceOffset().get("pos"));
            ConnectException e = assertThrows(ConnectException.class, () -> {
                for (int i = 0; i < 100; i++) ahead.take();
            });
            assertTrue(e.getMessage().contains("cannot convert column x"), e.getMessage());
        }
    }

    @Test
    void aStopLeavesAWaitingConversionAndDropsWhatWasNotTaken() throws Exception {
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        ConvertAhead ahead = new ConvertAhead(() -> {
            if (calls.getAndIncrement() == 0) return List.of(record(1));
            waiting.countDown();
            Thread.sleep(60_000); // as Debezium's poll waiting for the binlog
            return List.of(record(2));
        }, 1, "test");
        assertTrue(waiting.await(10, TimeUnit.SECONDS));
        long t0 = System.nanoTime();
        ahead.close();
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "the stop did not wait for the poll");
        assertNull(ahead.take(), "the batch converted ahead was dropped, and no failure is reported after a stop");
        assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("test-convert")),
                "the thread is gone");
    }
}
