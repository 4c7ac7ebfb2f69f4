package io.cdcconnect.sink.offset;

import io.cdcconnect.sink.txn.SourcePartition;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * What tells one record from another at the same offset: a 64-bit fingerprint of a record's timestamp, key and value,
 * the same in every JVM. The checkpoint keeps the fingerprint of the record at its offset, so that a topic deleted and
 * recreated under the same name (or moved to another cluster) is told apart from the one the checkpoint was written
 * for (docs/ordering.md, "topic recreation"): a sink task sees no topic id.
 *
 * <p>An instance keeps the fingerprints of the records taken in and not yet applied, per partition, so that a
 * checkpoint written at any applied offset finds the fingerprint of the record there. Task thread only.
 */
public final class RecordFingerprints {

    /** No fingerprint known. */
    public static final long UNKNOWN = 0;

    /**
     * How many records up to a checkpoint's offset a checkpoint keeps the fingerprints of: a recreated topic is taken
     * for the old one only if every record it holds at those offsets is the same.
     */
    public static final int WINDOW = 8;

    /**
     * The fingerprints of the last records up to a checkpoint's offset, in offset order (offsets may have gaps: a
     * transaction marker holds no record); the last is at the checkpoint's offset.
     */
    public record Window(long[] offsets, long[] prints) {

        public long last() {
            return offsets[offsets.length - 1];
        }

        public long lowest() {
            return offsets[0];
        }

        /** The fingerprint of the record at {@code offset}, or {@link #UNKNOWN} when the window holds none there. */
        public long at(long offset) {
            int i = Arrays.binarySearch(offsets, offset);
            return i < 0 ? UNKNOWN : prints[i];
        }

        /** As stored: {@code offset:fingerprint} pairs, fingerprints in hex, separated by commas. */
        public String encode() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < offsets.length; i++) {
                if (i > 0) b.append(',');
                b.append(offsets[i]).append(':').append(Long.toHexString(prints[i]));
            }
            return b.toString();
        }

        /** What {@link #encode} wrote, or null for anything else (the window then says nothing). */
        public static Window decode(String text) {
            if (text == null || text.isBlank()) return null;
            String[] pairs = text.split(",");
            if (pairs.length > WINDOW) return null;
            long[] o = new long[pairs.length];
            long[] p = new long[pairs.length];
            try {
                for (int i = 0; i < pairs.length; i++) {
                    int colon = pairs[i].indexOf(':');
                    if (colon < 0) return null;
                    o[i] = Long.parseLong(pairs[i].substring(0, colon));
                    p[i] = Long.parseUnsignedLong(pairs[i].substring(colon + 1), 16);
                    if (p[i] == UNKNOWN || i > 0 && o[i] <= o[i - 1]) return null;
                }
            } catch (NumberFormatException e) {
                return null;
            }
            return new Window(o, p);
        }
    }

    /** Offsets and fingerprints of one partition's records, in offset order, as a ring. */
    private static final class Ring {
        long[] offsets = new long[64];
        long[] prints = new long[64];
        int head;
        int size;

        void add(long offset, long print) {
            if (size > 0 && offset <= offsets[(head + size - 1) & (offsets.length - 1)]) {
                // a redelivered or re-sought offset: what follows it is taken in again
                while (size > 0 && offsets[(head + size - 1) & (offsets.length - 1)] >= offset) size--;
            }
            if (size == offsets.length) grow();
            int i = (head + size) & (offsets.length - 1);
            offsets[i] = offset;
            prints[i] = print;
            size++;
        }

        private void grow() {
            long[] o = new long[offsets.length * 2];
            long[] p = new long[offsets.length * 2];
            for (int k = 0; k < size; k++) {
                o[k] = offsets[(head + k) & (offsets.length - 1)];
                p[k] = prints[(head + k) & (offsets.length - 1)];
            }
            offsets = o;
            prints = p;
            head = 0;
        }

        /**
         * Drops the records below {@code offset} but the last {@code keep} of them: a checkpoint at or above the applied
         * offset keeps the fingerprints of the records just before it too.
         */
        void dropBelow(long offset, int keep) {
            int below = 0;
            while (below < size && offsets[(head + below) & (offsets.length - 1)] < offset) below++;
            for (int k = below - keep; k > 0; k--) {
                head = (head + 1) & (offsets.length - 1);
                size--;
            }
        }

        /** The last {@code n} records at or below {@code offset}, which must itself be there; else null. */
        Window window(long offset, int n) {
            int lo = 0;
            int hi = size - 1;
            int at = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                long o = offsets[(head + mid) & (offsets.length - 1)];
                if (o == offset) {
                    at = mid;
                    break;
                }
                if (o < offset) lo = mid + 1;
                else hi = mid - 1;
            }
            if (at < 0) return null;
            int from = Math.max(0, at - n + 1);
            long[] o = new long[at - from + 1];
            long[] p = new long[at - from + 1];
            for (int k = from; k <= at; k++) {
                o[k - from] = offsets[(head + k) & (offsets.length - 1)];
                p[k - from] = prints[(head + k) & (offsets.length - 1)];
            }
            return new Window(o, p);
        }

        long at(long offset) {
            int lo = 0;
            int hi = size - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                long o = offsets[(head + mid) & (offsets.length - 1)];
                if (o == offset) return prints[(head + mid) & (offsets.length - 1)];
                if (o < offset) lo = mid + 1;
                else hi = mid - 1;
            }
            return UNKNOWN;
        }
    }

    private final Map<SourcePartition, Ring> rings = new HashMap<>();

    /** Keeps the fingerprint of the record at {@code offset} of {@code partition} until it is applied. */
    public void add(SourcePartition partition, long offset, long fingerprint) {
        rings.computeIfAbsent(partition, p -> new Ring()).add(offset, fingerprint);
    }

    /** The fingerprint of the record taken in at {@code offset}, or {@link #UNKNOWN}. */
    public long at(SourcePartition partition, long offset) {
        Ring r = rings.get(partition);
        return r == null ? UNKNOWN : r.at(offset);
    }

    /**
     * The fingerprints of the last {@link #WINDOW} records taken in at or below {@code offset}, which must be one of
     * them; else null.
     */
    public Window window(SourcePartition partition, long offset) {
        Ring r = rings.get(partition);
        return r == null ? null : r.window(offset, WINDOW);
    }

    /** Records below each partition's applied offset are never asked for again, but the last few before it. */
    public void applied(Map<SourcePartition, Long> applied) {
        for (Map.Entry<SourcePartition, Long> e : applied.entrySet()) {
            Ring r = rings.get(e.getKey());
            if (r != null) r.dropBelow(e.getValue(), WINDOW - 1);
        }
    }

    /** A revoked partition. */
    public void forget(SourcePartition partition) {
        rings.remove(partition);
    }

    /** Fingerprints kept, over all partitions (for tests). */
    int size() {
        int n = 0;
        for (Ring r : rings.values()) n += r.size;
        return n;
    }

    /**
     * The fingerprint of a record as the task receives it: its timestamp, key and value, walked in a canonical way
     * (a struct's fields in schema order, a map's entries in their order, bytes and text by content). Never
     * {@link #UNKNOWN}.
     */
    public static long of(SinkRecord record) {
        Hasher h = new Hasher();
        Long ts = record.timestamp();
        h.mixLong(ts == null ? Long.MIN_VALUE : ts);
        h.value(record.key());
        h.mixLong(0x6b65795f656e64L); // between key and value
        h.value(record.value());
        long v = h.finish();
        return v == UNKNOWN ? 1 : v;
    }

    /** A 64-bit hash over a value's canonical walk (byte content through CRC32C). */
    private static final class Hasher {
        private long h = 0x9E3779B97F4A7C15L;
        private CRC32C crc;

        void mixLong(long v) {
            h = Long.rotateLeft(h ^ (v * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B97F4A7C15L;
        }

        private void bytes(byte[] b, int tag) {
            if (crc == null) crc = new CRC32C();
            crc.reset();
            crc.update(b, 0, b.length);
            mixLong(tag);
            mixLong(((long) b.length << 32) | crc.getValue());
        }

        void value(Object v) {
            if (v == null) {
                mixLong(1);
            } else if (v instanceof byte[] b) {
                bytes(b, 2);
            } else if (v instanceof java.nio.ByteBuffer bb) {
                byte[] b = new byte[bb.remaining()];
                bb.duplicate().get(b);
                bytes(b, 2);
            } else if (v instanceof String s) {
                // String.hashCode is specified (the same in every JVM) and cached; with the length and the
                // timestamp, two different records at one offset share it only by a rare chance
                mixLong(3);
                mixLong(((long) s.length() << 32) | (s.hashCode() & 0xFFFFFFFFL));
            } else if (v instanceof Struct s) {
                mixLong(4);
                for (Field f : s.schema().fields()) {
                    value(f.name());
                    value(s.get(f));
                }
            } else if (v instanceof Map<?, ?> m) {
                mixLong(5);
                mixLong(m.size());
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    value(e.getKey());
                    value(e.getValue());
                }
            } else if (v instanceof List<?> l) {
                mixLong(6);
                mixLong(l.size());
                for (Object o : l) value(o);
            } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                mixLong(7);
                mixLong(((Number) v).longValue());
            } else if (v instanceof Double || v instanceof Float) {
                mixLong(8);
                mixLong(Double.doubleToLongBits(((Number) v).doubleValue()));
            } else if (v instanceof Boolean b) {
                mixLong(b ? 9 : 10);
            } else if (v instanceof java.util.Date d) {
                mixLong(11);
                mixLong(d.getTime());
            } else {
                // BigDecimal, BigInteger and anything else a converter makes: by its text
                mixLong(12);
                bytes(v.toString().getBytes(StandardCharsets.UTF_8), 12);
            }
        }

        long finish() {
            mixLong(h >>> 29);
            return h ^ (h >>> 32);
        }
    }

    @Override
    public String toString() {
        return "RecordFingerprints" + Arrays.toString(rings.keySet().toArray());
    }
}
