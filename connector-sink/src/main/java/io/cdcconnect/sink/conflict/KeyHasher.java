package io.cdcconnect.sink.conflict;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * 64-bit hashes of (table, key, normalised values). Two writes whose hashes differ touch different rows; equal hashes
 * make them wait for each other, which is safe even on a rare collision.
 */
public final class KeyHasher {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private KeyHasher() {
    }

    /** Seed for one table: every key hash of the table starts from it. */
    public static long tableSeed(String schema, String table) {
        long h = FNV_OFFSET;
        h = mixString(h, schema);
        h = mixLong(h, 0x5eed);
        return mixString(h, table);
    }

    /** Hash of one unique key's values; {@code values} are already normalised by {@link KeyNormalizer}. */
    public static long keyHash(long tableSeed, int keyIndex, Object[] normalizedValues) {
        long h = mixLong(tableSeed, keyIndex + 1L);
        for (Object v : normalizedValues) {
            h = mixValue(h, v);
        }
        return finish(h);
    }

    /**
     * The id of a unique key by its column names (case-insensitive, in key order), for {@link #keyHash}: a child row
     * names its parent's key by the columns its foreign key references, and must reach the hash the parent's own row
     * gives that key.
     */
    public static long keyId(java.util.List<String> columns) {
        long h = FNV_OFFSET;
        for (String c : columns) h = mixString(h, c.toLowerCase(java.util.Locale.ROOT));
        return h;
    }

    /** Hash of one unique key's values, the key named by {@link #keyId}; {@code values} normalised. */
    public static long keyHash(long tableSeed, long keyId, Object[] normalizedValues) {
        long h = mixLong(tableSeed, keyId);
        for (Object v : normalizedValues) {
            h = mixValue(h, v);
        }
        return finish(h);
    }

    /** A key that stands for the whole table: every change to a table without usable keys carries it. */
    public static long tableHash(long tableSeed) {
        return finish(mixLong(tableSeed, -1L));
    }

    private static long mixValue(long h, Object v) {
        if (v == null) return mixLong(h, 0x9e3779b97f4a7c15L);
        if (v instanceof Long l) return mixLong(mixLong(h, 1), l);
        if (v instanceof String s) return mixString(mixLong(h, 2), s);
        if (v instanceof ByteBuffer b) {
            h = mixLong(h, 3);
            for (int i = b.position(); i < b.limit(); i++) {
                h = (h ^ (b.get(i) & 0xff)) * FNV_PRIME;
            }
            return mixLong(h, b.remaining());
        }
        if (v instanceof Double d) return mixLong(mixLong(h, 4), Double.doubleToLongBits(d));
        return mixString(mixLong(h, 5), v.toString());
    }

    private static long mixString(long h, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            h = (h ^ (b & 0xff)) * FNV_PRIME;
        }
        return mixLong(h, bytes.length);
    }

    private static long mixLong(long h, long v) {
        for (int i = 0; i < 8; i++) {
            h = (h ^ ((v >>> (i * 8)) & 0xff)) * FNV_PRIME;
        }
        return h;
    }

    private static long finish(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
