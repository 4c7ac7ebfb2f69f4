package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.model.ChangeEvent;
import org.apache.kafka.connect.sink.SinkRecord;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Supplier;

/**
 * Decodes the records of one {@code put()} on several threads while the task thread takes them, in their order, as
 * each is ready (TiCDC's mounter group in reverse). A batch is cut into runs of consecutive records; the pool's
 * threads decode runs ahead, record by record, and the task thread decodes a record itself when no pool thread has
 * started it yet, so it never waits for a queue. Results are handed out in record order, so every partition keeps its
 * order.
 *
 * <p>What the pool holds ahead is bounded ({@code decode.ahead.max.bytes}): a pool thread starts a record only while
 * the decoded bytes held ahead plus the record's received size fit in the bound, else it waits for the task thread to
 * take records (or to reach this one and decode it itself); it keeps the result only if its decoded size fits too,
 * else drops it and leaves the record to the task thread. So decoded records held ahead never exceed the bound, and
 * records past it are decoded later, in order, by whichever thread gets to them first.
 *
 * <p>Decoders keep per-table caches and are not thread-safe: the stage holds one per thread (the pool's and the
 * task thread's), each taken for one run or one record at a time. Failures are not thrown here: each record's outcome,
 * events or the exception its decoder threw, goes back to the task, which reports it against the record's topic,
 * partition and offset as before.
 */
public final class DecodeStage implements AutoCloseable {

    /** One record's outcome: its events and buffer size, or what its decoder threw. */
    public record Decoded(List<ChangeEvent> events, long bytes, RuntimeException error) {
    }

    /** Below this many records a batch is decoded on the task thread: handing it off costs more than it saves. */
    static final int MIN_PARALLEL_BATCH = 32;
    /** Smallest run of records given to one thread. */
    static final int MIN_RUN = 16;

    private static final int NEW = 0;
    private static final int CLAIMED = 1;
    private static final int DONE = 2;

    private final ExecutorService pool;
    private final int threads;
    private final long maxAheadBytes;
    private final BlockingQueue<RecordDecoder> decoders;
    /** Guards {@link #ahead} and every batch's hand-over; pool threads wait on it for room or for the task thread. */
    private final Object lock = new Object();
    /** Decoded bytes the pool holds ahead of the task thread. */
    private long ahead;
    private long aheadHighWater;
    /** Pool threads waiting for room ahead. */
    private int waitingForRoom;

    /**
     * @param decoders makes one decoder per thread ({@code threads + 1}, the task thread's included)
     * @param threads  pool threads; 0 decodes every record on the task thread
     */
    public DecodeStage(Supplier<RecordDecoder> decoders, int threads, String name) {
        this(decoders, threads, Long.MAX_VALUE, name);
    }

    /**
     * @param maxAheadBytes the most decoded bytes the pool holds ahead of the task thread
     *                      ({@code decode.ahead.max.bytes})
     */
    public DecodeStage(Supplier<RecordDecoder> decoders, int threads, long maxAheadBytes, String name) {
        if (maxAheadBytes < 1) throw new IllegalArgumentException("maxAheadBytes must be positive");
        this.threads = threads;
        this.maxAheadBytes = maxAheadBytes;
        this.decoders = new ArrayBlockingQueue<>(threads + 1);
        for (int i = 0; i <= threads; i++) this.decoders.add(decoders.get());
        // with the MDC of the task's thread (Connect's connector.context), as every thread the task starts
        this.pool = threads == 0 ? null : Executors.newFixedThreadPool(threads,
                io.cdcconnect.codec.logging.TaskThreads.factory(name + "-decode-"));
    }

    /** Decoded bytes the pool holds ahead of the task thread now. */
    public long aheadBytes() {
        synchronized (lock) {
            return ahead;
        }
    }

    /** The most decoded bytes the pool has held ahead of the task thread at once, since the stage started. */
    public long aheadHighWater() {
        synchronized (lock) {
            return aheadHighWater;
        }
    }

    /** Pool threads waiting for room ahead now (for tests). */
    int waitingForRoom() {
        synchronized (lock) {
            return waitingForRoom;
        }
    }

    /** Starts decoding {@code records}; {@link Batch#get} hands each out in order. */
    public Batch decode(List<SinkRecord> records) {
        int size = records.size();
        Batch batch = new Batch(records);
        if (pool == null || size < MIN_PARALLEL_BATCH) return batch;
        int runLength = Math.max(MIN_RUN, (size + threads * 4 - 1) / (threads * 4));
        // the first run is the task thread's own (Batch.get decodes it), the rest go to the pool in order
        for (int from = runLength; from < size; from += runLength) {
            int start = from;
            int end = Math.min(size, from + runLength);
            pool.execute(() -> batch.decodeAhead(start, end));
        }
        return batch;
    }

    private static Decoded decodeOne(RecordDecoder decoder, SinkRecord record) {
        try {
            List<ChangeEvent> events = decoder.decode(record);
            return new Decoded(events, decoder.sizeOf(record, events), null);
        } catch (RuntimeException e) {
            return new Decoded(List.of(), 0, e);
        }
    }

    /** The records of one {@code put()}, being decoded. */
    public final class Batch {
        private final List<SinkRecord> records;
        /** Per record: NEW (nobody decodes it), CLAIMED (a thread decodes it) or DONE (held ahead in results). */
        private final AtomicIntegerArray state;
        private final Decoded[] results;
        private boolean cancelled; // guarded by lock

        private Batch(List<SinkRecord> records) {
            this.records = records;
            this.state = new AtomicIntegerArray(records.size());
            this.results = new Decoded[records.size()];
        }

        public int size() {
            return records.size();
        }

        public SinkRecord record(int i) {
            return records.get(i);
        }

        /** A pool thread: decodes records {@code from} to {@code to} ahead, while what it holds ahead has room. */
        private void decodeAhead(int from, int to) {
            RecordDecoder decoder;
            try {
                decoder = decoders.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // the stage is closing
            }
            try {
                // what a record became over what arrived, on the last one: a compressed value or a claim-check
                // pointer grows, and the next of the same kind likely grows as much
                double expansion = 1;
                for (int i = from; i < to; i++) {
                    long received = Math.max(1, decoder.sizeOf(records.get(i)));
                    long estimate = (long) Math.min(Long.MAX_VALUE / 2.0, received * expansion);
                    while (awaitRoom(i, estimate)) {
                        Decoded d = decodeOne(decoder, records.get(i));
                        expansion = Math.max(1, d.bytes() / (double) received);
                        if (hold(i, d)) break;
                        // no room for what it decoded to: dropped; decoded again once that much fits, unless the task
                        // thread gets there first
                        estimate = d.bytes();
                    }
                    if (isCancelled()) return;
                }
            } finally {
                decoders.add(decoder);
            }
        }

        /** Keeps record {@code i}'s outcome ahead if it fits, else hands the record back (NEW). */
        private boolean hold(int i, Decoded d) {
            synchronized (lock) {
                try {
                    if (!cancelled && ahead + d.bytes() <= maxAheadBytes) {
                        ahead += d.bytes();
                        aheadHighWater = Math.max(aheadHighWater, ahead);
                        results[i] = d;
                        state.set(i, DONE);
                        return true;
                    }
                    state.set(i, NEW);
                    return cancelled; // cancelled: stop trying
                } finally {
                    lock.notifyAll();
                }
            }
        }

        /**
         * Waits until record {@code i}, estimated at {@code bytes} once decoded, fits ahead, and claims it.
         *
         * @return false when the batch is cancelled or the task thread claimed the record meanwhile
         */
        private boolean awaitRoom(int i, long bytes) {
            synchronized (lock) {
                while (!cancelled && state.get(i) == NEW && ahead + bytes > maxAheadBytes) {
                    waitingForRoom++;
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    } finally {
                        waitingForRoom--;
                    }
                }
                return !cancelled && state.compareAndSet(i, NEW, CLAIMED);
            }
        }

        private boolean isCancelled() {
            synchronized (lock) {
                return cancelled;
            }
        }

        /**
         * Record {@code i}'s outcome; decodes it on this thread when no pool thread has started it. Each record is
         * taken once, by the task thread.
         */
        public Decoded get(int i) {
            synchronized (lock) {
                while (true) {
                    int s = state.get(i);
                    if (s == DONE) {
                        Decoded d = results[i];
                        results[i] = null;
                        ahead -= d.bytes();
                        lock.notifyAll(); // room for the pool
                        return d;
                    }
                    if (s == NEW) {
                        state.set(i, CLAIMED);
                        lock.notifyAll(); // a pool thread waiting for room to start it moves on
                        break;
                    }
                    try {
                        lock.wait(); // a pool thread is decoding it
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while records were being decoded", e);
                    }
                }
            }
            RecordDecoder decoder;
            try {
                decoder = decoders.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while records were being decoded", e);
            }
            try {
                return decodeOne(decoder, records.get(i));
            } finally {
                decoders.add(decoder);
            }
        }

        /**
         * Stops decoding ahead and drops what is held ahead (the batch is abandoned: its put() failed, or stopped for
         * a full buffer and keeps the records it did not take to decode them later).
         */
        public void cancel() {
            synchronized (lock) {
                cancelled = true;
                for (int i = 0; i < results.length; i++) {
                    if (results[i] != null) {
                        ahead -= results[i].bytes();
                        results[i] = null;
                    }
                }
                lock.notifyAll();
            }
        }
    }

    @Override
    public void close() {
        if (pool != null) pool.shutdownNow();
    }
}
