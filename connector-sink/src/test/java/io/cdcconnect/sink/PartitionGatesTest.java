package io.cdcconnect.sink;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.PartitionGates.State;
import io.cdcconnect.sink.apply.WorkItem;
import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.txn.PartitionControl;
import io.cdcconnect.sink.txn.PendingRecord;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.txn.TransactionAssembler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gates alone: their states, the pause and resume calls they make, the order they keep, what a revoke drops. */
class PartitionGatesTest {

    private static final long MAX_BYTES = 100;

    private final SourcePartition p0 = new SourcePartition("t", 0);
    private final SourcePartition p1 = new SourcePartition("t", 1);
    private final SourcePartition p2 = new SourcePartition("t", 2);
    private final TableInfo table = Rows.idValue("db", "t");
    /** What the gates asked of Connect, in order. */
    private final List<String> calls = new ArrayList<>();
    private BackPressure buffer;
    private PartitionGates gates;

    @BeforeEach
    void setUp() {
        // no wait for room: a record that does not fit waits for a later put()
        buffer = new BackPressure(MAX_BYTES, 0, new TransactionAssembler(100, txn -> { }), new ApplyBackend() {
            @Override
            public ConflictDetector<WorkItem> detector() {
                return null;
            }

            @Override
            public boolean awaitIdle(long timeoutMillis) {
                return true;
            }

            @Override
            public void checkFailure() {
            }

            @Override
            public void close() {
            }
        });
        gates = new PartitionGates(buffer);
        gates.setPartitionControl(new PartitionControl() {
            @Override
            public void pause(SourcePartition p) {
                calls.add("pause " + p);
            }

            @Override
            public void resume(SourcePartition p) {
                calls.add("resume " + p);
            }
        });
        for (SourcePartition p : List.of(p0, p1, p2)) gates.assign(p);
        buffer.beginBatch();
    }

    /** A record of one row, of 10 bytes. */
    private PendingRecord record(SourcePartition p, long offset) {
        return new PendingRecord(p, offset, List.of(RowChange.insert(table, new Object[]{offset, "x"}, 1)), 10, 0);
    }

    /** What the gates let through now, as partition@offset. */
    private List<String> taken() {
        List<String> out = new ArrayList<>();
        for (PendingRecord r = gates.next(); r != null; r = gates.next()) out.add(r.partition() + "@" + r.offset());
        return out;
    }

    @Test
    void flowingPartitionsPassTheirRecordsInOrderWithoutPausing() {
        gates.add(record(p0, 0));
        gates.add(record(p1, 0));
        gates.add(record(p0, 1));
        gates.add(record(p1, 1));
        List<String> taken = taken();
        assertEquals(List.of("t-0@0", "t-0@1"), taken.stream().filter(s -> s.startsWith("t-0")).toList());
        assertEquals(List.of("t-1@0", "t-1@1"), taken.stream().filter(s -> s.startsWith("t-1")).toList());
        assertEquals(List.of(), calls);
        assertEquals(State.FLOWING, gates.state(p0));
        assertFalse(gates.waitingForRoom());
    }

    @Test
    void aHeldPartitionIsPausedUntilEveryStatementItWaitsForHasRunThenItsRestGoesFirst() {
        gates.add(record(p0, 5));
        gates.hold(p0, List.of("k1", "k2"), record(p0, 4));
        gates.add(record(p0, 6));
        gates.add(record(p1, 0));
        assertEquals(State.HELD, gates.state(p0));
        assertEquals(List.of("pause t-0"), calls);
        assertEquals(List.of("t-1@0"), taken(), "another partition flows on");

        gates.unhold(p0, "k1");
        assertEquals(State.HELD, gates.state(p0), "it still waits for k2");
        assertEquals(List.of(), taken());

        gates.unhold(p0, "k2");
        assertEquals(State.FLOWING, gates.state(p0));
        assertEquals(List.of("pause t-0", "resume t-0"), calls);
        assertEquals(List.of("t-0@4", "t-0@5", "t-0@6"), taken(), "the rest of the record first, then the later ones");
    }

    @Test
    void aPartitionThatPassedAStatementWithoutRecordsIsHeldForIt() {
        gates.hold(p1, "k");
        gates.hold(p1, "k");
        assertEquals(List.of("pause t-1"), calls, "paused once");
        gates.add(record(p1, 3));
        assertEquals(List.of(), taken());
        gates.unhold(p1, "other");
        assertEquals(State.HELD, gates.state(p1));
        gates.unhold(p1, "k");
        assertEquals(List.of("pause t-1", "resume t-1"), calls);
        assertEquals(List.of("t-1@3"), taken());
    }

    @Test
    void aFullBufferPausesEveryPartitionUntilTheWaitingRecordsAreTaken() {
        gates.hold(p2, "k");
        buffer.reserve(MAX_BYTES);
        gates.add(record(p0, 0));
        gates.add(record(p0, 1));
        assertNull(gates.next());
        assertTrue(gates.waitingForRoom());
        assertEquals(List.of("pause t-2", "pause t-0", "pause t-1"), calls, "a held partition is not paused twice");
        assertEquals(State.WAITING_FOR_ROOM, gates.state(p0));
        assertEquals(State.WAITING_FOR_ROOM, gates.state(p1));
        assertEquals(State.HELD, gates.state(p2));

        gates.unhold(p2, "k");
        assertEquals(State.WAITING_FOR_ROOM, gates.state(p2), "released while the buffer is full: it stays paused");
        assertEquals(3, calls.size());

        buffer.release(MAX_BYTES);
        assertEquals(List.of("t-0@0", "t-0@1"), taken());
        assertFalse(gates.waitingForRoom());
        assertEquals(List.of("resume t-0", "resume t-1", "resume t-2"), calls.subList(3, calls.size()));
        assertEquals(State.FLOWING, gates.state(p2));
    }

    @Test
    void aRecordWithoutRowsNeedsNoRoom() {
        buffer.reserve(MAX_BYTES);
        gates.add(new PendingRecord(p0, 0, List.of(), 0, 0));
        assertEquals(List.of("t-0@0"), taken());
        assertEquals(List.of(), calls);
    }

    @Test
    void aPartitionAssignedWhileTheBufferIsFullIsPausedByTheNextRecordThatDoesNotFit() {
        buffer.reserve(MAX_BYTES);
        gates.add(record(p0, 0));
        assertNull(gates.next());
        SourcePartition p3 = new SourcePartition("t", 3);
        gates.assign(p3);
        assertEquals(State.FLOWING, gates.state(p3), "Connect resumes a partition it assigns");
        assertNull(gates.next());
        assertEquals(State.WAITING_FOR_ROOM, gates.state(p3));
        assertTrue(calls.contains("pause t-3"));
    }

    @Test
    void revokeDropsThePartitionsRecordsAndWhatItWaitedFor() {
        gates.hold(p0, List.of("k"), record(p0, 1));
        gates.add(record(p0, 2));
        gates.add(record(p1, 0));
        gates.revoke(p0);
        assertNull(gates.state(p0));
        assertEquals(List.of("t-1@0"), taken());
        gates.unhold(p0, "k");
        assertEquals(List.of("pause t-0"), calls, "the task resumes a revoked partition itself");
        gates.assign(p0);
        assertEquals(State.FLOWING, gates.state(p0));
        assertEquals(List.of(), taken(), "assigned again, it starts empty");
    }

    @Test
    void revokingTheOnlyPartitionWaitingForRoomResumesTheOthers() {
        buffer.reserve(MAX_BYTES);
        gates.add(record(p0, 0));
        assertNull(gates.next());
        gates.revoke(p0);
        assertNull(gates.next());
        assertFalse(gates.waitingForRoom());
        assertEquals(List.of("pause t-0", "pause t-1", "pause t-2", "resume t-1", "resume t-2"), calls);
    }

    @Test
    void describeNamesWhatDoesNotFlow() {
        assertEquals("all flowing", gates.describe());
        gates.hold(p1, List.of("7\u0000db\u0000DROP TABLE x"), record(p1, 4));
        assertEquals("t-1 HELD for [7 db DROP TABLE x] with 1 records", gates.describe());
    }
}
