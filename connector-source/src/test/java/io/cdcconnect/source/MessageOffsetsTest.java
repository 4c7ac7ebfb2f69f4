package io.cdcconnect.source;

import io.cdcconnect.codec.EventEncoders;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.open.OpenProtocolDecoder;
import io.cdcconnect.source.emit.GroupEncoder;
import io.cdcconnect.source.emit.Message;
import io.cdcconnect.source.emit.MessageEncoder;
import io.cdcconnect.source.emit.Outgoing;
import io.cdcconnect.source.emit.PartitionedEncoder;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which source offset each Kafka message carries. Connect commits the offset of the last acknowledged record whose
 * predecessors are all acknowledged; a message may therefore claim event i only if every event up to i is in it or
 * in an earlier message.
 */
class MessageOffsetsTest {
    private static final TableInfo T = TableInfo.of("s", "t", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));

    /** Events alternating between two partitions, with a DDL to both in the middle; origin offsets {"i": index}. */
    private static List<Outgoing> interleaved(int rows) {
        List<Outgoing> events = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            if (i == rows / 2) {
                DdlChange ddl = new DdlChange("s", "t", "ALTER TABLE t ADD c INT", DdlChange.Kind.ALTER, 500L + i);
                events.add(new Outgoing("top", 0, ddl, origin(events.size())));
                events.add(new Outgoing("top", 1, ddl, origin(events.size())));
            }
            RowChange r = RowChange.insert(T, new Object[] {(long) i}, 1000L + i);
            events.add(new Outgoing("top", i % 2, r, origin(events.size())));
        }
        return events;
    }

    private static SourceRecord origin(int i) {
        return new SourceRecord(Map.of("server", "p"), Map.of("i", i), "dbz", null, null, null, null, null);
    }

    private static void assertClaimsNeverSkipAnEvent(List<Outgoing> events, List<Message> messages,
                                                     List<SourceRecord> records) {
        assertEquals(messages.size(), records.size());
        java.util.BitSet sent = new java.util.BitSet();
        for (int k = 0; k < records.size(); k++) {
            for (int i : messages.get(k).events()) sent.set(i);
            Map<String, ?> offset = records.get(k).sourceOffset();
            if (offset != null) {
                int claimed = (Integer) offset.get("i");
                assertTrue(sent.nextClearBit(0) > claimed, "record " + k + " claims event " + claimed
                        + " but events " + sent + " are all that was sent so far");
                assertEquals(Map.of("server", "p"), records.get(k).sourcePartition());
            }
        }
        assertEquals(events.size(), sent.cardinality(), "every event is in a message");
        SourceRecord last = records.get(records.size() - 1);
        assertNotNull(last.sourceOffset(), "the poll's last message claims everything");
        assertEquals(events.size() - 1, last.sourceOffset().get("i"));
    }

    private static Map<String, String> openOptions() {
        Map<String, String> o = new HashMap<>();
        o.put("max-batch-size", "3");
        return o;
    }

    @Test
    void openProtocolBatchesAcrossPartitionsClaimOnlyCompletePrefixes() {
        List<Outgoing> events = interleaved(20);
        MessageEncoder enc = new PartitionedEncoder(() -> {
            var e = EventEncoders.create(EventEncoders.OPEN_PROTOCOL, openOptions());
            return new io.cdcconnect.source.emit.StreamEncoder() {
                public List<io.cdcconnect.codec.EncodedMessage> encode(String topic, ChangeEvent ev) {
                    return e.encode(topic, ev);
                }

                public List<io.cdcconnect.codec.EncodedMessage> flush() {
                    return e.flush();
                }
            };
        }, true, true, true);
        List<Message> messages = enc.encode(events);
        Map<String, ?> previous = Map.of("i", -1); // the offset handed to Connect by an earlier poll
        List<SourceRecord> records = CdcSourceTask.toRecords(events, messages, previous);
        assertClaimsNeverSkipAnEvent(events, messages, records);
        // Connect commits the last acknowledged record's offset as it is: a null would delete the stored position.
        assertTrue(records.stream().noneMatch(r -> r.sourceOffset() == null), "no record may carry a null offset");
        int repeats = 0;
        Map<String, ?> before = previous;
        for (SourceRecord r : records) {
            if (r.sourceOffset().equals(before)) repeats++;
            before = r.sourceOffset();
        }
        assertTrue(repeats > 0, "interleaving forces some records to claim nothing new and repeat the latest claim");
        assertPartitionOrder(records);
    }

    @Test
    void encoderGroupKeepsPartitionOrderAndClaimsOnlyCompletePrefixes() {
        List<Outgoing> events = interleaved(200);
        try (GroupEncoder enc = new GroupEncoder(3, 1 << 20, 7,
                () -> EventEncoders.create(EventEncoders.OPEN_PROTOCOL, openOptions()), true, true, true)) {
            List<Message> messages = enc.encode(events);
            List<SourceRecord> records = CdcSourceTask.toRecords(events, messages);
            assertClaimsNeverSkipAnEvent(events, messages, records);
            assertPartitionOrder(records);
        }
    }

    @Test
    void aDdlSaysToHowManyPartitionsItWentAndRowsCarryNoHeader() {
        List<Outgoing> events = interleaved(6);
        try (GroupEncoder enc = new GroupEncoder(2, 1 << 20, 7,
                () -> EventEncoders.create(EventEncoders.CANAL_JSON, Map.of()), false, false, true)) {
            List<SourceRecord> records = CdcSourceTask.toRecords(events, enc.encode(events));
            int ddl = 0;
            for (SourceRecord r : records) {
                var h = r.headers().lastWithName(io.cdcconnect.codec.KafkaHeaders.DDL_PARTITIONS);
                boolean isDdl = new String((byte[]) r.value(), java.nio.charset.StandardCharsets.UTF_8)
                        .contains("\"isDdl\":true");
                if (isDdl) {
                    ddl++;
                    assertNotNull(h, "a DDL copy says how many copies there are");
                    assertEquals("2", h.value());
                } else {
                    assertEquals(null, h, "rows carry no header");
                }
            }
            assertEquals(2, ddl);
        }
    }

    @Test
    void encoderGroupUnderATinyMemoryBoundStillFinishes() {
        List<Outgoing> events = interleaved(100);
        try (GroupEncoder enc = new GroupEncoder(2, 1024, 5,
                () -> EventEncoders.create(EventEncoders.CANAL_JSON, Map.of()), false, false, true)) {
            List<Message> messages = enc.encode(events);
            assertClaimsNeverSkipAnEvent(events, messages, CdcSourceTask.toRecords(events, messages));
        }
    }

    @Test
    void closingTheEncoderFromAnotherThreadEndsAnEncodeInProgress() throws Exception {
        List<Outgoing> events = interleaved(2_000);
        // A slow encoder (5 ms per event) so that work is still queued when the task is stopped.
        GroupEncoder enc = new GroupEncoder(1, 1 << 30, 1, () -> {
            io.cdcconnect.codec.EventEncoder real = EventEncoders.create(EventEncoders.CANAL_JSON, Map.of());
            return new io.cdcconnect.codec.EventEncoder() {
                public List<io.cdcconnect.codec.EncodedMessage> encode(String topic, ChangeEvent event) {
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return real.encode(topic, event);
                }

                public List<io.cdcconnect.codec.EncodedMessage> flush() {
                    return real.flush();
                }

                public String format() {
                    return real.format();
                }
            };
        }, false, false, true);
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread poller = new Thread(() -> {
            try {
                enc.encode(events);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        poller.start();
        Thread.sleep(100);
        enc.close();
        poller.join(10_000);
        assertTrue(!poller.isAlive(), "the encoding thread is not left waiting");
        assertTrue(failure.get() != null, "the unfinished encode fails instead of returning part of the poll");
    }

    @Test
    void canalJsonMessagesEachCarryTheirOwnRowsOffset() {
        List<Outgoing> events = interleaved(10);
        MessageEncoder enc = new PartitionedEncoder(() -> {
            var e = EventEncoders.create(EventEncoders.CANAL_JSON, Map.of());
            return new io.cdcconnect.source.emit.StreamEncoder() {
                public List<io.cdcconnect.codec.EncodedMessage> encode(String topic, ChangeEvent ev) {
                    return e.encode(topic, ev);
                }

                public List<io.cdcconnect.codec.EncodedMessage> flush() {
                    return e.flush();
                }
            };
        }, false, false, true);
        List<SourceRecord> records = CdcSourceTask.toRecords(events, enc.encode(events));
        for (int i = 0; i < records.size(); i++) {
            assertEquals(i, records.get(i).sourceOffset().get("i"));
            assertEquals(events.get(i).partition(), records.get(i).kafkaPartition());
            assertEquals(null, records.get(i).key());
        }
    }

    /**
     * One Debezium record becomes several events: an update whose key moves between partitions (a delete and an
     * insert) and a DDL copy for each of three partitions. Its offset means "resume after the whole record", so no
     * message may claim it before the record's last event is sent: a commit there (Connect's offset flush, or an
     * exactly-once transaction) would otherwise lose the rest on a restart.
     */
    @Test
    void aRecordsOffsetIsClaimedOnlyWithTheLastOfItsEvents() {
        List<Outgoing> events = new ArrayList<>();
        List<SourceRecord> origins = new ArrayList<>();
        for (int r = 0; r < 12; r++) {
            SourceRecord origin = origin(r);
            origins.add(origin);
            if (r % 4 == 1) {
                DdlChange ddl = new DdlChange("s", "t", "ALTER TABLE t ADD c" + r + " INT", DdlChange.Kind.ALTER, 500L + r);
                for (int p = 0; p < 3; p++) events.add(new Outgoing("top", p, ddl, origin));
            } else if (r % 4 == 3) {
                events.add(new Outgoing("top", r % 3, RowChange.delete(T, new Object[] {(long) r}, 1000L + r), origin));
                events.add(new Outgoing("top", (r + 1) % 3, RowChange.insert(T, new Object[] {(long) r + 100}, 1000L + r),
                        origin));
            } else {
                events.add(new Outgoing("top", r % 3, RowChange.insert(T, new Object[] {(long) r}, 1000L + r), origin));
            }
        }
        // one message per event, in the encoder group's order (partition by partition), not the events' order
        try (GroupEncoder enc = new GroupEncoder(2, 1 << 20, 2,
                () -> EventEncoders.create(EventEncoders.CANAL_JSON, Map.of()), false, false, true)) {
            List<Message> messages = enc.encode(events);
            List<SourceRecord> records = CdcSourceTask.toRecords(events, messages, Map.of("i", -1));
            java.util.BitSet sent = new java.util.BitSet();
            int claims = 0;
            Map<String, ?> before = Map.of("i", -1);
            for (int k = 0; k < records.size(); k++) {
                for (int i : messages.get(k).events()) sent.set(i);
                Map<String, ?> offset = records.get(k).sourceOffset();
                assertNotNull(offset, "record " + k);
                if (offset.equals(before)) continue;
                claims++;
                int claimed = (Integer) offset.get("i");
                for (int i = 0; i < events.size(); i++) {
                    if (((SourceRecord) events.get(i).origin()).sourceOffset().get("i") instanceof Integer o
                            && o <= claimed) {
                        assertTrue(sent.get(i), "record " + k + " claims source record " + claimed + " before its event "
                                + i + " (" + events.get(i).event().getClass().getSimpleName() + " to partition "
                                + events.get(i).partition() + ") is sent");
                    }
                }
                before = offset;
            }
            assertEquals(Map.of("i", 11), records.get(records.size() - 1).sourceOffset());
            assertTrue(claims > 1, "claims advance within the poll");
        }
    }

    /** Rows of each partition arrive in source order, and each DDL sits where it was. */
    private static void assertPartitionOrder(List<SourceRecord> records) {
        OpenProtocolDecoder decoder = new OpenProtocolDecoder();
        Map<Integer, List<Long>> seen = new HashMap<>();
        for (SourceRecord r : records) {
            for (ChangeEvent e : decoder.decode((byte[]) r.key(), (byte[]) r.value())) {
                long mark = e instanceof RowChange row ? (Long) row.after()[0] : -1L;
                seen.computeIfAbsent(r.kafkaPartition(), p -> new ArrayList<>()).add(mark);
            }
        }
        for (Map.Entry<Integer, List<Long>> e : seen.entrySet()) {
            List<Long> ids = e.getValue();
            long prev = -2;
            boolean ddlSeen = false;
            for (long id : ids) {
                if (id == -1) {
                    ddlSeen = true;
                    continue;
                }
                assertTrue(id > prev, "partition " + e.getKey() + " order " + ids);
                prev = id;
            }
            assertTrue(ddlSeen, "DDL on partition " + e.getKey());
        }
    }
}
