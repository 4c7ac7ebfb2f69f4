package io.cdcconnect.sink.txn;

import io.cdcconnect.codec.model.RowChange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Groups consecutive rows of one partition that share a commit ts into {@link Transaction}s.
 *
 * <p>A transaction is closed when a row with another commit ts arrives on its partition, when it reaches
 * {@code maxTxnRows} (the rest continues in a new part), when a watermark or DDL arrives, or when the caller closes
 * idle partitions. Records that carry no row (watermarks, skipped records) extend the open transaction's offsets, or
 * become an empty transaction, so that every offset is accounted for in order. Not thread-safe: the task thread owns it.
 */
public final class TransactionAssembler {

    private final int maxTxnRows;
    private final Consumer<Transaction> out;
    private final Map<SourcePartition, Transaction> open = new HashMap<>();
    private long nextSequence;

    public TransactionAssembler(int maxTxnRows, Consumer<Transaction> out) {
        if (maxTxnRows < 1) throw new IllegalArgumentException("maxTxnRows must be at least 1");
        this.maxTxnRows = maxTxnRows;
        this.out = out;
    }

    /** Adds one row of the record at {@code offset}; call {@link #endRecord} after the record's last row. */
    public void addRow(SourcePartition partition, long offset, RowChange row, long rowBytes) {
        Transaction txn = open.get(partition);
        if (txn != null && (txn.commitTs() != row.commitTs() || txn.rows().size() >= maxTxnRows)) {
            close(partition);
            txn = null;
        }
        if (txn == null) {
            txn = new Transaction(partition, row.commitTs(), nextSequence++, maxTxnRows);
            open.put(partition, txn);
        }
        txn.add(row, offset, rowBytes);
    }

    /** Marks the record at {@code offset} complete: every row it held has been added. */
    public void endRecord(SourcePartition partition, long offset) {
        Transaction txn = open.get(partition);
        if (txn == null) {
            txn = new Transaction(partition, 0L, nextSequence++, 0);
            txn.completeThrough(offset);
            out.accept(txn);
        } else {
            txn.completeThrough(offset);
        }
    }

    /** Closes the open transaction of a partition, if any. */
    public void close(SourcePartition partition) {
        Transaction txn = open.remove(partition);
        if (txn != null) out.accept(txn);
    }

    /** Closes every open transaction. */
    public void closeAll() {
        if (open.isEmpty()) return;
        for (SourcePartition p : new ArrayList<>(open.keySet())) close(p);
    }

    /** Closes open transactions of partitions that received nothing in the last batch: they are idle. */
    public void closeIdle(Set<SourcePartition> active) {
        if (open.isEmpty()) return;
        List<SourcePartition> idle = new ArrayList<>();
        for (SourcePartition p : open.keySet()) {
            if (!active.contains(p)) idle.add(p);
        }
        for (SourcePartition p : idle) close(p);
    }

    /** Drops an open transaction without emitting it (partition revoked); returns the bytes its rows held. */
    public long discard(SourcePartition partition) {
        Transaction txn = open.remove(partition);
        return txn == null ? 0 : txn.bytes();
    }

    public boolean hasOpen() {
        return !open.isEmpty();
    }
}
