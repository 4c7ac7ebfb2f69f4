package io.cdcconnect.bench.latency;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches the probe table in the target and records when each probe first becomes visible there. Its own connection,
 * READ COMMITTED and autocommit, so every query sees what was committed before it started; the time recorded is the
 * query's start, so a probe is never dated later than its commit and at most one poll interval (about 5 ms plus the
 * query) earlier than the truth is unknowable. Seqs of the two generator connections commit out of order, so the
 * poller reads everything above its low watermark (the highest seq below which every probe is settled) and the
 * ledger remembers which it has seen.
 */
final class TargetPoller implements AutoCloseable {
    private static final long INTERVAL_NANOS = 5_000_000L;

    private final Connection c;
    private final ProbeLedger ledger;
    private final Thread thread;
    private final AtomicLong seen = new AtomicLong();
    private final AtomicLong polls = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private volatile boolean stopping;
    private long lowWater;

    TargetPoller(Connection c, ProbeLedger ledger) throws SQLException {
        this.c = c;
        this.ledger = ledger;
        c.setAutoCommit(true);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        thread = new Thread(this::run, "target-poller");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try (PreparedStatement q = c.prepareStatement("SELECT seq FROM " + LoadGenerator.PROBE_TABLE
                + " WHERE seq > ? ORDER BY seq")) {
            long next = System.nanoTime();
            while (!stopping) {
                long at = ProbeLedger.nowMicros();
                q.setLong(1, lowWater);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        if (ledger.visible(rs.getLong(1), at)) seen.incrementAndGet();
                    }
                }
                polls.incrementAndGet();
                long last = ledger.lastSeq();
                while (lowWater < last && ledger.settled(lowWater + 1)) lowWater++;
                next += INTERVAL_NANOS;
                long wait = next - System.nanoTime();
                if (wait > 0) LockSupport.parkNanos(wait);
                else next = System.nanoTime();
            }
        } catch (SQLException | RuntimeException e) {
            failure.set(e);
        }
    }

    /** Probes seen in the target so far. */
    long seen() {
        return seen.get();
    }

    long polls() {
        return polls.get();
    }

    /** Throws if the poller stopped on an error. */
    void check() {
        Exception e = failure.get();
        if (e != null) throw new IllegalStateException("the target poller failed: " + e, e);
    }

    @Override
    public void close() throws SQLException, InterruptedException {
        stopping = true;
        thread.join(5_000);
        c.close();
    }
}
