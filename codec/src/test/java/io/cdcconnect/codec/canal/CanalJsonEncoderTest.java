package io.cdcconnect.codec.canal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.LargeMessageHandle;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CanalJsonEncoderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long TS = (1591943372224L << 18) | 4;

    private static String encode(CanalJsonOptions o, RowChange r) {
        return new String(new CanalJsonEncoder(o, () -> 42L).encode(r), StandardCharsets.UTF_8);
    }

    private static TableInfo table(ColumnInfo... cols) {
        return TableInfo.of("db", "t", List.of(cols));
    }

    @Test
    void insertHasTiCdcFieldOrderAndExactText() {
        TableInfo t = table(ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("name", MySqlType.VARCHAR, ColumnFlags.NULLABLE));
        String json = encode(CanalJsonOptions.defaults(), RowChange.insert(t, new Object[] {1L, null}, TS));
        assertEquals("{\"id\":0,\"database\":\"db\",\"table\":\"t\",\"pkNames\":[\"id\"],\"isDdl\":false,"
                + "\"type\":\"INSERT\",\"es\":1591943372224,\"ts\":42,\"sql\":\"\",\"sqlType\":{\"id\":4,\"name\":12},"
                + "\"mysqlType\":{\"id\":\"int\",\"name\":\"varchar\"},\"old\":null,\"data\":[{\"id\":\"1\",\"name\":null}]}",
                json);
    }

    @Test
    void binaryBytesBecomeOneCharacterEachWithGoEscaping() throws Exception {
        TableInfo t = table(ColumnInfo.of("b", MySqlType.VARCHAR, ColumnFlags.BINARY));
        byte[] bytes = {0x05, 0x07, 0x0a, 0x0f, 0x24, 0x32, 0x2b, 0x63, 0x78, 0x3c, 0x26, (byte) 0xff, (byte) 0xfe,
                0x2d, 0x37, 0x46};
        String json = encode(CanalJsonOptions.defaults(), RowChange.insert(t, new Object[] {bytes}, TS));
        assertTrue(json.contains("\"data\":[{\"b\":\"\\u0005\\u0007\\n\\u000f$2+cx\\u003c\\u0026ÿþ-7F\"}]"), json);
        assertTrue(json.contains("\"mysqlType\":{\"b\":\"varbinary\"}"), json);
        assertTrue(json.contains("\"sqlType\":{\"b\":2004}"), json);
    }

    @Test
    void everyByteValueSurvivesARoundTrip() {
        TableInfo t = table(ColumnInfo.of("b", MySqlType.BLOB, ColumnFlags.BINARY));
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) all[i] = (byte) i;
        byte[] msg = new CanalJsonEncoder(CanalJsonOptions.defaults()).encode(RowChange.insert(t, new Object[] {all}, TS));
        RowChange back = (RowChange) new CanalJsonDecoder().decode(msg).get(0);
        assertArrayEquals(all, (byte[]) back.after()[0]);
        assertTrue(back.table().column(0).binary());
    }

    @Test
    void controlAndHtmlCharactersAreEscapedLikeGo() {
        TableInfo t = table(ColumnInfo.of("s", MySqlType.VARCHAR, 0));
        String json = encode(CanalJsonOptions.defaults(),
                RowChange.insert(t, new Object[] {"a\"\\\b\f\t\r\n<>&\u2028é😀"}, TS));
        assertTrue(json.contains("\"s\":\"a\\\"\\\\\\u0008\\u000c\\t\\r\\n\\u003c\\u003e\\u0026\\u2028é😀\""), json);
    }

    @Test
    void unsignedValuesAreExactAndPromoteTheirSqlType() throws Exception {
        TableInfo t = table(
                ColumnInfo.of("ti", MySqlType.TINY, ColumnFlags.UNSIGNED),
                ColumnInfo.of("si", MySqlType.SHORT, ColumnFlags.UNSIGNED),
                ColumnInfo.of("i", MySqlType.LONG, ColumnFlags.UNSIGNED),
                ColumnInfo.of("bi", MySqlType.LONGLONG, ColumnFlags.UNSIGNED),
                ColumnInfo.of("bi2", MySqlType.LONGLONG, ColumnFlags.UNSIGNED),
                ColumnInfo.of("mi", MySqlType.INT24, ColumnFlags.UNSIGNED),
                ColumnInfo.of("bit", MySqlType.BIT, ColumnFlags.UNSIGNED | ColumnFlags.BINARY));
        String json = encode(CanalJsonOptions.defaults(), RowChange.insert(t,
                new Object[] {255L, 65535L, 4294967295L, -1L, 5L, 16777215L, -1L}, TS));
        JsonNode n = MAPPER.readTree(json);
        assertEquals("{\"ti\":5,\"si\":4,\"i\":-5,\"bi\":3,\"bi2\":-5,\"mi\":4,\"bit\":-7}", n.get("sqlType").toString());
        assertEquals("18446744073709551615", n.get("data").get(0).get("bi").asText());
        assertEquals("18446744073709551615", n.get("data").get(0).get("bit").asText());
        assertEquals("bigint unsigned", n.get("mysqlType").get("bi").asText());
        assertEquals("bit", n.get("mysqlType").get("bit").asText());
    }

    @Test
    void floatsUseShortestPlainForm() throws Exception {
        TableInfo t = table(ColumnInfo.of("f", MySqlType.FLOAT, 0), ColumnInfo.of("d", MySqlType.DOUBLE, 0),
                ColumnInfo.of("d2", MySqlType.DOUBLE, 0), ColumnInfo.of("d3", MySqlType.DOUBLE, 0),
                ColumnInfo.of("dec", MySqlType.NEWDECIMAL, 0));
        String json = encode(CanalJsonOptions.defaults(), RowChange.insert(t,
                new Object[] {3.14f, 1e-7, 2e23, 100.0, new BigDecimal("12345678901234567890123456789012345.123456789012345678901234567890")}, TS));
        JsonNode d = MAPPER.readTree(json).get("data").get(0);
        assertEquals("3.14", d.get("f").asText());
        assertEquals("0.0000001", d.get("d").asText());
        assertEquals("200000000000000000000000", d.get("d2").asText());
        assertEquals("100", d.get("d3").asText());
        assertEquals("12345678901234567890123456789012345.123456789012345678901234567890", d.get("dec").asText());
    }

    @Test
    void updateWritesOldBeforeDataAndExtensionCommitTs() throws Exception {
        TableInfo t = table(ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, 0));
        String json = encode(CanalJsonOptions.builder().enableTidbExtension(true).build(),
                RowChange.update(t, new Object[] {1L, "a"}, new Object[] {1L, "b"}, TS));
        assertTrue(json.indexOf("\"old\"") < json.indexOf("\"data\""));
        JsonNode n = MAPPER.readTree(json);
        assertEquals("UPDATE", n.get("type").asText());
        assertEquals("a", n.get("old").get(0).get("v").asText());
        assertEquals("b", n.get("data").get(0).get("v").asText());
        assertTrue(json.endsWith(",\"_tidb\":{\"commitTs\":" + TS + "}}"), json);
    }

    @Test
    void onlyUpdatedColumnsLeavesUnchangedOnesOutOfOld() throws Exception {
        TableInfo t = table(ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("v", MySqlType.VARCHAR, 0));
        String json = encode(CanalJsonOptions.builder().onlyOutputUpdatedColumns(true).build(),
                RowChange.update(t, new Object[] {1L, "a"}, new Object[] {1L, "b"}, TS));
        assertEquals("[{\"v\":\"a\"}]", MAPPER.readTree(json).get("old").toString());
        RowChange back = (RowChange) new CanalJsonDecoder().decode(json.getBytes(StandardCharsets.UTF_8)).get(0);
        assertArrayEquals(new Object[] {1L, "a"}, back.before());
    }

    @Test
    void ddlAndWatermarkMessages() throws Exception {
        CanalJsonEncoder e = new CanalJsonEncoder(CanalJsonOptions.builder().enableTidbExtension(true).build(), () -> 7L);
        String ddl = new String(e.encode(new DdlChange("cdc", "person", "create table person(id int)",
                DdlChange.Kind.CREATE, 417318403368288260L)), StandardCharsets.UTF_8);
        assertEquals("{\"id\":0,\"database\":\"cdc\",\"table\":\"person\",\"pkNames\":null,\"isDdl\":true,"
                + "\"type\":\"CREATE\",\"es\":1591943372224,\"ts\":7,\"sql\":\"create table person(id int)\","
                + "\"sqlType\":null,\"mysqlType\":null,\"data\":null,\"old\":null,"
                + "\"_tidb\":{\"commitTs\":417318403368288260}}", ddl);
        String wm = new String(e.encode(new Watermark(1024)), StandardCharsets.UTF_8);
        assertEquals("{\"id\":0,\"database\":\"\",\"table\":\"\",\"pkNames\":null,\"isDdl\":false,"
                + "\"type\":\"TIDB_WATERMARK\",\"es\":0,\"ts\":7,\"sql\":\"\",\"sqlType\":null,\"mysqlType\":null,"
                + "\"data\":null,\"old\":null,\"_tidb\":{\"watermarkTs\":1024}}", wm);
        assertNull(new CanalJsonEncoder(CanalJsonOptions.defaults()).encode(new Watermark(1024)));
    }

    @Test
    void oversizeRowFailsNamingTableOrShrinksToHandleKey() throws Exception {
        TableInfo t = table(ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("big", MySqlType.BLOB, 0));
        RowChange r = RowChange.insert(t, new Object[] {9L, "x".repeat(5000)}, TS);
        CanalJsonOptions small = CanalJsonOptions.builder().maxMessageBytes(1000).enableTidbExtension(true).build();
        CodecException ex = assertThrows(CodecException.class, () -> new CanalJsonEncoder(small).encode(r));
        assertTrue(ex.getMessage().contains("db.t") && ex.getMessage().contains("max-message-bytes 1000"), ex.getMessage());

        byte[] v = new CanalJsonEncoder(small.toBuilder().largeMessageHandle(LargeMessageHandle.HANDLE_KEY_ONLY).build())
                .encode(r);
        JsonNode n = MAPPER.readTree(v);
        assertEquals("{\"id\":\"9\"}", n.get("data").get(0).toString());
        assertTrue(n.get("_tidb").get("onlyHandleKey").asBoolean());
        assertFalse(n.get("mysqlType").has("big"));
        CodecException dec = assertThrows(CodecException.class, () -> new CanalJsonDecoder().decode(v));
        assertTrue(dec.getMessage().contains("onlyHandleKey"), dec.getMessage());
    }

    @Test
    void badValueNamesTableAndColumnAndEncoderStaysUsable() {
        TableInfo t = table(ColumnInfo.of("id", MySqlType.LONG, 0), ColumnInfo.of("d", MySqlType.NEWDECIMAL, 0));
        CanalJsonEncoder e = new CanalJsonEncoder(CanalJsonOptions.defaults());
        Object weird = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("boom");
            }
        };
        CodecException ex = assertThrows(CodecException.class,
                () -> e.encode(RowChange.insert(t, new Object[] {1L, weird}, TS)));
        assertTrue(ex.getMessage().contains("db.t") && ex.getMessage().contains("`d`"), ex.getMessage());
        byte[] ok = e.encode(RowChange.insert(t, new Object[] {2L, BigDecimal.ONE}, TS));
        assertEquals('{', ok[0]);
    }
}
