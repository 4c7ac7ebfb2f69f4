package io.cdcconnect.sink;

import io.cdcconnect.sink.ddl.order.PartitionHolds;
import io.cdcconnect.sink.txn.PartitionControl;
import io.cdcconnect.sink.txn.PendingRecord;
import io.cdcconnect.sink.txn.SourcePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one place that holds records back: per partition of the task, a gate with its state and the partition's
 * records taken from Connect and not yet processed, in order. Connect's pause and resume follow the states only: a
 * partition is paused while it is {@link State#HELD} or {@link State#WAITING_FOR_ROOM}, and resumed when it flows
 * again (docs/ordering.md, "What each partition is in").
 *
 * <p>The pipeline takes records with {@link #next} in a loop; holding and releasing a partition only changes its
 * state, and its records go on in that loop. Nothing here processes a record, so nothing re-enters the loop. Which
 * statements a partition waits for, and when they run, is the {@link io.cdcconnect.sink.ddl.order.DdlSequencer}'s.
 * Used from the task thread only.
 */
public final class PartitionGates implements PartitionHolds {

    /** Where a partition is: every state but {@link #FLOWING} has Connect pause it. */
    public enum State {
        /** Its records are processed as they come. */
        FLOWING,
        /** It passed statements that have not run: its records wait until they have. */
        HELD,
        /** A record does not fit in the byte buffer: no partition's records are taken until it does. */
        WAITING_FOR_ROOM
    }

    private static final Logger LOG = LoggerFactory.getLogger(PartitionGates.class);

    private static final class Gate {
        final SourcePartition partition;
        /** The state Connect was last told of: paused unless flowing. */
        State state = State.FLOWING;
        /** The statements it passed that have not run. */
        final Set<String> holds = new LinkedHashSet<>();
        /** Its records not yet processed, in order. */
        final ArrayDeque<PendingRecord> queue = new ArrayDeque<>();

        Gate(SourcePartition partition) {
            this.partition = partition;
        }

        boolean held() {
            return !holds.isEmpty();
        }

        /** Whether it has a record to process, as far as statements go. */
        boolean ready() {
            return !held() && !queue.isEmpty();
        }
    }

    private final BackPressure buffer;
    private final Map<SourcePartition, Gate> gates = new LinkedHashMap<>();
    private PartitionControl control = PartitionControl.NONE;
    /** A record of a partition that is not held does not fit in the buffer: every partition waits for room. */
    private boolean waitingForRoom;
    /** The gate of the last record taken: its next one goes next (Connect hands over partition by partition). */
    private Gate current;

    PartitionGates(BackPressure buffer) {
        this.buffer = buffer;
    }

    void setPartitionControl(PartitionControl control) {
        this.control = control == null ? PartitionControl.NONE : control;
    }

    /**
     * A partition assigned to the task. It flows: Connect resumes a newly assigned partition (CdcSinkTask.open); if
     * the buffer waits for room, the next record that does not fit pauses it with the others.
     */
    void assign(SourcePartition p) {
        gate(p);
    }

    /** Partition revoked: its records not yet processed, and what it was held for, are dropped with its gate. */
    void revoke(SourcePartition p) {
        Gate g = gates.remove(p);
        if (g == current) current = null;
    }

    /** A record taken from Connect: it goes after its partition's records not yet processed. */
    void add(PendingRecord r) {
        gate(r.partition()).queue.addLast(r);
    }

    /**
     * The next record to process: the first waiting of a partition that is not held, once its rows fit in the buffer.
     * Null when there is none, or when it does not fit within the batch's wait: then every partition is paused, and
     * the records wait here for a later {@code put()}. Partitions paused for room are resumed once no record of a
     * partition that is not held waits.
     */
    PendingRecord next() {
        Gate g = current != null && current.ready() ? current : firstReady();
        if (g == null) {
            current = null;
            if (waitingForRoom) {
                waitingForRoom = false;
                settleAll();
            }
            return null;
        }
        if (!buffer.hasRoom(g.queue.peekFirst())) {
            if (!waitingForRoom) LOG.debug("Buffer full ({} bytes): partitions paused", buffer.bytes());
            waitingForRoom = true;
            // also pauses a partition assigned since the buffer filled
            settleAll();
            return null;
        }
        current = g;
        return g.queue.pollFirst();
    }

    private Gate firstReady() {
        for (Gate g : gates.values()) {
            if (g.ready()) return g;
        }
        return null;
    }

    /**
     * Holds {@code p} until each statement of {@code keys} has run ({@link #unhold}): {@code rest} (what is left of
     * the record that showed it passed them) goes first when it flows again, then its later records.
     */
    public void hold(SourcePartition p, Collection<String> keys, PendingRecord rest) {
        Gate g = gate(p);
        g.queue.addFirst(rest);
        hold(g, keys);
    }

    /** Holds {@code p}, which passed the statement {@code key} without delivering anything here, until it has run. */
    public void hold(SourcePartition p, String key) {
        hold(gate(p), List.of(key));
    }

    private void hold(Gate g, Collection<String> keys) {
        g.holds.addAll(keys);
        settle(g);
    }

    /** The statement {@code key} has run (or no longer waits): {@code p} flows again once it waits for no other. */
    public void unhold(SourcePartition p, String key) {
        Gate g = gates.get(p);
        if (g == null) return; // revoked
        g.holds.remove(key);
        settle(g);
    }

    /** Whether a record waits for buffer room (every partition is paused): a {@code put()} should take no more. */
    boolean waitingForRoom() {
        return waitingForRoom;
    }

    /** Adds the partitions that are held or have records waiting to {@code partitions}. */
    void addWaitingTo(Set<SourcePartition> partitions) {
        for (Gate g : gates.values()) {
            if (g.held() || !g.queue.isEmpty()) partitions.add(g.partition);
        }
    }

    /** The state of {@code p}, or null when it is not the task's. */
    State state(SourcePartition p) {
        Gate g = gates.get(p);
        return g == null ? null : g.state;
    }

    /** Every partition that does not flow or has records waiting: its state, what it waits for and how many records. */
    String describe() {
        StringBuilder b = new StringBuilder();
        for (Gate g : gates.values()) {
            if (g.state == State.FLOWING && g.queue.isEmpty()) continue;
            if (!b.isEmpty()) b.append(", ");
            b.append(g.partition).append(' ').append(g.state);
            if (g.held()) b.append(" for ").append(g.holds.toString().replace('\u0000', ' '));
            b.append(" with ").append(g.queue.size()).append(" records");
        }
        return b.isEmpty() ? "all flowing" : b.toString();
    }

    private Gate gate(SourcePartition p) {
        return gates.computeIfAbsent(p, Gate::new);
    }

    private void settleAll() {
        for (Gate g : gates.values()) settle(g);
    }

    /** Moves the gate to the state its holds and the buffer call for, pausing or resuming its partition as it goes. */
    private void settle(Gate g) {
        State due = g.held() ? State.HELD : waitingForRoom ? State.WAITING_FOR_ROOM : State.FLOWING;
        if (due == g.state) return;
        boolean paused = g.state != State.FLOWING;
        g.state = due;
        if (due == State.FLOWING) {
            control.resume(g.partition);
        } else if (!paused) {
            control.pause(g.partition);
        }
    }
}
