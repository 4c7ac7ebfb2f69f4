package io.cdcconnect.sink.ddl;

import io.cdcconnect.sink.ddl.control.InMemoryControlStore;
import io.cdcconnect.sink.ddl.control.CheckpointVerifier;

import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.offset.RecordFingerprints;
import io.cdcconnect.sink.txn.SourcePartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CheckpointVerifier} on its own, over the in-memory store: a partition's checkpoint (at offset 5, written at a
 * record of fingerprint {@link #AT_CHECKPOINT}, after one of {@link #BEFORE} at offset 4) is trusted only once the
 * records at those offsets are shown to be the ones it was written at; a recreated topic's partition drops it and is
 * read from where Connect started it.
 */
class CheckpointVerifierTest {

    private static final SourcePartition P = new SourcePartition("t", 0);
    private static final long AT_CHECKPOINT = 111;
    private static final long BEFORE = 99;
    private static final long OTHER = 222;

    private InMemoryControlStore store;
    private CheckpointVerifier verifier;
    private final List<Long> seeks = new ArrayList<>();

    @BeforeEach
    void setUp() {
        store = new InMemoryControlStore(new InMemoryControlStore.Shared());
        RecordFingerprints prints = new RecordFingerprints();
        store.fingerprints(prints);
        prints.add(P, 1, 55);
        prints.applied(Map.of(P, 3L)); // offset 1 stays: one of the last few before the applied offset
        prints.add(P, 4, BEFORE);
        prints.add(P, 5, AT_CHECKPOINT);
        store.record(Map.of(P, 5L), 0, Set.of());
        verifier = new CheckpointVerifier(store);
        verifier.setSeeker((p, offset) -> {
            assertEquals(P, p);
            seeks.add(offset);
        });
        verifier.assigned(P);
        verifier.beginPut();
    }

    @Test
    void aPartitionWithoutACheckpointIsNotChecked() {
        SourcePartition other = new SourcePartition("t", 1);
        verifier.assigned(other);
        assertTrue(verifier.admit(other, 0, OTHER));
        assertEquals(List.of(), seeks);
    }

    @Test
    void aPartitionDeliveredAboveItsCheckpointIsNotChecked() {
        assertTrue(verifier.admit(P, 6, OTHER));
        assertTrue(verifier.admit(P, 7, OTHER));
        assertEquals(List.of(), seeks);
        assertEquals(5, store.appliedThrough(P));
    }

    @Test
    void theSameRecordAtTheCheckpointKeepsIt() {
        assertTrue(verifier.admit(P, 5, AT_CHECKPOINT));
        assertEquals(List.of(), seeks);
        assertEquals(5, store.appliedThrough(P), "the records through 5 are still replays");
    }

    @Test
    void anotherRecordAtTheCheckpointDropsIt() {
        assertTrue(verifier.admit(P, 5, OTHER), "Connect started there: nothing to read again");
        assertEquals(List.of(), seeks);
        assertEquals(-1, store.appliedThrough(P), "dropped, durably");
        assertNull(store.checkpointRecord(P));
    }

    @Test
    void deliveredBelowTheCheckpointItsRecordsAreReadFirst() {
        assertFalse(verifier.admit(P, 0, OTHER), "dropped: the partition is read from the checkpoint's records first");
        assertFalse(verifier.admit(P, 1, 55), "the rest of that put goes too");
        assertTrue(verifier.dropsRestOfPut(P));
        assertEquals(List.of(1L), seeks, "from the first offset the checkpoint keeps a fingerprint of");
        verifier.beginPut();
        assertFalse(verifier.dropsRestOfPut(P));
        assertFalse(verifier.admit(P, 1, 55), "the same record, below the checkpoint: skipped in any case");
        assertFalse(verifier.admit(P, 2, OTHER), "no fingerprint kept there: not compared");
        assertFalse(verifier.admit(P, 4, BEFORE));
        assertTrue(verifier.admit(P, 5, AT_CHECKPOINT), "every record the same: the same topic");
        assertTrue(verifier.admit(P, 6, OTHER));
        assertEquals(5, store.appliedThrough(P));
        assertEquals(List.of(1L), seeks);
    }

    @Test
    void deliveredWithinTheWindowNothingIsSought() {
        assertFalse(verifier.admit(P, 4, BEFORE));
        assertTrue(verifier.admit(P, 5, AT_CHECKPOINT));
        assertEquals(List.of(), seeks);
        assertEquals(5, store.appliedThrough(P));
    }

    @Test
    void oneOtherRecordBeforeTheCheckpointIsEnough() {
        assertFalse(verifier.admit(P, 0, OTHER));
        verifier.beginPut();
        assertFalse(verifier.admit(P, 1, 55));
        assertFalse(verifier.admit(P, 4, OTHER), "the record before the checkpoint's differs");
        assertFalse(verifier.admit(P, 5, AT_CHECKPOINT), "the rest of that put goes: the partition is read again");
        assertEquals(List.of(1L, 0L), seeks, "back to offset 0, where Connect started the partition");
        assertEquals(-1, store.appliedThrough(P));
        verifier.beginPut();
        assertTrue(verifier.admit(P, 0, OTHER));
        assertTrue(verifier.admit(P, 1, 55));
    }

    @Test
    void aRecreatedTopicIsReadAgainFromWhereConnectStartedIt() {
        assertFalse(verifier.admit(P, 0, OTHER));
        verifier.beginPut();
        assertFalse(verifier.admit(P, 1, OTHER), "another record at offset 1");
        assertFalse(verifier.admit(P, 2, OTHER));
        assertEquals(List.of(1L, 0L), seeks, "back to offset 0, where Connect started the partition");
        assertEquals(-1, store.appliedThrough(P));
        verifier.beginPut();
        assertTrue(verifier.admit(P, 0, OTHER));
        assertTrue(verifier.admit(P, 1, OTHER));
    }

    @Test
    void aPartitionEndingBeforeTheCheckpointIsAnotherTopic() {
        assertFalse(verifier.admit(P, 0, OTHER));
        assertEquals(List.of(1L), seeks);
        verifier.beginPut();
        // the seek to 1 was past the partition's end: the consumer went back to its earliest offset, 0
        assertTrue(verifier.admit(P, 0, OTHER), "where Connect started it: applied from here");
        assertEquals(-1, store.appliedThrough(P));
        assertEquals(List.of(1L), seeks);
        assertTrue(verifier.admit(P, 1, OTHER));
    }

    @Test
    void aGoneCheckpointRecordFailsLoudlyRatherThanGuess() {
        assertFalse(verifier.admit(P, 4, BEFORE));
        ApplyException e = assertThrows(ApplyException.class, () -> verifier.admit(P, 7, OTHER));
        assertTrue(e.getMessage().contains("record at 5 is gone") && e.getMessage().contains("PATCH")
                && e.getMessage().contains("DELETE /connectors"), e.getMessage());
        assertEquals(5, store.appliedThrough(P), "kept: nothing was decided");
    }

    @Test
    void aCheckpointWithoutAFingerprintIsTrustedAsBefore() {
        SourcePartition old = new SourcePartition("t", 3);
        store.record(Map.of(old, 5L), 0, Set.of()); // no fingerprint known for it
        verifier.assigned(old);
        assertTrue(verifier.admit(old, 2, OTHER));
        assertEquals(List.of(), seeks);
        assertEquals(5, store.appliedThrough(old));
    }

    @Test
    void aReassignedPartitionIsCheckedAgain() {
        assertTrue(verifier.admit(P, 5, AT_CHECKPOINT));
        verifier.forget(P);
        verifier.assigned(P);
        verifier.beginPut();
        assertFalse(verifier.admit(P, 0, OTHER));
        assertEquals(List.of(1L), seeks);
    }

    @Test
    void withoutASeekerNothingIsChecked() {
        CheckpointVerifier blind = new CheckpointVerifier(store);
        assertTrue(blind.admit(P, 2, OTHER));
        assertEquals(5, store.appliedThrough(P));
    }

    @Test
    void fingerprintsTellRecordsApartByTimestampKeyAndValue() {
        SinkRecord a = record("k", "v", 10L);
        assertEquals(RecordFingerprints.of(a), RecordFingerprints.of(record("k", "v", 10L)), "the same in any JVM run");
        assertNotEquals(RecordFingerprints.of(a), RecordFingerprints.of(record("k", "v", 11L)));
        assertNotEquals(RecordFingerprints.of(a), RecordFingerprints.of(record("k2", "v", 10L)));
        assertNotEquals(RecordFingerprints.of(a), RecordFingerprints.of(record("k", "w", 10L)));
        SinkRecord bytes = new SinkRecord("t", 0, null, null, null, "v".getBytes(StandardCharsets.UTF_8), 0, 10L,
                org.apache.kafka.common.record.TimestampType.CREATE_TIME);
        assertEquals(RecordFingerprints.of(bytes), RecordFingerprints.of(new SinkRecord("t", 0, null, null, null,
                "v".getBytes(StandardCharsets.UTF_8), 9, 10L, org.apache.kafka.common.record.TimestampType.CREATE_TIME)),
                "bytes by content; the offset is not part of it");
        assertNotEquals(RecordFingerprints.UNKNOWN, RecordFingerprints.of(new SinkRecord("t", 0, null, null, null,
                null, 0)));
        // a value Connect's JsonConverter makes from a Debezium envelope without schemas
        Map<String, Object> before = new java.util.LinkedHashMap<>();
        before.put("id", 1L);
        before.put("v", "x");
        Map<String, Object> after = new java.util.LinkedHashMap<>(before);
        after.put("v", "y");
        assertNotEquals(RecordFingerprints.of(record(null, before, 1L)), RecordFingerprints.of(record(null, after, 1L)));
    }

    @Test
    void fingerprintsAreKeptUntilApplied() {
        RecordFingerprints prints = new RecordFingerprints();
        for (long o = 0; o < 1000; o++) prints.add(P, o, o + 1);
        assertEquals(501, prints.at(P, 500));
        prints.applied(Map.of(P, 700L));
        assertEquals(RecordFingerprints.UNKNOWN, prints.at(P, 692), "well below the applied offset: never asked again");
        assertEquals(694, prints.at(P, 693), "the last few before it: a checkpoint there keeps them");
        assertEquals(701, prints.at(P, 700), "the applied offset itself: a checkpoint may be written there");
        RecordFingerprints.Window w = prints.window(P, 700);
        assertEquals(RecordFingerprints.WINDOW, w.offsets().length);
        assertEquals(693, w.lowest());
        assertEquals(700, w.last());
        assertEquals(w.encode(), RecordFingerprints.Window.decode(w.encode()).encode(), "stored and read back");
        assertNull(RecordFingerprints.Window.decode("1:zz"), "anything else says nothing");
        assertNull(prints.window(P, 1_500), "no record taken in there");
        // delivered again from 800 (a seek): what followed is taken in again
        prints.add(P, 800, 5);
        assertEquals(5, prints.at(P, 800));
        assertEquals(RecordFingerprints.UNKNOWN, prints.at(P, 900));
    }

    private static SinkRecord record(Object key, Object value, long timestamp) {
        return new SinkRecord("t", 0, null, key, null, value, 0, timestamp,
                org.apache.kafka.common.record.TimestampType.CREATE_TIME);
    }
}
