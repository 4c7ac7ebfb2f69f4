package io.cdcconnect.sink;

import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.sink.apply.ApplyWorker;
import io.cdcconnect.sink.apply.RejectedRows;
import io.cdcconnect.sink.apply.TransactionApplier;
import io.cdcconnect.sink.apply.WorkItem;
import io.cdcconnect.sink.apply.WorkerPool;
import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.stmtcache.StatementCachePolicy;
import io.cdcconnect.sink.txn.SourcePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The workers' side of the pipeline: a transaction waits in the {@link ConflictDetector} until every earlier one it
 * shares a key with is committed, then an {@link ApplyWorker} commits it and its bytes leave the buffer. The first
 * failure is kept for the task thread ({@link #checkFailure}).
 */
final class ApplyStage implements ApplyBackend {

    private static final Logger LOG = LoggerFactory.getLogger(ApplyStage.class);

    private final LinkedBlockingQueue<ConflictDetector.Node<WorkItem>> ready = new LinkedBlockingQueue<>();
    private final ConflictDetector<WorkItem> detector = new ConflictDetector<>(ready::add);
    private volatile RuntimeException failure;
    /**
     * Completions between leaving the detector and marking their offset done: the detector is idle before their offset
     * is visible, and {@link #awaitIdle} waits for them too (a DDL's checkpoint reads the applied offsets right after).
     */
    private final java.util.concurrent.atomic.AtomicInteger settling = new java.util.concurrent.atomic.AtomicInteger();
    private WorkerPool workers;

    @Override
    public ConflictDetector<WorkItem> detector() {
        return detector;
    }

    /**
     * Starts the workers.
     *
     * @param release   bytes of a committed transaction, which leave the buffer
     * @param onFailure after the first failure is kept (wakes the task thread)
     * @param rejected     where rows the target rejects go, as set now
     * @param tableChanges tables a DDL statement changed: the workers drop their cached statements of them
     */
    void start(String name, WorkerPool.Settings settings, HikariDataSource dataSource, StatementCachePolicy cachePolicy,
               TransactionApplier applier, SinkMetrics metrics, LongConsumer release, Runnable onFailure,
               Supplier<RejectedRows> rejected, io.cdcconnect.sink.stmtcache.TableChanges tableChanges) {
        ApplyWorker.Completion completion = new ApplyWorker.Completion() {
            @Override
            public void applied(ConflictDetector.Node<WorkItem> node) {
                WorkItem item = node.payload();
                settling.incrementAndGet();
                try {
                    release.accept(item.transaction().bytes());
                    detector.done(node);
                    // last: once the offset is visible, everything about the transaction is settled
                    item.ticket().markDone();
                } finally {
                    settling.decrementAndGet();
                }
            }

            @Override
            public void failed(ConflictDetector.Node<WorkItem> node, RuntimeException error) {
                fail(error);
                onFailure.run();
            }

            @Override
            public boolean giveBackUntilEarlierDone(ConflictDetector.Node<WorkItem> node) {
                return detector.deferUntilEarlierDone(node);
            }
        };
        metrics.gauge(SinkMetrics.TXN_IN_FLIGHT, detector::inFlight);
        workers = WorkerPool.start(name, settings, dataSource, cachePolicy, applier, ready, completion, metrics,
                new RejectedRows() {
                    @Override
                    public boolean tolerated() {
                        return rejected.get().tolerated();
                    }

                    @Override
                    public void report(SourcePartition partition, long offset, String reason, Throwable cause) {
                        rejected.get().report(partition, offset, reason, cause);
                    }
                }, tableChanges);
    }

    /** Waits until every dispatched transaction is applied; false when the timeout passed first. */
    @Override
    public boolean awaitIdle(long timeoutMillis) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        try {
            while (System.currentTimeMillis() < deadline) {
                checkFailure();
                if (detector.awaitIdle(Math.min(200, Math.max(1, deadline - System.currentTimeMillis())))) {
                    // nothing is in flight; a completion that left the detector may not have marked its offset yet:
                    // what called this reads the applied offsets next (issue 22 item 9: the checkpoint before a DDL)
                    while (settling.get() > 0 && System.currentTimeMillis() < deadline) Thread.onSpinWait();
                    if (settling.get() > 0) break;
                    checkFailure();
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        checkFailure();
        return false;
    }

    /** The first apply failure, thrown on the task thread. */
    @Override
    public void checkFailure() {
        RuntimeException f = failure;
        if (f != null) throw f;
    }

    private void fail(RuntimeException error) {
        synchronized (this) {
            if (failure == null) {
                failure = error;
                LOG.error("Sink apply failed: {}", error.getMessage());
            }
        }
    }

    @Override
    public void close() {
        if (workers != null) workers.close();
    }
}
