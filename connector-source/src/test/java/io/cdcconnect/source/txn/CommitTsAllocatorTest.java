package io.cdcconnect.source.txn;

import io.cdcconnect.codec.model.ChangeEvent;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommitTsAllocatorTest {
    private static final long SECOND = 1_700_000_000_000L;

    @Test
    void rowsOfOneTransactionShareItsTs() {
        CommitTsAllocator a = new CommitTsAllocator();
        long t1 = a.assign("0-1-5", SECOND + 123);
        assertEquals(t1, a.assign("0-1-5", SECOND + 123));
        assertEquals(ChangeEvent.tso(SECOND + 123, 0), t1, "binlog ms << 18 when nothing is in the way");
    }

    @Test
    void transactionsInTheSameWholeSecondGetTheFollowingMilliseconds() {
        CommitTsAllocator a = new CommitTsAllocator();
        long t1 = a.assign("a", SECOND);
        long t2 = a.assign("b", SECOND);
        long t3 = a.assign("c", SECOND);
        assertEquals(ChangeEvent.tso(SECOND, 0), t1);
        assertEquals(ChangeEvent.tso(SECOND + 1, 0), t2);
        assertEquals(ChangeEvent.tso(SECOND + 2, 0), t3);
        // The next second starts at its own time again.
        assertEquals(ChangeEvent.tso(SECOND + 1000, 0), a.assign("d", SECOND + 1000));
    }

    @Test
    void pastTheSecondsMillisecondsTheLogicalCounterRuns() {
        CommitTsAllocator a = new CommitTsAllocator();
        long prev = 0;
        for (int i = 0; i < 1200; i++) {
            long ts = a.assign("tx" + i, SECOND);
            assertTrue(ts > prev, "strictly rising at " + i);
            assertTrue(ChangeEvent.physicalMillis(ts) < SECOND + 1000, "stays within the event's second");
            prev = ts;
        }
        assertEquals(ChangeEvent.tso(SECOND + 999, 200), prev);
    }

    @Test
    void millisecondEventTimesUseTheLogicalCounter() {
        CommitTsAllocator a = new CommitTsAllocator();
        long t1 = a.assign("a", SECOND + 5);
        long t2 = a.assign("b", SECOND + 5);
        assertEquals(t1 + 1, t2);
    }

    @Test
    void aClockGoingBackwardsNeverLowersTheTs() {
        CommitTsAllocator a = new CommitTsAllocator();
        long t1 = a.assign("a", SECOND + 5000);
        long t2 = a.assign("b", SECOND);
        assertTrue(t2 > t1);
    }

    @Test
    void nullKeysAreTransactionsOfTheirOwn() {
        CommitTsAllocator a = new CommitTsAllocator();
        long t1 = a.assign(null, SECOND + 1);
        long t2 = a.assign(null, SECOND + 1);
        assertTrue(t2 > t1);
    }

    @Test
    void resolvedTsFollowsCompletedTransactionsOnly() {
        CommitTsAllocator a = new CommitTsAllocator();
        long t1 = a.assign("a", SECOND + 1);
        assertEquals(0, a.resolvedTs(), "open transaction is not resolved");
        a.complete("a");
        assertEquals(t1, a.resolvedTs());
        long t2 = a.assign("b", SECOND + 2);
        assertTrue(a.inTransaction());
        assertEquals(t1, a.resolvedTs());
        a.assign("c", SECOND + 3);
        assertEquals(t2, a.resolvedTs(), "a new transaction completes the previous one");
    }

    @Test
    void idleAdvanceMovesTheWatermarkAndLaterTransactionsStayAboveIt() {
        CommitTsAllocator a = new CommitTsAllocator();
        a.assign("a", SECOND);
        assertEquals(0, a.advanceIdle(SECOND + 10_000), "no advance while a transaction is open");
        a.complete("a");
        long wm = a.advanceIdle(SECOND + 10_000);
        assertEquals(ChangeEvent.tso(SECOND + 10_000, 0), wm);
        assertFalse(a.inTransaction());
        long late = a.assign("b", SECOND + 9_000); // binlog time truncated to the second, before the watermark
        assertTrue(late > wm);
    }
}
