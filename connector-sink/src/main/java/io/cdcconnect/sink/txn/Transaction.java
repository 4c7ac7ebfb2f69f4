package io.cdcconnect.sink.txn;

import io.cdcconnect.codec.model.RowChange;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows of one source transaction (one commit ts) from one partition, applied downstream in one transaction.
 * A source transaction larger than {@code max.txn.rows} arrives as several parts, each its own downstream transaction.
 *
 * <p>{@link #lastOffset()} is the highest Kafka offset whose records are fully contained in this and earlier
 * transactions of the partition: once this transaction is committed downstream, offsets up to it may be reported.
 */
public final class Transaction {

    private final SourcePartition partition;
    private final long commitTs;
    private final long sequence;
    private final List<RowChange> rows;
    /** The Kafka offset of the record each row came from, row by row. */
    private long[] rowOffsets;
    private long firstOffset = -1;
    private long lastOffset = -1;
    private long bytes;

    Transaction(SourcePartition partition, long commitTs, long sequence, int expectedRows) {
        this.partition = partition;
        this.commitTs = commitTs;
        this.sequence = sequence;
        this.rows = new ArrayList<>(Math.max(1, Math.min(expectedRows, 64)));
        this.rowOffsets = new long[Math.max(1, Math.min(expectedRows, 64))];
    }

    void add(RowChange row, long offset, long rowBytes) {
        if (firstOffset < 0) firstOffset = offset;
        if (rows.size() == rowOffsets.length) rowOffsets = java.util.Arrays.copyOf(rowOffsets, rowOffsets.length * 2);
        rowOffsets[rows.size()] = offset;
        rows.add(row);
        bytes += rowBytes;
        // the record holding this row is not complete until endRecord says so
        lastOffset = offset - 1;
    }

    void completeThrough(long offset) {
        if (firstOffset < 0) firstOffset = offset;
        lastOffset = offset;
    }

    public SourcePartition partition() {
        return partition;
    }

    public long commitTs() {
        return commitTs;
    }

    /** Order of creation across all partitions of this task. */
    public long sequence() {
        return sequence;
    }

    public List<RowChange> rows() {
        return rows;
    }

    /** The Kafka offset of the record that carried row {@code index} (a record may carry several rows). */
    public long offsetOf(int index) {
        if (index < 0 || index >= rows.size()) throw new IndexOutOfBoundsException(index);
        return rowOffsets[index];
    }

    /**
     * Leaves out row {@code index} (a row the target cannot take, reported elsewhere); its record's offset stays
     * covered by this transaction.
     */
    public void dropRow(int index) {
        long[] offsets = rowOffsets;
        System.arraycopy(offsets, index + 1, offsets, index, rows.size() - index - 1);
        rows.remove(index);
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public long firstOffset() {
        return firstOffset;
    }

    public long lastOffset() {
        return lastOffset;
    }

    /** Bytes of the records held, as accounted against {@code buffer.max.bytes}. */
    public long bytes() {
        return bytes;
    }

    @Override
    public String toString() {
        return "transaction commitTs=" + commitTs + " (" + rows.size() + " rows) from " + partition + " offsets "
                + firstOffset + ".." + Math.max(firstOffset, lastOffset);
    }
}
