package io.cdcconnect.source.emit;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;

import java.util.ArrayList;
import java.util.List;

/** Canal-JSON: one event per message, no key. */
public final class CanalJsonMessageEncoder implements MessageEncoder {
    private final CanalJsonEncoder encoder;
    private final boolean tidbExtension;

    public CanalJsonMessageEncoder(CanalJsonOptions options) {
        this.encoder = new CanalJsonEncoder(options);
        this.tidbExtension = options.enableTidbExtension();
    }

    @Override
    public List<Message> encode(List<Outgoing> events) {
        List<Message> out = new ArrayList<>(events.size());
        for (Outgoing e : events) {
            out.add(new Message(e.topic(), e.partition(), null, encoder.encode(e.event()), e));
        }
        return out;
    }

    @Override
    public boolean carriesWatermarks() {
        // Canal-JSON has no watermark message of its own; TiCDC adds one only with its TiDB extension.
        return tidbExtension;
    }

    @Override
    public boolean ddlOnEveryPartition() {
        return false;
    }

    @Override
    public boolean carriesDdl() {
        return true;
    }
}
