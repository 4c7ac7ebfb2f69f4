package io.cdcconnect.sink.ddl.order;

import io.cdcconnect.sink.txn.SourcePartition;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Holds DDL statements back until no assigned partition of their topic can still deliver a row from before them, so
 * that no row of the old table version runs after a statement and no row of the new version before it. The statement
 * may come from every partition (TiCDC's Open-protocol, cdc-connect's Canal-JSON under a rule that spreads a table),
 * or from the one partition holding its table's rows (cdc-connect's Canal-JSON under the 'table' rule). Only data says
 * a partition has passed a statement (docs/ordering.md):
 * <ul>
 *     <li>it delivers its copy of the statement;</li>
 *     <li>the sink's store says the partition's copy was handled by an earlier owner (the caller marks it);</li>
 *     <li>for a statement whose producer did not count its copies (TiCDC: no {@code cdc-connect.ddl.partitions}
 *     header), also an event whose TiCDC commit ts is after the statement's, or a watermark at or after it: TiCDC
 *     writes every row committed before a DDL to every partition before the DDL, and a watermark says every change up
 *     to it has been written. A statement with counted copies (cdc-connect's source) waits for its copies only.</li>
 * </ul>
 * Silence is not evidence: a partition that delivers nothing holds the statement, however long (the sink warns after
 * {@code ddl.barrier.timeout.ms}, and never runs the statement without its partitions).
 *
 * <p>Several statements of one topic may wait at once: a partition that lags is still at an earlier statement while
 * another has reached a later one (after a rebalance or a restart, each resumes from its own committed offset). Each
 * partition is at most at one of them; a statement completes when every assigned partition of its topic passed it.
 * Pure bookkeeping: the sequencer holds the partitions that passed a statement in their gates
 * ({@link io.cdcconnect.sink.PartitionGates}), which pause them.
 */
public final class DdlBarrier {

    /** One statement waiting, keyed by its commit ts and text. */
    private static final class Pending {
        final String key;
        final long commitTs;
        final long since;
        /** Whether the producer counted the statement's copies: then only a copy shows that a partition passed it. */
        final boolean counted;
        /** Partitions that passed it, with the offset of their copy of the statement (-1: passed another way). */
        final Map<SourcePartition, Long> passed = new LinkedHashMap<>();

        Pending(String key, long commitTs, long since, boolean counted) {
            this.key = key;
            this.commitTs = commitTs;
            this.since = since;
            this.counted = counted;
        }
    }

    private final Set<SourcePartition> assigned = new HashSet<>();
    /** Per topic, its waiting statements by key, in the order their first copy came. */
    private final Map<String, LinkedHashMap<String, Pending>> pendingByTopic = new LinkedHashMap<>();

    public void assign(SourcePartition p) {
        assigned.add(p);
    }

    public void unassign(SourcePartition p) {
        assigned.remove(p);
        Map<String, Pending> pending = pendingByTopic.get(p.topic());
        if (pending != null) {
            for (Pending s : pending.values()) s.passed.remove(p);
        }
    }

    /** The partitions assigned to the task (or seen in records, before any assignment was announced). */
    public Set<SourcePartition> assignedPartitions() {
        return Set.copyOf(assigned);
    }

    public boolean isAssigned(SourcePartition p) {
        return assigned.contains(p);
    }

    /** The identity of a statement: copies of it on several partitions share it. */
    public static String key(long commitTs, String schema, String query) {
        return commitTs + "\u0000" + schema + "\u0000" + query;
    }

    /** Whether a statement of {@code topic} is waiting. */
    public boolean isPending(String topic) {
        Map<String, Pending> pending = pendingByTopic.get(topic);
        return pending != null && !pending.isEmpty();
    }

    /** Whether the statement with {@code key} waits on {@code topic}. */
    public boolean isPendingStatement(String topic, String key) {
        Map<String, Pending> pending = pendingByTopic.get(topic);
        return pending != null && pending.containsKey(key);
    }

    /** The keys of the statements waiting on {@code topic}, in the order their first copy came. */
    public List<String> pendingKeys(String topic) {
        Map<String, Pending> pending = pendingByTopic.get(topic);
        return pending == null ? List.of() : new ArrayList<>(pending.keySet());
    }

    /** As {@link #arrive(SourcePartition, String, long, long, long, boolean)}, for an uncounted statement. */
    public void arrive(SourcePartition p, String key, long commitTs, long offset, long nowMillis) {
        arrive(p, key, commitTs, offset, nowMillis, false);
    }

    /**
     * Records that {@code p} delivered the statement with {@code key} at {@code offset}, starting its wait when it is
     * the first copy; {@code counted}: the producer said to how many partitions it sent the statement, so that only
     * copies show that a partition passed it. {@code nowMillis} only dates the wait for the warning after
     * {@code ddl.barrier.timeout.ms}: no decision reads it.
     */
    public void arrive(SourcePartition p, String key, long commitTs, long offset, long nowMillis, boolean counted) {
        Pending pending = pendingByTopic.computeIfAbsent(p.topic(), t -> new LinkedHashMap<>())
                .computeIfAbsent(key, k -> new Pending(key, commitTs, nowMillis, counted));
        pending.passed.merge(p, offset, Math::max);
    }

    /**
     * The uncounted statements waiting on {@code p}'s topic that an event committed at {@code ts} shows {@code p} has
     * passed: committed before it (for a watermark, at or before it). Unknown times (0) show nothing; statements with
     * counted copies are passed by their copies only.
     */
    public List<String> shownPassed(SourcePartition p, long ts, boolean watermark) {
        Map<String, Pending> pending = pendingByTopic.get(p.topic());
        if (pending == null || ts <= 0) return List.of();
        List<String> out = new ArrayList<>();
        for (Pending s : pending.values()) {
            if (s.counted || s.commitTs <= 0 || s.passed.containsKey(p)) continue;
            if (watermark ? ts >= s.commitTs : ts > s.commitTs) out.add(s.key);
        }
        return out;
    }

    /** Whether an event committed at {@code ts} shows that {@code p} passed a statement waiting on its topic. */
    public boolean showsPassed(SourcePartition p, long ts, boolean watermark) {
        return !shownPassed(p, ts, watermark).isEmpty();
    }

    /** Records that {@code p} passed the statement with {@code key} without delivering its copy here. */
    public void passed(SourcePartition p, String key) {
        Map<String, Pending> pending = pendingByTopic.get(p.topic());
        Pending s = pending == null ? null : pending.get(key);
        if (s != null) s.passed.putIfAbsent(p, -1L);
    }

    /** True when every assigned partition of the topic has passed the statement with {@code key}. */
    public boolean complete(String topic, String key) {
        return isPendingStatement(topic, key) && missing(topic, key).isEmpty();
    }

    /** Assigned partitions of the topic that have not passed the statement with {@code key}. */
    public Set<SourcePartition> missing(String topic, String key) {
        Map<String, Pending> pending = pendingByTopic.get(topic);
        Pending s = pending == null ? null : pending.get(key);
        Set<SourcePartition> out = new LinkedHashSet<>();
        if (s == null) return out;
        for (SourcePartition p : assigned) {
            if (p.topic().equals(topic) && !s.passed.containsKey(p)) out.add(p);
        }
        return out;
    }

    /** The partitions that passed the statement with {@code key} so far, with the offset of their copy (-1: none). */
    public Map<SourcePartition, Long> passed(String topic, String key) {
        Map<String, Pending> pending = pendingByTopic.get(topic);
        Pending s = pending == null ? null : pending.get(key);
        return s == null ? Map.of() : new LinkedHashMap<>(s.passed);
    }

    /** Since when (epoch ms) the statement with {@code key} waits, or -1. */
    public long waitingSince(String topic, String key) {
        Map<String, Pending> pending = pendingByTopic.get(topic);
        Pending s = pending == null ? null : pending.get(key);
        return s == null ? -1 : s.since;
    }

    /**
     * Ends the waiting statement with {@code key}; returns the partitions that passed it, in order, with the offset
     * of their copy of the statement (-1 for those that passed it another way).
     */
    public Map<SourcePartition, Long> release(String topic, String key) {
        Map<String, Pending> pending = pendingByTopic.get(topic);
        Pending s = pending == null ? null : pending.remove(key);
        if (pending != null && pending.isEmpty()) pendingByTopic.remove(topic);
        return s == null ? Map.of() : s.passed;
    }

    /** Topics with a statement waiting. */
    public Set<String> pendingTopics() {
        // sorted: the order statements of several topics are looked at is the same in every run (Set.copyOf's order
        // changes from one JVM to the next, and the simulation replays a seed exactly)
        return java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(pendingByTopic.keySet()));
    }
}
