package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.ddl.DdlSequencer;
import io.cdcconnect.sink.txn.PartitionControl;
import io.cdcconnect.sink.txn.PendingRecord;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.txn.TransactionAssembler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The byte buffer between Connect and the workers: records wait in arrival order until their rows fit under
 * {@code buffer.max.bytes}; their bytes count until the rows are committed. When the next record does not fit within
 * the batch's {@code buffer.max.wait.ms}, every partition is paused, and resumed once the backlog is through (except
 * those behind a DDL barrier).
 */
final class BackPressure {

    private static final Logger LOG = LoggerFactory.getLogger(BackPressure.class);

    private final long maxBytes;
    private final long maxWaitMillis;
    private final TransactionAssembler assembler;
    private final DdlSequencer ddl;
    private final Runnable checkFailure;
    private final Consumer<PendingRecord> route;
    private final Supplier<String> origin;
    private final AtomicLong buffered = new AtomicLong();
    private final Object bufferSignal = new Object();
    private final ArrayDeque<PendingRecord> backlog = new ArrayDeque<>();
    private PartitionControl partitionControl = PartitionControl.NONE;
    private boolean pausedForBuffer;
    private boolean draining;
    private long batchDeadline;

    /**
     * @param checkFailure throws the first apply failure
     * @param route        processes a record taken from the backlog
     * @param origin       where the pipeline is (partition@offset), for messages
     */
    BackPressure(long maxBytes, long maxWaitMillis, TransactionAssembler assembler, DdlSequencer ddl,
                 Runnable checkFailure, Consumer<PendingRecord> route, Supplier<String> origin) {
        this.maxBytes = maxBytes;
        this.maxWaitMillis = maxWaitMillis;
        this.assembler = assembler;
        this.ddl = ddl;
        this.checkFailure = checkFailure;
        this.route = route;
        this.origin = origin;
    }

    void setPartitionControl(PartitionControl control) {
        this.partitionControl = control == null ? PartitionControl.NONE : control;
    }

    /** Bytes of rows taken and not yet committed. */
    long bytes() {
        return buffered.get();
    }

    /** Whether every partition is paused for a full buffer. */
    boolean paused() {
        return pausedForBuffer;
    }

    /** Starts one {@code put()}: from now on it may wait up to {@code buffer.max.wait.ms} for buffer room. */
    void beginBatch() {
        batchDeadline = System.currentTimeMillis() + maxWaitMillis;
    }

    /** A record to process after those already waiting. */
    void add(PendingRecord r) {
        backlog.addLast(r);
    }

    /** Records that go before every record waiting, in this order. */
    void addFirst(List<PendingRecord> records) {
        for (int i = records.size() - 1; i >= 0; i--) backlog.addFirst(records.get(i));
    }

    boolean isEmpty() {
        return backlog.isEmpty();
    }

    /** Adds the partitions of the records waiting to {@code partitions}. */
    void addPartitionsTo(Set<SourcePartition> partitions) {
        for (PendingRecord r : backlog) partitions.add(r.partition());
    }

    /** Drops the records waiting for {@code revoked} partitions. */
    void drop(Set<SourcePartition> revoked) {
        backlog.removeIf(r -> revoked.contains(r.partition()));
    }

    /**
     * Processes waiting records in arrival order while the buffer has room. When it has none for the next record
     * within the batch's wait, every partition is paused and the rest waits here, to be taken by a later
     * {@code put()}: {@code put()} never blocks past its wait, and memory stays bounded by one poll's worth of records.
     */
    void drainBacklog() {
        if (draining) return;
        draining = true;
        try {
            while (!backlog.isEmpty()) {
                checkFailure.run();
                PendingRecord head = backlog.peekFirst();
                if (!ddl.isHeld(head.partition()) && rowCount(head.events()) > 0
                        && !hasBufferRoom(head.bytes(), batchDeadline - System.currentTimeMillis())) {
                    pauseForBuffer();
                    return;
                }
                backlog.pollFirst();
                route.accept(head);
            }
            if (pausedForBuffer) resumeAfterBuffer();
        } finally {
            draining = false;
        }
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

    /** Whether {@code bytes} more fit in the buffer, waiting up to {@code waitMillis} for workers to free room. */
    private boolean hasBufferRoom(long bytes, long waitMillis) {
        if (buffered.get() == 0 || buffered.get() + bytes <= maxBytes) return true;
        // rows waiting in open transactions count too: hand them to the workers so the buffer can drain
        assembler.closeAll();
        long deadline = System.currentTimeMillis() + waitMillis;
        synchronized (bufferSignal) {
            while (buffered.get() > 0 && buffered.get() + bytes > maxBytes) {
                checkFailure.run();
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) return false;
                try {
                    bufferSignal.wait(Math.min(left, 50));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ApplyException("interrupted while waiting for buffer room at " + origin.get());
                }
            }
        }
        return true;
    }

    private void pauseForBuffer() {
        if (pausedForBuffer) return;
        pausedForBuffer = true;
        for (SourcePartition p : ddl.assignedPartitions()) partitionControl.pause(p);
        LOG.debug("Buffer full ({} bytes): partitions paused", buffered.get());
    }

    private void resumeAfterBuffer() {
        pausedForBuffer = false;
        for (SourcePartition p : ddl.assignedPartitions()) {
            // partitions behind a DDL barrier stay paused until the statement has run
            if (!ddl.isHeld(p)) partitionControl.resume(p);
        }
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
