package io.cdcconnect.sink.ddl.order;

import io.cdcconnect.sink.txn.PendingRecord;
import io.cdcconnect.sink.txn.SourcePartition;

import java.util.Collection;

/**
 * Where the {@link DdlSequencer} holds the partitions that passed a statement that has not run, and lets them flow
 * again: the pipeline's {@code io.cdcconnect.sink.PartitionGates}. An interface so that ordering sits below the
 * pipeline that implements it.
 */
public interface PartitionHolds {

    /**
     * Holds {@code p} until each statement of {@code keys} has run ({@link #unhold}): {@code rest} (what is left of
     * the record that showed it passed them) goes first when it flows again, then its later records.
     */
    void hold(SourcePartition p, Collection<String> keys, PendingRecord rest);

    /** Holds {@code p}, which passed the statement {@code key} without delivering anything here, until it has run. */
    void hold(SourcePartition p, String key);

    /** The statement {@code key} has run (or no longer waits): {@code p} flows again once it waits for no other. */
    void unhold(SourcePartition p, String key);
}
