package io.cdcconnect.codec.canal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdcconnect.testsupport.TicdcVectors;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

/** TiCDC's own Canal-JSON test data (test-support's resources, ticdc-vectors/canal-json). */
class CanalJsonVectorsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The commit ts of TiCDC's testCaseInsert. */
    private static final long TS = 417318403368288260L;

    private static JsonNode columns() throws Exception {
        return MAPPER.readTree(TicdcVectors.read("canal-json/columns.json"));
    }

    private static ColumnInfo column(JsonNode v) {
        return ColumnInfo.of(v.get("name").asText(), MySqlType.fromCode(v.get("mysqlTypeCode").asInt()),
                v.get("flagBits").asInt());
    }

    /** The Go value in the model's Java type for the column (RowChange's javadoc). */
    private static Object modelValue(ColumnInfo c, JsonNode v) {
        String goType = v.get("goType").asText();
        JsonNode value = v.get("value");
        switch (goType) {
            case "nil":
                return null;
            case "int64":
                return value.asLong();
            case "uint64":
                return Long.parseUnsignedLong(value.asText());
            case "float64":
                return c.type() == MySqlType.FLOAT ? (Object) (float) value.asDouble() : (Object) value.asDouble();
            case "[]byte": {
                byte[] b = Base64.getDecoder().decode(value.get("bytesBase64").asText());
                return c.binary() ? b : new String(b, StandardCharsets.UTF_8);
            }
            case "string": {
                String s = value.asText();
                if (c.type().isInteger() || c.type() == MySqlType.YEAR) return Long.parseUnsignedLong(s);
                if (c.type() == MySqlType.NEWDECIMAL) return new BigDecimal(s);
                return s;
            }
            default:
                throw new IllegalArgumentException(goType);
        }
    }

    @Test
    void everyColumnHasTheExpectedMysqlTypeAndSqlType() throws Exception {
        JsonNode rows = columns();
        assertEquals(52, rows.size());
        for (JsonNode v : rows) {
            ColumnInfo c = column(v);
            String where = "row " + v.get("index") + " (" + c.name() + ")";
            assertEquals(v.get("expectedMySQLType").asText(), CanalTypes.mysqlType(c, false), where);
            assertEquals(v.get("expectedJavaSQLType").asInt(),
                    CanalTypes.sqlType(c, CanalTypes.baseSqlType(c), modelValue(c, v)), where);
        }
    }

    /** TestNewCanalJSONMessage4DML: all 52 columns as one insert of cdc.person; then TiCDC's decoder test. */
    @Test
    void insertOfAllColumnsEncodesAndDecodesAsTiCdcDoes() throws Exception {
        JsonNode rows = columns();
        List<ColumnInfo> cols = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (JsonNode v : rows) {
            ColumnInfo c = column(v);
            cols.add(c);
            values.add(modelValue(c, v));
        }
        TableInfo t = TableInfo.of("cdc", "person", cols);
        byte[] msg = new CanalJsonEncoder(CanalJsonOptions.defaults())
                .encode(RowChange.insert(t, values.toArray(), TS));
        JsonNode json = MAPPER.readTree(msg);
        assertEquals("[\"tinyint\"]", json.get("pkNames").toString());
        JsonNode data = json.get("data").get(0);
        for (JsonNode v : rows) {
            String name = v.get("name").asText();
            String where = "row " + v.get("index") + " (" + name + ")";
            assertEquals(v.get("jsonDataValue"), data.get(name), where);
            assertEquals(v.get("expectedMySQLType").asText(), json.get("mysqlType").get(name).asText(), where);
            assertEquals(v.get("expectedJavaSQLType").asInt(), json.get("sqlType").get(name).asInt(), where);
        }

        RowChange back = assertInstanceOf(RowChange.class, new CanalJsonDecoder().decode(msg).get(0));
        assertEquals(TS >>> 18 << 18, back.commitTs());
        for (JsonNode v : rows) {
            int i = v.get("index").asInt();
            String where = "row " + i + " (" + v.get("name").asText() + ")";
            ColumnInfo dc = back.table().column(i);
            assertEquals(v.get("name").asText(), dc.name(), where);
            assertEquals(v.get("mysqlTypeCode").asInt(), dc.type().code(), where);
            Object got = back.after()[i];
            JsonNode expected = v.get("expectedDecodedValue");
            if (expected.isNull()) {
                assertNull(got, where);
            } else if (got instanceof byte[] b) {
                assertEquals(expected.asText(), new String(b, StandardCharsets.UTF_8), where);
                assertArrayEquals((byte[]) values.get(i), b, where);
            } else if (got instanceof Long l && (dc.unsigned() || dc.type() == MySqlType.SET || dc.type() == MySqlType.BIT)) {
                assertEquals(expected.asText(), Long.toUnsignedString(l), where);
            } else if (got instanceof BigDecimal d) {
                assertEquals(expected.asText(), d.toPlainString(), where);
            } else {
                assertEquals(expected.asText(), CanalValues.format(dc, got), where);
            }
            assertEquals(String.valueOf(values.get(i) instanceof byte[] bb ? new String(bb, StandardCharsets.ISO_8859_1) : values.get(i)),
                    String.valueOf(got instanceof byte[] gb ? new String(gb, StandardCharsets.ISO_8859_1) : got), where);
        }
    }

    private static List<String> messageLines() {
        String all = new String(TicdcVectors.read("canal-json/messages.jsonl"), StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>();
        for (String l : all.split("\n")) {
            if (!l.isBlank()) lines.add(l);
        }
        return lines;
    }

    /** TestCanalJSONBatchDecoderWithTerminator: lines 1-3 joined by "\n" in one value give exactly 3 rows. */
    @Test
    void terminatedBatchDecodesToThreeRows() {
        List<String> lines = messageLines();
        byte[] value = String.join("\n", lines.subList(0, 3)).getBytes(StandardCharsets.UTF_8);
        List<ChangeEvent> ev = new CanalJsonDecoder().decode(value);
        assertEquals(3, ev.size());
        RowChange ins = (RowChange) ev.get(0);
        RowChange upd = (RowChange) ev.get(1);
        RowChange del = (RowChange) ev.get(2);
        assertEquals(RowChange.Op.INSERT, ins.op());
        assertEquals("test.employee", ins.table().toString());
        assertEquals(List.of("id"), ins.table().primaryKeyNames());
        int id = ins.table().indexOf("id");
        assertEquals(101L, ins.after()[id]);
        assertEquals("New York", ins.after()[ins.table().indexOf("OfficeLocation")]);
        assertEquals(RowChange.Op.UPDATE, upd.op());
        assertEquals("2014-06-04", upd.before()[upd.table().indexOf("HireDate")]);
        assertEquals("2015-10-08", upd.after()[upd.table().indexOf("HireDate")]);
        assertEquals(RowChange.Op.DELETE, del.op());
        assertEquals("Los Angeles", del.before()[del.table().indexOf("OfficeLocation")]);
        assertEquals(1668067205238L << 18, ins.commitTs());
    }

    @Test
    void watermarkAndDdlLinesDecode() {
        List<String> lines = messageLines();
        Watermark w = assertInstanceOf(Watermark.class,
                new CanalJsonDecoder().decode(lines.get(3).getBytes(StandardCharsets.UTF_8)).get(0));
        assertEquals(1024L, w.ts());
        DdlChange d = assertInstanceOf(DdlChange.class,
                new CanalJsonDecoder().decode(lines.get(4).getBytes(StandardCharsets.UTF_8)).get(0));
        assertEquals(TS, d.commitTs());
        assertEquals(DdlChange.Kind.CREATE, d.kind());
        assertEquals("cdc", d.schema());
        assertEquals("person", d.table());
        assertEquals("create table person(id int, name varchar(32), tiny tinyint unsigned, comment text, primary key(id))",
                d.query());
    }

    /** Every encoder-made line, decoded and encoded again, means the same (ts ignored; mysqlType compared as a map). */
    @Test
    void reEncodingGivesTheSameMeaning() throws Exception {
        List<String> lines = messageLines();
        for (int i = 0; i < 5; i++) {
            String line = lines.get(i);
            JsonNode original = MAPPER.readTree(line);
            CanalJsonOptions options = CanalJsonOptions.builder().enableTidbExtension(original.has("_tidb")).build();
            ChangeEvent ev = new CanalJsonDecoder().decode(line.getBytes(StandardCharsets.UTF_8)).get(0);
            JsonNode again = MAPPER.readTree(new CanalJsonEncoder(options).encode(ev));
            assertEquals(withoutTs(original), withoutTs(again), "line " + (i + 1));
        }
    }

    /** Line 6 is hand-made (no mysqlType, c1 typed VARCHAR): it must parse, and its data and sqlType survive. */
    @Test
    void handMadeLineWithoutMysqlTypeIsTolerated() throws Exception {
        String line = messageLines().get(5);
        RowChange r = (RowChange) new CanalJsonDecoder().decode(line.getBytes(StandardCharsets.UTF_8)).get(0);
        assertEquals("100", r.after()[0]);
        assertEquals("hello world", r.after()[1]);
        assertEquals(List.of(), r.table().primaryKeyNames());
        JsonNode original = MAPPER.readTree(line);
        JsonNode again = MAPPER.readTree(new CanalJsonEncoder(CanalJsonOptions.defaults()).encode(r));
        assertEquals(original.get("data"), again.get("data"));
        assertEquals(original.get("sqlType"), again.get("sqlType"));
        assertEquals(original.get("pkNames"), again.get("pkNames"));
    }

    private static JsonNode withoutTs(JsonNode n) {
        ObjectNode copy = n.deepCopy();
        copy.remove("ts");
        return copy;
    }
}
