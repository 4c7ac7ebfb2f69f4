package io.cdcconnect.source.txn;

import io.cdcconnect.codec.model.ChangeEvent;

import java.util.Objects;

/**
 * Gives each source transaction a commit ts in TiDB's TSO layout: binlog event time in ms {@code << 18}, raised by a
 * counter when needed so that it rises strictly from one transaction to the next (binlog event times have whole
 * seconds on MariaDB, so many transactions share one). Rows of one transaction share its ts.
 *
 * <p>Not persisted: after a restart the transactions Debezium replays get their ts afresh, which equals the earlier
 * one unless the counter was in use; the sink's safe mode makes the replay harmless either way.
 *
 * <p>Also tracks the resolved ts: the ts of the last transaction known to be complete, which a watermark may carry.
 */
public final class CommitTsAllocator {

    private String currentKey;
    private long current;
    private long last;
    private long resolved;

    /**
     * The ts of the transaction identified by {@code key}; a key different from the previous call's starts a new
     * transaction (and completes the previous one). A null key is a transaction of its own (a DDL, or a row outside
     * any transaction).
     */
    public long assign(String key, long eventMillis) {
        if (key != null && key.equals(currentKey)) {
            return current;
        }
        if (currentKey != null || current != 0) {
            resolved = Math.max(resolved, current);
        }
        long ts = next(Math.max(eventMillis, 0));
        last = ts;
        current = ts;
        currentKey = key;
        return ts;
    }

    /**
     * The smallest ts above the last one for an event at {@code eventMillis}. MariaDB's binlog times are whole
     * seconds: there the counter first takes the free milliseconds of that second (the commit really happened within
     * it), so consecutive transactions differ in their millisecond too, which is all a Canal-JSON message without the
     * TiDB extension carries ({@code es}). Past 999 transactions in one second, or with millisecond event times, the
     * counter runs in the logical bits.
     */
    private long next(long eventMillis) {
        long candidate = ChangeEvent.tso(eventMillis, 0);
        if (candidate > last) return candidate;
        long lastPhysical = ChangeEvent.physicalMillis(last);
        if (eventMillis % 1000 == 0 && lastPhysical + 1 < eventMillis + 1000) {
            return ChangeEvent.tso(lastPhysical + 1, 0);
        }
        return last + 1;
    }

    /** The transaction with this key has ended: its ts is resolved. */
    public void complete(String key) {
        if (Objects.equals(key, currentKey)) {
            resolved = Math.max(resolved, current);
            currentKey = null;
        }
    }

    /** Ends whatever transaction is open (e.g. a DDL or the end of a snapshot table follows). */
    public void completeCurrent() {
        resolved = Math.max(resolved, current);
        currentKey = null;
    }

    /** True while rows of an unfinished transaction may still come. */
    public boolean inTransaction() {
        return currentKey != null;
    }

    /** The ts every change at or below has been assigned: the last complete transaction's. */
    public long resolvedTs() {
        return resolved;
    }

    /**
     * Moves the resolved ts to at least {@code ts} while the source is idle and no transaction is open; later
     * transactions get a higher ts, so a watermark at the returned value stays true.
     */
    public long advanceIdle(long wallMillis) {
        if (currentKey != null) return resolved;
        long ts = ChangeEvent.tso(wallMillis, 0);
        if (ts > last) {
            last = ts;
            resolved = ts;
        }
        return resolved;
    }

    /** The last ts given out. */
    public long lastTs() {
        return last;
    }
}
