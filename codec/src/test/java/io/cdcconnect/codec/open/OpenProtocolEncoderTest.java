package io.cdcconnect.codec.open;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.LargeMessageHandle;
import io.cdcconnect.codec.MessageSize;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenProtocolEncoderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TableInfo T = TableInfo.of("db", "t", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("payload", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));

    private static RowChange insert(long id, String payload) {
        return RowChange.insert(T, new Object[] {id, payload}, id << 18);
    }

    private static JsonNode value(EncodedMessage m, int entry) throws Exception {
        return MAPPER.readTree(new OpenProtocolDecoder().entries(m.key(), m.value()).get(entry).valueJson());
    }

    @Test
    void closesABatchAtMaxBatchSize() {
        OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.builder().maxBatchSize(3).build());
        List<EncodedMessage> out = new ArrayList<>();
        for (int i = 1; i <= 7; i++) out.addAll(enc.append(insert(i, "x")));
        assertEquals(List.of(3, 3), out.stream().map(EncodedMessage::rows).toList());
        assertEquals(1, enc.pendingRows());
        out.addAll(enc.flush());
        assertEquals(List.of(3, 3, 1), out.stream().map(EncodedMessage::rows).toList());
        assertEquals(List.of(), enc.flush());
        assertEquals(7L << 18, out.get(2).commitTs());
        assertEquals(3, new OpenProtocolDecoder().decode(out.get(0).key(), out.get(0).value()).size());
    }

    @Test
    void closesABatchBeforeItWouldExceedMaxMessageBytes() {
        int max = 1000;
        OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.builder().maxMessageBytes(max).build());
        List<EncodedMessage> out = new ArrayList<>();
        for (int i = 1; i <= 20; i++) out.addAll(enc.append(insert(i, "y".repeat(100))));
        out.addAll(enc.flush());
        int rows = 0;
        for (EncodedMessage m : out) {
            assertTrue(m.length() <= max, "message of " + m.length() + " bytes");
            rows += m.rows();
        }
        assertEquals(20, rows);
        assertTrue(out.size() > 3, "several messages: " + out.size());
        // each but the last is full: the next row would not have fit
        assertTrue(out.get(0).length() + 100 + 60 > max);
    }

    @Test
    void oversizeRowFailsOrShrinksToHandleKey() throws Exception {
        RowChange big = insert(5, "z".repeat(2000));
        OpenProtocolOptions small = OpenProtocolOptions.builder().maxMessageBytes(500).build();
        CodecException e = assertThrows(CodecException.class, () -> new OpenProtocolEncoder(small).append(big));
        assertTrue(e.getMessage().contains("db.t") && e.getMessage().contains("max-message-bytes 500"), e.getMessage());

        OpenProtocolEncoder enc = new OpenProtocolEncoder(small.toBuilder()
                .largeMessageHandle(LargeMessageHandle.HANDLE_KEY_ONLY).build());
        enc.append(big);
        EncodedMessage m = enc.flush().get(0);
        OpenProtocolDecoder.Entry entry = new OpenProtocolDecoder().entries(m.key(), m.value()).get(0);
        assertTrue(entry.key().onlyHandleKey());
        assertTrue(new String(entry.keyJson(), StandardCharsets.UTF_8).endsWith(",\"t\":1,\"ohk\":true}"));
        assertEquals("{\"u\":{\"id\":{\"t\":3,\"h\":true,\"f\":10,\"v\":5}}}",
                new String(entry.valueJson(), StandardCharsets.UTF_8));
        CodecException d = assertThrows(CodecException.class, () -> new OpenProtocolDecoder().decode(m.key(), m.value()));
        assertTrue(d.getMessage().contains("handle-key"), d.getMessage());
    }

    @Test
    void valuesAreWrittenAsTiCdcWritesThem() throws Exception {
        TableInfo t = TableInfo.of("db", "v", List.of(
                ColumnInfo.of("bin", MySqlType.VARCHAR, ColumnFlags.BINARY),
                ColumnInfo.of("blob", MySqlType.BLOB, ColumnFlags.BINARY),
                ColumnInfo.of("text", MySqlType.BLOB, 0),
                ColumnInfo.of("big_u", MySqlType.LONGLONG, ColumnFlags.UNSIGNED),
                ColumnInfo.of("f", MySqlType.FLOAT, 0),
                ColumnInfo.of("d", MySqlType.DOUBLE, 0),
                ColumnInfo.of("d2", MySqlType.DOUBLE, 0),
                ColumnInfo.of("dec", MySqlType.NEWDECIMAL, 0),
                ColumnInfo.of("e", MySqlType.ENUM, 0),
                ColumnInfo.of("Z", MySqlType.VARCHAR, 0)));
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, '"', '\\', (byte) 0xc3, (byte) 0xa9};
        OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.defaults());
        enc.append(RowChange.insert(t, new Object[] {png, new byte[] {0, 1, 2, (byte) 255}, "héllo", -1L, 1.5e-7f,
                1e21, 123.25, new BigDecimal("-0.010"), 2L, "<&>"}, 1));
        EncodedMessage m = enc.flush().get(0);
        String json = new String(new OpenProtocolDecoder().entries(m.key(), m.value()).get(0).valueJson(),
                StandardCharsets.UTF_8);
        assertEquals("{\"u\":{"
                + "\"Z\":{\"t\":15,\"f\":0,\"v\":\"\\u003c\\u0026\\u003e\"},"
                + "\"big_u\":{\"t\":8,\"f\":128,\"v\":18446744073709551615},"
                + "\"bin\":{\"t\":15,\"f\":1,\"v\":\"\\\\x89PNG\\\\r\\\\n\\\\x1a\\\\n\\\\x00\\\\\\\"\\\\\\\\é\"},"
                + "\"blob\":{\"t\":252,\"f\":1,\"v\":\"AAEC/w==\"},"
                + "\"d\":{\"t\":5,\"f\":0,\"v\":1e+21},"
                + "\"d2\":{\"t\":5,\"f\":0,\"v\":123.25},"
                + "\"dec\":{\"t\":246,\"f\":0,\"v\":\"-0.010\"},"
                + "\"e\":{\"t\":247,\"f\":0,\"v\":2},"
                + "\"f\":{\"t\":4,\"f\":0,\"v\":1.5e-7},"
                + "\"text\":{\"t\":252,\"f\":0,\"v\":\"aMOpbGxv\"}}}", json);
        RowChange back = (RowChange) new OpenProtocolDecoder().decode(m.key(), m.value()).get(0);
        assertArrayEquals(png, (byte[]) back.after()[back.table().indexOf("bin")]);
        assertEquals("héllo", back.after()[back.table().indexOf("text")]);
        assertEquals(-1L, back.after()[back.table().indexOf("big_u")]);
    }

    @Test
    void updateCarriesOldValuesAndDeleteUsesD() throws Exception {
        OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.builder().onlyOutputUpdatedColumns(true).build());
        enc.append(RowChange.update(T, new Object[] {1L, "a"}, new Object[] {1L, "b"}, 9));
        enc.append(RowChange.delete(T, new Object[] {2L, null}, 10));
        EncodedMessage m = enc.flush().get(0);
        assertEquals("{\"u\":{\"id\":{\"t\":3,\"h\":true,\"f\":10,\"v\":1},\"payload\":{\"t\":15,\"f\":64,\"v\":\"b\"}},"
                + "\"p\":{\"payload\":{\"t\":15,\"f\":64,\"v\":\"a\"}}}", value(m, 0).toString());
        assertEquals("{\"d\":{\"id\":{\"t\":3,\"h\":true,\"f\":10,\"v\":2},\"payload\":{\"t\":15,\"f\":64,\"v\":null}}}",
                value(m, 1).toString());
        List<?> events = new OpenProtocolDecoder().decode(m.key(), m.value());
        RowChange upd = (RowChange) events.get(0);
        assertArrayEquals(new Object[] {1L, "a"}, upd.before());
        assertEquals(RowChange.Op.DELETE, ((RowChange) events.get(1)).op());
    }

    @Test
    void ddlActionTypeComesFromTheStatement() throws Exception {
        OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.defaults());
        EncodedMessage m = enc.encode(new DdlChange("db", "t", "ALTER TABLE t ADD COLUMN c INT", DdlChange.Kind.ALTER, 7));
        assertEquals(EncodedMessage.Kind.DDL, m.kind());
        OpenProtocolDecoder.Entry e = new OpenProtocolDecoder().entries(m.key(), m.value()).get(0);
        assertEquals("{\"q\":\"ALTER TABLE t ADD COLUMN c INT\",\"t\":5}", new String(e.valueJson(), StandardCharsets.UTF_8));
        assertEquals(DdlActionType.CREATE_TABLE, DdlActionType.of(new DdlChange("d", "t", "create table t (a int)",
                DdlChange.Kind.CREATE, 1)));
        assertEquals(DdlActionType.TRUNCATE_TABLE, DdlActionType.of(new DdlChange("d", "t", "TRUNCATE TABLE t",
                DdlChange.Kind.TRUNCATE, 1)));
        assertEquals(m.length(), MessageSize.length(m.key(), m.value()));
    }

    @Test
    void goQuoteRoundTripsEveryByte() {
        byte[] all = new byte[256 * 3];
        for (int i = 0; i < all.length; i++) all[i] = (byte) (i * 7);
        assertArrayEquals(all, GoQuote.unquote(GoQuote.quote(all)));
        assertEquals("\\x89PNG\\r\\n\\x1a\\n", GoQuote.quote(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}));
        assertEquals("\\u00ad€😀\\a\\v\\x7f", GoQuote.quote("\u00ad€😀\u0007\u000b\u007f".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals(new byte[] {'A', (byte) 0xFF}, GoQuote.unquote("\\101\\377"));
    }
}
