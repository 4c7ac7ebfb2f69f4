package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dml.SqlBatch;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.stmtcache.StatementCachePolicy;
import io.cdcconnect.sink.stmtcache.TableChanges;
import io.cdcconnect.sink.txn.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One apply thread with its own pooled connection (held for the worker's life, so that its statement cache stays
 * valid). Takes transactions whose dependencies are done (several at once when the queue is long: they share no key,
 * so they are committed together), writes them, retries transient errors with backoff. A group that fails for good is
 * applied again one transaction at a time, so that the error names the transaction at fault.
 *
 * <p>Replays are harmless unless {@code safe.mode=never}: a transaction planned without safe mode that hits a
 * duplicate key (a re-snapshot, a recreated source connector, rows beyond the replay window) is planned again in safe
 * mode and retried; so is a retry after a lost connection, since the commit may have reached the server before the
 * connection went (an ambiguous commit). With {@code never} a duplicate key fails the task.
 *
 * <p>A transaction whose statements the target rejects for a row's data ({@link SqlDialect#rejectsRow}: value too
 * long, out of range, NULL in a NOT NULL column, ...) is applied again one row at a time in source order
 * ({@link TransactionApplier#applyRowByRow}): the rows at fault are left out and handed to {@link RejectedRows} (the
 * dead-letter queue) after the others are committed, and only then does the transaction count as applied. When
 * rejections are not tolerated, nothing of the transaction is committed and the task fails naming the first row's
 * topic, partition and offset.
 */
public final class ApplyWorker implements Runnable {
    /** What to do when a transient error outlasted the retries. */
    static final String OUTLASTED = "The error outlasted retry.max.attempts and retry.backoff.ms: once the target "
            + "answers again, restart the task (POST /connectors/<name>/tasks/<id>/restart); it resumes from the last "
            + "committed offsets, and rows applied since are replayed harmlessly (safe mode)";


    /** Where a worker reports the fate of each transaction. */
    public interface Completion {
        void applied(ConflictDetector.Node<WorkItem> node);

        void failed(ConflictDetector.Node<WorkItem> node, RuntimeException error);

        /**
         * Gives the transaction back, to be handed to a worker again once every transaction dispatched before it has
         * finished ({@link ConflictDetector#deferUntilEarlierDone}); false, and nothing done, when none is unfinished.
         */
        boolean giveBackUntilEarlierDone(ConflictDetector.Node<WorkItem> node);
    }

    /** Connections for workers; lets the pipeline discard a broken one. */
    public interface ConnectionSource {
        Connection get() throws SQLException;

        void discard(Connection broken);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ApplyWorker.class);

    private final int id;
    private final TransactionApplier applier;
    private final SqlDialect dialect;
    private final BlockingQueue<ConflictDetector.Node<WorkItem>> ready;
    private final Completion completion;
    private final RetryPolicy retry;
    private final SinkMetrics metrics;
    private final String safeModeSetting;
    /** Whether a transaction may be re-planned in safe mode when it turns out to be a replay (safe.mode != never). */
    private final boolean replanOnReplay;
    private final int workerCount;
    private final int maxGroupRows;
    private final RejectedRows rejections;
    private volatile boolean running = true;
    private final WorkerSession session;

    /**
     * @param tableChanges the DDL statements' changes of tables, whose cached statements this worker's connection
     *                     evicts before its next transaction
     */
    public ApplyWorker(int id, ConnectionSource connections, StatementCachePolicy cachePolicy,
                       TableChanges tableChanges, TransactionApplier applier, BlockingQueue<ConflictDetector.Node<WorkItem>> ready,
                       Completion completion, RetryPolicy retry, SinkMetrics metrics, String safeModeSetting,
                       int workerCount, int maxGroupRows, RejectedRows rejections) {
        this.id = id;
        this.applier = applier;
        this.dialect = applier.dialect();
        this.ready = ready;
        this.completion = completion;
        this.retry = retry;
        this.metrics = metrics;
        this.safeModeSetting = safeModeSetting;
        this.replanOnReplay = !"never".equals(safeModeSetting);
        this.workerCount = workerCount;
        this.maxGroupRows = maxGroupRows;
        this.rejections = rejections;
        this.session = new WorkerSession(connections, cachePolicy, tableChanges, dialect, retry, metrics,
                () -> running);
    }

    @Override
    public void run() {
        try {
            while (running) {
                ConflictDetector.Node<WorkItem> node;
                try {
                    node = ready.poll(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    break;
                }
                if (node == null) continue;
                List<ConflictDetector.Node<WorkItem>> group = gather(node);
                try {
                    if (group.size() == 1) {
                        process(node);
                    } else if (!processGroup(group)) {
                        // apply one by one, each in its own transaction, to name the one at fault precisely
                        for (ConflictDetector.Node<WorkItem> n : group) process(n);
                    }
                } catch (Throwable t) {
                    // an Error must not end the worker silently: the task would wait for it forever
                    completion.failed(node, new ApplyException("worker " + id + " failed applying "
                            + node.payload().transaction() + ": " + t, t));
                    if (t instanceof Error e && !(t instanceof LinkageError)) throw e;
                }
            }
        } finally {
            session.closeConnection();
        }
    }

    /**
     * Takes more ready transactions to commit together with {@code first}: ready transactions never share a key (a
     * transaction is ready only when every earlier one it conflicts with is committed), so one downstream
     * transaction may hold several of them, whole. Takes no more than its share of the queue, so other workers
     * stay busy, and no more than {@code maxGroupRows} rows.
     */
    private List<ConflictDetector.Node<WorkItem>> gather(ConflictDetector.Node<WorkItem> first) {
        List<ConflictDetector.Node<WorkItem>> group = new ArrayList<>(1);
        group.add(first);
        int rows = first.payload().transaction().rows().size();
        int share = ready.size() / Math.max(1, workerCount) + 1;
        while (rows < maxGroupRows && group.size() <= share) {
            ConflictDetector.Node<WorkItem> next = ready.peek();
            if (next == null || rows + next.payload().transaction().rows().size() > maxGroupRows) break;
            next = ready.poll();
            if (next == null) break;
            group.add(next);
            rows += next.payload().transaction().rows().size();
        }
        return group;
    }

    public void stop() {
        running = false;
    }

    /** Applies several transactions in one; false when they must be applied one by one instead. */
    private boolean processGroup(List<ConflictDetector.Node<WorkItem>> group) {
        List<WorkItem> items = new ArrayList<>(group.size());
        for (ConflictDetector.Node<WorkItem> n : group) items.add(n.payload());
        List<SqlBatch> planned;
        try {
            planned = applier.plan(items);
        } catch (RuntimeException e) {
            return false;
        }
        return session.withRetries(new WorkerSession.Work() {
            List<SqlBatch> batches = planned;

            @Override
            boolean attempt(long start) throws SQLException {
                applier.apply(session.connection(), session.cache(), batches);
                metrics.txnFlushed(System.nanoTime() - start);
                for (ConflictDetector.Node<WorkItem> n : group) {
                    Transaction txn = n.payload().transaction();
                    metrics.rowsApplied(txn.rows().size(), txn.commitTs());
                    completion.applied(n);
                }
                return true;
            }

            @Override
            Boolean beforeRetry(boolean lost) {
                if (lost && replanOnReplay) {
                    // the commit may have reached the server: the retry must be harmless if it did
                    try {
                        batches = applier.plan(safeItems(items));
                    } catch (RuntimeException planError) {
                        return false;
                    }
                }
                return null;
            }

            @Override
            boolean interrupted(SQLException e) {
                return false;
            }

            @Override
            boolean gaveUp(SQLException e, int attempts) {
                if (retry.retryable(e) && running) {
                    // the target stayed unavailable: applying the transactions one by one would wait as long again
                    // for each of them
                    completion.failed(group.get(0), new ApplyException("applying " + group.size() + " transactions "
                            + "from " + group.get(0).payload().transaction() + " on failed after " + attempts
                            + " attempts, last: " + e.getMessage() + ". " + OUTLASTED, e));
                    return true;
                }
                // a duplicate key or a permanent error: one by one, each re-planned in safe mode where it is a replay
                return false;
            }

            @Override
            boolean unexpected(RuntimeException e) {
                return false;
            }
        });
    }

    private static List<WorkItem> safeItems(List<WorkItem> items) {
        List<WorkItem> out = new ArrayList<>(items.size());
        for (WorkItem i : items) out.add(i.inSafeMode());
        return out;
    }

    private void process(ConflictDetector.Node<WorkItem> node) {
        WorkItem first = node.payload();
        Transaction txn = first.transaction();
        List<SqlBatch> planned;
        try {
            planned = applier.plan(first);
        } catch (RuntimeException e) {
            completion.failed(node, new ApplyException("cannot build statements for " + txn + ": " + e.getMessage(), e));
            return;
        }
        session.withRetries(new WorkerSession.Work() {
            WorkItem item = first;
            List<SqlBatch> batches = planned;
            /** After the multi-row statements were rejected for a row's data: one row at a time, to find those. */
            boolean rowByRow;

            @Override
            boolean attempt(long start) throws SQLException {
                List<TransactionApplier.Rejection> rejected = List.of();
                if (rowByRow) {
                    rejected = applier.applyRowByRow(session.connection(), session.cache(), item,
                            !rejections.tolerated());
                    if (!rejections.tolerated() && !rejected.isEmpty()) {
                        TransactionApplier.Rejection r = rejected.get(0);
                        completion.failed(node, new ApplyException(rejectionReason(dialect, txn, r)
                                + "; nothing of the transaction was committed (errors.tolerance=all with "
                                + "errors.deadletterqueue.topic.name sends such rows to the dead-letter queue and applies "
                                + "the rest)", r.error()));
                        return true;
                    }
                } else {
                    applier.apply(session.connection(), session.cache(), batches);
                }
                metrics.txnFlushed(System.nanoTime() - start);
                metrics.rowsApplied(txn.rows().size() - rejected.size(), txn.commitTs());
                // reported before the transaction's offsets count as applied: a crash in between replays the rows
                if (!rejected.isEmpty()) report(txn, rejected);
                completion.applied(node);
                return true;
            }

            @Override
            WorkerSession.Step failed(SQLException e) {
                if (MissingRowException.in(e)) {
                    if (!item.safe() && replanOnReplay) {
                        // the row an update changes is not there: applied again as upserts of the new images
                        LOG.info("worker {}: {} updates a row the target lacks ({}); applying it in safe mode", id,
                                txn, e.getMessage());
                        metrics.replayReplanned();
                        item = item.inSafeMode();
                        batches = applier.plan(item);
                        return WorkerSession.Step.AGAIN;
                    }
                    completion.failed(node, new ApplyException("applying " + txn + ": " + e.getMessage()
                            + " (safe.mode=" + safeModeSetting + "; auto or always apply it as an upsert)", e));
                    return WorkerSession.Step.STOP;
                }
                if (!rowByRow && dialect.foreignKeyRefused(e) && completion.giveBackUntilEarlierDone(node)) {
                    // a parent row (or a child's delete) of an earlier transaction may still be on another worker
                    // (a foreign key the conflict detector could not see: one the target has and the stream does not
                    // name): the transaction (rolled back) comes back once every transaction dispatched before it has
                    // finished, decided by what finished, not by time; refused again then, its rows are at fault
                    LOG.debug("worker {}: a foreign key refused {} ({}); given back until the transactions before it "
                            + "finished", id, txn, dialect.describe(e));
                    return WorkerSession.Step.STOP;
                }
                if (!rowByRow && dialect.rejectsRow(e, item.safe())) {
                    LOG.info("worker {}: the target rejected a row of {} ({}); applying it again one row at a time to "
                            + "find the rows at fault", id, txn, dialect.describe(e));
                    rowByRow = true;
                    return WorkerSession.Step.AGAIN_UNCOUNTED;
                }
                if (dialect.duplicateKey(e)) {
                    if (!item.safe() && replanOnReplay) {
                        // rows the target already has: a replay (re-snapshot, recreated connector, ambiguous commit)
                        LOG.info("worker {}: {} is a replay of rows the target has ({}); applying it in safe mode",
                                id, txn, dialect.describe(e));
                        metrics.replayReplanned();
                        item = item.inSafeMode();
                        batches = applier.plan(item);
                        return WorkerSession.Step.AGAIN;
                    }
                    completion.failed(node, new ApplyException("duplicate key while applying " + txn
                            + (item.safe() ? " in safe mode" : " without safe mode (safe.mode=" + safeModeSetting
                            + ": a replay fails the task; use auto or always to apply replays as upserts)")
                            + "; not retried: " + e.getMessage(), e));
                    return WorkerSession.Step.STOP;
                }
                return WorkerSession.Step.POLICY;
            }

            @Override
            void retrying(SQLException e, long backoffMillis) {
                LOG.debug("worker {} retrying {} in {} ms after {}", id, txn, backoffMillis, e.getMessage());
            }

            @Override
            Boolean beforeRetry(boolean lost) {
                if (lost && !item.safe() && replanOnReplay) {
                    // the commit may have reached the server before the connection went: retry idempotently
                    item = item.inSafeMode();
                    batches = applier.plan(item);
                }
                return null;
            }

            @Override
            boolean interrupted(SQLException e) {
                completion.failed(node, new ApplyException("interrupted while retrying " + txn, e));
                return true;
            }

            @Override
            boolean gaveUp(SQLException e, int attempts) {
                if (retry.retryable(e)) {
                    completion.failed(node, new ApplyException("applying " + txn + " failed after " + attempts
                            + " attempts, last: " + e.getMessage() + ". " + OUTLASTED, e));
                } else {
                    completion.failed(node, new ApplyException("applying " + txn + " failed: " + e.getMessage(), e));
                }
                return true;
            }

            @Override
            boolean unexpected(RuntimeException e) {
                completion.failed(node, new ApplyException("applying " + txn + " failed: " + e, e));
                return true;
            }
        });
    }

    /**
     * Hands each record with a rejected row to {@link RejectedRows}, once per record (a record may carry several rows),
     * in offset order; returns when all are reported.
     */
    private void report(Transaction txn, List<TransactionApplier.Rejection> rejected) {
        java.util.Map<Long, TransactionApplier.Rejection> first = new java.util.TreeMap<>();
        java.util.Map<Long, Integer> count = new java.util.HashMap<>();
        for (TransactionApplier.Rejection r : rejected) {
            long offset = txn.offsetOf(r.row());
            first.putIfAbsent(offset, r);
            count.merge(offset, 1, Integer::sum);
        }
        for (java.util.Map.Entry<Long, TransactionApplier.Rejection> e : first.entrySet()) {
            TransactionApplier.Rejection r = e.getValue();
            int more = count.get(e.getKey()) - 1;
            String reason = rejectionReason(dialect, txn, r) + (more > 0 ? " (and " + more + " more row(s) of the record)" : "")
                    + "; the other rows of its transaction were applied";
            LOG.warn("worker {}: {}; sending the record to the dead-letter queue", id, reason);
            rejections.report(txn.partition(), e.getKey(), reason, r.error());
            metrics.errantRecord();
        }
    }

    /** "the target rejected the row at topic T, partition P, offset O (table `d`.`t`, column `c`): error N (S): …" */
    static String rejectionReason(SqlDialect dialect, Transaction txn, TransactionApplier.Rejection r) {
        String column = dialect.rejectedColumn(r.error());
        return "the target rejected the row at topic " + txn.partition().topic() + ", partition "
                + txn.partition().partition() + ", offset " + txn.offsetOf(r.row()) + " (table "
                + r.table().quotedName() + (column == null ? "" : ", column " + dialect.quote(column)) + "): "
                + dialect.describe(r.error());
    }
}
