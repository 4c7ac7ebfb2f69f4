package io.cdcconnect.sink.apply;

import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.stmtcache.StatementCachePolicy;
import io.cdcconnect.sink.stmtcache.TableChanges;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;

/**
 * The task's {@link ApplyWorker} threads, each with its own connection from the pool, sharing one cache policy and the
 * pool's {@link TableChanges}: a DDL run through the pool ({@code DdlApplier}) evicts the statements of the tables it
 * changed from every worker's cache.
 */
public final class WorkerPool implements AutoCloseable {

    /** How the workers are set up. */
    public record Settings(int workers, int maxGroupRows, RetryPolicy retry, String safeModeName) {
    }

    private final List<ApplyWorker> workers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    private WorkerPool() {
    }

    /** Starts the workers; rows the target rejects for their data go to {@code rejections}. */
    public static WorkerPool start(String name, Settings settings, HikariDataSource dataSource,
                                   StatementCachePolicy cachePolicy, TransactionApplier applier,
                                   BlockingQueue<ConflictDetector.Node<WorkItem>> ready,
                                   ApplyWorker.Completion completion, SinkMetrics metrics, RejectedRows rejections,
                                   TableChanges tableChanges) {
        ApplyWorker.ConnectionSource connections = new ApplyWorker.ConnectionSource() {
            @Override
            public Connection get() throws SQLException {
                return dataSource.getConnection();
            }

            @Override
            public void discard(Connection broken) {
                dataSource.evictConnection(broken);
            }
        };
        WorkerPool pool = new WorkerPool();
        for (int i = 0; i < settings.workers(); i++) {
            ApplyWorker w = new ApplyWorker(i, connections, cachePolicy, tableChanges, applier, ready, completion,
                    settings.retry(), metrics, settings.safeModeName(), settings.workers(), settings.maxGroupRows(),
                    rejections);
            // with the MDC of the task's thread (Connect's connector.context), as every thread the task starts
            Thread t = io.cdcconnect.codec.logging.TaskThreads.newThread(w, name + "-worker-" + i);
            pool.workers.add(w);
            pool.threads.add(t);
            t.start();
        }
        return pool;
    }

    /** Lets each worker finish the transaction it is applying, then closes its statements and connection. */
    @Override
    public void close() {
        for (ApplyWorker w : workers) w.stop();
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
