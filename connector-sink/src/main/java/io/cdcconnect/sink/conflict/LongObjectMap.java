package io.cdcconnect.sink.conflict;

/**
 * A map from {@code long} keys to objects, open addressing with linear probing, for the conflict detector's last
 * writer of each key hash: no boxed {@code Long} and no entry object per key, which a {@code HashMap<Long, V>} makes
 * for every row the sink applies. Deletion shifts the following entries back (no tombstones), so the table never
 * fills with dead slots however many keys come and go. Not thread-safe.
 */
final class LongObjectMap<V> {

    private static final int MIN_CAPACITY = 64;

    private long[] keys;
    private Object[] values;
    private int size;
    private int mask;

    LongObjectMap() {
        keys = new long[MIN_CAPACITY];
        values = new Object[MIN_CAPACITY];
        mask = MIN_CAPACITY - 1;
    }

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    V get(long key) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null) return null;
            if (keys[i] == key) return (V) v;
        }
    }

    /** Maps {@code key} to {@code value} (not null); returns the value it replaced, or null. */
    @SuppressWarnings("unchecked")
    V put(long key, V value) {
        if (value == null) throw new IllegalArgumentException("null value");
        for (int i = slot(key); ; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null) {
                keys[i] = key;
                values[i] = value;
                if (++size > (mask + 1) / 2) resize((mask + 1) * 2);
                return null;
            }
            if (keys[i] == key) {
                values[i] = value;
                return (V) v;
            }
        }
    }

    /** Removes {@code key} if it maps to {@code expected} (by identity); returns whether it did. */
    boolean remove(long key, Object expected) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null) return false;
            if (keys[i] == key) {
                if (v != expected) return false;
                deleteAt(i);
                return true;
            }
        }
    }

    private void deleteAt(int hole) {
        values[hole] = null;
        size--;
        // shift back every entry of the run after the hole that may not stay where it is
        for (int i = (hole + 1) & mask; values[i] != null; i = (i + 1) & mask) {
            int home = slot(keys[i]);
            // the entry at i may fill the hole when its home is not in (hole, i] (cyclically)
            boolean stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!stays) {
                keys[hole] = keys[i];
                values[hole] = values[i];
                values[i] = null;
                hole = i;
            }
        }
        if (size < (mask + 1) / 8 && mask + 1 > MIN_CAPACITY) resize((mask + 1) / 2);
    }

    private void resize(int capacity) {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
        size = 0;
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] == null) continue;
            int j = slot(oldKeys[i]);
            while (values[j] != null) j = (j + 1) & mask;
            keys[j] = oldKeys[i];
            values[j] = oldValues[i];
            size++;
        }
    }

    private int slot(long key) {
        // the key hashes are already spread (KeyHasher), but mix once more: sequential ids must not cluster
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
