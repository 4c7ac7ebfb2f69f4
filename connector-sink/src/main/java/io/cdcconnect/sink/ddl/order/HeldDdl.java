package io.cdcconnect.sink.ddl.order;

import io.cdcconnect.sink.ddl.control.ControlStore;
import io.cdcconnect.sink.ddl.control.DdlCoordinator;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.txn.SourcePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;

/**
 * A DDL waiting for the other partitions to pass it: which of the task's partitions passed it (by their copy, their
 * data or the store), where it is claimed for, and, with copies on other tasks' partitions, where it stands with those
 * tasks ({@link DdlCoordinator}). Its state belongs to the {@link DdlSequencer}, which alone changes it.
 */
final class HeldDdl {
    private static final Logger LOG = LoggerFactory.getLogger(HeldDdl.class);

    final DdlChange ddl;
    /**
     * The partition this task claims the statement for, and its copy's offset: always one the task holds now. Its
     * first copy's at first; when that partition is revoked, another that passed it ({@link #rehome}). A claim for a
     * partition that moved let its new owner take the claim over while this task still ran the statement
     * (docs/ordering.md, "partial revocation").
     */
    SourcePartition partition;
    long offset;
    /** Partitions the producer sent the statement to (0: unknown). */
    final int copies;
    /** {@link DdlSequencer#key}: copies of the statement share it. */
    final String key;
    /** Which sending of the statement this is ({@link ControlStore#sending}; null: not coordinated). */
    final ControlStore.Sending sending;
    /** The key it waits under: the statement's key, and the sending's number when coordinated. */
    final String pendingKey;
    /** Its topic. */
    final String topic;
    /** When its first copy came (epoch ms): only dates the warning after {@code ddl.barrier.timeout.ms}. */
    final long since;
    /**
     * The task's partitions that passed it, in the order they did, with the offset of their copy (-1: passed it
     * another way: its data showed it, or the store says an earlier owner handled its copy).
     */
    final java.util.Map<SourcePartition, Long> passed = new java.util.LinkedHashMap<>();
    /** Its id in the coordinator's tables. */
    String id;
    /** Whether this task recorded its partitions' arrival with the coordinator. */
    boolean arrived;
    /** The partitions whose arrival this task recorded. */
    private final java.util.Set<SourcePartition> recorded = new java.util.HashSet<>();
    long coordinatedSince;

    HeldDdl(DdlChange ddl, String key, SourcePartition partition, long offset, int copies,
            ControlStore.Sending sending, long since) {
        this.ddl = ddl;
        this.topic = partition.topic();
        this.since = since;
        this.key = key;
        this.sending = sending;
        this.id = sending == null ? null : sending.id();
        this.pendingKey = pendingKey(key, sending);
        this.partition = partition;
        this.offset = offset;
        this.copies = copies;
    }

    /**
     * Where a statement with copies on other tasks' partitions stands: this task's rows before it are applied and its
     * arrival recorded first; then the coordinator is asked once per call (once per put(), which Connect makes at least
     * every {@code CdcSinkTask.RECHECK_MS} while a statement waits). Past {@code ddl.barrier.timeout.ms}
     * the task warns, and keeps waiting: it never runs a statement without its claim (docs/ordering.md).
     */
    DdlCoordinator.State coordinate(String topic, java.util.Set<SourcePartition> assigned, ControlStore coordinator,
                                    DdlRunner runner, SinkConfig config) {
        long now = System.currentTimeMillis();
        try {
            if (!arrived) {
                runner.drainBefore(partition, offset);
                runner.checkpointApplied();
                coordinator.sending(topic, key, new java.util.LinkedHashMap<>(passed)); // every copy this task holds
                // every partition that passed it, by its copy or otherwise: none has anything before it (a partition
                // that passed it otherwise would never be counted, and every task would wait for good)
                coordinator.arrive(topic, id, new java.util.LinkedHashMap<>(passed).keySet());
                recorded.addAll(new java.util.LinkedHashMap<>(passed).keySet());
                arrived = true;
                coordinatedSince = now;
                LOG.info("The DDL at {}@{} (sending {}) reached {} of its {} partitions on this task {}; waiting for the "
                        + "other tasks'", partition, offset, sending.number(), new java.util.LinkedHashMap<>(passed).size(), copies,
                        new java.util.LinkedHashMap<>(passed));
            } else if (!recorded.containsAll(new java.util.LinkedHashMap<>(passed).keySet())) {
                // partitions assigned since, which have passed it too: their rows before it are applied first
                java.util.Map<SourcePartition, Long> fresh = new java.util.HashMap<>(passed);
                fresh.keySet().removeAll(recorded);
                runner.drainBefore(partition, offset);
                runner.checkpointApplied();
                coordinator.sending(topic, key, fresh);
                coordinator.arrive(topic, id, fresh.keySet());
                recorded.addAll(fresh.keySet());
            }
            DdlCoordinator.State state = coordinator.state(topic, key, sending, copies, assigned,
                    partition);
            if (state == DdlCoordinator.State.WAIT && now - coordinatedSince > config.ddlBarrierTimeoutMs()) {
                coordinatedSince = now;
                LOG.warn("The DDL at {}@{} has waited more than {} ms ({}) for the other tasks' partitions of {} to pass "
                                + "it ({} copies); it runs once they have, by the task that claims it. Check that every "
                                + "task of the connector is running", partition, offset, config.ddlBarrierTimeoutMs(),
                        SinkConfig.DDL_BARRIER_TIMEOUT_MS, topic, copies);
            }
            LOG.debug("The DDL at {}@{} (sending {}): {}", partition, offset, sending.number(), state);
            return state;
        } catch (SQLException e) {
            throw new ApplyException("cannot coordinate the DDL at " + partition + "@" + offset
                    + " with the other tasks through " + config.ddlCheckpointDatabase() + ": " + e.getMessage(), e);
        }
    }

    /** The statement is now claimed for {@code p}, which passed it at {@code copyOffset} (-1: without its copy). */
    void rehome(SourcePartition p, long copyOffset) {
        LOG.info("The DDL at {}@{} is now held for {}{}: its partition was revoked", partition, offset, p,
                copyOffset >= 0 ? "@" + copyOffset : "");
        this.partition = p;
        this.offset = copyOffset;
    }

    /** The barrier's key of a sending of the statement with {@code key}. */
    static String pendingKey(String key, ControlStore.Sending sending) {
        return sending == null ? key : key + "\u0000#" + sending.number();
    }

    /** After this task ran it: the other tasks are told. */
    void ran(String topic, ControlStore coordinator) {
        try {
            coordinator.done(topic, id);
        } catch (SQLException e) {
            throw new ApplyException("the DDL at " + partition + "@" + offset + " ran, but the other "
                    + "tasks could not be told: " + e.getMessage(), e);
        }
    }
}
