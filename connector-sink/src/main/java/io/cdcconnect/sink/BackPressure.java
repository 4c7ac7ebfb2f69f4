package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.txn.PendingRecord;
import io.cdcconnect.sink.txn.TransactionAssembler;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The byte buffer between Connect and the workers: the bytes of rows taken count against {@code buffer.max.bytes}
 * until the rows are committed. A record that does not fit waits for room at most what is left of the
 * {@code put()}'s {@code buffer.max.wait.ms}; which records wait meanwhile, and which partitions are paused, is the
 * {@link PartitionGates}' business.
 */
final class BackPressure {

    private final long maxBytes;
    private final long maxWaitMillis;
    private final TransactionAssembler assembler;
    private final ApplyBackend apply;
    private final AtomicLong buffered = new AtomicLong();
    private final Object bufferSignal = new Object();
    private long batchDeadline;

    /**
     * @param assembler its open transactions are handed to the workers when the buffer is full, so that it can drain
     * @param apply     whose failure ends a wait for room
     */
    BackPressure(long maxBytes, long maxWaitMillis, TransactionAssembler assembler, ApplyBackend apply) {
        this.maxBytes = maxBytes;
        this.maxWaitMillis = maxWaitMillis;
        this.assembler = assembler;
        this.apply = apply;
    }

    /** Bytes of rows taken and not yet committed. */
    long bytes() {
        return buffered.get();
    }

    /** Starts one {@code put()}: from now on it may wait up to {@code buffer.max.wait.ms} for buffer room. */
    void beginBatch() {
        batchDeadline = System.currentTimeMillis() + maxWaitMillis;
    }

    static int rowCount(List<ChangeEvent> events) {
        int rows = 0;
        for (ChangeEvent e : events) {
            if (e instanceof RowChange) rows++;
        }
        return rows;
    }

    /** Rows taken into an open transaction: their bytes count until committed. */
    void reserve(long bytes) {
        buffered.addAndGet(bytes);
    }

    /**
     * Whether the rows of {@code r} fit in the buffer, waiting for workers to free room until the batch's wait is over
     * (a record without rows takes no room).
     */
    boolean hasRoom(PendingRecord r) {
        if (rowCount(r.events()) == 0 || fits(r.bytes())) return true;
        // rows waiting in open transactions count too: hand them to the workers so the buffer can drain
        assembler.closeAll();
        synchronized (bufferSignal) {
            while (!fits(r.bytes())) {
                apply.checkFailure();
                long left = batchDeadline - System.currentTimeMillis();
                if (left <= 0) return false;
                try {
                    bufferSignal.wait(Math.min(left, 50));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ApplyException("interrupted while waiting for buffer room at " + r.partition() + "@"
                            + r.offset());
                }
            }
        }
        return true;
    }

    /** An empty buffer takes any record, however large: one larger than the buffer still goes through alone. */
    private boolean fits(long bytes) {
        long now = buffered.get();
        return now == 0 || now + bytes <= maxBytes;
    }

    /** Bytes committed (or dropped): they leave the buffer. Any thread. */
    void release(long bytes) {
        buffered.addAndGet(-bytes);
        wake();
    }

    /** Wakes the task thread waiting for room (after a release, or a failure it must see). Any thread. */
    void wake() {
        synchronized (bufferSignal) {
            bufferSignal.notifyAll();
        }
    }
}
