package io.cdcconnect.sink.conflict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Orders work by the keys it touches (MySQL's WRITESET, TiCDC's causality).
 *
 * <p>{@link #add} registers a unit of work with its key hashes; it depends on the latest earlier unit that touched any
 * of the same keys. A unit with no unfinished dependency is handed to {@code ready} at once; the others are handed over
 * by {@link #done} when their last dependency finishes. Nothing here ever waits: the caller that adds work is never
 * blocked by a dependency. Memory is bounded by the work in flight: a key is forgotten when its last writer finishes.
 *
 * @param <T> the payload (a transaction, in the sink)
 */
public final class ConflictDetector<T> {

    /** A unit of work in the graph. */
    public static final class Node<T> {
        private final T payload;
        private final long[] keys;
        private final long sequence;
        private List<Node<T>> dependents;
        private int pending;
        private boolean done;

        private Node(T payload, long[] keys, long sequence) {
            this.payload = payload;
            this.keys = keys;
            this.sequence = sequence;
        }

        public T payload() {
            return payload;
        }

        public long sequence() {
            return sequence;
        }
    }

    private final Consumer<Node<T>> ready;
    /** The latest unfinished unit of work that touched each key hash. */
    private final LongObjectMap<Node<T>> lastWriter = new LongObjectMap<>();
    /** The units added and not done, in the order they were added (their sequence). */
    private final java.util.LinkedHashSet<Node<T>> unfinished = new java.util.LinkedHashSet<>();
    private long nextSequence;
    private int inFlight;

    public ConflictDetector(Consumer<Node<T>> ready) {
        this.ready = ready;
    }

    /** Registers work touching {@code keyHashes} (duplicates allowed); returns its node. */
    public Node<T> add(T payload, long[] keyHashes) {
        long[] keys = distinct(keyHashes);
        Node<T> node;
        synchronized (this) {
            node = new Node<>(payload, keys, nextSequence++);
            inFlight++;
            unfinished.add(node);
            for (long k : keys) {
                Node<T> prev = lastWriter.put(k, node);
                if (prev != null && !prev.done && prev != node) {
                    if (prev.dependents == null) prev.dependents = new ArrayList<>(2);
                    // the same dependency reached through two keys counts once
                    List<Node<T>> deps = prev.dependents;
                    if (deps.isEmpty() || deps.get(deps.size() - 1) != node) {
                        deps.add(node);
                        node.pending++;
                    }
                }
            }
            if (node.pending == 0) ready.accept(node);
        }
        return node;
    }

    /** Marks work finished and releases what waited only for it. */
    public void done(Node<T> node) {
        synchronized (this) {
            if (node.done) return;
            node.done = true;
            inFlight--;
            unfinished.remove(node);
            for (long k : node.keys) {
                lastWriter.remove(k, node);
            }
            if (node.dependents != null) {
                for (Node<T> d : node.dependents) {
                    if (--d.pending == 0) ready.accept(d);
                }
                node.dependents = null;
            }
            notifyAll();
        }
    }

    /**
     * Hands {@code node} (handed out, not done) to {@code ready} again once every unit added before it has finished,
     * whatever keys they touch; returns false, and does nothing, when none is unfinished. For a refusal that an
     * earlier unit may cause without sharing a key (a foreign key whose parent row another worker is writing): the
     * caller gives the unit back and meets it again after the earlier ones, so the decision rests on what finished,
     * not on how long it waited, and no worker is held while it waits.
     */
    public boolean deferUntilEarlierDone(Node<T> node) {
        synchronized (this) {
            if (node.done) throw new IllegalStateException("deferring a unit that is done");
            int earlier = 0;
            for (Node<T> e : unfinished) {
                if (e == node) break;
                if (e.dependents == null) e.dependents = new ArrayList<>(2);
                e.dependents.add(node);
                earlier++;
            }
            node.pending += earlier;
            return earlier > 0;
        }
    }

    /** Units added and not yet done. */
    public synchronized int inFlight() {
        return inFlight;
    }

    /** Keys remembered (for tests and metrics). */
    public synchronized int trackedKeys() {
        return lastWriter.size();
    }

    /** Waits up to {@code millis} for all work to finish; returns whether it did. */
    public synchronized boolean awaitIdle(long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (inFlight > 0) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) return false;
            wait(Math.min(left, 100));
        }
        return true;
    }

    private static long[] distinct(long[] keys) {
        if (keys.length < 2) return keys.clone();
        long[] k = keys.clone();
        Arrays.sort(k);
        int n = 1;
        for (int i = 1; i < k.length; i++) {
            if (k[i] != k[n - 1]) k[n++] = k[i];
        }
        return n == k.length ? k : Arrays.copyOf(k, n);
    }
}
