package io.cdcconnect.sink.txn;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Holds a DDL statement back until every assigned partition of its topic has delivered it, for protocols that send
 * each DDL to every partition (TiCDC's Open-protocol). Until then, a partition that has delivered it is held: its
 * later records wait, so no partition's rows of the new table version run before the statement, and no partition's
 * rows of the old version run after it. Pure bookkeeping: the pipeline stashes held records and pauses partitions.
 */
public final class DdlBarrier {

    private static final class Pending {
        final String key;
        final Set<SourcePartition> arrived = new LinkedHashSet<>();

        Pending(String key) {
            this.key = key;
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
        if (pending != null) pending.arrived.remove(p);
    }

    /** The partitions assigned to the task (or seen in records, before any assignment was announced). */
    public Set<SourcePartition> assignedPartitions() {
        return Set.copyOf(assigned);
    }

    public boolean isAssigned(SourcePartition p) {
        return assigned.contains(p);
    }

    /** True while {@code p} has delivered a DDL that still waits for other partitions. */
    public boolean isHeld(SourcePartition p) {
        Pending pending = pendingByTopic.get(p.topic());
        return pending != null && pending.arrived.contains(p);
    }

    /**
     * Records that {@code p} delivered the DDL identified by {@code ddlKey}.
     *
     * @return false when another DDL of the topic is pending (the protocol broke its promise; the caller should run
     *         the statement at once)
     */
    public boolean arrive(SourcePartition p, String ddlKey) {
        Pending pending = pendingByTopic.computeIfAbsent(p.topic(), t -> new Pending(ddlKey));
        if (!pending.key.equals(ddlKey)) return false;
        pending.arrived.add(p);
        return true;
    }

    /** True when every assigned partition of the topic has delivered its pending DDL. */
    public boolean complete(String topic) {
        Pending pending = pendingByTopic.get(topic);
        if (pending == null) return false;
        for (SourcePartition p : assigned) {
            if (p.topic().equals(topic) && !pending.arrived.contains(p)) return false;
        }
        return true;
    }

    /** Ends the topic's pending DDL; returns the partitions it held, in order of arrival. */
    public Set<SourcePartition> release(String topic) {
        Pending pending = pendingByTopic.remove(topic);
        return pending == null ? Set.of() : pending.arrived;
    }

    /** Topics with a DDL waiting. */
    public Set<String> pendingTopics() {
        return Set.copyOf(pendingByTopic.keySet());
    }
}
