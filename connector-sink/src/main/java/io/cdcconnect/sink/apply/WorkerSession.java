package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.stmtcache.ConnectionStatementCache;
import io.cdcconnect.sink.stmtcache.StatementCachePolicy;
import io.cdcconnect.sink.stmtcache.TableChanges;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;

/**
 * An {@link ApplyWorker}'s connection (held for the worker's life, so that its statement cache stays valid; a lost one
 * is discarded and replaced) and the retry loop that writes through it ({@link #withRetries}): both the worker's
 * group of transactions and a single transaction are applied by it, each with its own {@link Work}. Each attempt
 * begins by evicting the cached statements of the tables a DDL changed since the last ({@link TableChanges}).
 */
final class WorkerSession {
    private final ApplyWorker.ConnectionSource connections;
    private final StatementCachePolicy cachePolicy;
    private final TableChanges tableChanges;
    private final SqlDialect dialect;
    private final RetryPolicy retry;
    private final SinkMetrics metrics;
    /** Whether the worker still runs: a stopping worker does not retry. */
    private final BooleanSupplier running;
    private Connection connection;
    private ConnectionStatementCache cache;

    WorkerSession(ApplyWorker.ConnectionSource connections, StatementCachePolicy cachePolicy,
                  TableChanges tableChanges, SqlDialect dialect, RetryPolicy retry, SinkMetrics metrics,
                  BooleanSupplier running) {
        this.connections = connections;
        this.cachePolicy = cachePolicy;
        this.tableChanges = tableChanges;
        this.dialect = dialect;
        this.retry = retry;
        this.metrics = metrics;
        this.running = running;
    }

    /** The connection of the attempt under way. */
    Connection connection() {
        return connection;
    }

    /** Its statement cache. */
    ConnectionStatementCache cache() {
        return cache;
    }

    /** What {@link #withRetries} does after a failed attempt, before the retry policy has its say. */
    enum Step {
        /** The retry policy decides. */
        POLICY,
        /** Another attempt at once, counted against the retries. */
        AGAIN,
        /** Another attempt at once, not counted (the same attempt done another way). */
        AGAIN_UNCOUNTED,
        /** The work reported its outcome: the loop ends (true). */
        STOP
    }

    /** One way of applying work through {@link #withRetries}: its attempt, and its answers when an attempt fails. */
    abstract static class Work {
        /** One attempt on {@link #connection}, begun at {@code start} (nanoTime): its value ends the loop. */
        abstract boolean attempt(long start) throws SQLException;

        /** The first say on a failed attempt (rolled back, a lost connection discarded). */
        Step failed(SQLException e) {
            return Step.POLICY;
        }

        /** A transient error is retried after {@code backoffMillis}. */
        void retrying(SQLException e, long backoffMillis) {
        }

        /** After the backoff, before the next attempt: null goes on, true or false ends the loop with it. */
        Boolean beforeRetry(boolean lost) {
            return null;
        }

        /** The backoff was interrupted: the loop's value. */
        abstract boolean interrupted(SQLException e);

        /** A transient error outlasted the retries (or the worker is stopping), or the error is not transient. */
        abstract boolean gaveUp(SQLException e, int attempts);

        /** An attempt failed with something else than the target's error. */
        abstract boolean unexpected(RuntimeException e);
    }

    /**
     * The workers' one retry loop (like {@link RetryPolicy#run}, with the worker's own turns): runs attempts on the
     * connection until one ends it. A failed attempt is rolled back and a lost connection discarded; then
     * {@link Work#failed} has the first say (apply row by row, re-plan a replay in safe mode, give up); a transient
     * error is retried with backoff while retries are left and the worker runs, after {@link Work#beforeRetry}
     * (re-plan after a lost connection); once they are spent, {@link Work#gaveUp} ends it.
     */
    boolean withRetries(Work work) {
        for (int attempt = 0; ; attempt++) {
            long start = System.nanoTime();
            try {
                ensureConnection();
                // a DDL ran since the last attempt: its tables' statements go before any row is written
                cache.evictChanged();
                return work.attempt(start);
            } catch (SQLException e) {
                rollbackQuietly();
                boolean lost = dialect.connectionLost(e);
                if (lost) discardConnection();
                Step step = work.failed(e);
                if (step == Step.STOP) return true;
                if (step == Step.AGAIN_UNCOUNTED) attempt--;
                if (step != Step.POLICY) continue;
                if (retry.retryable(e) && attempt < retry.maxRetries() && running.getAsBoolean()) {
                    long backoff = retry.backoffMillis(attempt);
                    work.retrying(e, backoff);
                    metrics.retry();
                    if (!sleep(backoff)) return work.interrupted(e);
                    Boolean end = work.beforeRetry(lost);
                    if (end != null) return end;
                    continue;
                }
                return work.gaveUp(e, attempt + 1);
            } catch (RuntimeException e) {
                rollbackQuietly();
                return work.unexpected(e);
            }
        }
    }

    private void ensureConnection() throws SQLException {
        if (connection == null) {
            connection = connections.get();
            cache = new ConnectionStatementCache(connection, cachePolicy, tableChanges);
        }
    }

    private void discardConnection() {
        if (cache != null) cache.abandon();
        cache = null;
        if (connection != null) connections.discard(connection);
        connection = null;
    }

    void closeConnection() {
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
