package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.dml.SqlBatch;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.stmtcache.ConnectionStatementCache;
import io.cdcconnect.sink.stmtcache.StatementCachePolicy;
import io.cdcconnect.sink.txn.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One apply thread with its own pooled connection (held for the worker's life, so that its statement cache stays
 * valid). Takes transactions whose dependencies are done, writes them, retries transient errors with backoff.
 */
public final class ApplyWorker implements Runnable {

    /** Where a worker reports the fate of each transaction. */
    public interface Completion {
        void applied(ConflictDetector.Node<WorkItem> node);

        void failed(ConflictDetector.Node<WorkItem> node, RuntimeException error);
    }

    /** Connections for workers; lets the pipeline discard a broken one. */
    public interface ConnectionSource {
        Connection get() throws SQLException;

        void discard(Connection broken);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ApplyWorker.class);

    private final int id;
    private final ConnectionSource connections;
    private final StatementCachePolicy cachePolicy;
    private final TransactionApplier applier;
    private final BlockingQueue<ConflictDetector.Node<WorkItem>> ready;
    private final Completion completion;
    private final RetryPolicy retry;
    private final SinkMetrics metrics;
    private final String safeModeSetting;
    private volatile boolean running = true;
    private Connection connection;
    private ConnectionStatementCache cache;

    public ApplyWorker(int id, ConnectionSource connections, StatementCachePolicy cachePolicy,
                       TransactionApplier applier, BlockingQueue<ConflictDetector.Node<WorkItem>> ready,
                       Completion completion, RetryPolicy retry, SinkMetrics metrics, String safeModeSetting) {
        this.id = id;
        this.connections = connections;
        this.cachePolicy = cachePolicy;
        this.applier = applier;
        this.ready = ready;
        this.completion = completion;
        this.retry = retry;
        this.metrics = metrics;
        this.safeModeSetting = safeModeSetting;
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
                if (node != null) process(node);
            }
        } finally {
            closeConnection();
        }
    }

    public void stop() {
        running = false;
    }

    private void process(ConflictDetector.Node<WorkItem> node) {
        WorkItem item = node.payload();
        Transaction txn = item.transaction();
        List<SqlBatch> batches;
        try {
            batches = applier.plan(item);
        } catch (RuntimeException e) {
            completion.failed(node, new ApplyException("cannot build statements for " + txn + ": " + e.getMessage(), e));
            return;
        }
        for (int attempt = 0; ; attempt++) {
            long start = System.nanoTime();
            try {
                ensureConnection();
                applier.apply(connection, cache, batches);
                metrics.txnFlushed(System.nanoTime() - start);
                metrics.rowsApplied(txn.rows().size(), txn.commitTs());
                completion.applied(node);
                return;
            } catch (SQLException e) {
                rollbackQuietly();
                boolean lost = SqlErrors.connectionLost(e);
                if (lost) discardConnection();
                if (SqlErrors.duplicateKey(e)) {
                    completion.failed(node, new ApplyException("duplicate key while applying " + txn
                            + " without safe mode (safe.mode=" + safeModeSetting + "); not retried: "
                            + e.getMessage(), e));
                    return;
                }
                if (SqlErrors.retryable(e) && attempt < retry.maxRetries() && running) {
                    long backoff = retry.backoffMillis(attempt);
                    LOG.debug("worker {} retrying {} in {} ms after {}", id, txn, backoff, e.getMessage());
                    metrics.retry();
                    if (!sleep(backoff)) {
                        completion.failed(node, new ApplyException("interrupted while retrying " + txn, e));
                        return;
                    }
                    continue;
                }
                String why = SqlErrors.retryable(e)
                        ? "failed after " + (attempt + 1) + " attempts, last: " : "failed: ";
                completion.failed(node, new ApplyException("applying " + txn + " " + why + e.getMessage(), e));
                return;
            } catch (RuntimeException e) {
                rollbackQuietly();
                completion.failed(node, new ApplyException("applying " + txn + " failed: " + e, e));
                return;
            }
        }
    }

    private void ensureConnection() throws SQLException {
        if (connection == null) {
            connection = connections.get();
            cache = new ConnectionStatementCache(connection, cachePolicy);
        }
    }

    private void discardConnection() {
        if (cache != null) cache.abandon();
        cache = null;
        if (connection != null) connections.discard(connection);
        connection = null;
    }

    private void closeConnection() {
        if (cache != null) cache.close();
        cache = null;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // returning a connection to a closing pool
            }
        }
        connection = null;
    }

    private void rollbackQuietly() {
        if (connection == null) return;
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // a lost connection cannot roll back; the server does it when the session ends
        }
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
