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

        /** Clears the parameters of a cached statement, closes a text one. */
        public void release() throws SQLException {
            if (cached) {
                statement.clearParameters();
            } else {
                statement.close();
            }
        }
    }

    private final Connection connection;
    private final StatementCachePolicy policy;
    private final LinkedHashMap<String, PreparedStatement> lru = new LinkedHashMap<>(64, 0.75f, true);

    public ConnectionStatementCache(Connection connection, StatementCachePolicy policy) {
        this.connection = connection;
        this.policy = policy;
    }

    public Lease acquire(String sql) throws SQLException {
        PreparedStatement ps = lru.get(sql);
        if (ps != null) {
            policy.metrics().cacheHit();
            return new Lease(ps, true);
        }
        policy.metrics().cacheMiss();
        if (!makeRoom()) {
            return textStatement(sql);
        }
        try {
            ps = connection.prepareStatement(sql);
        } catch (SQLException e) {
            policy.release();
            if (isConnectionProblem(e)) throw e;
            // e.g. 1461 "Can't create more than max_prepared_stmt_count statements"
            return textStatement(sql);
        }
        policy.metrics().prepared();
        lru.put(sql, ps);
        return new Lease(ps, true);
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
        Iterator<Map.Entry<String, PreparedStatement>> it = lru.entrySet().iterator();
        if (!it.hasNext()) return false;
        PreparedStatement eldest = it.next().getValue();
        it.remove();
        closeQuietly(eldest);
        policy.release();
        policy.metrics().cacheEviction();
        return true;
    }

    private Lease textStatement(String sql) throws SQLException {
        policy.metrics().textFallback();
        PreparedStatement ps;
        try {
            ps = connection.unwrap(JdbcConnection.class).clientPrepareStatement(sql);
        } catch (SQLException notConnectorJ) {
            ps = connection.prepareStatement(sql);
        }
        return new Lease(ps, false);
    }

    public int size() {
        return lru.size();
    }

    /** Closes every cached statement (the server frees them) and returns their budget. */
    @Override
    public void close() {
        for (PreparedStatement ps : lru.values()) {
            closeQuietly(ps);
            policy.release();
        }
        lru.clear();
    }

    /** Forgets the statements without closing them: their connection is gone, and so are they on the server. */
    public void abandon() {
        for (int i = 0; i < lru.size(); i++) policy.release();
        lru.clear();
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
