package io.cdcconnect.sink.testutil;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.EventEncoders;
import io.cdcconnect.codec.KafkaHeaders;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The records one partition of {@link TaskDriver#TOPIC} holds for {@code events}, encoded as a producer would. */
public final class PartitionRecords {
    private PartitionRecords() {
    }

    /** Records at offsets 0, 1, … of {@code partition}, each event encoded in {@code format} with {@code options}. */
    public static List<SinkRecord> of(String format, Map<String, String> options, int partition,
                                      List<ChangeEvent> events) {
        return of(format, options, partition, events, 0);
    }

    /**
     * As {@link #of(String, Map, int, List)}; with {@code ddlCopies} of 1 or more every DDL record says, as cdc-connect's
     * source does, to how many partitions its statement went ({@link KafkaHeaders#DDL_PARTITIONS}).
     */
    public static List<SinkRecord> of(String format, Map<String, String> options, int partition,
                                      List<ChangeEvent> events, int ddlCopies) {
        EventEncoder encoder = EventEncoders.create(format, options);
        List<SinkRecord> out = new ArrayList<>();
        long offset = 0;
        for (ChangeEvent e : events) {
            List<EncodedMessage> messages = new ArrayList<>(encoder.encode(TaskDriver.TOPIC, e));
            for (EncodedMessage m : messages) {
                ConnectHeaders headers = new ConnectHeaders();
                if (e instanceof DdlChange && ddlCopies >= 1) {
                    headers.addString(KafkaHeaders.DDL_PARTITIONS, Integer.toString(ddlCopies));
                }
                out.add(new SinkRecord(TaskDriver.TOPIC, partition, null, m.key(), null, m.value(), offset++, null,
                        TimestampType.NO_TIMESTAMP_TYPE, headers));
            }
        }
        for (EncodedMessage m : encoder.flush()) {
            out.add(new SinkRecord(TaskDriver.TOPIC, partition, null, m.key(), null, m.value(), offset++));
        }
        return out;
    }
}
