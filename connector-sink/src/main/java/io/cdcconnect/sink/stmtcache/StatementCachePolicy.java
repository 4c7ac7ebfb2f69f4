package io.cdcconnect.sink.stmtcache;

import io.cdcconnect.sink.metrics.SinkMetrics;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one cache policy shared by every connection of a task: a global budget of open server-side prepared statements,
 * a per-connection limit derived from it, and the metrics.
 *
 * <p>Server-side statements live per connection, so the server holds {@code connections x texts}. The budget is the
 * server's {@code max_prepared_stmt_count} divided among the connector's connections (this task's pool times the
 * number of tasks), and never more than the configured per-connection cap.
 */
public final class StatementCachePolicy {

    private final int perConnection;
    private final int global;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final SinkMetrics metrics;

    private StatementCachePolicy(int perConnection, int global, SinkMetrics metrics) {
        this.perConnection = perConnection;
        this.global = global;
        this.metrics = metrics;
    }

    /**
     * @param configuredCap         {@code statement.cache.size}: at most this many statements per connection
     * @param serverMaxPrepared     the server's {@code max_prepared_stmt_count} (negative when unknown)
     * @param connections           connections of this task's pool
     * @param tasks                 tasks of the connector sharing the server
     */
    public static StatementCachePolicy of(int configuredCap, long serverMaxPrepared, int connections, int tasks,
                                          SinkMetrics metrics) {
        int per = perConnection(configuredCap, serverMaxPrepared, connections, tasks);
        return new StatementCachePolicy(per, per * Math.max(1, connections), metrics);
    }

    /** The statements one connection may keep: the configured cap, within its share of the server's budget. */
    public static int perConnection(int configuredCap, long serverMaxPrepared, int connections, int tasks) {
        long perConn = configuredCap;
        if (serverMaxPrepared >= 0) {
            // leave half of the server's statements to other clients
            long share = serverMaxPrepared / 2 / Math.max(1, tasks) / Math.max(1, connections);
            perConn = Math.min(perConn, share);
        }
        return (int) Math.max(0, perConn);
    }

    /** How many statements one connection may keep open. 0 disables caching (every statement is text). */
    public int perConnectionLimit() {
        return perConnection;
    }

    public int globalLimit() {
        return global;
    }

    /** Takes one slot of the global budget; false when none is left. */
    boolean tryReserve() {
        while (true) {
            int n = open.get();
            if (n >= global) return false;
            if (open.compareAndSet(n, n + 1)) {
                peak.accumulateAndGet(n + 1, Math::max);
                return true;
            }
        }
    }

    void release() {
        open.decrementAndGet();
    }

    /** Statements open now over all connections of the task. */
    public int openStatements() {
        return open.get();
    }

    /** The most statements ever open at once. */
    public int peakStatements() {
        return peak.get();
    }

    SinkMetrics metrics() {
        return metrics;
    }
}
