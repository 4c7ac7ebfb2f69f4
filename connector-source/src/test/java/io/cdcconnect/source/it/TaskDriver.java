package io.cdcconnect.source.it;

import io.cdcconnect.codec.canal.CanalJsonDecoder;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.open.OpenProtocolDecoder;
import io.cdcconnect.source.CdcSourceTask;
import io.cdcconnect.testsupport.connect.InMemorySourceTaskContext;
import io.cdcconnect.testsupport.connect.SourceTaskDriver;
import org.apache.kafka.connect.source.SourceRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** test-support's {@link SourceTaskDriver} on a {@link CdcSourceTask}, with the records read back by the codec. */
final class TaskDriver extends SourceTaskDriver<CdcSourceTask> {
    private final CanalJsonDecoder decoder = new CanalJsonDecoder();

    TaskDriver(InMemorySourceTaskContext context) {
        super(new CdcSourceTask(), context);
    }

    @Override
    public TaskDriver start() {
        super.start();
        return this;
    }

    /** Every event in the records' values, decoded with the codec's Canal-JSON decoder, with its topic. */
    List<Decoded> decoded() {
        List<Decoded> out = new ArrayList<>();
        for (SourceRecord r : records()) {
            if (r.topic().startsWith("__debezium-heartbeat")) continue;
            for (ChangeEvent e : decoder.decode((byte[]) r.value())) {
                out.add(new Decoded(r.topic(), r.kafkaPartition(), e, r.sourceOffset()));
            }
        }
        return out;
    }

    /** Every event of Open-protocol records (key and value), with topic and partition. */
    List<Decoded> decodedOpen() {
        OpenProtocolDecoder open = new OpenProtocolDecoder();
        List<Decoded> out = new ArrayList<>();
        for (SourceRecord r : records()) {
            if (r.topic().startsWith("__debezium-heartbeat")) continue;
            for (ChangeEvent e : open.decode((byte[]) r.key(), (byte[]) r.value())) {
                out.add(new Decoded(r.topic(), r.kafkaPartition(), e, r.sourceOffset()));
            }
        }
        return out;
    }

    record Decoded(String topic, Integer partition, ChangeEvent event, Map<String, ?> offset) {
    }
}
