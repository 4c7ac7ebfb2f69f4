package io.cdcconnect.codec.avro;

import io.cdcconnect.testsupport.TicdcVectors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compatibility with TiCDC's own Avro test data ({@code vectors/avro}, from tiflow v7.5.0, read at test time):
 * the all-types table's schemas, and each column's schema fragment and Avro value. The registry is test-support's
 * {@link StandInSchemaRegistry} (one per test method; a test factory's dynamic tests share one), reached through
 * {@link HttpSchemaRegistryClient}; decoders get a client of their own, so they read each writer schema back from
 * the registry's text.
 */
class AvroTicdcVectorsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long COMMIT_TS = 417318403368288260L;
    private static JsonNode columns;

    private StandInSchemaRegistry standIn;

    @BeforeAll
    static void load() throws IOException {
        columns = JSON.readTree(TicdcVectors.read("avro/columns.json"));
        assertEquals(36, columns.size());
    }

    @BeforeEach
    void startRegistry() throws IOException {
        standIn = StandInSchemaRegistry.start();
    }

    @AfterEach
    void stopRegistry() {
        standIn.close();
    }

    /** A new client of the stand-in: its own caches, so what it knows it learnt from the registry. */
    private HttpSchemaRegistryClient client() {
        return new HttpSchemaRegistryClient(standIn.url());
    }

    // ---- the table TiCDC's TestRowToAvroSchema builds: id, then each column and its nullable twin ----

    static ColumnInfo column(JsonNode c, boolean nullableTwin) {
        List<String> elems = new ArrayList<>();
        JsonNode e = c.path("colInfo").path("ft").path("elems");
        e.forEach(n -> elems.add(n.asText()));
        int flags = c.get("flagBits").asInt() | (nullableTwin ? ColumnFlags.NULLABLE : 0);
        String name = c.get("name").asText() + (nullableTwin ? "nullable" : "");
        return new ColumnInfo(name, MySqlType.fromCode(c.get("mysqlTypeCode").asInt()), flags, null, -1, -1, -1,
                elems, null);
    }

    /** The vector's value in the model's Java type (RowChange javadoc). */
    static Object modelValue(JsonNode c) {
        JsonNode v = c.get("value");
        String goType = c.get("goType").asText();
        MySqlType type = MySqlType.fromCode(c.get("mysqlTypeCode").asInt());
        boolean binary = (c.get("flagBits").asInt() & ColumnFlags.BINARY) != 0;
        switch (goType) {
            case "int64", "uint64":
                return Long.parseUnsignedLong(v.asText());
            case "float32":
                return (float) v.asDouble();
            case "float64":
                return v.asDouble();
            case "[]byte": {
                byte[] b = Base64.getDecoder().decode(v.get("bytesBase64").asText());
                return binary ? b : new String(b, StandardCharsets.UTF_8);
            }
            case "string":
                return type == MySqlType.NEWDECIMAL ? new BigDecimal(v.asText()) : v.asText();
            default:
                throw new AssertionError("goType " + goType);
        }
    }

    static TableInfo allTypesTable() {
        List<ColumnInfo> cols = new ArrayList<>();
        cols.add(ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY));
        for (JsonNode c : columns) {
            cols.add(column(c, false));
            cols.add(column(c, true));
        }
        return TableInfo.of("testdb", "avroencode", cols);
    }

    static Object[] allTypesRow(TableInfo t) {
        Object[] row = new Object[t.columnCount()];
        row[0] = 1L;
        int i = 1;
        for (JsonNode c : columns) {
            row[i++] = modelValue(c);
            row[i++] = null;
        }
        return row;
    }

    private static String schemaFile(String name) throws IOException {
        return new String(TicdcVectors.read("avro/" + name), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void assertSameSchema(String expectedJson, String actualJson) throws IOException {
        JsonNode expected = JSON.readTree(expectedJson);
        JsonNode actual = JSON.readTree(actualJson);
        // By meaning: same objects whatever the key order...
        assertEquals(expected, actual);
        // ...and, stricter, TiCDC's own text after compaction (its tests compare strings, key order included).
        assertEquals(JSON.writeValueAsString(expected), actualJson);
    }

    @Test
    void valueSchemaWithoutExtensionIsTiCDCs() throws IOException {
        AvroTableSchema s = new AvroSchemaBuilder(AvroOptions.defaults()).build(allTypesTable());
        assertSameSchema(schemaFile("expectedSchemaWithoutExtension.json"), s.valueJson());
        assertEquals(73, s.valueSchema().getFields().size());
    }

    @Test
    void valueSchemaWithExtensionIsTiCDCs() throws IOException {
        AvroTableSchema s = new AvroSchemaBuilder(AvroOptions.defaults().withTidbExtension(true))
                .build(allTypesTable());
        assertSameSchema(schemaFile("expectedSchemaWithExtension.json"), s.valueJson());
        assertEquals(76, s.valueSchema().getFields().size());
    }

    @Test
    void keySchemaHoldsOnlyTheHandleKeyWithoutExtension() throws IOException {
        AvroTableSchema s = new AvroSchemaBuilder(AvroOptions.defaults().withTidbExtension(true))
                .build(allTypesTable());
        JsonNode expected = JSON.readTree(schemaFile("expectedSchemaWithoutExtension.json"));
        JsonNode key = JSON.readTree(s.keyJson());
        assertEquals("avroencode", key.get("name").asText());
        assertEquals("default.testdb", key.get("namespace").asText());
        assertEquals(1, key.get("fields").size());
        assertEquals(expected.get("fields").get(0), key.get("fields").get(0));
    }

    @TestFactory
    List<DynamicTest> eachColumnsSchemaFragmentAndValue() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : columns) {
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> checkColumn(c)));
        }
        return tests;
    }

    private void checkColumn(JsonNode c) throws IOException {
        boolean decimal = c.get("expectedType").asText().equals("bytes.decimal");
        ColumnInfo plain = column(c, false);
        ColumnInfo twin = column(c, true);
        TableInfo table = TableInfo.of("testdb", "avroencode", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY), plain, twin));
        AvroTableSchema s = new AvroSchemaBuilder(AvroOptions.defaults()).build(table);
        JsonNode fields = JSON.readTree(s.valueJson()).get("fields");
        assertEquals(c.get("schemaFieldInRecord"), fields.get(1));
        assertEquals(c.get("expectedSchema"), fields.get(1).get("type"));
        assertEquals(c.get("nullableTwinFieldInRecord"), fields.get(2));

        Object value = modelValue(c);
        AvroEncoder encoder = new AvroEncoder(AvroOptions.defaults(), client());
        RowChange row = RowChange.insert(table, new Object[]{1L, value, null}, COMMIT_TS);
        if (decimal) {
            // DECIMAL with TiCDC's default (10,0) cannot hold 129012.123 (the vector README says so): we refuse to
            // round rather than lose digits, and say which column and why.
            CodecException e = assertThrows(CodecException.class, () -> encoder.encode("t", row));
            assertTrue(e.getMessage().contains("column decimal (NEWDECIMAL) of testdb.avroencode"), e.getMessage());
            assertTrue(e.getMessage().contains("scale 0"), e.getMessage());
            return;
        }
        AvroMessage m = encoder.encode("t", row);
        GenericRecord rec = readRaw(m.value(), s.valueSchema());
        assertAvroValue(c.get("expectedType").asText(), c, rec.get(1));
        assertNull(rec.get(2));

        // And back: the model value returns (text as String, binary as byte[], enum/set as numbers).
        RowChange back = new AvroDecoder(client()).decode(m.key(), m.value());
        assertModelEquals(value, back.after()[1]);
        assertNull(back.after()[2]);
        assertEquals(plain.unsigned(), back.table().column(1).unsigned());
        assertEquals(plain.binary(), back.table().column(1).binary());
        assertTrue(back.table().column(2).nullable());
    }

    static GenericRecord readRaw(byte[] message, Schema schema) throws IOException {
        assertEquals(0, message[0]);
        return new GenericDatumReader<GenericRecord>(schema).read(null,
                DecoderFactory.get().binaryDecoder(message, 5, message.length - 5, null));
    }

    private static void assertAvroValue(String expectedType, JsonNode c, Object actual) {
        JsonNode expected = c.get("expectedData");
        switch (expectedType) {
            case "int" -> assertEquals(expected.asInt(), actual);
            case "long" -> assertEquals(expected.asLong(), actual);
            case "float" -> assertEquals((float) expected.asDouble(), actual);
            case "double" -> assertEquals(expected.asDouble(), actual);
            case "string" -> assertEquals(expected.asText(), actual.toString());
            case "bytes" -> assertEquals(ByteBuffer.wrap(Base64.getDecoder().decode(expected.get("bytesBase64").asText())),
                    actual);
            default -> throw new AssertionError(expectedType);
        }
    }

    static void assertModelEquals(Object expected, Object actual) {
        if (expected instanceof byte[] b) {
            assertArrayEquals(b, (byte[]) actual);
        } else {
            assertEquals(expected, actual);
        }
    }

    @Test
    void decimalWithADeclaredScaleCarriesTheExactRational() throws IOException {
        JsonNode c = columns.get(13);
        assertEquals("decimal", c.get("name").asText());
        ColumnInfo dec = new ColumnInfo("decimal", MySqlType.NEWDECIMAL, 0, null, 10, 3, -1, List.of(), null);
        TableInfo table = TableInfo.of("testdb", "avroencode", List.of(
                ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY), dec));
        AvroMessage m = new AvroEncoder(AvroOptions.defaults(), client())
                .encode("t", RowChange.insert(table, new Object[]{1L, new BigDecimal("129012.1230000")}, COMMIT_TS));
        AvroTableSchema s = new AvroSchemaBuilder(AvroOptions.defaults()).build(table);
        ByteBuffer raw = (ByteBuffer) readRaw(m.value(), s.valueSchema()).get(1);
        BigDecimal num = new BigDecimal(c.get("expectedData").get("ratNum").asText());
        BigDecimal den = new BigDecimal(c.get("expectedData").get("ratDenom").asText());
        BigDecimal rational = num.divide(den);
        byte[] b = new byte[raw.remaining()];
        raw.get(b);
        assertEquals(0, rational.compareTo(new BigDecimal(new java.math.BigInteger(b), 3)));
        assertEquals(new BigDecimal("129012.123"), new AvroDecoder(client()).decode(m.key(), m.value()).after()[1]);
    }

    @TestFactory
    List<DynamicTest> alternateModes() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : columns) {
            JsonNode alt = c.get("alternateMode");
            if (alt == null) continue;
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> {
                AvroOptions o = AvroOptions.defaults()
                        .withDecimalHandling(AvroOptions.DecimalHandling.valueOf(
                                alt.get("config").get("AvroDecimalHandlingMode").asText().toUpperCase()))
                        .withBigintUnsignedHandling(AvroOptions.BigintUnsignedHandling.valueOf(
                                alt.get("config").get("AvroBigintUnsignedHandlingMode").asText().toUpperCase()));
                ColumnInfo col = column(c, false);
                TableInfo table = TableInfo.of("testdb", "avroencode", List.of(
                        ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY), col));
                AvroTableSchema s = new AvroSchemaBuilder(o).build(table);
                assertEquals(alt.get("expectedSchema"), JSON.readTree(s.valueJson()).get("fields").get(1).get("type"));
                Object value = modelValue(c);
                AvroMessage m = new AvroEncoder(o, client()).encode("t",
                        RowChange.insert(table, new Object[]{1L, value}, COMMIT_TS));
                assertEquals(alt.get("expectedData").asText(), readRaw(m.value(), s.valueSchema()).get(1).toString());
                assertModelEquals(value, new AvroDecoder(client()).decode(m.key(), m.value()).after()[1]);
            }));
        }
        assertEquals(2, tests.size());
        return tests;
    }

    @Test
    void extensionFieldsCarryOpAndCommitTs() throws IOException {
        TableInfo table = allTypesTable();
        Object[] row = allTypesRow(table);
        // The decimal column keeps TiCDC's (10,0): give it a value that fits.
        int decimalPos = table.indexOf("decimal");
        row[decimalPos] = new BigDecimal("129012");
        AvroOptions o = AvroOptions.defaults().withTidbExtension(true);
        AvroEncoder encoder = new AvroEncoder(o, client());
        AvroMessage insert = encoder.encode("avro.test", RowChange.insert(table, row, COMMIT_TS));
        Schema valueSchema = new AvroSchemaBuilder(o).build(table).valueSchema();
        GenericRecord rec = readRaw(insert.value(), valueSchema);
        assertEquals("c", rec.get("_tidb_op").toString());
        assertEquals(COMMIT_TS, rec.get("_tidb_commit_ts"));
        assertEquals(COMMIT_TS >>> 18, rec.get("_tidb_commit_physical_time"));
        assertEquals(3.14f, rec.get("float"));
        assertEquals(List.of("avro_test-key", "avro_test-value"), standIn.subjects());

        AvroMessage update = encoder.encode("avro.test", RowChange.update(table, row, row, COMMIT_TS + 1));
        assertEquals("u", readRaw(update.value(), valueSchema).get("_tidb_op").toString());

        RowChange back = new AvroDecoder(client()).decode(insert.key(), insert.value());
        assertEquals(RowChange.Op.INSERT, back.op());
        assertEquals(COMMIT_TS, back.commitTs());
        assertEquals("testdb", back.schema());
        assertEquals("avroencode", back.tableName());
        assertEquals(List.of("id"), back.table().primaryKeyNames());
        for (int i = 0; i < row.length; i++) {
            assertModelEquals(row[i], back.after()[i]);
        }
        RowChange upd = new AvroDecoder(client()).decode(update.key(), update.value());
        assertEquals(RowChange.Op.UPDATE, upd.op());
        assertEquals(1L, upd.before()[0]);
        assertTrue(Arrays.stream(upd.before(), 1, row.length).allMatch(v -> v == null));
    }

    /**
     * A message written by TiCDC itself with row checksums on (its field order, string modes for DECIMAL and BIGINT
     * UNSIGNED, three more {@code _tidb_*} fields): the value is produced here with Avro's generic writer from
     * TiCDC's schema text and {@code expectedData}, as TiCDC's encoder would, and our decoder must read it.
     */
    @Test
    void decodesTiCDCsChecksumSchemaWrittenByAnotherProducer() throws IOException {
        String text = schemaFile("expectedSchemaWithExtensionEnableChecksum.json");
        Schema valueSchema = new Schema.Parser().parse(text);
        JsonNode idField = JSON.readTree(text).get("fields").get(72);
        assertEquals("id", idField.get("name").asText());
        String keyText = "{\"type\":\"record\",\"name\":\"avroencode\",\"namespace\":\"default.testdb\",\"fields\":["
                + idField + "]}";
        HttpSchemaRegistryClient registry = client();
        int valueId = registry.register("t-value", text, valueSchema);
        Schema keySchema = new Schema.Parser().parse(keyText);
        int keyId = registry.register("t-key", keyText, keySchema);

        org.apache.avro.generic.GenericData.Record value = new org.apache.avro.generic.GenericData.Record(valueSchema);
        for (JsonNode c : columns) {
            JsonNode alt = c.get("alternateMode");
            JsonNode data = alt != null ? alt.get("expectedData") : c.get("expectedData");
            String type = alt != null ? alt.get("expectedType").asText() : c.get("expectedType").asText();
            value.put(c.get("name").asText(), switch (type) {
                case "int" -> data.asInt();
                case "long" -> data.asLong();
                case "float" -> (float) data.asDouble();
                case "double" -> data.asDouble();
                case "bytes" -> ByteBuffer.wrap(Base64.getDecoder().decode(data.get("bytesBase64").asText()));
                default -> data.asText();
            });
            value.put(c.get("name").asText() + "nullable", null);
        }
        value.put("id", 1);
        value.put("_tidb_op", "c");
        value.put("_tidb_commit_ts", COMMIT_TS);
        value.put("_tidb_commit_physical_time", COMMIT_TS >>> 18);
        value.put("_tidb_row_level_checksum", "3709092612");
        value.put("_tidb_corrupted", false);
        value.put("_tidb_checksum_version", 1);
        org.apache.avro.generic.GenericData.Record key = new org.apache.avro.generic.GenericData.Record(keySchema);
        key.put("id", 1);

        RowChange row = new AvroDecoder(client()).decode(envelope(keyId, keySchema, key),
                envelope(valueId, valueSchema, value));
        assertEquals(RowChange.Op.INSERT, row.op());
        assertEquals(COMMIT_TS, row.commitTs());
        assertEquals(73, row.table().columnCount());
        assertEquals(List.of("id"), row.table().primaryKeyNames());
        for (JsonNode c : columns) {
            int pos = row.table().indexOf(c.get("name").asText());
            assertModelEquals(modelValue(c), row.after()[pos]);
            assertNull(row.after()[row.table().indexOf(c.get("name").asText() + "nullable")]);
        }
    }

    private static byte[] envelope(int id, Schema schema, org.apache.avro.generic.GenericRecord record)
            throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(new byte[]{0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
        org.apache.avro.io.BinaryEncoder enc = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
        new org.apache.avro.generic.GenericDatumWriter<org.apache.avro.generic.GenericRecord>(schema).write(record, enc);
        enc.flush();
        return out.toByteArray();
    }
}
