package io.cdcconnect.sink.offset;

import io.cdcconnect.sink.txn.SourcePartition;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OffsetTrackerTest {

    private final SourcePartition p0 = new SourcePartition("t", 0);
    private final SourcePartition p1 = new SourcePartition("t", 1);
    private final OffsetTracker tracker = new OffsetTracker();

    @Test
    void nothingIsReportedBeforeAnythingIsApplied() {
        tracker.register(p0, 5);
        assertTrue(tracker.appliedOffsets().isEmpty());
    }

    @Test
    void onlyTheFullyAppliedPrefixIsReported() {
        OffsetTracker.Ticket a = tracker.register(p0, 3);
        OffsetTracker.Ticket b = tracker.register(p0, 7);
        OffsetTracker.Ticket c = tracker.register(p0, 9);
        c.markDone();
        assertTrue(tracker.appliedOffsets().isEmpty(), "a later transaction done first must not move the offset");
        a.markDone();
        assertEquals(Map.of(p0, 3L), tracker.appliedOffsets());
        b.markDone();
        assertEquals(Map.of(p0, 9L), tracker.appliedOffsets());
        assertEquals(0, tracker.pendingCount());
    }

    @Test
    void partitionsAdvanceIndependently() {
        tracker.register(p0, 1);
        tracker.register(p1, 4).markDone();
        assertEquals(Map.of(p1, 4L), tracker.appliedOffsets());
    }

    @Test
    void offsetsMustNotGoBackwards() {
        tracker.register(p0, 10);
        assertThrows(IllegalStateException.class, () -> tracker.register(p0, 9));
    }

    @Test
    void forgottenPartitionsAreNoLongerReported() {
        tracker.register(p0, 2).markDone();
        tracker.forget(p0);
        assertTrue(tracker.appliedOffsets().isEmpty());
    }
}
