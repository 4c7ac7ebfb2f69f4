package io.cdcconnect.codec.open;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.testsupport.TicdcVectors;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TiCDC's binary Open-protocol batches (test-support's resources, ticdc-vectors/open-protocol). */
class OpenProtocolVectorsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String[] PAIRS = {"row_0", "row_1", "row_2", "ddl_0", "ddl_1", "ddl_2", "rts_0", "rts_1", "rts_2"};

    private static byte[] key(String pair) {
        String[] p = pair.split("_");
        return TicdcVectors.read("open-protocol/key/" + p[0] + "_key_" + p[1]);
    }

    private static byte[] value(String pair) {
        String[] p = pair.split("_");
        return TicdcVectors.read("open-protocol/value/" + p[0] + "_value_" + p[1]);
    }

    private static byte[] frameKey(List<byte[]> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(8).putLong(1).array());
        for (byte[] e : entries) {
            out.writeBytes(ByteBuffer.allocate(8).putLong(e.length).array());
            out.writeBytes(e);
        }
        return out.toByteArray();
    }

    private static byte[] frameValue(List<byte[]> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] e : entries) {
            out.writeBytes(ByteBuffer.allocate(8).putLong(e.length).array());
            out.writeBytes(e);
        }
        return out.toByteArray();
    }

    @Test
    void framingSplitsAndReassemblesByteForByte() {
        for (String pair : PAIRS) {
            List<OpenProtocolDecoder.Entry> entries = new OpenProtocolDecoder().entries(key(pair), value(pair));
            List<byte[]> keys = new ArrayList<>();
            List<byte[]> values = new ArrayList<>();
            for (OpenProtocolDecoder.Entry e : entries) {
                keys.add(e.keyJson());
                values.add(e.valueJson());
                assertArrayEquals(e.keyJson(), e.key().toJson(), pair + ": key JSON rewritten");
            }
            assertArrayEquals(key(pair), frameKey(keys), pair);
            assertArrayEquals(value(pair), frameValue(values), pair);
        }
    }

    @Test
    void eventsAreTheOnesDescribed() {
        OpenProtocolDecoder d = new OpenProtocolDecoder();
        List<ChangeEvent> rows = d.decode(key("row_1"), value("row_1"));
        assertEquals(4, rows.size());
        String[] values = {"aa", "bb", "bb", "cc"};
        for (int i = 0; i < 4; i++) {
            RowChange r = assertInstanceOf(RowChange.class, rows.get(i));
            assertEquals(i + 1, r.commitTs());
            assertEquals(RowChange.Op.INSERT, r.op());
            assertEquals(i < 3 ? "a.b" : "a.c", r.table().toString());
            assertEquals("col1", r.table().column(0).name());
            assertEquals(1, r.table().column(0).type().code());
            assertEquals(0, r.table().column(0).flags(), "no f in these old vectors: flags 0");
            assertEquals(values[i], r.after()[0]);
        }
        assertEquals(6L, d.entries(key("row_1"), value("row_1")).get(3).key().partition());
        assertEquals(1, d.decode(key("row_0"), value("row_0")).size());
        assertEquals(0, d.decode(key("row_2"), value("row_2")).size());

        List<ChangeEvent> ddls = d.decode(key("ddl_1"), value("ddl_1"));
        assertEquals(3, ddls.size());
        for (int i = 0; i < 3; i++) {
            DdlChange ddl = assertInstanceOf(DdlChange.class, ddls.get(i));
            assertEquals(i + 1, ddl.commitTs());
            assertEquals("create table " + (char) ('a' + i), ddl.query());
            assertEquals("a", ddl.schema());
            assertEquals("b", ddl.table());
        }
        // TiDB action types 1 (create schema), 2 (drop schema): QUERY in Canal terms; 3 (create table): CREATE
        assertEquals(DdlChange.Kind.QUERY, ((DdlChange) ddls.get(0)).kind());
        assertEquals(DdlChange.Kind.CREATE, ((DdlChange) ddls.get(2)).kind());
        assertEquals(List.of(new Watermark(1), new Watermark(2), new Watermark(3)), d.decode(key("rts_1"), value("rts_1")));
        assertEquals(List.of(), d.decode(key("ddl_2"), value("ddl_2")));
    }

    /** Single-event messages come out byte for byte; batched rows too, apart from what these older files lack. */
    @Test
    void reEncodingGivesTheSameBytes() throws Exception {
        OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.defaults());
        OpenProtocolDecoder dec = new OpenProtocolDecoder();

        List<OpenProtocolDecoder.Entry> ddl0 = dec.entries(key("ddl_0"), value("ddl_0"));
        DdlChange ddl = (DdlChange) dec.decode(key("ddl_0"), value("ddl_0")).get(0);
        EncodedMessage m = enc.encode(ddl, OpenProtocolDecoder.readDdl(ddl0.get(0).valueJson()).actionType());
        assertArrayEquals(key("ddl_0"), m.key());
        assertArrayEquals(value("ddl_0"), m.value());

        // ddl_1 holds three DDLs in one message; TiCDC's encoder (and ours) sends each alone: compare entry by entry
        List<OpenProtocolDecoder.Entry> ddl1 = dec.entries(key("ddl_1"), value("ddl_1"));
        List<ChangeEvent> ddls = dec.decode(key("ddl_1"), value("ddl_1"));
        for (int i = 0; i < 3; i++) {
            EncodedMessage one = enc.encode((DdlChange) ddls.get(i),
                    OpenProtocolDecoder.readDdl(ddl1.get(i).valueJson()).actionType());
            assertArrayEquals(frameKey(List.of(ddl1.get(i).keyJson())), one.key());
            assertArrayEquals(frameValue(List.of(ddl1.get(i).valueJson())), one.value());
        }

        EncodedMessage rts = enc.encode(new Watermark(1));
        assertArrayEquals(key("rts_0"), rts.key());
        assertArrayEquals(value("rts_0"), rts.value());

        // rows: the decoded rows batched again give the same framing and keys; values mean the same
        // (these files predate the "f" field, which TiCDC now always writes and we write too).
        List<ChangeEvent> rows = dec.decode(key("row_1"), value("row_1"));
        List<EncodedMessage> out = new ArrayList<>();
        for (ChangeEvent e : rows.subList(0, 3)) out.addAll(enc.append((RowChange) e));
        out.addAll(enc.flush());
        assertEquals(1, out.size());
        assertEquals(3, out.get(0).rows());
        List<OpenProtocolDecoder.Entry> original = dec.entries(key("row_1"), value("row_1"));
        List<OpenProtocolDecoder.Entry> again = dec.entries(out.get(0).key(), out.get(0).value());
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            keys.add(original.get(i).keyJson());
            assertArrayEquals(original.get(i).keyJson(), again.get(i).keyJson());
            assertEquals(withoutZeroFlags(MAPPER.readTree(original.get(i).valueJson())),
                    withoutZeroFlags(MAPPER.readTree(again.get(i).valueJson())));
        }
        assertArrayEquals(frameKey(keys), out.get(0).key());
        List<ChangeEvent> row0 = dec.decode(key("row_0"), value("row_0"));
        EncodedMessage r0 = enc.append((RowChange) row0.get(0)).isEmpty() ? enc.flush().get(0) : null;
        assertArrayEquals(key("row_0"), r0.key());
        assertTrue(new String(r0.value(), java.nio.charset.StandardCharsets.UTF_8)
                .endsWith("{\"u\":{\"col1\":{\"t\":1,\"f\":0,\"v\":\"aa\"}}}"));
    }

    private static JsonNode withoutZeroFlags(JsonNode n) {
        JsonNode copy = n.deepCopy();
        for (Iterator<JsonNode> maps = copy.elements(); maps.hasNext(); ) {
            for (Iterator<Map.Entry<String, JsonNode>> cols = maps.next().fields(); cols.hasNext(); ) {
                ObjectNode col = (ObjectNode) cols.next().getValue();
                if (col.has("f") && col.get("f").asInt() == 0) col.remove("f");
            }
        }
        return copy;
    }
}
