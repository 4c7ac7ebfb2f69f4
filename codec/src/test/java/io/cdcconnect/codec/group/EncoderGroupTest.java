package io.cdcconnect.codec.group;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.EventEncoders;
import io.cdcconnect.codec.canal.CanalJsonDecoder;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.open.OpenProtocolDecoder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EncoderGroupTest {

    private static final TableInfo T = TableInfo.of("grp", "orders", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("note", MySqlType.VARCHAR, 0)));

    private static RowChange row(long id, Object note) {
        return RowChange.insert(T, new Object[] {id, note}, id << 18);
    }

    /** Wraps a real encoder, stalling a random few microseconds per event so tasks finish out of order. */
    private static EventEncoder jittery(EventEncoder real, long seed) {
        Random rnd = new Random(seed ^ Thread.currentThread().getId());
        return new EventEncoder() {
            @Override
            public List<EncodedMessage> encode(String topic, ChangeEvent event) {
                if (rnd.nextInt(4) == 0) {
                    try {
                        Thread.sleep(0, rnd.nextInt(500_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return real.encode(topic, event);
            }

            @Override
            public List<EncodedMessage> flush() {
                return real.flush();
            }

            @Override
            public String format() {
                return real.format();
            }
        };
    }

    @Test
    void outputFollowsInputOrderUnderConcurrency() throws Exception {
        try (EncoderGroup<Long> group = new EncoderGroup<>(new EncoderGroupConfig(4, 1 << 20),
                () -> jittery(EventEncoders.create("canal-json", Map.of()), 42))) {
            CanalJsonDecoder dec = new CanalJsonDecoder();
            int tasks = 600;
            Thread producer = new Thread(() -> {
                try {
                    for (long t = 0; t < tasks; t++) {
                        List<ChangeEvent> ev = new ArrayList<>();
                        List<Long> ctx = new ArrayList<>();
                        for (int k = 0; k < 3; k++) {
                            ev.add(row(t * 3 + k, "n" + (t * 3 + k)));
                            ctx.add(t * 3 + k);
                        }
                        group.submit("topic", (int) (t % 3), ev, ctx);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            producer.start();
            long expected = 0;
            for (int t = 0; t < tasks; t++) {
                EncoderGroup.Result<Long> r = group.take();
                while (r == null) {
                    Thread.onSpinWait();
                    r = group.take();
                }
                assertEquals(t, r.sequence());
                assertEquals(t % 3, r.partition());
                for (EncoderGroup.Output<Long> o : r.messages()) {
                    RowChange back = (RowChange) dec.decode(o.message().value()).get(0);
                    assertEquals(expected, back.after()[0], "message order");
                    assertEquals(expected, o.context(), "context of the message's event");
                    expected++;
                }
            }
            producer.join();
            assertEquals(tasks * 3L, expected);
            assertEquals(0, group.inFlightBytes());
        }
    }

    @Test
    void submitBlocksWhileInFlightBytesAreOverTheBound() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        long bound = 4 * new EventSize().estimate(row(1, "x".repeat(1000)));
        try (EncoderGroup<Void> group = new EncoderGroup<>(new EncoderGroupConfig(2, bound), () -> {
            EventEncoder real = EventEncoders.create("canal-json", Map.of());
            return new EventEncoder() {
                @Override
                public List<EncodedMessage> encode(String topic, ChangeEvent event) {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return real.encode(topic, event);
                }

                @Override
                public List<EncodedMessage> flush() {
                    return real.flush();
                }

                @Override
                public String format() {
                    return "blocked";
                }
            };
        })) {
            AtomicLong submitted = new AtomicLong();
            AtomicBoolean done = new AtomicBoolean();
            Thread producer = new Thread(() -> {
                try {
                    for (int i = 0; i < 20; i++) {
                        group.submit("t", 0, List.of(row(i, "x".repeat(1000))), null);
                        submitted.incrementAndGet();
                    }
                    done.set(true);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            producer.start();
            Thread.sleep(300);
            assertEquals(4, submitted.get(), "the producer stops at the bound");
            assertFalse(done.get());
            assertTrue(group.inFlightBytes() <= bound);
            release.countDown();
            int taken = 0;
            while (taken < 20) {
                if (group.poll(10, TimeUnit.SECONDS) != null) taken++;
            }
            producer.join(5000);
            assertTrue(done.get());
            // encoded sizes replace estimates; the bound holds with one message of slack
            assertTrue(group.peakInFlightBytes() <= bound + 2000, "peak " + group.peakInFlightBytes());
        }
    }

    @Test
    void anErrorNamesTheTableAndPositionAndLaterTasksStillFlow() throws Exception {
        Object poison = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("unprintable value");
            }
        };
        try (EncoderGroup<String> group = new EncoderGroup<>(new EncoderGroupConfig(2, 1 << 20),
                () -> EventEncoders.create("canal-json", Map.of()))) {
            group.submit("t", 0, List.of(row(1, "a"), row(2, "b")), List.of("off-1", "off-2"));
            group.submit("t", 1, List.of(row(3, "c"), row(4, "d"), row(5, poison)), List.of("off-3", "off-4", "off-5"));
            group.submit("t", 0, List.of(row(6, "e")), List.of("off-6"));
            assertEquals(2, group.take().messages().size());
            CodecException e = assertThrows(CodecException.class, group::take);
            String m = e.getMessage();
            assertTrue(m.contains("event #4") && m.contains("position 2 of task 1") && m.contains("grp.orders")
                    && m.contains("off-5") && m.contains("`note`"), m);
            EncoderGroup.Result<String> after = group.take();
            assertEquals("off-6", after.lastContext());
            assertNull(group.poll(10, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void openProtocolBatchesStayWithinATaskAndCarryTheirLastContext() throws Exception {
        try (EncoderGroup<Integer> group = new EncoderGroup<>(new EncoderGroupConfig(2, 1 << 22),
                () -> EventEncoders.create("open-protocol", Map.of("max-batch-size", "16")))) {
            List<ChangeEvent> events = new ArrayList<>();
            List<Integer> ctx = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                events.add(row(i, "v" + i));
                ctx.add(i);
            }
            group.submitByPartition("t", events, ctx, e -> (int) ((long) ((RowChange) e).after()[0] % 2));
            OpenProtocolDecoder dec = new OpenProtocolDecoder();
            for (int p = 0; p < 2; p++) {
                EncoderGroup.Result<Integer> r = group.take();
                assertEquals(p, r.partition());
                assertEquals(List.of(16, 16, 8), r.messages().stream().map(o -> o.message().rows()).toList());
                assertEquals(List.of(30 + p, 62 + p, 78 + p), r.messages().stream().map(EncoderGroup.Output::context).toList());
                for (EncoderGroup.Output<Integer> o : r.messages()) {
                    for (ChangeEvent e : dec.decode(o.message().key(), o.message().value())) {
                        assertEquals((long) p, (long) ((RowChange) e).after()[0] % 2, "one partition per batch");
                    }
                }
            }
        }
    }

    @Test
    void closeReleasesATakerWaitingForUnencodedTasks() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        EncoderGroup<Void> group = new EncoderGroup<>(new EncoderGroupConfig(1, 1 << 20), () -> new EventEncoder() {
            @Override
            public List<EncodedMessage> encode(String topic, ChangeEvent event) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("interrupted");
            }

            @Override
            public List<EncodedMessage> flush() {
                return List.of();
            }

            @Override
            public String format() {
                return "stuck";
            }
        });
        group.submit("t", 0, List.of(row(1, "a")), null);
        group.submit("t", 0, List.of(row(2, "b")), null);
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            group.close();
        });
        closer.start();
        CodecException e = assertThrows(CodecException.class, group::take);
        assertTrue(e.getMessage().contains("closed") || e.getMessage().contains("interrupted"), e.getMessage());
        closer.join();
    }

    @Test
    void theSizeEstimateFollowsLargeValuesOnly() {
        EventSize sizes = new EventSize();
        long small = sizes.estimate(row(1, "x"));
        long large = sizes.estimate(row(2, "x".repeat(1_000_000)));
        assertTrue(large - small >= 999_999, "a 1 MB text must count: " + small + " vs " + large);
        TableInfo blobs = TableInfo.of("grp", "files", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("body", MySqlType.BLOB, ColumnFlags.BINARY),
                ColumnInfo.of("doc", MySqlType.JSON, 0)));
        long blob = sizes.estimate(RowChange.insert(blobs,
                new Object[] {1L, new byte[500_000], "[" + "1,".repeat(100_000) + "1]"}, 1));
        assertTrue(blob >= 500_000 + 200_000, "blob and JSON values must count: " + blob);
        // the first table's columns are still known after another table was seen
        assertEquals(large, sizes.estimate(row(2, "x".repeat(1_000_000))));
        assertEquals(small + large, sizes.estimate(List.of(row(1, "x"), row(2, "x".repeat(1_000_000)))));
    }
}
