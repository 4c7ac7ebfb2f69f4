package io.cdcconnect.sink.ddl;

import io.cdcconnect.sink.ddl.order.DdlBarrier;

import io.cdcconnect.sink.txn.SourcePartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DdlBarrierTest {

    private static final long T = 1000L << 18;
    private final SourcePartition p0 = new SourcePartition("t", 0);
    private final SourcePartition p1 = new SourcePartition("t", 1);
    private final SourcePartition other = new SourcePartition("u", 0);
    private final DdlBarrier barrier = new DdlBarrier();

    @Test
    void aDdlCompletesWhenEveryAssignedPartitionOfItsTopicDeliveredIt() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.assign(other);
        barrier.arrive(p0, "ddl", T, 5, 0);
        assertTrue(barrier.isPendingStatement("t", "ddl"));
        assertEquals(Set.of(p1), barrier.missing("t", "ddl"));
        assertFalse(barrier.complete("t", "ddl"));
        barrier.arrive(p1, "ddl", T, 7, 0);
        assertTrue(barrier.complete("t", "ddl"), "partitions of other topics do not count");
        assertEquals(Map.of(p0, 5L, p1, 7L), barrier.release("t", "ddl"));
        assertFalse(barrier.isPending("t"));
    }

    @Test
    void aPartitionPassesTheDdlWithAnEventCommittedAfterItOrAWatermarkAtIt() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.arrive(p0, "ddl", T, 5, 0);
        assertFalse(barrier.showsPassed(p1, T - 1, false), "a row from before the DDL");
        assertFalse(barrier.showsPassed(p1, T, false), "a row of the DDL's own commit ts is not after it");
        assertFalse(barrier.showsPassed(p1, 0, false), "an unknown time shows nothing");
        assertTrue(barrier.showsPassed(p1, T, true), "a watermark at the DDL: everything up to it has arrived");
        assertTrue(barrier.showsPassed(p1, T + 1, false));
        assertFalse(barrier.showsPassed(other, T + 1, false), "no DDL waits on the other topic");
        barrier.passed(p1, "ddl");
        assertTrue(barrier.complete("t", "ddl"));
        assertEquals(List.of(p0, p1), List.copyOf(barrier.release("t", "ddl").keySet()));
    }

    /**
     * cdc-connect's source counts a statement's copies and sends one to every partition: only the copy shows that a
     * partition passed it. A row stamped later does not (two producers on one topic, or a clock stepped back, would
     * let the statement overtake that partition's older rows).
     */
    @Test
    void aStatementWithCountedCopiesWaitsForTheCopiesOnly() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.arrive(p0, "ddl", T, 5, 0, true);
        assertFalse(barrier.showsPassed(p1, T + 1, false), "a later row is no evidence when copies are counted");
        assertFalse(barrier.showsPassed(p1, T + 1, true), "nor is a watermark");
        assertFalse(barrier.complete("t", "ddl"));
        barrier.arrive(p1, "ddl", T, 9, 0, true);
        assertTrue(barrier.complete("t", "ddl"));
    }

    @Test
    void aDdlOfUnknownTimeWaitsForCopies() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.arrive(p0, "ddl", 0, 5, 0);
        assertFalse(barrier.showsPassed(p1, T, false));
        assertFalse(barrier.complete("t", "ddl"));
    }

    @Test
    void revokingALaggingPartitionCompletesTheDdl() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.arrive(p0, "ddl", T, 5, 0);
        barrier.unassign(p1);
        assertTrue(barrier.complete("t", "ddl"));
    }

    /**
     * After a rebalance or a restart each partition resumes from its own committed offset: one may still be at an
     * earlier statement while another is at a later one. Both wait, each completes with its own partitions.
     */
    @Test
    void aLaggingPartitionsEarlierStatementWaitsBesideALaterOne() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.arrive(p0, "later", T, 9, 0, true);
        barrier.arrive(p1, "earlier", T - 1, 5, 0, true);
        assertEquals(List.of("later", "earlier"), barrier.pendingKeys("t"));
        assertEquals(Set.of(p1), barrier.missing("t", "later"));
        assertEquals(Set.of(p0), barrier.missing("t", "earlier"));
        barrier.passed(p0, "earlier"); // the store says p0 passed it before this task received p0
        assertTrue(barrier.complete("t", "earlier"));
        assertFalse(barrier.complete("t", "later"));
        assertEquals(Map.of(p1, 5L, p0, -1L), barrier.release("t", "earlier"));
        assertEquals(List.of("later"), barrier.pendingKeys("t"));
        assertEquals(0, barrier.waitingSince("t", "later"));
    }
}
