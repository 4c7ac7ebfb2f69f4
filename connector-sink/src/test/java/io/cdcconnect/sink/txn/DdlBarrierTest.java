package io.cdcconnect.sink.txn;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DdlBarrierTest {

    private final SourcePartition p0 = new SourcePartition("t", 0);
    private final SourcePartition p1 = new SourcePartition("t", 1);
    private final SourcePartition other = new SourcePartition("u", 0);
    private final DdlBarrier barrier = new DdlBarrier();

    @Test
    void aDdlCompletesWhenEveryAssignedPartitionOfItsTopicDeliveredIt() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.assign(other);
        assertTrue(barrier.arrive(p0, "ddl"));
        assertTrue(barrier.isHeld(p0));
        assertFalse(barrier.isHeld(p1));
        assertFalse(barrier.complete("t"));
        assertTrue(barrier.arrive(p1, "ddl"));
        assertTrue(barrier.complete("t"), "partitions of other topics do not count");
        assertEquals(List.of(p0, p1), List.copyOf(barrier.release("t")));
        assertFalse(barrier.isHeld(p0));
    }

    @Test
    void revokingALaggingPartitionCompletesTheDdl() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.arrive(p0, "ddl");
        barrier.unassign(p1);
        assertTrue(barrier.complete("t"));
    }

    @Test
    void anotherDdlWhileOneIsPendingIsRefused() {
        barrier.assign(p0);
        barrier.assign(p1);
        barrier.arrive(p0, "a");
        assertFalse(barrier.arrive(p1, "b"));
    }
}
