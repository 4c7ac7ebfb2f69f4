package io.cdcconnect.sink;

import io.cdcconnect.codec.UnavailableException;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.RetryPolicy;
import io.cdcconnect.sink.decode.DecodeStage;
import io.cdcconnect.sink.decode.RecordDecoder;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.SourcePartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One {@code put()}'s records into the pipeline, in order: decoded ahead ({@link DecodeStage}), an outage of what
 * decoding needs waited out in place, screened at the trust boundary ({@link RecordScreen}), then accepted under the
 * record's original coordinates (KIP-793). A bad record goes to {@link ErrantRecords}.
 *
 * <p>An outage of what decoding needs (schema registry, claim-check store: {@link UnavailableException}) is not a bad
 * record: the record is decoded again with backoff under {@code retry.max.attempts}/{@code retry.backoff.ms}, then the
 * task fails saying what is down; nothing goes to the dead-letter queue and no offset past it is committed.
 */
final class RecordIntake implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecordIntake.class);

    private final CdcSinkConfig config;
    private final RecordDecoder decoder;
    private final DecodeStage decodeStage;
    /** The schedule only: what is retried here is an outage of what decoding needs, not a SQL error. */
    private final RetryPolicy decodeRetry;
    private final SinkPipeline pipeline;
    private final RecordScreen screen;
    private final ErrantRecords errant;
    private final SinkMetrics metrics;
    /**
     * Records a {@code put()} did not reach because the buffer stayed full past {@code buffer.max.wait.ms}: kept as
     * they arrived, undecoded, and taken in order before the next {@code put()}'s records (the partitions are paused
     * meanwhile, so Connect hands over nothing more for them).
     */
    private final List<SinkRecord> deferred = new ArrayList<>();

    RecordIntake(CdcSinkConfig config, RecordDecoder decoder, DecodeStage decodeStage, SinkPipeline pipeline,
                 RecordScreen screen, ErrantRecords errant, SinkMetrics metrics) {
        this.config = config;
        this.decoder = decoder;
        this.decodeStage = decodeStage;
        this.decodeRetry = RetryPolicy.fromSettings(config.retryMaxAttempts(), config.retryBackoffMs(), e -> false);
        this.pipeline = pipeline;
        this.screen = screen;
        this.errant = errant;
        this.metrics = metrics;
    }

    /**
     * Takes the records (after those an earlier call deferred) into the pipeline.
     *
     * @return whether something waits that only a later call can release (a statement waiting on other tasks, held
     * partitions, deferred records): Connect should call again soon even if every partition is paused
     */
    boolean put(Collection<SinkRecord> records) {
        Set<SourcePartition> active = new HashSet<>();
        if (errant.tolerated()) errant.releaseApplied(pipeline.appliedOffsets());
        List<SinkRecord> all = records instanceof List<SinkRecord> l ? l : List.copyOf(records);
        if (!deferred.isEmpty()) {
            // what the last put() did not reach goes first: every partition keeps its order
            List<SinkRecord> before = new ArrayList<>(deferred.size() + all.size());
            before.addAll(deferred);
            before.addAll(all);
            deferred.clear();
            all = before;
        }
        DecodeStage.Batch batch = decodeStage.decode(all);
        boolean done = false;
        try {
            pipeline.beginBatch();
            SourcePartition p = null;
            for (int i = 0; i < batch.size(); i++) {
                SinkRecord record = batch.record(i);
                // where the record is in Kafka, whatever a transform renamed (KIP-793): Connect commits and pauses
                // by these, and the checkpoint and the order are kept by them
                String topic = Coordinates.topic(record);
                int partitionNumber = Coordinates.partition(record);
                // Connect hands records over partition by partition: one SourcePartition per run of them
                if (p == null || partitionNumber != p.partition() || !topic.equals(p.topic())) {
                    p = new SourcePartition(topic, partitionNumber);
                    active.add(p);
                }
                long offset = Coordinates.offset(record);
                // a partition whose checkpoint is not yet known to be this topic's may be read again from another
                // offset first (docs/ordering.md, "topic recreation")
                if (!pipeline.admit(p, offset, record)) continue;
                DecodeStage.Decoded decoded = batch.get(i);
                List<ChangeEvent> events = decoded.events();
                long bytes = decoded.bytes();
                RuntimeException error = decoded.error();
                if (error instanceof UnavailableException) {
                    // what decoding needs is down: wait it out here, in order, with the retry schedule
                    try {
                        events = decode(record);
                        bytes = decoder.sizeOf(record, events);
                        error = null;
                    } catch (OutageException e) {
                        throw e;
                    } catch (RuntimeException e) {
                        error = e; // back, and the record itself is bad
                    }
                }
                if (error != null) {
                    errant.errant(record, error, "cannot decode the record at %s as " + config.inputFormat());
                    events = List.of();
                    bytes = 0;
                }
                events = screen.screen(record, events, errant);
                errant.retain(p, offset, record, events);
                pipeline.accept(p, offset, events, bytes, RecordScreen.ddlCopies(record, events));
                if (pipeline.waitingForRoom() && i + 1 < batch.size()) {
                    // the buffer stayed full past buffer.max.wait.ms and the partitions are paused: the records not
                    // reached wait as they arrived, not decoded, for a later put()
                    for (SinkRecord r : all.subList(i + 1, all.size())) {
                        SourcePartition rp = new SourcePartition(Coordinates.topic(r), Coordinates.partition(r));
                        // a partition being read again from another offset: what came before the seek goes
                        if (pipeline.dropsRestOfPut(rp)) continue;
                        deferred.add(r);
                        active.add(rp);
                    }
                    break;
                }
            }
            boolean recheck = pipeline.endBatch(active) || !deferred.isEmpty();
            done = true;
            return recheck;
        } catch (ApplyException e) {
            throw new ConnectException(e.getMessage(), e);
        } finally {
            // abandoned (the put() failed), or records deferred: what was decoded ahead is dropped
            if (!done || !deferred.isEmpty()) batch.cancel();
        }
    }

    /** Revoked partitions: the records deferred for them are dropped. */
    void forget(Collection<TopicPartition> partitions) {
        Set<TopicPartition> revoked = new HashSet<>(partitions);
        deferred.removeIf(r -> revoked.contains(new TopicPartition(Coordinates.topic(r), Coordinates.partition(r))));
    }

    /** The stage that decodes each put()'s records ahead of the task thread (for tests). */
    DecodeStage decodeStage() {
        return decodeStage;
    }

    /** Records waiting, undecoded, for a later put() (for tests). */
    int deferredRecords() {
        return deferred.size();
    }

    @Override
    public void close() {
        deferred.clear();
        decodeStage.close();
    }

    /**
     * Decodes a record, waiting out an outage of what decoding needs (schema registry, claim-check store) with the
     * backoff of {@code retry.max.attempts}/{@code retry.backoff.ms}; a malformed record throws at once.
     *
     * @throws OutageException when the outage outlasts the retries: the task fails, nothing reported as errant
     */
    private List<ChangeEvent> decode(SinkRecord record) {
        long start = System.currentTimeMillis();
        for (int attempt = 0; ; attempt++) {
            try {
                return decoder.decode(record);
            } catch (UnavailableException e) {
                String where = ErrantRecords.where(record);
                if (attempt >= decodeRetry.maxRetries()) {
                    throw new OutageException(e.resource() + " is unavailable: the record at " + where
                            + " could not be decoded after " + (attempt + 1) + " attempts over "
                            + (System.currentTimeMillis() - start) / 1000 + " s (" + CdcSinkConfig.RETRY_MAX_ATTEMPTS
                            + ", " + CdcSinkConfig.RETRY_BACKOFF_MS + "); last: " + e.getMessage() + ". The record was"
                            + " not sent to the dead-letter queue and no offset from it on is committed: restarting "
                            + "the task once the " + e.resource() + " is back resumes from there without loss", e);
                }
                long backoff = decodeRetry.backoffMillis(attempt);
                LOG.warn("{} is unavailable while decoding the record at {}; retry {} of {} in {} ms: {}", e.resource(),
                        where, attempt + 1, decodeRetry.maxRetries(), backoff, e.getMessage());
                metrics.retry();
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new OutageException("interrupted while waiting for " + e.resource() + " to decode the "
                            + "record at " + where + "; a restart resumes from it without loss", e);
                }
            }
        }
    }

    /** What decoding needs stayed unavailable through every retry: the task fails; the record is not errant. */
    static final class OutageException extends ConnectException {
        OutageException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
