package io.cdcconnect.sink.ddl.control;

import io.cdcconnect.sink.offset.RecordFingerprints;
import io.cdcconnect.sink.txn.SourcePartition;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The {@link ControlStore} in memory, with the same rules as the JDBC one: the deterministic simulation of the sink's
 * core runs several tasks (and their restarts) against one {@link Shared} state, as the JDBC store's tasks share the
 * target's tables. Durable for as long as the {@link Shared} object lives.
 */
public final class InMemoryControlStore implements ControlStore {

    /** What the JDBC store keeps in the target's tables, shared by every task of a connector. */
    public static final class Shared {
        private final Map<SourcePartition, Long> through = new HashMap<>();
        /** written_through. */
        private final Map<SourcePartition, Long> written = new HashMap<>();
        /** The record each checkpoint was written at (ddl_checkpoint_record). */
        private final Map<SourcePartition, CheckpointRecord> records = new HashMap<>();
        private final Map<String, TableDdl> tableDdl = new HashMap<>();
        /** topic, statement key, partition -> offset of each copy (negative: passed without it) -> sending. */
        private final Map<String, java.util.TreeMap<Long, Long>> copies = new HashMap<>();
        /** topic, id -> partitions arrived (ddl_barrier). */
        private final Map<String, Set<Integer>> arrivals = new HashMap<>();
        /** topic, id -> claimant instance, claimed partition, done (ddl_run). */
        private final Map<String, Object[]> runs = new HashMap<>();
        /** topic, id -> the store instance holding the sending's run lock (a session lock in the JDBC store). */
        private final Map<String, String> locks = new HashMap<>();
        /** topic, statement key, partition -> late copies of an uncounted statement that ran: offsets, -1 for a copy still to come. */
        private final Map<String, Set<Long>> lateCopies = new HashMap<>();

        @Override
        public synchronized String toString() {
            StringBuilder b = new StringBuilder("through " + through + ", copies:");
            copies.forEach((k, v) -> b.append("\n    ").append(k.substring(0, k.indexOf('\u0000')))
                    .append(' ').append(k, k.indexOf('\u0000') + 1, k.indexOf('\u0000') + 9)
                    .append(" p").append(k.substring(k.lastIndexOf('\u0000') + 1)).append(' ').append(v));
            b.append("\n  arrivals:");
            arrivals.forEach((k, v) -> b.append("\n    ").append(k, k.indexOf('\u0000') + 1, k.indexOf('\u0000') + 9)
                    .append(' ').append(v).append(runs.containsKey(k) ? " run " + runs.get(k)[2] : ""));
            return b.toString();
        }

    }

    private final Shared shared;
    private final String instance = UUID.randomUUID().toString();
    private RecordFingerprints fingerprints = new RecordFingerprints();

    public InMemoryControlStore(Shared shared) {
        this.shared = shared;
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public long appliedThrough(SourcePartition partition) {
        synchronized (shared) {
            return shared.through.getOrDefault(partition, -1L);
        }
    }

    @Override
    public CheckpointRecord checkpointRecord(SourcePartition partition) {
        synchronized (shared) {
            CheckpointRecord r = shared.records.get(partition);
            // as the JDBC store: a record row that is not the checkpoint's (capped since) says nothing
            return r != null && r.offset() == shared.through.getOrDefault(partition, -1L) ? r : null;
        }
    }

    @Override
    public void recreated(SourcePartition partition) {
        synchronized (shared) {
            shiftCopies(partition);
            // an uncounted statement that ran stays run in the new topic (its identity, not its offset, tells it)
            shared.through.remove(partition);
            shared.records.remove(partition);
        }
    }

    /** As the JDBC store: every recorded copy of {@code partition} moves below the offsets of its recreated topic. */
    private void shiftCopies(SourcePartition partition) {
        synchronized (shared) {
            String prefix = partition.topic() + '\u0000';
            String suffix = "\u0000" + partition.partition();
            shared.copies.forEach((k, seen) -> {
                if (!k.startsWith(prefix) || !k.endsWith(suffix)) return;
                java.util.TreeMap<Long, Long> moved = new java.util.TreeMap<>();
                seen.forEach((o, n) -> moved.put(o - COPIES_SHIFT, n));
                seen.clear();
                seen.putAll(moved);
            });
        }
    }

    @Override
    public void fingerprints(RecordFingerprints fingerprints) {
        this.fingerprints = fingerprints;
    }

    @Override
    public void record(Map<SourcePartition, Long> offsets, long ddlCommitTs, Set<SourcePartition> ddlPartitions) {
        synchronized (shared) {
            offsets.forEach((p, o) -> {
                shared.through.merge(p, o, Math::max);
                RecordFingerprints.Window window = fingerprints.window(p, o);
                CheckpointRecord old = shared.records.get(p);
                if (window != null && (old == null || o >= old.offset())) {
                    shared.records.put(p, new CheckpointRecord(o, window));
                }
            });
        }
    }

    @Override
    public TableDdl tableDdl(String table) {
        synchronized (shared) {
            return shared.tableDdl.getOrDefault(table, TableDdl.NONE);
        }
    }

    @Override
    public void recordTableDdl(String table, long ddlCommitTs, boolean uncounted) {
        if (ddlCommitTs <= 0) return;
        synchronized (shared) {
            // as the JDBC store: the highest commit ts; uncounted only while every statement was
            shared.tableDdl.merge(table, new TableDdl(ddlCommitTs, uncounted), (a, b) ->
                    new TableDdl(Math.max(a.commitTs(), b.commitTs()), a.uncounted() && b.uncounted()));
        }
    }

    @Override
    public long writtenThrough(SourcePartition partition) {
        synchronized (shared) {
            return shared.written.getOrDefault(partition, -1L);
        }
    }

    @Override
    public void raiseWrittenThrough(SourcePartition partition, long offset) {
        synchronized (shared) {
            shared.written.merge(partition, offset, Math::max);
        }
    }

    @Override
    public void forget(SourcePartition partition) {
        // nothing cached
    }

    @Override
    public Sending sending(String topic, String ddlKey, Map<SourcePartition, Long> copies) {
        String key = DdlCoordinator.id(ddlKey);
        long number = 1;
        synchronized (shared) {
            for (Map.Entry<SourcePartition, Long> e : copies.entrySet()) {
                if (e.getValue() < 0) continue;
                java.util.TreeMap<Long, Long> seen = shared.copies.computeIfAbsent(topic + '\u0000' + key + '\u0000'
                        + e.getKey().partition(), k -> new java.util.TreeMap<>());
                Long n = seen.get(e.getValue());
                if (n == null && !seen.tailMap(e.getValue(), false).isEmpty()) {
                    // as the JDBC store: below copies it had delivered, so its topic was recreated
                    shiftCopies(e.getKey());
                }
                if (n == null) {
                    n = (long) seen.headMap(e.getValue()).size() + 1;
                    seen.put(e.getValue(), n);
                }
                number = Math.max(number, n);
            }
        }
        return new Sending(number, DdlCoordinator.sendingId(ddlKey, number));
    }

    @Override
    public boolean copyRan(String topic, String ddlKey, SourcePartition partition, long offset) {
        synchronized (shared) {
            java.util.TreeMap<Long, Long> seen = shared.copies.get(topic + '\u0000' + DdlCoordinator.id(ddlKey)
                    + '\u0000' + partition.partition());
            Long n = seen == null ? null : seen.get(offset);
            if (n == null) return false;
            Object[] run = shared.runs.get(topic + '\u0000' + DdlCoordinator.sendingId(ddlKey, n));
            return run != null && (Boolean) run[2];
        }
    }

    @Override
    public void uncountedRan(String topic, String ddlKey, Map<SourcePartition, Long> copies) {
        synchronized (shared) {
            copies.forEach((p, o) -> shared.lateCopies.computeIfAbsent(lateKey(topic, ddlKey, p),
                    k -> new HashSet<>()).add(Math.max(-1L, o)));
        }
    }

    @Override
    public boolean uncountedCopyRan(String topic, String ddlKey, SourcePartition partition, long offset) {
        synchronized (shared) {
            Set<Long> late = shared.lateCopies.get(lateKey(topic, ddlKey, partition));
            if (late == null) return false;
            if (late.isEmpty()) return false;
            late.add(offset);
            return true;
        }
    }

    private static String lateKey(String topic, String ddlKey, SourcePartition p) {
        return topic + '\u0000' + DdlCoordinator.id(ddlKey) + '\u0000' + p.partition();
    }

    @Override
    public Set<Integer> arrivals(String topic, String ddlId) {
        synchronized (shared) {
            return java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(
                    shared.arrivals.getOrDefault(topic + '\u0000' + ddlId, Set.of())));
        }
    }

    @Override
    public void arrive(String topic, String ddlId, Collection<SourcePartition> partitions) {
        synchronized (shared) {
            Set<Integer> a = shared.arrivals.computeIfAbsent(topic + '\u0000' + ddlId, k -> new HashSet<>());
            for (SourcePartition p : partitions) a.add(p.partition());
        }
    }

    @Override
    public DdlCoordinator.State state(String topic, String ddlKey, Sending sending, int copies,
                                      Set<SourcePartition> assigned, SourcePartition claimant) {
        String id = topic + '\u0000' + sending.id();
        synchronized (shared) {
            Object[] run = shared.runs.get(id);
            if (run != null) {
                if ((Boolean) run[2]) {
                    unlock(id);
                    return DdlCoordinator.State.DONE;
                }
                if (run[0].equals(instance)) return lock(id) ? DdlCoordinator.State.RUN : DdlCoordinator.State.WAIT;
                // as the JDBC store: the claimed partition's checkpoint past its copy says it ran
                SourcePartition claimed = new SourcePartition(topic, (Integer) run[1]);
                java.util.TreeMap<Long, Long> seen = shared.copies.get(topic + '\u0000' + DdlCoordinator.id(ddlKey)
                        + '\u0000' + claimed.partition());
                long through = shared.through.getOrDefault(claimed, -1L);
                if (seen != null) {
                    for (Map.Entry<Long, Long> copy : seen.entrySet()) {
                        if (copy.getValue() == sending.number() && copy.getKey() >= 0 && through >= copy.getKey()) {
                            run[2] = true;
                            return DdlCoordinator.State.DONE;
                        }
                    }
                }
                // as the JDBC store: the claim is taken over only from a task whose run lock is free (it died or
                // stopped), never from one still running the statement
                if (assigned.contains(claimed) && lock(id)) {
                    run[0] = instance; // takes over the claim of a task that lost the claimant's partition
                    return DdlCoordinator.State.RUN;
                }
                return DdlCoordinator.State.WAIT;
            }
            if (shared.arrivals.getOrDefault(id, Set.of()).size() < copies) return DdlCoordinator.State.WAIT;
            if (!lock(id)) return DdlCoordinator.State.WAIT;
            shared.runs.put(id, new Object[] {instance, claimant.partition(), false});
            return DdlCoordinator.State.RUN;
        }
    }

    /** The run lock of a sending, as a session lock: held by one live store instance at a time. */
    private boolean lock(String id) {
        Object holder = shared.locks.putIfAbsent(id, instance);
        return holder == null || holder.equals(instance);
    }

    private void unlock(String id) {
        shared.locks.remove(id, instance);
    }

    @Override
    public void done(String topic, String ddlId) {
        synchronized (shared) {
            Object[] run = shared.runs.get(topic + '\u0000' + ddlId);
            if (run != null) run[2] = true;
            unlock(topic + '\u0000' + ddlId);
        }
    }

    @Override
    public void close() {
        synchronized (shared) {
            shared.locks.values().removeIf(instance::equals);
        }
    }
}
