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

    /** Bytes the record occupies, for the buffer bound. */
    default long sizeOf(SinkRecord record) {
        return RecordSizes.estimate(record.key()) + RecordSizes.estimate(record.value());
    }
}
