package io.cdcconnect.codec;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventEncodersTest {

    private static RowChange row(long id) {
        Object[] r = new RandomRows(id).row();
        r[0] = id;
        return RowChange.insert(RandomRows.ALL_TYPES, r, id << 18);
    }

    @Test
    void canalJsonCountsASkippedWatermarkInTheNextMessage() {
        EventEncoder enc = EventEncoders.create("canal-json", Map.of());
        assertEquals(List.of(), enc.encode("t", new Watermark(5)));
        List<EncodedMessage> m = enc.encode("t", row(1));
        assertEquals(1, m.size());
        assertEquals(2, m.get(0).events());
        assertEquals(1, m.get(0).rows());
        EncodedMessage wm = EventEncoders.create("canal-json", Map.of("enable-tidb-extension", "true"))
                .encode("t", new Watermark(5)).get(0);
        assertEquals(EncodedMessage.Kind.WATERMARK, wm.kind());
        List<ChangeEvent> back = EventDecoders.create("canal-json", Map.of()).decode(null, m.get(0).value());
        assertEquals(1L, ((RowChange) back.get(0)).after()[0]);
    }

    @Test
    void openProtocolFlushesTheBatchAheadOfADdl() {
        EventEncoder enc = EventEncoders.create("open-protocol", Map.of("max-batch-size", "10"));
        List<EncodedMessage> out = new ArrayList<>();
        for (int i = 1; i <= 3; i++) out.addAll(enc.encode("t", row(i)));
        assertEquals(0, out.size());
        out.addAll(enc.encode("t", new DdlChange("prop_db", "all_types", "ALTER TABLE all_types ADD x INT",
                DdlChange.Kind.ALTER, 4L << 18)));
        assertEquals(List.of(EncodedMessage.Kind.ROW, EncodedMessage.Kind.DDL), out.stream().map(EncodedMessage::kind).toList());
        assertEquals(3, out.get(0).events());
        EventDecoder dec = EventDecoders.create("open-protocol", Map.of());
        assertEquals(3, dec.decode(out.get(0).key(), out.get(0).value()).size());
        assertTrue(dec.decode(out.get(1).key(), out.get(1).value()).get(0) instanceof DdlChange);
    }

    @Test
    void badFormatOrOptionIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EventEncoders.create("protobuf", Map.of()));
        assertTrue(e.getMessage().contains("protobuf"));
        IllegalArgumentException o = assertThrows(IllegalArgumentException.class,
                () -> EventEncoders.create("open-protocol", Map.of("max-batch-size", "many")));
        assertTrue(o.getMessage().contains("max-batch-size"));
        IllegalArgumentException c = assertThrows(IllegalArgumentException.class,
                () -> EventEncoders.create("canal-json", Map.of("large-message-handle-compression", "zstd")));
        assertTrue(c.getMessage().contains("zstd"));
    }
}
