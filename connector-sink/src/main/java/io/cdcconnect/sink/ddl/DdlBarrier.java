package io.cdcconnect.sink.ddl;

import io.cdcconnect.sink.txn.SourcePartition;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Holds a DDL statement back until no assigned partition of its topic can still deliver a row from before it, so that
 * no row of the old table version runs after the statement and no row of the new version before it. The statement may
 * come from every partition (TiCDC's Open-protocol, cdc-connect's Canal-JSON under a rule that spreads a table), from
 * the one partition holding its table's rows (cdc-connect's Canal-JSON under the 'table' rule) or from partition 0
 * only (TiCDC's Canal-JSON), so a partition has passed the statement when it
 * <ul>
 *     <li>delivers the same statement;</li>
 *     <li>delivers an event committed after it (a watermark at or after it: every change up to the watermark has
 *     arrived);</li>
 *     <li>has nothing to deliver: it stayed silent for 2 s over several polls of the consumer while the statement
 *     waited;</li>
 *     <li>or the barrier's timeout passed (the caller warns).</li>
 * </ul>
 * A partition that passed is held: its later records wait until the statement has run. Pure bookkeeping: the pipeline
 * stashes held records and pauses partitions.
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
    private final Map<String, Pending> pendingByTopic = new HashMap<>();

    public void assign(SourcePartition p) {
        assigned.add(p);
    }

    public void unassign(SourcePartition p) {
        assigned.remove(p);
        Pending pending = pendingByTopic.get(p.topic());
        if (pending != null) pending.passed.remove(p);
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
        return pendingByTopic.containsKey(topic);
    }

    /** Whether the statement waiting on {@code topic} is the one with {@code key}. */
    public boolean isPendingStatement(String topic, String key) {
        Pending pending = pendingByTopic.get(topic);
        return pending != null && pending.key.equals(key);
    }

    /**
     * Records that {@code p} delivered the statement with {@code key} at {@code offset}, starting the wait when it is
     * the first copy.
     *
     * @return false when another statement of the topic is waiting and this one is not after it (the caller should
     *         run it at once: the order between them is unknown)
     */
    public boolean arrive(SourcePartition p, String key, long commitTs, long offset, long nowMillis) {
        return arrive(p, key, commitTs, offset, nowMillis, false);
    }

    /**
     * As {@link #arrive(SourcePartition, String, long, long, long)}; {@code counted}: the producer said to how many
     * partitions it sent the statement, so that only copies show that a partition passed it.
     */
    public boolean arrive(SourcePartition p, String key, long commitTs, long offset, long nowMillis, boolean counted) {
        Pending pending = pendingByTopic.computeIfAbsent(p.topic(), t -> new Pending(key, commitTs, nowMillis, counted));
        if (!pending.key.equals(key)) return false;
        pending.passed.merge(p, offset, Math::max);
        return true;
    }

    /**
     * Whether an event committed at {@code ts} shows that {@code p} passed the statement waiting on its topic: for a
     * statement whose copies were not counted (TiCDC), a row or statement committed after it, or a watermark at or
     * after it. Unknown times (0) show nothing; for a statement with counted copies only its copy does.
     */
    public boolean showsPassed(SourcePartition p, long ts, boolean watermark) {
        Pending pending = pendingByTopic.get(p.topic());
        if (pending == null || pending.counted || pending.commitTs <= 0 || ts <= 0 || pending.passed.containsKey(p)) {
            return false;
        }
        return watermark ? ts >= pending.commitTs : ts > pending.commitTs;
    }

    /** Records that {@code p} passed its topic's statement without delivering a copy of it (its data showed it). */
    public void passed(SourcePartition p) {
        Pending pending = pendingByTopic.get(p.topic());
        if (pending != null) pending.passed.putIfAbsent(p, -1L);
    }

    /** True when every assigned partition of the topic has passed its waiting statement. */
    public boolean complete(String topic) {
        Pending pending = pendingByTopic.get(topic);
        if (pending == null) return false;
        return missing(topic).isEmpty();
    }

    /** Assigned partitions of the topic that have not passed its waiting statement. */
    public Set<SourcePartition> missing(String topic) {
        Pending pending = pendingByTopic.get(topic);
        Set<SourcePartition> out = new LinkedHashSet<>();
        if (pending == null) return out;
        for (SourcePartition p : assigned) {
            if (p.topic().equals(topic) && !pending.passed.containsKey(p)) out.add(p);
        }
        return out;
    }

    /** The partitions that passed the topic's waiting statement so far (see {@link #release(String)}). */
    public Map<SourcePartition, Long> passed(String topic) {
        Pending pending = pendingByTopic.get(topic);
        return pending == null ? Map.of() : new LinkedHashMap<>(pending.passed);
    }

    /** Since when (epoch ms) the topic's statement waits, or -1. */
    public long waitingSince(String topic) {
        Pending pending = pendingByTopic.get(topic);
        return pending == null ? -1 : pending.since;
    }

    /**
     * Ends the topic's waiting statement; returns the partitions that passed it, in order, with the offset of their
     * copy of the statement (-1 for those that passed it another way).
     */
    public Map<SourcePartition, Long> release(String topic) {
        Pending pending = pendingByTopic.remove(topic);
        return pending == null ? Map.of() : pending.passed;
    }

    /** Topics with a statement waiting. */
    public Set<String> pendingTopics() {
        return Set.copyOf(pendingByTopic.keySet());
    }
}
