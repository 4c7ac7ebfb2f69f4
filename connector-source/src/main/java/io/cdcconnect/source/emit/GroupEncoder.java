package io.cdcconnect.source.emit;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.group.EncoderGroup;
import io.cdcconnect.codec.group.EncoderGroupConfig;
import io.cdcconnect.codec.model.ChangeEvent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Encodes on several threads through the codec's {@link EncoderGroup}: a poll's events are cut into tasks of one
 * topic partition each (at most {@code chunk} events, so one busy table still spreads over the threads), submitted
 * in the order of their first event, and taken back in that order. Within a partition the output keeps the input
 * order; a chunk boundary only closes an Open-protocol batch early.
 */
public final class GroupEncoder implements MessageEncoder {

    private record Key(String topic, int partition) {
    }

    private final EncoderGroup<Integer> group;
    private final int chunk;
    private final Traits traits;
    private volatile boolean closed;

    public GroupEncoder(int threads, long maxInFlightBytes, int chunk, Supplier<EventEncoder> encoders,
                        boolean watermarks, boolean ddlEverywhere, boolean ddl) {
        this.group = new EncoderGroup<>(new EncoderGroupConfig(threads, maxInFlightBytes), encoders);
        this.chunk = Math.max(1, chunk);
        this.traits = new Traits(watermarks, ddlEverywhere, ddl);
    }

    @Override
    public List<Message> encode(List<Outgoing> events) {
        Map<Key, List<List<Integer>>> byKey = new LinkedHashMap<>();
        List<List<Integer>> tasks = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            Outgoing e = events.get(i);
            List<List<Integer>> chunks = byKey.computeIfAbsent(new Key(e.topic(), e.partition()), k -> new ArrayList<>());
            if (chunks.isEmpty() || chunks.get(chunks.size() - 1).size() >= chunk) {
                List<Integer> c = new ArrayList<>();
                chunks.add(c);
                tasks.add(c);
            }
            chunks.get(chunks.size() - 1).add(i);
        }
        tasks.sort(Comparator.comparingInt(t -> t.get(0)));
        List<Message> out = new ArrayList<>(events.size());
        int taken = 0;
        try {
            for (List<Integer> task : tasks) {
                List<ChangeEvent> ev = new ArrayList<>(task.size());
                for (int i : task) {
                    ev.add(events.get(i).event());
                }
                long size = group.estimate(ev);
                // Submitting blocks while the in-flight bytes are over the bound, and only taking frees them: take
                // first what must make room (this thread does both).
                while (taken < tasks.size() && group.pending() > 0
                        && group.inFlightBytes() + size > group.config().maxInFlightBytes()) {
                    collect(next(), tasks.get(taken++), out);
                }
                Outgoing first = events.get(task.get(0));
                group.submit(first.topic(), first.partition(), ev, task, size);
            }
            while (taken < tasks.size()) {
                collect(next(), tasks.get(taken++), out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while encoding", e);
        }
        return out;
    }

    /**
     * The next result, waiting in short steps: {@link #close()} comes from another thread (Connect's stop) and drops
     * queued work, whose results would then never come.
     */
    private EncoderGroup.Result<Integer> next() throws InterruptedException {
        while (true) {
            EncoderGroup.Result<Integer> r = group.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
            if (r != null) return r;
            if (closed) throw new IllegalStateException("encoder closed while encoding (task stopping)");
        }
    }

    private static void collect(EncoderGroup.Result<Integer> result, List<Integer> task, List<Message> out) {
        int cursor = 0;
        for (EncoderGroup.Output<Integer> o : result.messages()) {
            EncodedMessage m = o.message();
            int n = Math.min(m.events(), task.size() - cursor);
            int[] idx = new int[n];
            for (int j = 0; j < n; j++) idx[j] = task.get(cursor + j);
            cursor += n;
            out.add(new Message(o.topic(), o.partition(), m.key(), m.value(), idx, m.commitTs()));
        }
    }

    @Override
    public long queuedBytes() {
        return group.inFlightBytes();
    }

    @Override
    public int busyThreads() {
        return group.busyThreads();
    }

    @Override
    public Traits traits() {
        return traits;
    }

    @Override
    public void close() {
        closed = true;
        group.close();
    }
}
