package io.cdcconnect.sink.ddl.control;

import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.offset.RecordFingerprints;
import io.cdcconnect.sink.txn.SourcePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * Whether a partition's checkpoint was written for the topic the task reads now (docs/ordering.md, "topic
 * recreation"). The checkpoint is keyed by topic name, because a sink task sees no topic id; a topic deleted and
 * recreated under the same name, or moved to another cluster, starts again at low offsets, which the old checkpoint
 * would skip. So before the checkpoint skips anything of a newly assigned partition, the records at the last offsets
 * up to the checkpoint's are read and compared with the fingerprints stored with it
 * ({@link RecordFingerprints.Window}):
 * <ul>
 *     <li>the first record delivered is above the checkpoint, or no checkpoint is kept: nothing is skipped for it, and
 *     nothing is checked;</li>
 *     <li>otherwise, the task reads the partition from the first of those offsets (asking Connect to seek there when
 *     it was delivered from lower), and drops what it reads up to the checkpoint's offset, skipped in any case if the
 *     topic is the same. Every record at an offset the checkpoint keeps a fingerprint of must have it, through the
 *     record at the checkpoint's offset itself: the same topic;</li>
 *     <li>another fingerprint, or an offset lower than asked for (the partition ends before it, and the consumer went
 *     back to its earliest offset): a recreated topic. The checkpoint is dropped, durably, and the partition is read
 *     again from where Connect started it;</li>
 *     <li>a record above the checkpoint's offset before the record there (it was compacted or deleted, or the recreated
 *     topic has none there): the sink cannot tell which records are replays, and the task fails saying how to go on,
 *     rather than guess either way.</li>
 * </ul>
 * A partition that ends exactly at the offset asked for waits for its next record. A checkpoint written without
 * fingerprints (by an earlier version, or capped by an offsets reset since) is trusted, as before. Decided by data
 * only: offsets and the records' contents. Task thread only.
 */
public final class CheckpointVerifier {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointVerifier.class);

    /** Asks Connect to deliver a partition from an offset (takes effect after the current put). */
    public interface Seeker {
        void seek(SourcePartition partition, long offset);
    }

    /** Nothing of the partition is skipped for a checkpoint of another topic. */
    private static final Object TRUSTED = new Object();

    /**
     * Comparing the partition's records with the checkpoint's {@code window}: Connect started it at {@code first};
     * the next record must be at {@code next} or above; records of put number {@code seekPut} are dropped (a seek
     * asked during it is pending).
     */
    private static final class Comparing {
        final long first;
        final RecordFingerprints.Window window;
        long next;
        long seekPut;

        Comparing(long first, RecordFingerprints.Window window, long next, long seekPut) {
            this.first = first;
            this.window = window;
            this.next = next;
            this.seekPut = seekPut;
        }
    }

    /** A seek back to where Connect started the partition, asked during put number {@code put}. */
    private record Rewinding(long put) {
    }

    private final ControlStore control;
    private final Map<SourcePartition, Object> states = new HashMap<>();
    private Seeker seeker;
    private long put;
    private SourcePartition lastTrusted;

    public CheckpointVerifier(ControlStore control) {
        this.control = control;
    }

    /** Where seeks go (the task's context); without one, nothing is verified. */
    public void setSeeker(Seeker seeker) {
        this.seeker = seeker;
    }

    /** A new {@code put()}: seeks asked in the last one have been done. */
    public void beginPut() {
        put++;
    }

    /** A newly assigned partition: verified again before its checkpoint skips anything. */
    public void assigned(SourcePartition partition) {
        states.remove(partition);
        lastTrusted = null;
    }

    /** A revoked partition. */
    public void forget(SourcePartition partition) {
        states.remove(partition);
        lastTrusted = null;
    }

    /**
     * Whether the record at {@code offset} of {@code partition}, with fingerprint {@code fingerprint}, is taken in; a
     * record not taken in is dropped, because the partition will be delivered again from another offset, or because
     * it is at or below a checkpoint still being verified (where it is skipped if the topic is the same).
     *
     * @throws ApplyException when the checkpoint's record is gone and the sink cannot tell a replay from new data
     */
    public boolean admit(SourcePartition partition, long offset, long fingerprint) {
        if (partition.equals(lastTrusted)) return true;
        Object state = states.get(partition);
        if (state == TRUSTED) {
            lastTrusted = partition;
            return true;
        }
        if (state == null) {
            long through = control.enabled() ? control.appliedThrough(partition) : -1;
            if (through < 0 || offset > through || seeker == null) return trust(partition);
            ControlStore.CheckpointRecord stored = control.checkpointRecord(partition);
            if (stored == null) {
                LOG.warn("{}: the DDL checkpoint at offset {} keeps no fingerprints of its records (written by an "
                        + "earlier version, capped since, or written by something else): it cannot be checked against "
                        + "the topic, and the records through offset {} are skipped on its word. If the topic was "
                        + "recreated, or the checkpoint is not this connector's, reset the connector's offsets "
                        + "(DELETE /connectors/<name>/offsets), which drops it", partition, through, through);
                return trust(partition);
            }
            LOG.info("{}: delivered from offset {}, at or below the DDL checkpoint at offset {}: comparing the records "
                    + "from offset {} with the checkpoint's first, to tell whether the topic is the one it was written "
                    + "for", partition, offset, through, Math.max(offset, stored.window().lowest()));
            Comparing c = new Comparing(offset, stored.window(), offset, -1);
            states.put(partition, c);
            if (offset < stored.window().lowest()) {
                seeker.seek(partition, stored.window().lowest());
                c.next = stored.window().lowest();
                c.seekPut = put;
                return false;
            }
            return compare(partition, c, offset, fingerprint);
        }
        if (state instanceof Comparing c) {
            if (c.seekPut == put) return false; // the rest of the put that asked for the seek
            return compare(partition, c, offset, fingerprint);
        }
        Rewinding r = (Rewinding) state;
        if (r.put() == put) return false;
        return trust(partition);
    }

    /** Whether the rest of {@code partition}'s records in this put are dropped (a seek is pending for it). */
    public boolean dropsRestOfPut(SourcePartition partition) {
        Object state = states.get(partition);
        return state instanceof Comparing c && c.seekPut == put || state instanceof Rewinding r && r.put() == put;
    }

    private boolean compare(SourcePartition partition, Comparing c, long offset, long fingerprint) {
        long checkpoint = c.window.last();
        if (offset < c.next) {
            // lower than asked for: the partition ends before it, and the consumer went back to its earliest offset
            recreated(partition, "ends before offset " + c.next);
            return rewind(partition, offset, c.first);
        }
        if (offset > checkpoint) {
            throw new ApplyException(partition + ": the DDL checkpoint says records through offset " + checkpoint
                    + " were applied before a DDL statement ran, but the record at " + checkpoint + " is gone (the next"
                    + " one is at " + offset + "): the topic was compacted or its retention passed that offset, or it"
                    + " was deleted and recreated. The sink cannot tell which records below " + checkpoint + " are"
                    + " replays, so it applies none of them. If the topic was recreated, stop the connector and reset"
                    + " its offsets (DELETE /connectors/<name>/offsets), which drops the checkpoint; if it was not,"
                    + " alter this partition's offset to " + (checkpoint + 1) + " (PATCH /connectors/<name>/offsets)");
        }
        long stored = c.window.at(offset);
        if (stored != RecordFingerprints.UNKNOWN && stored != fingerprint) {
            recreated(partition, "holds another record at offset " + offset);
            return rewind(partition, offset, c.first);
        }
        c.next = offset + 1;
        if (offset < checkpoint) return false; // at or below the checkpoint: skipped if the topic is the same
        LOG.info("{}: the records up to the DDL checkpoint's offset {} are the ones it was written at: the records "
                + "through it are replays", partition, offset);
        return trust(partition);
    }

    /** Reads the partition again from {@code first}, where Connect started it, unless this record is that one. */
    private boolean rewind(SourcePartition partition, long offset, long first) {
        if (offset == first) return trust(partition);
        seeker.seek(partition, first);
        states.put(partition, new Rewinding(put));
        return false;
    }

    private void recreated(SourcePartition partition, String why) {
        LOG.warn("{} {}, so it is not the topic its DDL checkpoint was written for (it was recreated or moved): the"
                + " checkpoint is dropped, and the partition is applied from where Connect started it", partition, why);
        control.recreated(partition);
    }

    private boolean trust(SourcePartition partition) {
        states.put(partition, TRUSTED);
        lastTrusted = partition;
        return true;
    }
}
