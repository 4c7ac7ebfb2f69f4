package io.cdcconnect.sink.conflict;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConflictDetectorTest {

    private final List<String> ready = new ArrayList<>();
    private final ConflictDetector<String> detector = new ConflictDetector<>(n -> ready.add(n.payload()));

    /** A unit given back comes again only after every earlier unit finished, whatever keys they touch. */
    @Test
    void aDeferredUnitComesAgainAfterEveryEarlierUnitFinished() {
        ConflictDetector.Node<String> a = detector.add("a", new long[]{1});
        ConflictDetector.Node<String> b = detector.add("b", new long[]{2});
        ConflictDetector.Node<String> c = detector.add("c", new long[]{3});
        ConflictDetector.Node<String> d = detector.add("d", new long[]{3}); // waits for c by its key
        assertEquals(List.of("a", "b", "c"), ready);
        assertTrue(detector.deferUntilEarlierDone(c));
        detector.done(b);
        assertEquals(List.of("a", "b", "c"), ready, "a is still running");
        detector.done(a);
        assertEquals(List.of("a", "b", "c", "c"), ready, "c comes again; d still waits for it");
        // nothing earlier is unfinished now: no deferral, the refusal is the unit's own
        assertEquals(false, detector.deferUntilEarlierDone(c));
        detector.done(c);
        assertEquals(List.of("a", "b", "c", "c", "d"), ready);
        detector.done(d);
        assertEquals(0, detector.inFlight());
        assertEquals(0, detector.trackedKeys());
    }

    @Test
    void disjointKeysAreReadyAtOnce() {
        detector.add("a", new long[]{1, 2});
        detector.add("b", new long[]{3});
        detector.add("c", new long[]{4, 5});
        assertEquals(List.of("a", "b", "c"), ready);
    }

    @Test
    void sharedKeyWaitsForTheEarlierWriter() {
        ConflictDetector.Node<String> a = detector.add("a", new long[]{1});
        detector.add("b", new long[]{1});
        assertEquals(List.of("a"), ready);
        detector.done(a);
        assertEquals(List.of("a", "b"), ready);
    }

    @Test
    void waitsForEveryConflictingPredecessor() {
        ConflictDetector.Node<String> a = detector.add("a", new long[]{1});
        ConflictDetector.Node<String> b = detector.add("b", new long[]{2});
        detector.add("c", new long[]{1, 2});
        detector.done(b);
        assertEquals(List.of("a", "b"), ready);
        detector.done(a);
        assertEquals(List.of("a", "b", "c"), ready);
    }

    @Test
    void dependsOnlyOnTheLatestWriterOfAKey() {
        ConflictDetector.Node<String> a = detector.add("a", new long[]{7});
        ConflictDetector.Node<String> b = detector.add("b", new long[]{7});
        detector.add("c", new long[]{7});
        detector.done(a);
        assertEquals(List.of("a", "b"), ready);
        detector.done(b);
        assertEquals(List.of("a", "b", "c"), ready);
    }

    @Test
    void sameDependencyThroughTwoKeysCountsOnce() {
        ConflictDetector.Node<String> a = detector.add("a", new long[]{1, 2, 2});
        detector.add("b", new long[]{2, 1});
        detector.done(a);
        assertEquals(List.of("a", "b"), ready);
    }

    @Test
    void finishedWorkIsForgottenSoMemoryFollowsWorkInFlight() throws Exception {
        for (int i = 0; i < 1000; i++) {
            detector.done(detector.add("x" + i, new long[]{i, i + 1}));
        }
        assertEquals(0, detector.trackedKeys());
        assertEquals(0, detector.inFlight());
        assertTrue(detector.awaitIdle(1));
    }

    @Test
    void addingNeverBlocksEvenWhenEverythingConflicts() {
        ConflictDetector.Node<String> first = detector.add("first", new long[]{1});
        long start = System.nanoTime();
        for (int i = 0; i < 10_000; i++) detector.add("w" + i, new long[]{1});
        assertTrue(System.nanoTime() - start < 2_000_000_000L);
        assertEquals(List.of("first"), ready);
        assertEquals(10_001, detector.inFlight());
        detector.done(first);
        assertEquals(2, ready.size());
    }
}
