package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.Compression;
import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.CdcSinkConfig;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A compressed value is held in the sink as what it decompresses to: bounded by input.max.decoded.bytes before it is
 * decompressed, and counted against buffer.max.bytes by its decoded size, not by the bytes that arrived.
 */
class DecodedSizeTest {

    private static final TableInfo TABLE = TableInfo.of("shop", "notes", List.of(
            ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("body", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));

    /** A Canal-JSON row with a 200,000-character text, lz4-compressed as TiCDC compresses it: about 1 KB. */
    private static SinkRecord compressedRow() {
        byte[] json = new CanalJsonEncoder(CanalJsonOptions.defaults())
                .encode(RowChange.insert(TABLE, new Object[]{1L, "x".repeat(200_000)}, 1000L << 18));
        return new SinkRecord("shop.notes", 0, null, null, null, Compression.LZ4.compress(json), 7);
    }

    private static RecordDecoder decoder(String limit) {
        Map<String, String> p = new java.util.HashMap<>(Map.of("connection.user", "u", "connection.url",
                "jdbc:mysql://db/", "input.codec.options", "large-message-handle-compression=lz4", "schema.include",
                "shop"));
        if (limit != null) p.put("input.max.decoded.bytes", limit);
        return RecordDecoders.forConfig(new CdcSinkConfig(p));
    }

    @Test
    void aValueBeyondTheLimitIsRefusedNamingIt() {
        SinkRecord r = compressedRow();
        CodecException e = assertThrows(CodecException.class, () -> decoder("65536").decode(r));
        assertTrue(e.getMessage().contains("limit of 65536 bytes") && e.getMessage().contains("input.max.decoded.bytes"),
                e.getMessage());
    }

    @Test
    void whatARecordDecodesToCountsAgainstTheBuffer() {
        SinkRecord r = compressedRow();
        RecordDecoder d = decoder(null);
        List<ChangeEvent> events = d.decode(r);
        assertEquals(1, events.size());
        long received = d.sizeOf(r);
        long held = d.sizeOf(r, events);
        assertTrue(received < 5_000, "arrived compressed: " + received);
        assertTrue(held >= 200_000, "counted as decoded: " + held);
        assertEquals(received, d.sizeOf(r, List.of()), "a record that decodes to nothing counts what arrived");
    }
}
