package io.cdcconnect.source.emit;

import io.cdcconnect.codec.EncodedMessage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs one {@link StreamEncoder} per topic partition (batches never mix partitions) and maps each message back to the
 * events it completes.
 */
public final class PartitionedEncoder implements MessageEncoder {

    private record Key(String topic, int partition) {
    }

    private static final class Stream {
        final StreamEncoder encoder;
        final ArrayDeque<Integer> pending = new ArrayDeque<>();

        Stream(StreamEncoder encoder) {
            this.encoder = encoder;
        }
    }

    private final Supplier<StreamEncoder> factory;
    private final Traits traits;
    private final Map<Key, Stream> streams = new HashMap<>();

    /**
     * @param factory       a new encoder for each topic partition
     * @param watermarks    whether the format carries watermarks
     * @param ddlEverywhere DDL to every partition (Open-protocol) rather than where its table's rows go
     * @param ddl           whether the format carries DDL
     */
    public PartitionedEncoder(Supplier<StreamEncoder> factory, boolean watermarks, boolean ddlEverywhere, boolean ddl) {
        this.factory = Objects.requireNonNull(factory);
        this.traits = new Traits(watermarks, ddlEverywhere, ddl);
    }

    @Override
    public List<Message> encode(List<Outgoing> events) {
        List<Message> out = new ArrayList<>(events.size());
        List<Key> touched = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            Outgoing e = events.get(i);
            Key key = new Key(e.topic(), e.partition());
            Stream s = streams.get(key);
            if (s == null) {
                s = new Stream(factory.get());
                streams.put(key, s);
            }
            if (s.pending.isEmpty()) touched.add(key);
            s.pending.add(i);
            emit(key, s, s.encoder.encode(e.topic(), e.event()), out);
        }
        // Close what is open, oldest first, so a poll's messages leave nothing behind.
        touched.sort(Comparator.comparingInt(k -> {
            Integer first = streams.get(k).pending.peek();
            return first == null ? Integer.MAX_VALUE : first;
        }));
        for (Key key : touched) {
            Stream s = streams.get(key);
            if (!s.pending.isEmpty()) emit(key, s, s.encoder.flush(), out);
            // Events the format drops (e.g. watermarks without a carrier) complete with nothing to send.
            s.pending.clear();
        }
        return out;
    }

    private static void emit(Key key, Stream s, List<EncodedMessage> messages, List<Message> out) {
        for (EncodedMessage m : messages) {
            int n = Math.min(m.events(), s.pending.size());
            int[] idx = new int[n];
            for (int j = 0; j < n; j++) idx[j] = s.pending.poll();
            out.add(new Message(key.topic(), key.partition(), m.key(), m.value(), idx, m.commitTs()));
        }
    }

    @Override
    public Traits traits() {
        return traits;
    }
}
