package io.cdcconnect.bench.latency;

import io.cdcconnect.bench.e2e.SysbenchWorkload;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes the sysbench-like mix of {@code BENCHMARKS.md} into the source at a steady rate, as an application would:
 * {@code connections} connections, each owning a disjoint set of tables (so no two ever wait for each other's row
 * locks), transactions of 1 to {@code maxTxnRows} row changes of one table (update-non-index, update-index, delete + re-insert of the
 * same id, insert of a new id), each ending with one insert into the probe table whose seq the {@link ProbeLedger}
 * follows. A transaction's statements go to the server together ({@code executeBatch}: with the URL's
 * {@code rewriteBatchedStatements}, one multi-statement request), then its COMMIT: one statement per round trip
 * held the generator near 3,500 rows/s on 2 busy cores, below the rates the benchmark is for. Each connection is paced by a token bucket refilled every 10 ms with its share of the rate (at most 100 ms
 * of credit, so a stall is not followed by a long burst); the rate counts every row change, probe rows included.
 * Generated on the fly: a 120-s run at 10k rows/s would not fit in memory as {@link SysbenchWorkload} keeps it.
 */
final class LoadGenerator implements AutoCloseable {
    static final String PROBE_TABLE = "probe";
    private static final long TICK_NANOS = 10_000_000L;
    private static final int CREDIT_TICKS = 10;
    private static final int MAX_FAILURES = 100;

    /** The probe table's definition; the generator inserts one row into it per transaction. */
    static String probeDdl() {
        return "CREATE TABLE IF NOT EXISTS " + PROBE_TABLE + " (seq BIGINT NOT NULL PRIMARY KEY, sent_us BIGINT NOT NULL)"
                + " ENGINE=InnoDB";
    }

    private final ProbeLedger ledger;
    private final int maxTxnRows;
    private final List<Writer> writers = new ArrayList<>();

    LoadGenerator(SysbenchWorkload.ConnectionFactory db, ProbeLedger ledger, int tables, int rowsPerTable,
                  int connections, int maxTxnRows, long seed) throws SQLException {
        this.ledger = ledger;
        this.maxTxnRows = maxTxnRows;
        try {
            for (int w = 0; w < connections; w++) {
                List<Integer> own = new ArrayList<>();
                for (int t = 1; t <= tables; t++) if (t % connections == w) own.add(t);
                if (own.isEmpty()) continue;
                writers.add(new Writer(db.open(), own, rowsPerTable, new Random(seed + w)));
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /** Starts writing at {@code rate} row changes per second, until {@link Phase#stop()}. */
    Phase start(int rate) {
        Phase p = new Phase(rate);
        for (Writer w : writers) {
            Thread t = new Thread(() -> w.run(p, (double) rate / writers.size()), "load-" + writers.indexOf(w));
            t.setDaemon(true);
            p.threads.add(t);
        }
        p.firstSeq = ledger.lastSeq() + 1;
        p.startNanos = System.nanoTime();
        p.startMicros = ProbeLedger.nowMicros();
        for (Thread t : p.threads) t.start();
        return p;
    }

    /** One rate's run: what it wrote so far, and its end. */
    final class Phase {
        final int rate;
        final List<Thread> threads = new ArrayList<>();
        final LongAdder rows = new LongAdder();
        final LongAdder transactions = new LongAdder();
        final LongAdder failures = new LongAdder();
        /** Time spent in committed transactions, first statement to COMMIT returned: the generator's own ceiling. */
        final LongAdder transactionNanos = new LongAdder();
        final AtomicReference<SQLException> lastFailure = new AtomicReference<>();
        volatile boolean stopping;
        long firstSeq;
        long lastSeq;
        long startNanos;
        long startMicros;
        long stopNanos;

        Phase(int rate) {
            this.rate = rate;
        }

        /** Stops the writers and waits for them; the phase's seqs are then [firstSeq, lastSeq]. */
        void stop() throws InterruptedException {
            stopping = true;
            for (Thread t : threads) t.join();
            stopNanos = System.nanoTime();
            lastSeq = ledger.lastSeq();
        }

        boolean failed() {
            return failures.sum() > MAX_FAILURES;
        }

        /** Mean time of a committed transaction, in ms. */
        double meanTransactionMs() {
            long n = transactions.sum();
            return n > 0 ? transactionNanos.sum() / 1e6 / n : Double.NaN;
        }

        /** Row changes per second written between start and stop (or now). */
        double achievedRate() {
            long end = stopNanos != 0 ? stopNanos : System.nanoTime();
            return rows.sum() / ((end - startNanos) / 1e9);
        }
    }

    /** One connection and the tables it owns. */
    private final class Writer {
        private final Connection c;
        private final int[] tables;
        private final int[] maxId;
        private final Random random;
        private final String[] names;
        /** The transaction's statements in order, sent together (one round trip) before its COMMIT. */
        private final Statement batch;

        Writer(Connection c, List<Integer> own, int rowsPerTable, Random random) throws SQLException {
            this.c = c;
            this.random = random;
            c.setAutoCommit(false);
            tables = own.stream().mapToInt(Integer::intValue).toArray();
            maxId = new int[tables.length];
            names = new String[tables.length];
            for (int i = 0; i < tables.length; i++) {
                names[i] = SysbenchWorkload.table(tables[i]);
                maxId[i] = rowsPerTable;
            }
            batch = c.createStatement();
        }

        void run(Phase p, double rowsPerSecond) {
            double perTick = rowsPerSecond * TICK_NANOS / 1e9;
            double tokens = 0;
            long next = System.nanoTime();
            while (!p.stopping && !p.failed()) {
                tokens = Math.min(CREDIT_TICKS * perTick, tokens + perTick);
                while (tokens > 0 && !p.stopping && !p.failed()) {
                    int rows = transaction(p);
                    if (rows < 0) {
                        p.stopping = true;
                        return;
                    }
                    tokens -= rows;
                }
                next += TICK_NANOS;
                long wait = next - System.nanoTime();
                if (wait > 0) LockSupport.parkNanos(wait);
                else if (wait < -CREDIT_TICKS * TICK_NANOS) next = System.nanoTime();
            }
        }

        /** One transaction; returns its row changes (0 when it failed), -1 when the ledger is full. */
        private int transaction(Phase p) {
            long seq = ledger.nextSeq();
            if (seq < 0) return -1;
            int i = random.nextInt(tables.length);
            int want = 1 + random.nextInt(maxTxnRows);
            int rows = 0;
            long t0 = System.nanoTime();
            try {
                // ids that exist when the transaction starts: every update and delete then changes a row
                int existing = maxId[i];
                String t = names[i];
                while (rows < want) {
                    int pick = random.nextInt(100);
                    if (pick < 10) {
                        batch.addBatch(insert(i, ++maxId[i]));
                        rows++;
                        continue;
                    }
                    int id = 1 + random.nextInt(existing);
                    if (pick < 40) {
                        batch.addBatch("UPDATE " + t + " SET c = '" + digits(10) + "' WHERE id = " + id);
                        rows++;
                    } else if (pick < 70) {
                        batch.addBatch("UPDATE " + t + " SET k = k + 1 WHERE id = " + id);
                        rows++;
                    } else {
                        batch.addBatch("DELETE FROM " + t + " WHERE id = " + id);
                        batch.addBatch(insert(i, id));
                        rows += 2;
                    }
                }
                batch.addBatch("INSERT INTO " + PROBE_TABLE + " (seq, sent_us) VALUES (" + seq + ", "
                        + ProbeLedger.nowMicros() + ")");
                rows++;
                batch.executeBatch();
                c.commit();
                ledger.committed(seq, ProbeLedger.nowMicros());
                p.transactionNanos.add(System.nanoTime() - t0);
                p.rows.add(rows);
                p.transactions.increment();
                return rows;
            } catch (SQLException e) {
                ledger.abandoned(seq);
                p.failures.increment();
                p.lastFailure.set(e);
                try {
                    batch.clearBatch();
                    c.rollback();
                } catch (SQLException ignored) {
                    // the failure itself is what is reported
                }
                return 0;
            }
        }

        private String insert(int i, int id) {
            return "INSERT INTO " + names[i] + " (id, k, c, pad) VALUES (" + id + ", "
                    + (random.nextInt(Math.max(1, maxId[i])) + 1) + ", '" + digits(10) + "', '" + digits(5) + "')";
        }

        /** sysbench's c and pad: groups of 11 random digits joined by '-'. */
        private String digits(int groups) {
            char[] out = new char[groups * 12 - 1];
            for (int k = 0; k < out.length; k++) out[k] = (k % 12 == 11) ? '-' : (char) ('0' + random.nextInt(10));
            return new String(out);
        }

        void close() {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing at the end of the run
            }
        }
    }

    @Override
    public void close() {
        for (Writer w : writers) w.close();
    }
}
