package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.apply.ApplyException;
import io.cdcconnect.sink.apply.RejectedRows;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.txn.SourcePartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;

/**
 * Where a task's errant records go: Connect's errant-record reporter (the dead-letter queue) when the worker offers
 * one, else a failure of the task naming topic, partition and offset.
 *
 * <p>Rows the target rejects for their data (value too long, out of range, NOT NULL, ...) go to the same reporter with
 * {@code errors.tolerance=all}, while the rest of their transaction is applied ({@link RejectedRows}); to send the
 * original record, each record that carries rows is kept until its offset is applied. Otherwise such a row fails the
 * task naming where it came from.
 */
final class ErrantRecords implements RejectedRows {

    /** Connect's setting (ConnectorConfig.ERRORS_TOLERANCE_CONFIG): none (default) or all. */
    static final String ERRORS_TOLERANCE = "errors.tolerance";

    private final ErrantRecordReporter reporter;
    /** errors.tolerance=all with a reporter: rows the target rejects go to the dead-letter queue. */
    private final boolean rowsTolerated;
    private final SinkMetrics metrics;
    /** Records that carry rows, per partition and offset, until applied: a rejected row's record is reported whole. */
    private final Map<SourcePartition, ConcurrentSkipListMap<Long, SinkRecord>> retained = new ConcurrentHashMap<>();

    /** The reporter of {@code context} (none before Kafka 2.6); Connect passes the connector's errors.* to each task. */
    ErrantRecords(SinkTaskContext context, Map<String, String> props, SinkMetrics metrics) {
        ErrantRecordReporter r;
        try {
            r = context != null ? context.errantRecordReporter() : null;
        } catch (NoSuchMethodError | NoClassDefFoundError e) {
            r = null; // a worker older than Kafka 2.6
        }
        this.reporter = r;
        this.rowsTolerated = r != null && "all".equalsIgnoreCase(props.get(ERRORS_TOLERANCE));
        this.metrics = metrics;
    }

    /** For the task's start line. */
    String describe() {
        return "dead-letter reporting " + (reporter != null ? "available" : "unavailable") + ", rows the target "
                + "rejects " + (rowsTolerated ? "go to the dead-letter queue" : "fail the task");
    }

    @Override
    public boolean tolerated() {
        return rowsTolerated;
    }

    /** A row the target rejected, from an apply worker: its record goes to the errant-record reporter. */
    @Override
    public void report(SourcePartition partition, long offset, String reason, Throwable cause) {
        ConcurrentSkipListMap<Long, SinkRecord> held = retained.get(partition);
        SinkRecord record = held == null ? null : held.get(offset);
        if (record == null) {
            // revoked meanwhile, or not kept: fail rather than lose the row; the new owner or a restart replays it
            throw new ApplyException(reason + "; its record is no longer held, so it cannot be sent to the "
                    + "dead-letter queue", cause);
        }
        send(record, reason, cause);
    }

    /** Keeps the record while the target may still reject something of it: a row, or a DDL statement. */
    void retain(SourcePartition p, long offset, SinkRecord record, List<ChangeEvent> events) {
        if (!rowsTolerated) return;
        for (ChangeEvent e : events) {
            if (e instanceof RowChange || e instanceof DdlChange) {
                retained.computeIfAbsent(p, k -> new ConcurrentSkipListMap<>()).put(offset, record);
                return;
            }
        }
    }

    /** Forgets the records whose rows are applied ({@code applied}: per partition, the last offset applied). */
    void releaseApplied(Map<SourcePartition, Long> applied) {
        if (retained.isEmpty()) return;
        for (Map.Entry<SourcePartition, Long> e : applied.entrySet()) {
            ConcurrentSkipListMap<Long, SinkRecord> held = retained.get(e.getKey());
            if (held != null) held.headMap(e.getValue(), true).clear();
        }
    }

    /** Revoked partitions: their records are no longer this task's to report. */
    void forget(Collection<SourcePartition> partitions) {
        for (SourcePartition p : partitions) retained.remove(p);
    }

    /**
     * A record that cannot be applied for what it holds: reported, or the task fails.
     *
     * @param what the failure, with {@code %s} where the record's position goes
     */
    void errant(SinkRecord record, RuntimeException cause, String what) {
        String message = String.format(what, where(record)) + ": " + cause.getMessage();
        if (reporter == null) throw new ConnectException(message, cause);
        metrics.errantRecord();
        send(record, message, cause);
    }

    /** Hands a record to Connect's errant-record reporter and waits until it is written (the DLQ's producer acked). */
    private void send(SinkRecord record, String message, Throwable cause) {
        String where = where(record);
        try {
            reporter.report(record, new ConnectException(message, cause)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while reporting the errant record at " + where, e);
        } catch (ExecutionException e) {
            throw new ConnectException("cannot report the errant record at " + where + " (" + message + "): "
                    + e.getCause(), e.getCause());
        }
    }

    /** Where a record is in Kafka, under its original coordinates (KIP-793). */
    static String where(SinkRecord record) {
        return new SourcePartition(Coordinates.topic(record), Coordinates.partition(record))
                .where(Coordinates.offset(record));
    }
}
