package io.cdcconnect.sink.stmtcache;

import com.mysql.cj.jdbc.JdbcConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Server-side prepared statements of one connection, least recently used evicted (and closed, which frees them on the
 * server) under the shared {@link StatementCachePolicy}. When a prepare fails (the server is out of statements, or the
 * statement cannot be prepared) or the budget has no room, the statement is sent as text instead, and counted.
 *
 * <p>Each statement is cached with the table it writes. A DDL statement that changes a table (or tables it cannot
 * name) is told through {@link TableChanges}; before the next statement is handed out ({@link #acquire}, or
 * {@link #evictChanged} at the start of a transaction) the statements of the changed tables are closed and dropped,
 * on the thread that uses this cache, and counted as evictions.
 *
 * <p>Used by one worker thread at a time; not thread-safe. The connection must have been opened with
 * {@code useServerPrepStmts=true}, {@code cachePrepStmts=false} (the driver's own cache would duplicate this one) and
 * {@code emulateUnsupportedPstmts=false} (so that a failed prepare is reported rather than silently emulated).
 */
public final class ConnectionStatementCache implements AutoCloseable {

    /** A statement ready to bind; {@link #release()} after executing it. */
    public final class Lease {
        private final PreparedStatement statement;
        private final boolean cached;

        private Lease(PreparedStatement statement, boolean cached) {
            this.statement = statement;
            this.cached = cached;
        }

        public PreparedStatement statement() {
            return statement;
        }

        /** True for a cached server-side statement, false for a one-off text statement. */
        public boolean cached() {
            return cached;
        }

        /** As {@link #release(long)} for parameters of no size worth counting. */
        public void release() throws SQLException {
            release(0);
        }

        /**
         * Hands a cached statement back with its parameters still bound, {@code boundBytes} of them (they go at
         * {@link #trimHeld} once the held statements' parameters pass {@link #HELD_BYTES}, or at {@link #clearHeld});
         * closes a text one.
         */
        public void release(long boundBytes) throws SQLException {
            if (cached) {
                unhold(statement);
                held.put(statement, boundBytes); // the most recently used last (statements compare by identity)
                heldBytes += boundBytes;
            } else {
                statement.close();
            }
        }
    }

    /** A cached statement and the table it writes ({@link TableChanges#key}; null when not known). */
    private record Cached(PreparedStatement statement, String table) {
    }

    private final Connection connection;
    private final StatementCachePolicy policy;
    private final TableChanges changes;
    /** The connection is MariaDB Connector/J's: null until asked. */
    private Boolean mariaDb;
    /** Keyed by SQL text (which names its table), least recently used first. */
    private final LinkedHashMap<String, Cached> lru = new LinkedHashMap<>(64, 0.75f, true);
    /**
     * The most parameter bytes ({@link io.cdcconnect.sink.dml.SqlBatch#bytes}) the statements of one connection keep
     * bound between transactions; past it the least recently used are cleared until they fit.
     */
    public static final long HELD_BYTES = 8L << 20;

    /**
     * Cached statements handed back with their parameters still bound, and how many bytes those are, least recently
     * used first. Every execution binds all of a statement's parameters, so clearing them in between only costs:
     * Connector/J resets each of a 256-row statement's thousands of bindings, then sends every parameter's type again
     * on the next execution (measured: 11% of the apply threads' time on 60-column rows when they were cleared after
     * every execution, still 10% of the worker threads' samples when they were cleared after every transaction). So
     * they stay bound across transactions, and what they keep alive is bounded by {@link #HELD_BYTES} per connection,
     * by the values' estimated size, never by time.
     */
    private final LinkedHashMap<PreparedStatement, Long> held = new LinkedHashMap<>();
    private long heldBytes;
    /** The epoch of {@link #changes} last looked at: every cached statement is newer than the changes up to it. */
    private long seen;

    /** A cache no DDL reaches (its statements go only by LRU). */
    public ConnectionStatementCache(Connection connection, StatementCachePolicy policy) {
        this(connection, policy, new TableChanges());
    }

    /** A cache whose statements of a table go when {@code changes} says a DDL changed that table. */
    public ConnectionStatementCache(Connection connection, StatementCachePolicy policy, TableChanges changes) {
        this.connection = connection;
        this.policy = policy;
        this.changes = changes;
        this.seen = changes.epoch();
    }

    /** As {@link #acquire(String, String)} for a statement of no known table: any DDL evicts it. */
    public Lease acquire(String sql) throws SQLException {
        return acquire(null, sql);
    }

    /**
     * A statement for {@code sql}, cached or prepared now, or a text statement.
     *
     * @param table the table the statement writes, {@code schema.table} as the dialect quotes it (a DDL that changes
     *              it evicts the statement); null when not known
     */
    public Lease acquire(String table, String sql) throws SQLException {
        evictChanged();
        Cached hit = lru.get(sql);
        if (hit != null) {
            policy.metrics().cacheHit();
            return new Lease(hit.statement(), true);
        }
        policy.metrics().cacheMiss();
        if (!makeRoom()) {
            return textStatement(sql);
        }
        PreparedStatement ps;
        try {
            ps = connection.prepareStatement(sql);
            if (mariaDb()) {
                // MariaDB Connector/J prepares a DML statement with its first execution; asking for the
                // parameters' metadata prepares it now, so that a server out of statements is met here
                try {
                    ps.getParameterMetaData();
                } catch (SQLException e) {
                    closeQuietly(ps);
                    throw e;
                }
            }
        } catch (SQLException e) {
            policy.release();
            if (isConnectionProblem(e)) throw e;
            // e.g. 1461 "Can't create more than max_prepared_stmt_count statements"
            return textStatement(sql);
        }
        policy.metrics().prepared();
        lru.put(sql, new Cached(ps, TableChanges.key(table)));
        return new Lease(ps, true);
    }

    /**
     * Closes and drops the statements of the tables a DDL changed since the last look (all of them after a statement
     * whose tables are unknown); cheap when nothing changed. Called on the thread that uses the cache.
     *
     * @return how many statements went
     */
    public int evictChanged() {
        long now = changes.epoch();
        if (now == seen) return 0;
        boolean all = changes.allChangedSince(seen);
        int evicted = 0;
        for (Iterator<Map.Entry<String, Cached>> it = lru.entrySet().iterator(); it.hasNext(); ) {
            Cached c = it.next().getValue();
            if (all || changes.changedSince(c.table(), seen)) {
                it.remove();
                unhold(c.statement());
                closeQuietly(c.statement());
                policy.release();
                policy.metrics().cacheEviction();
                evicted++;
            }
        }
        seen = now;
        return evicted;
    }

    /** Evicts until this connection is under its limit and a global slot is reserved; false if impossible. */
    private boolean makeRoom() throws SQLException {
        if (policy.perConnectionLimit() == 0) return false;
        while (lru.size() >= policy.perConnectionLimit()) {
            if (!evictEldest()) return false;
        }
        while (!policy.tryReserve()) {
            if (!evictEldest()) return false;
        }
        return true;
    }

    private boolean evictEldest() {
        Iterator<Map.Entry<String, Cached>> it = lru.entrySet().iterator();
        if (!it.hasNext()) return false;
        Cached eldest = it.next().getValue();
        it.remove();
        unhold(eldest.statement());
        closeQuietly(eldest.statement());
        policy.release();
        policy.metrics().cacheEviction();
        return true;
    }

    private Lease textStatement(String sql) throws SQLException {
        policy.metrics().textFallback();
        PreparedStatement ps;
        if (mariaDb()) {
            ps = connection.unwrap(org.mariadb.jdbc.Connection.class).prepareInternal(sql,
                    java.sql.Statement.NO_GENERATED_KEYS, java.sql.ResultSet.TYPE_FORWARD_ONLY,
                    java.sql.ResultSet.CONCUR_READ_ONLY, false);
        } else if (connection.isWrapperFor(JdbcConnection.class)) {
            ps = connection.unwrap(JdbcConnection.class).clientPrepareStatement(sql);
        } else {
            ps = connection.prepareStatement(sql);
        }
        return new Lease(ps, false);
    }

    /** Whether the connection is MariaDB Connector/J's (asked once). */
    private boolean mariaDb() throws SQLException {
        if (mariaDb == null) mariaDb = connection.isWrapperFor(org.mariadb.jdbc.Connection.class);
        return mariaDb;
    }

    public int size() {
        return lru.size();
    }

    /** A statement that goes (closed, which drops its parameters) is no longer held. */
    private void unhold(PreparedStatement statement) {
        Long was = held.remove(statement);
        if (was != null) heldBytes -= was;
    }

    /** Statements holding the parameters of their last execution (for tests). */
    int heldCount() {
        return held.size();
    }

    /** Bytes of parameters the held statements keep bound (for tests). */
    long heldBytes() {
        return heldBytes;
    }

    /**
     * Clears the parameters of the least recently used held statements until the rest keep at most
     * {@link #HELD_BYTES} bound. Called after a transaction's statements are written.
     *
     * @throws SQLException the first statement that could not be cleared (the others are cleared all the same)
     */
    public void trimHeld() throws SQLException {
        clearHeldDownTo(HELD_BYTES);
    }

    /**
     * Clears the parameters of every held statement, dropping the values they reference. Called when a transaction's
     * statements failed: one may hold part of a binding.
     *
     * @throws SQLException the first statement that could not be cleared (the others are cleared all the same)
     */
    public void clearHeld() throws SQLException {
        clearHeldDownTo(-1);
    }

    private void clearHeldDownTo(long keep) throws SQLException {
        SQLException first = null;
        Iterator<Map.Entry<PreparedStatement, Long>> it = held.entrySet().iterator();
        while (heldBytes > keep && it.hasNext()) {
            Map.Entry<PreparedStatement, Long> e = it.next();
            try {
                if (!e.getKey().isClosed()) e.getKey().clearParameters();
            } catch (SQLException ex) {
                if (first == null) first = ex;
            }
            heldBytes -= e.getValue();
            it.remove();
        }
        if (held.isEmpty()) heldBytes = 0;
        if (first != null) throw first;
    }

    /** Closes every cached statement (the server frees them) and returns their budget. */
    @Override
    public void close() {
        for (Cached c : lru.values()) {
            closeQuietly(c.statement());
            policy.release();
        }
        lru.clear();
        held.clear();
        heldBytes = 0;
    }

    /** Forgets the statements without closing them: their connection is gone, and so are they on the server. */
    public void abandon() {
        for (int i = 0; i < lru.size(); i++) policy.release();
        lru.clear();
        held.clear();
        heldBytes = 0;
    }

    private static void closeQuietly(PreparedStatement ps) {
        try {
            ps.close();
        } catch (SQLException ignored) {
            // the connection may already be broken; the server frees the statement with it
        }
    }

    static boolean isConnectionProblem(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("08");
    }
}
