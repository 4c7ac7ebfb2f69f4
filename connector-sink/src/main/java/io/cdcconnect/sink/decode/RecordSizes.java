package io.cdcconnect.sink.decode;

import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

import java.nio.ByteBuffer;
import io.cdcconnect.codec.group.EventSize;
import io.cdcconnect.codec.model.ChangeEvent;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Cheap size estimates of record keys and values, for {@code buffer.max.bytes}. */
final class RecordSizes {

    private RecordSizes() {
    }

    /** The decoded events' size, as the encoder group estimates it (variable-length values by their length). */
    static long estimate(List<ChangeEvent> events) {
        return events.isEmpty() ? 0 : EVENT_SIZE.get().estimate(events);
    }

    /** One per thread: it caches which columns of a table can be large, and is not thread-safe. */
    private static final ThreadLocal<EventSize> EVENT_SIZE = ThreadLocal.withInitial(EventSize::new);

    static long estimate(Object v) {
        if (v == null) return 0;
        if (v instanceof byte[] b) return b.length;
        if (v instanceof String s) return 2L * s.length();
        if (v instanceof ByteBuffer b) return b.remaining();
        if (v instanceof Struct s) {
            long n = 16;
            for (Field f : s.schema().fields()) n += 8 + estimate(s.get(f));
            return n;
        }
        if (v instanceof Map<?, ?> m) {
            long n = 16;
            for (Map.Entry<?, ?> e : m.entrySet()) n += 8 + estimate(e.getKey()) + estimate(e.getValue());
            return n;
        }
        if (v instanceof Collection<?> c) {
            long n = 16;
            for (Object o : c) n += 8 + estimate(o);
            return n;
        }
        return 16;
    }
}
