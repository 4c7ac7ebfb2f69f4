package io.cdcconnect.bench.latency;

import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The three moments of every probe row, by its seq, in wall-clock microseconds: committed at the source (the
 * generator's COMMIT returned), appended to its topic (the broker's LogAppendTime, whole milliseconds) and first
 * visible in the target (the start of the target poll whose result held it). 0 means not yet known; a probe whose
 * transaction failed is marked abandoned and never counts. The three are written by three threads (generator,
 * Kafka reader, target poller); all clocks are this machine's wall clock, so no connector's clock is trusted.
 */
final class ProbeLedger {
    private static final long ABANDONED = -1;

    private final AtomicLong lastSeq = new AtomicLong();
    private final AtomicLongArray committed;
    private final AtomicLongArray appended;
    private final AtomicLongArray visible;

    ProbeLedger(int capacity) {
        committed = new AtomicLongArray(capacity + 1);
        appended = new AtomicLongArray(capacity + 1);
        visible = new AtomicLongArray(capacity + 1);
    }

    /** This machine's wall clock in microseconds (the broker's LogAppendTime is read from the same clock). */
    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** The next seq, or -1 when the ledger is full. */
    long nextSeq() {
        long seq = lastSeq.incrementAndGet();
        if (seq >= committed.length()) {
            lastSeq.decrementAndGet();
            return -1;
        }
        return seq;
    }

    /** The highest seq handed out so far. */
    long lastSeq() {
        return lastSeq.get();
    }

    void committed(long seq, long micros) {
        committed.set((int) seq, micros);
    }

    void abandoned(long seq) {
        committed.set((int) seq, ABANDONED);
    }

    /** Records the broker's append time; the first one counts (a redelivered message keeps the first). */
    void appended(long seq, long micros) {
        if (inRange(seq)) appended.compareAndSet((int) seq, 0, micros);
    }

    /** Records when the probe was first seen in the target; true when this was the first time. */
    boolean visible(long seq, long micros) {
        return inRange(seq) && visible.compareAndSet((int) seq, 0, micros);
    }

    /** True when nothing more will be learnt about {@code seq} in the target: seen there, or never committed. */
    boolean settled(long seq) {
        return visible.get((int) seq) != 0 || committed.get((int) seq) == ABANDONED;
    }

    long committedAt(long seq) {
        return committed.get((int) seq);
    }

    long visibleAt(long seq) {
        return visible.get((int) seq);
    }

    private boolean inRange(long seq) {
        return seq > 0 && seq < committed.length();
    }

    /**
     * The lags of the probes with seq in [{@code from}, {@code to}] committed at or after {@code since} (µs) and
     * before {@code until}: total (visible − committed), source side (appended − committed) and sink side (visible −
     * appended), each in µs, over the probes that have the moments each needs.
     */
    Lags lags(long from, long to, long since, long until) {
        int n = (int) Math.max(0, to - from + 1);
        long[] total = new long[n];
        long[] source = new long[n];
        long[] sink = new long[n];
        int nt = 0;
        int ns = 0;
        int nk = 0;
        int committedCount = 0;
        for (long s = from; s <= to; s++) {
            long c = committed.get((int) s);
            if (c <= 0 || c < since || c >= until) continue;
            committedCount++;
            long a = appended.get((int) s);
            long v = visible.get((int) s);
            if (v > 0) total[nt++] = v - c;
            if (a > 0) source[ns++] = a - c;
            if (a > 0 && v > 0) sink[nk++] = v - a;
        }
        return new Lags(committedCount, Distribution.of(Arrays.copyOf(total, nt)),
                Distribution.of(Arrays.copyOf(source, ns)), Distribution.of(Arrays.copyOf(sink, nk)));
    }

    /** The lags of a set of probes; {@code probes} is how many were committed in the window. */
    record Lags(int probes, Distribution total, Distribution source, Distribution sink) {
    }

    /** Percentiles of a set of lags, in µs (nearest rank); NaN when empty. */
    record Distribution(int count, double p50, double p95, double p99, double max) {
        static Distribution of(long[] values) {
            if (values.length == 0) return new Distribution(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            Arrays.sort(values);
            return new Distribution(values.length, rank(values, 0.50), rank(values, 0.95), rank(values, 0.99),
                    values[values.length - 1]);
        }

        private static double rank(long[] sorted, double q) {
            int i = (int) Math.ceil(q * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }
    }
}
