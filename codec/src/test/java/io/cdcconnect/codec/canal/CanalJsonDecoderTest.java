package io.cdcconnect.codec.canal;

import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CanalJsonDecoderTest {

    private static List<ChangeEvent> decode(CanalJsonDecoder d, String s) {
        return d.decode(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String row(String type, String mysqlType, String value) {
        return "{\"id\":0,\"database\":\"d\",\"table\":\"t\",\"pkNames\":[\"id\"],\"isDdl\":false,\"type\":\"" + type
                + "\",\"es\":1000,\"ts\":1,\"sql\":\"\",\"sqlType\":{\"id\":4,\"c\":12},\"mysqlType\":{\"id\":\"int\",\"c\":\""
                + mysqlType + "\"},\"old\":null,\"data\":[{\"id\":\"1\",\"c\":" + value + "}]}";
    }

    /** An insert into {@code table} of a row with {@code extra} VARCHAR columns after its key {@code id}. */
    private static String wideRow(String table, int extra, int id) {
        StringBuilder sqlType = new StringBuilder("{\"id\":4");
        StringBuilder mysqlType = new StringBuilder("{\"id\":\"int\"");
        StringBuilder data = new StringBuilder("{\"id\":\"" + id + "\"");
        for (int i = 0; i < extra; i++) {
            sqlType.append(",\"v").append(i).append("\":12");
            mysqlType.append(",\"v").append(i).append("\":\"varchar\"");
            data.append(",\"v").append(i).append("\":\"x").append(i).append('"');
        }
        return "{\"id\":0,\"database\":\"d\",\"table\":\"" + table + "\",\"pkNames\":[\"id\"],\"isDdl\":false,"
                + "\"type\":\"INSERT\",\"es\":1000,\"ts\":1,\"sql\":\"\",\"sqlType\":" + sqlType + "},\"mysqlType\":"
                + mysqlType + "},\"old\":null,\"data\":[" + data + "}]}";
    }

    @Test
    void rowsOfEveryWidthInTurnKeepAllTheirColumns() {
        // the decoder sizes a row's lists after the last row it read: a narrow row after a wide one and a wide one
        // after a narrow one must each come out whole
        CanalJsonDecoder d = new CanalJsonDecoder();
        for (int[] widths : new int[][] {{59, 3}, {3, 59}, {0, 59}, {59, 59}, {5000, 2}, {2, 5000}}) {
            for (int w : widths) {
                RowChange r = (RowChange) decode(d, wideRow("w" + w, w, 7)).get(0);
                assertEquals(w + 1, r.table().columns().size());
                assertEquals(w + 1, r.after().length);
                assertEquals(7L, r.after()[0]);
                if (w > 0) assertEquals("x" + (w - 1), r.after()[w]);
            }
        }
    }

    @Test
    void readsTypesFromMysqlTypeNamesAndFullDefinitions() {
        CanalJsonDecoder d = new CanalJsonDecoder();
        RowChange r = (RowChange) decode(d, row("INSERT", "int unsigned", "\"4294967295\"")).get(0);
        ColumnInfo c = r.table().column(1);
        assertEquals(MySqlType.LONG, c.type());
        assertTrue(c.unsigned());
        assertEquals(4294967295L, r.after()[1]);
        ColumnInfo id = r.table().column(0);
        assertEquals(ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY, id.flags());

        RowChange dec = (RowChange) decode(d, row("INSERT", "decimal(10,4)", "\"1.2500\"")).get(0);
        assertEquals(new BigDecimal("1.2500"), dec.after()[1]);
        assertEquals(10, dec.table().column(1).length());
        assertEquals(4, dec.table().column(1).scale());

        RowChange e = (RowChange) decode(d, row("INSERT", "enum('a','b''c')", "\"2\"")).get(0);
        assertEquals(List.of("a", "b'c"), e.table().column(1).elements());
        assertEquals(2L, e.after()[1]);
        RowChange set = (RowChange) decode(d, row("INSERT", "set('x','y','z')", "\"x,z\"")).get(0);
        assertEquals(5L, set.after()[1], "Canal's text form of a SET maps to its bitmask");
        assertThrows(CodecException.class, () -> decode(d, row("INSERT", "enum", "\"red\"")),
                "an enum name cannot be mapped without the element list");

        RowChange bin = (RowChange) decode(d, row("INSERT", "varbinary", "\"\\u00ff\\u0000\"")).get(0);
        assertTrue(bin.table().column(1).binary());
        assertEquals(2, ((byte[]) bin.after()[1]).length);

        RowChange u = (RowChange) decode(d, row("INSERT", "bigint unsigned", "\"18446744073709551615\"")).get(0);
        assertEquals(-1L, u.after()[1]);
        RowChange n = (RowChange) decode(d, row("INSERT", "text", "null")).get(0);
        assertEquals(null, n.after()[1]);
        RowChange empty = (RowChange) decode(d, row("INSERT", "text", "\"\"")).get(0);
        assertEquals("", empty.after()[1]);
    }

    @Test
    void cachesOneTableInfoPerDistinctShape() {
        CanalJsonDecoder d = new CanalJsonDecoder();
        RowChange a = (RowChange) decode(d, row("INSERT", "int", "\"1\"")).get(0);
        RowChange b = (RowChange) decode(d, row("DELETE", "int", "\"2\"")).get(0);
        assertSame(a.table(), b.table());
        RowChange c = (RowChange) decode(d, row("INSERT", "bigint", "\"1\"")).get(0);
        assertEquals(MySqlType.LONGLONG, c.table().column(1).type());
        assertEquals(2, d.cachedTables());
    }

    @Test
    void commitTsFallsBackToEsShifted() {
        RowChange r = (RowChange) decode(new CanalJsonDecoder(), row("DELETE", "int", "\"1\"")).get(0);
        assertEquals(1000L << 18, r.commitTs());
        assertEquals(RowChange.Op.DELETE, r.op());
    }

    @Test
    void badValueIsNamedWithMessageTableAndColumn() {
        CodecException e = assertThrows(CodecException.class,
                () -> decode(new CanalJsonDecoder(), row("INSERT", "int", "\"1\"") + "\n" + row("INSERT", "int", "\"x\"")));
        assertTrue(e.getMessage().contains("message #2") && e.getMessage().contains("d.t")
                && e.getMessage().contains("`c`"), e.getMessage());
    }

    @Test
    void malformedJsonIsReported() {
        CodecException e = assertThrows(CodecException.class, () -> decode(new CanalJsonDecoder(), "{\"id\":"));
        assertTrue(e.getMessage().contains("malformed JSON"), e.getMessage());
    }

    @Test
    void ddlAndWatermark() {
        List<ChangeEvent> ev = decode(new CanalJsonDecoder(),
                "{\"id\":0,\"database\":\"a\",\"table\":\"b\",\"pkNames\":null,\"isDdl\":true,\"type\":\"ALTER\",\"es\":5,"
                        + "\"ts\":1,\"sql\":\"alter table b add c int\",\"sqlType\":null,\"mysqlType\":null,\"data\":null,"
                        + "\"old\":null}\n{\"id\":0,\"database\":\"\",\"table\":\"\",\"pkNames\":null,\"isDdl\":false,"
                        + "\"type\":\"TIDB_WATERMARK\",\"es\":0,\"ts\":1,\"sql\":\"\",\"_tidb\":{\"watermarkTs\":18446744073709551615}}");
        DdlChange ddl = assertInstanceOf(DdlChange.class, ev.get(0));
        assertEquals(DdlChange.Kind.ALTER, ddl.kind());
        assertEquals(5L << 18, ddl.commitTs());
        assertEquals(new Watermark(-1L), ev.get(1));
    }

    /** Alibaba Canal's own flat messages: full column definitions, several rows, old with changed columns only. */
    @Test
    void readsCanalStyleMessagesWithFullDefinitionsAndPartialOld() {
        String msg = "{\"data\":[{\"id\":\"1\",\"flag\":\"1\",\"amount\":\"0012.50\",\"at\":\"2024-01-02 03:04:05.678\",\"tag\":\"b\"},"
                + "{\"id\":\"2\",\"flag\":\"0\",\"amount\":null,\"at\":\"2024-01-02 03:04:06.000\",\"tag\":\"a\"}],"
                + "\"database\":\"shop\",\"es\":1704164645000,\"id\":7,\"isDdl\":false,"
                + "\"mysqlType\":{\"id\":\"int(11) unsigned zerofill\",\"flag\":\"tinyint(1)\",\"amount\":\"decimal(6,2)\","
                + "\"at\":\"datetime(3)\",\"tag\":\"enum('a','b')\"},"
                + "\"old\":[{\"flag\":\"0\"},{\"tag\":\"b\"}],\"pkNames\":[\"id\"],\"sql\":\"\","
                + "\"sqlType\":{\"id\":4,\"flag\":-6,\"amount\":3,\"at\":93,\"tag\":4},\"table\":\"orders\","
                + "\"ts\":1704164645123,\"type\":\"UPDATE\"}";
        List<ChangeEvent> ev = decode(new CanalJsonDecoder(), msg);
        assertEquals(2, ev.size());
        RowChange first = (RowChange) ev.get(0);
        RowChange second = (RowChange) ev.get(1);
        assertSame(first.table(), second.table());
        ColumnInfo id = first.table().column(0);
        assertTrue(id.unsigned() && id.primaryKey());
        assertEquals("int(11) unsigned zerofill", id.columnType());
        assertEquals(6, first.table().column(2).length());
        assertEquals(3, first.table().column(3).fsp());
        assertEquals(List.of("a", "b"), first.table().column(4).elements());
        assertEquals(new BigDecimal("12.50"), first.after()[2]);
        assertEquals(0L, first.before()[1]);
        assertEquals(1L, first.after()[1]);
        assertEquals("2024-01-02 03:04:05.678", first.before()[3], "unchanged column taken from data");
        assertEquals(2L, second.before()[4]);
        assertEquals(null, second.after()[2]);
        assertEquals(1704164645000L << 18, second.commitTs());
    }

    /** Without mysqlType the types come from sqlType, so a changed sqlType must give a different table. */
    @Test
    void recognisesATableByItsTypeBytesButNotWhenOnlySqlTypeDescribesIt() {
        CanalJsonDecoder d = new CanalJsonDecoder();
        String a = "{\"database\":\"d\",\"table\":\"t\",\"pkNames\":[],\"isDdl\":false,\"type\":\"INSERT\",\"es\":1,"
                + "\"sqlType\":{\"c\":12},\"data\":[{\"c\":\"7\"}],\"old\":null}";
        String b = a.replace("{\"c\":12}", "{\"c\":4}");
        RowChange r1 = (RowChange) decode(d, a).get(0);
        RowChange r2 = (RowChange) decode(d, a).get(0);
        RowChange r3 = (RowChange) decode(d, b).get(0);
        assertSame(r1.table(), r2.table());
        assertEquals("7", r1.after()[0]);
        assertEquals(MySqlType.LONG, r3.table().column(0).type());
        assertEquals(7L, r3.after()[0]);
        RowChange r4 = (RowChange) decode(d, a).get(0);
        assertSame(r1.table(), r4.table());
        assertEquals(2, d.cachedTables());
    }

    /** Events as comparable text: each row's table, types, operation and values. */
    private static String describe(List<ChangeEvent> events) {
        StringBuilder sb = new StringBuilder();
        for (ChangeEvent e : events) {
            RowChange r = (RowChange) e;
            sb.append(r.op()).append(' ').append(r.table().schema()).append('.').append(r.table().table());
            for (ColumnInfo c : r.table().columns()) sb.append(' ').append(c.name()).append(':').append(c.type());
            sb.append(" before=").append(r.before() == null ? "-" : java.util.Arrays.deepToString(r.before()));
            sb.append(" after=").append(r.after() == null ? "-" : java.util.Arrays.deepToString(r.after()));
            sb.append(" ts=").append(r.commitTs()).append('\n');
        }
        return sb.toString();
    }

    @Test
    void typeObjectsDecodeTheSameHoweverTheyAreWrittenOrPlaced() {
        // sqlType and mysqlType are skipped by their bytes when they are flat (and large enough: the parser resumes
        // after them); spacing, order, escaped names, separated or nested type objects, and several messages in one
        // value must all decode as the plain message does, with few columns and with many
        for (int extra : new int[] {0, 60}) {
            StringBuilder sqlExtra = new StringBuilder();
            StringBuilder mysqlExtra = new StringBuilder();
            StringBuilder dataExtra = new StringBuilder();
            for (int i = 0; i < extra; i++) {
                sqlExtra.append(",\"x").append(i).append("\":12");
                mysqlExtra.append(",\"x").append(i).append("\":\"varchar\"");
                dataExtra.append(",\"x").append(i).append("\":\"v").append(i).append('"');
            }
            String sqlType = "{\"id\":4,\"c\":12,\"u\":-5" + sqlExtra + "}";
            String mysqlType = "{\"id\":\"int\",\"c\":\"varchar\",\"u\":\"bigint unsigned\"" + mysqlExtra + "}";
            String data = "[{\"id\":\"1\",\"c\":\"new\",\"u\":\"18446744073709551615\"" + dataExtra + "}]";
            String plain = "{\"database\":\"d\",\"table\":\"t\",\"pkNames\":[\"id\"],\"isDdl\":false,"
                    + "\"type\":\"UPDATE\",\"es\":1000,\"sqlType\":" + sqlType + ",\"mysqlType\":" + mysqlType
                    + ",\"data\":" + data + ",\"old\":[{\"c\":\"old\"}]}";
            if (extra > 0) {
                assertTrue(sqlType.length() >= CanalJsonDecoder.MIN_RESUME_BYTES, "the wide case resumes");
            }
            String expected = describe(decode(new CanalJsonDecoder(), plain));
            assertEquals(3 + extra, ((RowChange) decode(new CanalJsonDecoder(), plain).get(0)).after().length);
            String[] variants = {
                plain.replace(",", " ,\n\t").replace(":", " : "),
                plain.replace("\"mysqlType\"", "\"mysql\\u0054ype\""),
                // mysqlType first, then data between the two
                "{\"database\":\"d\",\"table\":\"t\",\"mysqlType\":" + mysqlType + ",\"pkNames\":[\"id\"],"
                        + "\"isDdl\":false,\"type\":\"UPDATE\",\"data\":" + data + ",\"es\":1000,\"sqlType\":"
                        + sqlType + ",\"old\":[{\"c\":\"old\"}]}",
                // not flat: left to the parser, which skips what the model does not know
                plain.replace("\"u\":-5", "\"u\":-5,\"x\":{\"y\":[1,2]}"),
                plain.replace("\"u\":\"bigint unsigned\"", "\"u\":\"bigint unsigned\",\"x\":[\"y\"]"),
                // a name beyond ASCII in sqlType only: left to the parser
                plain.replace("\"u\":-5", "\"u\":-5,\"\u00e9\":1"),
            };
            CanalJsonDecoder d = new CanalJsonDecoder();
            for (String v : variants) {
                assertEquals(expected, describe(decode(d, v)), v);
                assertEquals(expected, describe(decode(new CanalJsonDecoder(), v)), v);
            }
            // several messages in one value, each resumed after its types, the terminator TiCDC writes between them
            String three = plain + "\n" + variants[0] + "\n" + variants[2];
            assertEquals(expected.repeat(3), describe(decode(d, three)));
            assertEquals(expected.repeat(3), describe(decode(new CanalJsonDecoder(), three)));
        }
    }

    @Test
    void malformedJsonAfterSkippedTypesIsReportedAtItsByteInTheValue() {
        String good = wideRow("t", 80, 1);
        String bad = good + "\n" + good.replace("[{\"id\":\"1\"", "[{\"id\":\"1\" \"oops\"");
        int at = bad.indexOf("\"oops\"");
        CodecException e = assertThrows(CodecException.class, () -> decode(new CanalJsonDecoder(), bad));
        assertTrue(e.getMessage().startsWith("canal-json message #2: malformed JSON"), e.getMessage());
        // the same byte the parser names when it reads the value from its start
        assertTrue(e.getMessage().endsWith(" at byte " + at), e.getMessage() + " (expected byte " + at + ")");
    }

    @Test
    void malformedTypeObjectsAreStillRefused() {
        for (String broken : new String[] {"{\"id\":04,\"c\":12}", "{\"id\":4,\"c\":12,}", "{\"id\":4 \"c\":12}",
                "{\"id\":4,\"c\":\"\\q\"}", "{\"id\":4,\"c\":tru}"}) {
            String msg = row("INSERT", "varchar", "\"x\"").replace("{\"id\":4,\"c\":12}", broken);
            CodecException e = assertThrows(CodecException.class, () -> decode(new CanalJsonDecoder(), msg), broken);
            assertTrue(e.getMessage().contains("malformed JSON"), e.getMessage());
        }
    }
}
