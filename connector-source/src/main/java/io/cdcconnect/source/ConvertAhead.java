package io.cdcconnect.source;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Converts and encodes Debezium's batches on a thread of its own, up to {@code depth} batches ahead, while Connect's
 * task thread sends the batch it took last ({@code convert.ahead.batches}). Batches are handed over whole and in
 * order, so offsets, claims and exactly-once transactions are what {@code poll()} would have made of them; one that
 * is still queued at a stop is dropped before any of it is sent, and Debezium's next start reads it again from the
 * last committed offset.
 */
final class ConvertAhead implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConvertAhead.class);
    /** How long {@link #take} waits for a batch before it lets Connect's loop run (to notice a stop). */
    static final long TAKE_WAIT_MS = 100;
    /** How long a stop waits for the thread to leave Debezium's poll. */
    static final long STOP_WAIT_MS = 10_000;

    /** One step of the conversion: the next batch, or null when Debezium had none. */
    @FunctionalInterface
    interface Step {
        List<SourceRecord> next() throws InterruptedException;
    }

    private final Step step;
    private final BlockingQueue<List<SourceRecord>> ready;
    private final Thread thread;
    private volatile Throwable failure;
    private volatile boolean closed;

    ConvertAhead(Step step, int depth, String name) {
        this.step = step;
        this.ready = new ArrayBlockingQueue<>(depth);
        // with the MDC of the task's thread (Connect's connector.context), as every thread the task starts
        this.thread = io.cdcconnect.codec.logging.TaskThreads.newThread(this::run, name + "-convert");
        this.thread.start();
    }

    private void run() {
        try {
            while (!closed) {
                List<SourceRecord> batch = step.next();
                if (batch != null && !batch.isEmpty()) ready.put(batch);
            }
        } catch (InterruptedException e) {
            if (!closed) failure = e;
        } catch (Throwable t) {
            if (!closed) failure = t;
        }
    }

    /**
     * The next converted batch, or null when none is ready within {@link #TAKE_WAIT_MS}.
     *
     * @throws ConnectException what the conversion failed with (the task fails as it would in poll())
     */
    List<SourceRecord> take() throws InterruptedException {
        List<SourceRecord> batch = ready.poll(TAKE_WAIT_MS, TimeUnit.MILLISECONDS);
        if (batch != null) return batch;
        // batches converted before a failure are still handed over first
        Throwable t = failure;
        if (t == null) return null;
        if (t instanceof ConnectException ce) throw ce;
        if (t instanceof Error err) throw err;
        throw new ConnectException("converting Debezium's records failed: " + t, t);
    }

    /** Stops the thread (it may be waiting in Debezium's poll) and drops what it converted ahead. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(STOP_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("the conversion thread {} did not stop within {} ms", thread.getName(), STOP_WAIT_MS);
        }
        int dropped = ready.size();
        ready.clear();
        if (dropped > 0) LOG.info("dropped {} batch(es) converted ahead and not sent; they are read again after a restart",
                dropped);
    }
}
