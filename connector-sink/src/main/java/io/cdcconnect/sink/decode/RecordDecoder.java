package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.model.ChangeEvent;
import org.apache.kafka.connect.sink.SinkRecord;

import java.util.List;

/**
 * Turns one Kafka record into the change events it carries (none for a tombstone or a record to skip).
 * Throws a RuntimeException whose message says what is wrong with the record; the task adds where it came from.
 */
public interface RecordDecoder {

    List<ChangeEvent> decode(SinkRecord record);

    /** Bytes the record occupies as received. */
    default long sizeOf(SinkRecord record) {
        return RecordSizes.estimate(record.key()) + RecordSizes.estimate(record.value());
    }

    /**
     * Bytes the record holds in the sink once decoded, for the buffer bound: the larger of its size as received and
     * an estimate of the events it decoded to, so that a compressed value or a claim-check pointer counts what it
     * became, not the few bytes that arrived.
     */
    default long sizeOf(SinkRecord record, List<ChangeEvent> events) {
        return Math.max(sizeOf(record), RecordSizes.estimate(events));
    }
}
