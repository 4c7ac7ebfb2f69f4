package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.model.ChangeEvent;
import org.apache.kafka.connect.sink.SinkRecord;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Decodes the records of one {@code put()} on several threads while the task thread takes them, in their order, as
 * each is ready (TiCDC's mounter group in reverse). A batch is cut into runs of consecutive records; the pool's
 * threads decode runs ahead, and the task thread decodes a run itself when no pool thread has started it yet, so it
 * never waits for a queue. Results are handed out in record order, so every partition keeps its order.
 *
 * <p>Decoders keep per-table caches and are not thread-safe: the stage holds one per thread (the pool's and the
 * task thread's), each taken for one run at a time. Failures are not thrown here: each record's outcome, events or
 * the exception its decoder threw, goes back to the task, which reports it against the record's topic, partition and
 * offset as before.
 */
public final class DecodeStage implements AutoCloseable {

    /** One record's outcome: its events and buffer size, or what its decoder threw. */
    public record Decoded(List<ChangeEvent> events, long bytes, RuntimeException error) {
    }

    /** Below this many records a batch is decoded on the task thread: handing it off costs more than it saves. */
    static final int MIN_PARALLEL_BATCH = 32;
    /** Smallest run of records given to one thread. */
    static final int MIN_RUN = 16;

    private final ExecutorService pool;
    private final int threads;
    private final BlockingQueue<RecordDecoder> decoders;

    /**
     * @param decoders makes one decoder per thread ({@code threads + 1}, the task thread's included)
     * @param threads  pool threads; 0 decodes every record on the task thread
     */
    public DecodeStage(Supplier<RecordDecoder> decoders, int threads, String name) {
        this.threads = threads;
        this.decoders = new ArrayBlockingQueue<>(threads + 1);
        for (int i = 0; i <= threads; i++) this.decoders.add(decoders.get());
        AtomicInteger n = new AtomicInteger();
        this.pool = threads == 0 ? null : Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name + "-decode-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts decoding {@code records}; {@link Batch#get} hands each out in order. */
    public Batch decode(List<SinkRecord> records) {
        int size = records.size();
        if (pool == null || size < MIN_PARALLEL_BATCH) return new Batch(records, size, new FutureTask[]{run(records, 0, size)});
        int runLength = Math.max(MIN_RUN, (size + threads * 4 - 1) / (threads * 4));
        int runs = (size + runLength - 1) / runLength;
        @SuppressWarnings("unchecked")
        FutureTask<Decoded[]>[] tasks = new FutureTask[runs];
        for (int r = 0; r < runs; r++) {
            tasks[r] = run(records, r * runLength, Math.min(size, (r + 1) * runLength));
        }
        // the first run is the task thread's own (Batch.get runs it), the rest go to the pool in order
        for (int r = 1; r < runs; r++) pool.execute(tasks[r]);
        return new Batch(records, runLength, tasks);
    }

    private FutureTask<Decoded[]> run(List<SinkRecord> records, int from, int to) {
        return new FutureTask<>(() -> {
            RecordDecoder decoder = decoders.take();
            try {
                Decoded[] out = new Decoded[to - from];
                for (int i = from; i < to; i++) out[i - from] = decodeOne(decoder, records.get(i));
                return out;
            } finally {
                decoders.add(decoder);
            }
        });
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
    public static final class Batch {
        private final List<SinkRecord> records;
        private final int runLength;
        private final FutureTask<Decoded[]>[] runs;

        private Batch(List<SinkRecord> records, int runLength, FutureTask<Decoded[]>[] runs) {
            this.records = records;
            this.runLength = runLength;
            this.runs = runs;
        }

        public int size() {
            return records.size();
        }

        public SinkRecord record(int i) {
            return records.get(i);
        }

        /** Record {@code i}'s outcome; decodes its run on this thread when no pool thread has started it. */
        public Decoded get(int i) {
            FutureTask<Decoded[]> run = runs[i / runLength];
            run.run(); // a no-op when a pool thread has started or finished it
            try {
                return run.get()[i % runLength];
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while records were being decoded", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error err) throw err;
                throw new IllegalStateException("decoding failed: " + e.getCause(), e.getCause());
            }
        }

        /** Stops runs no thread has started (the batch is abandoned: its put() failed). */
        public void cancel() {
            for (FutureTask<Decoded[]> r : runs) r.cancel(false);
        }
    }

    @Override
    public void close() {
        if (pool != null) pool.shutdownNow();
    }
}
