package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.offset.OffsetTracker;
import io.cdcconnect.sink.txn.Transaction;

/**
 * A transaction ready for a worker: its rows, the shape of each row on the target, whether to write it in safe mode,
 * and the ticket to mark when it is committed.
 */
public record WorkItem(Transaction transaction, RowShape[] shapes, boolean safe, OffsetTracker.Ticket ticket) {

    /** The same transaction written idempotently (upserts, deletes by key), for a replay found while applying it. */
    public WorkItem inSafeMode() {
        return safe ? this : new WorkItem(transaction, shapes, true, ticket);
    }
}
