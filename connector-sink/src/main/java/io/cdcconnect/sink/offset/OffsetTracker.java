package io.cdcconnect.sink.offset;

import io.cdcconnect.sink.txn.SourcePartition;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Knows, per partition, the highest offset below which every record has been applied downstream.
 *
 * <p>The task thread registers a {@link Ticket} for each transaction in offset order; workers mark tickets done in
 * any order; {@link #appliedOffsets()} returns only fully applied prefixes. Registration and reading happen on the task
 * thread; {@link Ticket#markDone()} may be called from any thread.
 */
public final class OffsetTracker {

    /** One unit of work that covers records up to {@link #offset()}. */
    public static final class Ticket {
        private final long offset;
        private volatile boolean done;

        Ticket(long offset) {
            this.offset = offset;
        }

        public long offset() {
            return offset;
        }

        public void markDone() {
            done = true;
        }

        public boolean isDone() {
            return done;
        }
    }

    private static final class PartitionState {
        final ArrayDeque<Ticket> pending = new ArrayDeque<>();
        long applied = -1;
    }

    private final Map<SourcePartition, PartitionState> partitions = new HashMap<>();

    /** Registers work covering records through {@code offset}; offsets must not decrease per partition. */
    public Ticket register(SourcePartition partition, long offset) {
        PartitionState state = partitions.computeIfAbsent(partition, p -> new PartitionState());
        Ticket last = state.pending.peekLast();
        long floor = last != null ? last.offset : state.applied;
        if (offset < floor) {
            throw new IllegalStateException("offset " + offset + " registered after " + floor + " on " + partition);
        }
        Ticket t = new Ticket(offset);
        state.pending.addLast(t);
        return t;
    }

    /**
     * The highest offset per partition through which all registered work is done; partitions with nothing applied
     * yet are absent. Advances past done tickets.
     */
    public Map<SourcePartition, Long> appliedOffsets() {
        Map<SourcePartition, Long> result = new HashMap<>();
        for (Map.Entry<SourcePartition, PartitionState> e : partitions.entrySet()) {
            PartitionState s = e.getValue();
            Ticket head;
            while ((head = s.pending.peekFirst()) != null && head.done) {
                s.pending.pollFirst();
                s.applied = Math.max(s.applied, head.offset);
            }
            if (s.applied >= 0) result.put(e.getKey(), s.applied);
        }
        return result;
    }

    /** Number of tickets not yet done, over all partitions. */
    public int pendingCount() {
        int n = 0;
        for (PartitionState s : partitions.values()) {
            for (Ticket t : s.pending) {
                if (!t.done) n++;
            }
        }
        return n;
    }

    public void forget(SourcePartition partition) {
        partitions.remove(partition);
    }
}
