package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.metrics.MetricsJmx;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.SourcePartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Records a decoder skips on purpose because they carry nothing to apply (a Debezium heartbeat, a tombstone without a
 * key, ...). Skipping is never silent: each one counts in the task's {@code records-skipped-total}, and the first of
 * each reason is logged at WARN with where it came from (later ones at DEBUG). Anything a decoder cannot turn into a
 * change is not skipped: it throws, and the task sends the record to the dead-letter queue or fails naming it.
 */
public final class SkippedRecords {

    private static final Logger LOG = LoggerFactory.getLogger(SkippedRecords.class);

    private final Supplier<SinkMetrics> metrics;
    /** Reasons logged so far, when there are no metrics to keep them (see {@link SinkMetrics#recordSkipped}). */
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    /** @param metrics the task's metrics, asked at each skip (null while there are none) */
    public SkippedRecords(Supplier<SinkMetrics> metrics) {
        this.metrics = metrics;
    }

    /** Logged only: no metrics (tools, tests). */
    public static SkippedRecords logged() {
        return new SkippedRecords(() -> null);
    }

    /** Counted in {@code metrics} (a task's) and logged. */
    public static SkippedRecords counted(SinkMetrics metrics) {
        return new SkippedRecords(() -> metrics);
    }

    /**
     * Counts {@code record} as skipped and logs it the first time for {@code reason}.
     *
     * @param reason why, from a small fixed set of texts (not the record's content)
     */
    void skip(SinkRecord record, String reason) {
        SinkMetrics m = metrics.get();
        boolean first = m != null ? m.recordSkipped(reason) : logged.add(reason);
        if (first) {
            LOG.warn("Skipped the record at {}: {}. Counted in {}; further records skipped for this reason are logged "
                    + "at DEBUG", where(record), reason, SinkMetrics.RECORDS_SKIPPED);
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("Skipped the record at {}: {}", where(record), reason);
        }
    }

    private static String where(SinkRecord record) {
        return new SourcePartition(record.topic(), record.kafkaPartition()).where(record.kafkaOffset());
    }
}
