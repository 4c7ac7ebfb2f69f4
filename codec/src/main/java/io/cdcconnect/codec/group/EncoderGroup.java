package io.cdcconnect.codec.group;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Encodes events on N threads and hands the messages back strictly in submission order (TiCDC's encoder group).
 *
 * <p>The unit of work is a task: events of one topic partition, in order. Each worker thread has its own
 * {@link EventEncoder}; a task is encoded start to finish on one thread and flushed at its end, so batches (Open
 * protocol) never mix partitions or tasks. {@link #submit} blocks while the bytes in flight (submitted and not yet
 * taken) exceed the bound; {@link #take} returns results in submission order and rethrows a task's failure as a
 * {@link CodecException} naming the event's position, table and commit ts.
 *
 * <p>One submitting thread and one taking thread (they may be the same, alternating); both ends are thread-safe.
 *
 * @param <C> what the caller attaches to each event (e.g. its source offset); each message carries its last event's
 */
public final class EncoderGroup<C> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EncoderGroup.class);
    private static final AtomicInteger GROUPS = new AtomicInteger();

    /** A message with where it goes and the context of the last event it holds. */
    public record Output<C>(String topic, int partition, EncodedMessage message, C context) {
    }

    /**
     * One task's messages, in order.
     *
     * @param sequence    the task's submission number (0-based)
     * @param lastContext the context of the task's last event, covered or not by a message (a Canal-JSON watermark
     *                    without the TiDB extension produces none), so a caller can record progress past it
     */
    public record Result<C>(long sequence, String topic, int partition, List<Output<C>> messages, C lastContext) {
    }

    private final class Task {
        final long sequence;
        final long firstEvent;
        final String topic;
        final int partition;
        final List<ChangeEvent> events;
        final List<C> contexts;
        final CompletableFuture<Result<C>> result = new CompletableFuture<>();
        long reserved;

        Task(long sequence, long firstEvent, String topic, int partition, List<ChangeEvent> events, List<C> contexts,
             long reserved) {
            this.sequence = sequence;
            this.firstEvent = firstEvent;
            this.topic = topic;
            this.partition = partition;
            this.events = events;
            this.contexts = contexts;
            this.reserved = reserved;
        }
    }

    private final EncoderGroupConfig config;
    private final ExecutorService workers;
    private final ThreadLocal<EventEncoder> encoders;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition roomFreed = lock.newCondition();
    private final ArrayDeque<Task> queue = new ArrayDeque<>();
    /** Used by the submitting thread only. */
    private final EventSize sizes = new EventSize();
    private long inFlightBytes;
    private long peakInFlightBytes;
    private long nextSequence;
    private long nextEvent;
    private volatile boolean closed;
    /** Worker threads encoding a task now (a metric: how much of the group is in use). */
    private final AtomicInteger busy = new AtomicInteger();

    /** @param encoders makes one encoder per worker thread (e.g. {@code () -> EventEncoders.create(format, options)}) */
    public EncoderGroup(EncoderGroupConfig config, Supplier<EventEncoder> encoders) {
        this.config = Objects.requireNonNull(config, "config");
        Objects.requireNonNull(encoders, "encoders");
        this.encoders = ThreadLocal.withInitial(encoders);
        int id = GROUPS.incrementAndGet();
        // with the MDC of the thread making the group (a task's: Connect's connector.context)
        this.workers = new ThreadPoolExecutor(config.threads(), config.threads(), 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), io.cdcconnect.codec.logging.TaskThreads.factory("cdc-encoder-" + id + "-"));
        LOG.info("Encoder group {} started: {} threads, {} bytes in flight at most", id, config.threads(),
                config.maxInFlightBytes());
    }

    public EncoderGroupConfig config() {
        return config;
    }

    /**
     * The estimate of the events' encoded bytes that {@link #submit} would reserve (call from the submitting
     * thread; pass it to {@link #submit(String, int, List, List, long)} so it is not worked out twice).
     */
    public long estimate(List<ChangeEvent> events) {
        return sizes.estimate(events);
    }

    /** Submits one partition's events; contexts may be null (then every context is null). */
    public void submit(String topic, int partition, List<ChangeEvent> events, List<C> contexts)
            throws InterruptedException {
        submit(topic, partition, events, contexts, -1);
    }

    /**
     * As {@link #submit(String, int, List, List)}, with the events' size from {@link #estimate(List)} already worked
     * out (a negative size: work it out here).
     */
    public void submit(String topic, int partition, List<ChangeEvent> events, List<C> contexts, long estimate)
            throws InterruptedException {
        if (contexts != null && contexts.size() != events.size()) {
            throw new IllegalArgumentException(events.size() + " events but " + contexts.size() + " contexts");
        }
        if (events.isEmpty()) {
            return;
        }
        long size = estimate >= 0 ? estimate : sizes.estimate(events);
        Task task;
        lock.lockInterruptibly();
        try {
            // Admit a task larger than the whole bound only when nothing else is in flight, so it cannot deadlock.
            while (!closed && inFlightBytes > 0 && inFlightBytes + size > config.maxInFlightBytes()) {
                roomFreed.await();
            }
            if (closed) {
                throw new IllegalStateException("encoder group is closed");
            }
            inFlightBytes += size;
            peakInFlightBytes = Math.max(peakInFlightBytes, inFlightBytes);
            task = new Task(nextSequence++, nextEvent, topic, partition, List.copyOf(events),
                    contexts == null ? null : new ArrayList<>(contexts), size);
            nextEvent += events.size();
            queue.addLast(task);
        } finally {
            lock.unlock();
        }
        workers.execute(() -> run(task));
    }

    /**
     * Splits a batch into one task per partition (each in input order) and submits them in the order of each
     * partition's first event. Kafka orders only within a partition, which is what is kept.
     */
    public void submitByPartition(String topic, List<ChangeEvent> events, List<C> contexts,
                                  ToIntFunction<ChangeEvent> partitionOf) throws InterruptedException {
        Map<Integer, List<Integer>> byPartition = new LinkedHashMap<>();
        for (int i = 0; i < events.size(); i++) {
            byPartition.computeIfAbsent(partitionOf.applyAsInt(events.get(i)), p -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<Integer, List<Integer>> e : byPartition.entrySet()) {
            List<ChangeEvent> ev = new ArrayList<>(e.getValue().size());
            List<C> ctx = contexts == null ? null : new ArrayList<>(e.getValue().size());
            for (int i : e.getValue()) {
                ev.add(events.get(i));
                if (ctx != null) ctx.add(contexts.get(i));
            }
            submit(topic, e.getKey(), ev, ctx);
        }
    }

    private void run(Task task) {
        busy.incrementAndGet();
        try {
            encode(task);
        } finally {
            busy.decrementAndGet();
        }
    }

    private void encode(Task task) {
        EventEncoder encoder = encoders.get();
        List<Output<C>> out = new ArrayList<>();
        int i = 0;
        int covered = 0;
        long bytes = 0;
        try {
            for (; i < task.events.size(); i++) {
                for (EncodedMessage m : encoder.encode(task.topic, task.events.get(i))) {
                    covered += m.events();
                    out.add(new Output<>(task.topic, task.partition, m, context(task, covered - 1)));
                    bytes += m.length();
                }
            }
            for (EncodedMessage m : encoder.flush()) {
                covered += m.events();
                out.add(new Output<>(task.topic, task.partition, m, context(task, covered - 1)));
                bytes += m.length();
            }
            settle(task, bytes);
            task.result.complete(new Result<>(task.sequence, task.topic, task.partition, List.copyOf(out),
                    context(task, task.events.size() - 1)));
        } catch (Throwable t) {
            try {
                encoder.flush(); // drop a half-built batch so the thread's encoder starts clean
            } catch (RuntimeException ignored) {
                // the encoder already failed; its state does not matter beyond this
            }
            int at = Math.min(i, task.events.size() - 1);
            task.result.completeExceptionally(new CodecException("encoding failed at event #" + (task.firstEvent + at)
                    + " (position " + at + " of task " + task.sequence + ", topic " + task.topic + " partition "
                    + task.partition + "), " + describe(task.events.get(at))
                    + (task.contexts != null ? ", context " + task.contexts.get(at) : "") + ": " + t.getMessage(), t));
        }
    }

    private C context(Task task, int index) {
        return task.contexts == null || index < 0 ? null : task.contexts.get(index);
    }

    private static String describe(ChangeEvent e) {
        if (e instanceof RowChange r) {
            return r.op() + " on " + r.table() + " at commitTs " + Long.toUnsignedString(r.commitTs());
        }
        if (e instanceof DdlChange d) {
            return "DDL on " + d.schema() + "." + d.table() + " at commitTs " + Long.toUnsignedString(d.commitTs());
        }
        return "watermark " + Long.toUnsignedString(e.commitTs());
    }

    /** Replaces the estimate by the encoded size. */
    private void settle(Task task, long encoded) {
        lock.lock();
        try {
            inFlightBytes += encoded - task.reserved;
            task.reserved = encoded;
            peakInFlightBytes = Math.max(peakInFlightBytes, inFlightBytes);
            roomFreed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The next task's result in submission order, waiting for it; null when nothing is submitted. */
    public Result<C> take() throws InterruptedException {
        return poll(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    }

    /**
     * The next result if it is ready within the timeout, else null (also null when nothing is submitted).
     *
     * @throws CodecException when that task failed; the group stays usable, later results follow
     */
    public Result<C> poll(long timeout, TimeUnit unit) throws InterruptedException {
        Task head;
        lock.lock();
        try {
            head = queue.peekFirst();
        } finally {
            lock.unlock();
        }
        if (head == null) {
            return null;
        }
        Result<C> r;
        try {
            r = timeout == Long.MAX_VALUE ? head.result.get() : head.result.get(timeout, unit);
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException e) {
            release(head);
            Throwable cause = e.getCause();
            throw cause instanceof CodecException ce ? ce : new CodecException(cause.toString(), cause);
        }
        release(head);
        return r;
    }

    private void release(Task head) {
        lock.lock();
        try {
            queue.pollFirst();
            inFlightBytes -= head.reserved;
            roomFreed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Tasks submitted and not yet taken. */
    public int pending() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    public long inFlightBytes() {
        lock.lock();
        try {
            return inFlightBytes;
        } finally {
            lock.unlock();
        }
    }

    /** Worker threads encoding now. */
    public int busyThreads() {
        return busy.get();
    }

    /** Highest in-flight byte count seen (for tests and metrics). */
    public long peakInFlightBytes() {
        lock.lock();
        try {
            return peakInFlightBytes;
        } finally {
            lock.unlock();
        }
    }

    /** Stops the workers; tasks not yet encoded fail with "closed", so a thread blocked in take() returns. */
    @Override
    public void close() {
        closed = true;
        lock.lock();
        try {
            roomFreed.signalAll();
            for (Task t : queue) {
                t.result.completeExceptionally(new CodecException("encoder group closed before task " + t.sequence
                        + " (topic " + t.topic + " partition " + t.partition + ") was encoded"));
            }
        } finally {
            lock.unlock();
        }
        workers.shutdownNow();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("Encoder group stopped");
    }
}
