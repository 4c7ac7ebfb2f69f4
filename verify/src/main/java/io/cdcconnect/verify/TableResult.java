package io.cdcconnect.verify;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The outcome for one table, filled by the chunk checks as they finish. Rows found on one side only are held until
 * the table is done: where the two databases order keys differently (a case-insensitive MySQL collation against
 * PostgreSQL's), a row can sit in different chunks upstream and downstream, and only the whole table tells a moved
 * row from a missing one.
 */
public final class TableResult {
    public enum Status { EQUAL, DIFFERENT, ERROR }

    private final String source;
    private final String target;
    private final int shown;
    final AtomicLong sourceRows = new AtomicLong();
    final AtomicLong targetRows = new AtomicLong();
    final AtomicInteger chunks = new AtomicInteger();
    final AtomicInteger chunksDone = new AtomicInteger();
    final AtomicInteger differingChunks = new AtomicInteger();
    private final List<String> structure = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, String[]> onlyUpstream = new LinkedHashMap<>();
    private final Map<String, String[]> onlyDownstream = new LinkedHashMap<>();
    private final List<RowDifference> different = new ArrayList<>();
    private long differentCount;
    private long missingWithoutKeys;
    private String error;
    private boolean done;
    private long millis;

    TableResult(String source, String target, int shown) {
        this.source = source;
        this.target = target;
        this.shown = shown;
    }

    /** {@code schema.table} upstream. */
    public String source() {
        return source;
    }

    /** {@code schema.table} downstream. */
    public String target() {
        return target;
    }

    public long sourceRows() {
        return sourceRows.get();
    }

    public long targetRows() {
        return targetRows.get();
    }

    public int chunks() {
        return chunks.get();
    }

    public int differingChunks() {
        return differingChunks.get();
    }

    public synchronized List<String> structureDifferences() {
        return List.copyOf(structure);
    }

    public synchronized long missingDownstream() {
        return onlyUpstream.size() + missingWithoutKeys;
    }

    public synchronized long extraDownstream() {
        return onlyDownstream.size();
    }

    public synchronized long differentRows() {
        return differentCount;
    }

    /** Rows that differ, all kinds. */
    public synchronized long differingRows() {
        return missingDownstream() + extraDownstream() + differentCount;
    }

    /** Up to the configured number of differences of each kind, in key order of discovery. */
    public synchronized List<RowDifference> differences() {
        List<RowDifference> out = new ArrayList<>();
        int n = 0;
        for (String k : onlyUpstream.keySet()) {
            if (n++ >= shown) break;
            out.add(new RowDifference(RowDifference.Kind.MISSING_DOWNSTREAM, k, List.of()));
        }
        n = 0;
        for (String k : onlyDownstream.keySet()) {
            if (n++ >= shown) break;
            out.add(new RowDifference(RowDifference.Kind.EXTRA_DOWNSTREAM, k, List.of()));
        }
        out.addAll(different);
        return Collections.unmodifiableList(out);
    }

    /** Differing rows not in {@link #differences()}: beyond the limit, or of a table missing downstream. */
    public synchronized long unlisted() {
        return differingRows() - missingWithoutKeys - differences().size();
    }

    public synchronized String error() {
        return error;
    }

    public synchronized Status status() {
        if (error != null) return Status.ERROR;
        return structure.isEmpty() && differingRows() == 0 ? Status.EQUAL : Status.DIFFERENT;
    }

    public synchronized long millis() {
        return millis;
    }

    /** Remarks that are no difference, e.g. how the table was compared. */
    public synchronized List<String> notes() {
        return List.copyOf(notes);
    }

    synchronized void note(String note) {
        notes.add(note);
    }

    synchronized void structure(String note) {
        structure.add(note);
    }

    synchronized void missingTable(long rows) {
        structure.add("table missing downstream");
        missingWithoutKeys = rows;
        sourceRows.set(rows);
    }

    synchronized void failed(String message) {
        if (error == null) error = message;
    }

    synchronized void finish(long millis) {
        this.done = true;
        this.millis = millis;
    }

    synchronized boolean isDone() {
        return done;
    }

    /** A row seen only upstream within its chunk: missing, unless another chunk saw it downstream. */
    synchronized void upstreamOnly(String key, String[] row, TablePlan plan) {
        String[] other = onlyDownstream.remove(key);
        if (other == null) onlyUpstream.put(key, row);
        else compared(key, row, other, plan);
    }

    synchronized void downstreamOnly(String key, String[] row, TablePlan plan) {
        String[] other = onlyUpstream.remove(key);
        if (other == null) onlyDownstream.put(key, row);
        else compared(key, other, row, plan);
    }

    /** A row on both sides: different when a column differs. */
    synchronized void compared(String key, String[] up, String[] down, TablePlan plan) {
        List<RowDifference.Column> cols = plan.differingColumns(up, down);
        if (cols.isEmpty()) return;
        differentCount++;
        if (different.size() < shown) different.add(new RowDifference(RowDifference.Kind.DIFFERENT, key, cols));
    }
}
