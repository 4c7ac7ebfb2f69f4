package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.txn.SourcePartition;

/**
 * Where rows the target rejects for their data ({@link io.cdcconnect.sink.dialect.SqlDialect#rejectsRow}) go: the task sends their records to
 * Connect's errant-record reporter (dead-letter queue) when {@code errors.tolerance=all} gives it one; otherwise such
 * a row fails the task. Called from apply workers, after the rest of the row's transaction is committed and before
 * the transaction's offsets count as applied.
 */
public interface RejectedRows {

    /** Nothing tolerated: every rejected row fails the task. */
    RejectedRows NONE = new RejectedRows() {
        @Override
        public boolean tolerated() {
            return false;
        }

        @Override
        public void report(SourcePartition partition, long offset, String reason, Throwable cause) {
            throw new ApplyException(reason, cause);
        }
    };

    /** Whether a rejected row may be reported and left out; if not, it fails the task and nothing is committed. */
    boolean tolerated();

    /**
     * Reports the record at {@code offset} of {@code partition}, returning once it is durably reported.
     *
     * @param reason names the reason, the topic, partition and offset, the table and the column (when known)
     * @throws ApplyException when the record cannot be reported: the task must fail, its offset uncommitted
     */
    void report(SourcePartition partition, long offset, String reason, Throwable cause);
}
