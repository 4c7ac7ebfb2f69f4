package io.cdcconnect.codec.avro;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Behaviours of the Avro encoder and decoder beyond TiCDC's vectors. The registry here is test-support's
 * {@link StandInSchemaRegistry}, reached through {@link HttpSchemaRegistryClient}; decoders get a client of their own,
 * so they read each writer schema back from the registry's text rather than from the encoder's cache.
 */
class AvroEncoderBehaviourTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TS = 1L << 40;

    private static final ColumnInfo ID = ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY);

    private StandInSchemaRegistry standIn;

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

    @Test
    void namesAreSanitisedAsTiCDCDoes() {
        assertEquals("A_B", AvroNames.sanitize("A.B"));
        assertEquals("_1Col", AvroNames.sanitize("1Col"));
        assertEquals("columnNameWith__", AvroNames.sanitize("columnNameWith中文"));
        assertEquals("_", AvroNames.sanitize("😀"));
        assertEquals("default.my_db", AvroNames.namespace("default", "my-db"));
        assertEquals("a_b-key", AvroNames.keySubject("a.b"));
        assertEquals("a_b-value", AvroNames.valueSubject("a.b"));
    }

    @Test
    void enumElementsWithCommasSurviveTheAllowedParameter() {
        List<String> elements = List.of("a", "b,c", "it's");
        assertEquals("a,b\\,c,it's", AvroNames.joinElements(elements));
        assertEquals(elements, AvroNames.splitElements(AvroNames.joinElements(elements)));
    }

    @Test
    void aDeleteIsTheKeyAndANullValue() {
        TableInfo t = TableInfo.of("db", "t", List.of(ID, ColumnInfo.of("v", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
        AvroMessage m = new AvroEncoder(AvroOptions.defaults(), client())
                .encode("t", RowChange.delete(t, new Object[]{3L, "gone"}, TS));
        assertNotNull(m.key());
        assertNull(m.value());
        RowChange back = new AvroDecoder(client()).decode(m.key(), null);
        assertEquals(RowChange.Op.DELETE, back.op());
        assertArrayEquals(new Object[]{3L}, back.before());
        assertEquals(List.of("id"), back.table().primaryKeyNames());
    }

    @Test
    void aTableWithoutKeyHasNoMessageKeyAndCannotCarryADelete() {
        TableInfo t = TableInfo.of("db", "nokey", List.of(ColumnInfo.of("v", MySqlType.LONG, 0)));
        AvroEncoder encoder = new AvroEncoder(AvroOptions.defaults(), client());
        assertNull(encoder.encode("t", RowChange.insert(t, new Object[]{1L}, TS)).key());
        CodecException e = assertThrows(CodecException.class,
                () -> encoder.encode("t", RowChange.delete(t, new Object[]{1L}, TS)));
        assertTrue(e.getMessage().contains("db.nokey"), e.getMessage());
    }

    @Test
    void theFirstUniqueKeyIsTheMessageKeyWhenNoColumnIsFlaggedHandleKey() {
        ColumnInfo a = ColumnInfo.of("a", MySqlType.LONG, 0);
        ColumnInfo b = ColumnInfo.of("b", MySqlType.VARCHAR, 0);
        TableInfo t = new TableInfo("db", "uk", List.of(a, b), List.of(new int[]{1}));
        AvroTableSchema s = new AvroSchemaBuilder(AvroOptions.defaults()).build(t);
        assertEquals(List.of("b"), s.keySchema().getFields().stream().map(Schema.Field::name).toList());
    }

    @Test
    void nullInANotNullColumnNamesTheColumnAndTable() {
        TableInfo t = TableInfo.of("db", "t", List.of(ID, ColumnInfo.of("v", MySqlType.VARCHAR, 0)));
        CodecException e = assertThrows(CodecException.class, () -> new AvroEncoder(AvroOptions.defaults(),
                client()).encode("t", RowChange.insert(t, new Object[]{1L, null}, TS)));
        assertTrue(e.getMessage().contains("column v of db.t"), e.getMessage());
    }

    @Test
    void aValueOfTheWrongJavaTypeNamesTheColumnButNotTheValue() {
        TableInfo t = TableInfo.of("db", "t", List.of(ID, ColumnInfo.of("n", MySqlType.LONGLONG, 0)));
        CodecException e = assertThrows(CodecException.class, () -> new AvroEncoder(AvroOptions.defaults(),
                client()).encode("t", RowChange.insert(t, new Object[]{1L, "secret-text"}, TS)));
        assertTrue(e.getMessage().contains("column n (LONGLONG) of db.t"), e.getMessage());
        assertTrue(!e.getMessage().contains("secret-text"), e.getMessage());
    }

    @Test
    void columnsWhoseSanitisedNamesClashAreRefused() {
        TableInfo t = TableInfo.of("db", "t", List.of(ID, ColumnInfo.of("a-b", MySqlType.LONG, 0),
                ColumnInfo.of("a.b", MySqlType.LONG, 0)));
        CodecException e = assertThrows(CodecException.class,
                () -> new AvroSchemaBuilder(AvroOptions.defaults()).build(t));
        assertTrue(e.getMessage().contains("'a-b' and 'a.b'"), e.getMessage());
    }

    @Test
    void aNullableColumnWithADefaultPutsNullSecond() throws Exception {
        ColumnInfo withDefault = ColumnInfo.of("qty", MySqlType.LONG, ColumnFlags.NULLABLE);
        ColumnInfo notNullDefault = ColumnInfo.of("name", MySqlType.VARCHAR, 0);
        ColumnInfo noDefault = ColumnInfo.of("memo", MySqlType.VARCHAR, ColumnFlags.NULLABLE);
        TableInfo t = TableInfo.of("db", "t", List.of(ID, withDefault, notNullDefault, noDefault));
        ColumnDefaults defaults = (table, c) -> switch (c.name()) {
            case "qty" -> 5L;
            case "name" -> "n/a";
            default -> null;
        };
        AvroTableSchema s = new AvroSchemaBuilder(AvroOptions.defaults(), defaults).build(t);
        JsonNode f = JSON.readTree(s.valueJson()).get("fields");
        assertEquals(JSON.readTree("{\"default\":5,\"name\":\"qty\",\"type\":[{\"type\":\"int\","
                + "\"connect.parameters\":{\"tidb_type\":\"INT\"}},\"null\"]}"), f.get(1));
        assertEquals(JSON.readTree("{\"default\":\"n/a\",\"name\":\"name\",\"type\":{\"type\":\"string\","
                + "\"connect.parameters\":{\"tidb_type\":\"TEXT\"}}}"), f.get(2));
        assertEquals("null", f.get(3).get("type").get(0).asText());

        HttpSchemaRegistryClient registry = client();
        AvroMessage m = new AvroEncoder(AvroOptions.defaults(), defaults, registry)
                .encode("t", RowChange.insert(t, new Object[]{1L, null, "x", null}, TS));
        RowChange back = new AvroDecoder(client()).decode(m.key(), m.value());
        assertArrayEquals(new Object[]{1L, null, "x", null}, back.after());
        AvroMessage m2 = new AvroEncoder(AvroOptions.defaults(), defaults, registry)
                .encode("t", RowChange.insert(t, new Object[]{2L, 7L, "y", "z"}, TS));
        assertArrayEquals(new Object[]{2L, 7L, "y", "z"}, new AvroDecoder(client()).decode(m2.key(), m2.value()).after());
    }

    @Test
    void schemasAreRegisteredOncePerTableVersionAndTopic() {
        TableInfo t = TableInfo.of("db", "t", List.of(ID));
        AvroEncoder encoder = new AvroEncoder(AvroOptions.defaults(), client());
        for (long i = 0; i < 10; i++) {
            encoder.encode("t", RowChange.insert(t, new Object[]{i}, TS));
        }
        // Counted at the registry: the encoder and its client together must not register again.
        assertEquals(2, standIn.registrations(), "key and value once");
        encoder.encode("other", RowChange.insert(t, new Object[]{1L}, TS));
        assertEquals(4, standIn.registrations(), "a second topic registers its own subjects");
        assertEquals(List.of("t-key", "t-value", "other-key", "other-value"), standIn.subjects());
    }

    @Test
    void extremeUnsignedValuesInBothModes() {
        ColumnInfo big = ColumnInfo.of("big", MySqlType.LONGLONG, ColumnFlags.UNSIGNED);
        ColumnInfo bits = new ColumnInfo("bits", MySqlType.BIT, 0, null, 64, -1, -1, List.of(), null);
        ColumnInfo u32 = ColumnInfo.of("u32", MySqlType.LONG, ColumnFlags.UNSIGNED);
        TableInfo t = TableInfo.of("db", "t", List.of(ID, big, bits, u32));
        Object[] row = {1L, -1L, -1L, 4294967295L};
        for (AvroOptions.BigintUnsignedHandling mode : AvroOptions.BigintUnsignedHandling.values()) {
            AvroOptions o = AvroOptions.defaults().withBigintUnsignedHandling(mode);
            AvroMessage m = new AvroEncoder(o, client()).encode("t", RowChange.insert(t, row, TS));
            assertArrayEquals(row, new AvroDecoder(client()).decode(m.key(), m.value()).after(), mode.name());
        }
    }

    @Test
    void aSetBitmaskBeyondItsElementsIsRefused() {
        ColumnInfo set = new ColumnInfo("s", MySqlType.SET, 0, null, -1, -1, -1, List.of("a", "b"), null);
        TableInfo t = TableInfo.of("db", "t", List.of(ID, set));
        CodecException e = assertThrows(CodecException.class, () -> new AvroEncoder(AvroOptions.defaults(),
                client()).encode("t", RowChange.insert(t, new Object[]{1L, 4L}, TS)));
        assertTrue(e.getMessage().contains("column s (SET) of db.t"), e.getMessage());
    }

    @Test
    void theDecoderNamesWhatIsWrongWithBadBytes() {
        TableInfo t = TableInfo.of("db", "t", List.of(ID, ColumnInfo.of("v", MySqlType.VARCHAR, 0)));
        AvroMessage m = new AvroEncoder(AvroOptions.defaults(), client())
                .encode("t", RowChange.insert(t, new Object[]{1L, "hello"}, TS));
        AvroDecoder decoder = new AvroDecoder(client());

        CodecException magic = assertThrows(CodecException.class, () -> decoder.decode(null, new byte[]{1, 2, 3, 4, 5, 6}));
        assertTrue(magic.getMessage().contains("0x01"), magic.getMessage());
        CodecException shortMsg = assertThrows(CodecException.class, () -> decoder.decode(null, new byte[]{0, 0}));
        assertTrue(shortMsg.getMessage().contains("5-byte Confluent header"), shortMsg.getMessage());
        byte[] truncated = Arrays.copyOf(m.value(), m.value().length - 2);
        CodecException cut = assertThrows(CodecException.class, () -> decoder.decode(m.key(), truncated));
        assertTrue(cut.getMessage().contains("db.t") && cut.getMessage().contains("schema id"), cut.getMessage());
        byte[] longer = Arrays.copyOf(m.value(), m.value().length + 1);
        CodecException extra = assertThrows(CodecException.class, () -> decoder.decode(m.key(), longer));
        assertTrue(extra.getMessage().contains("bytes left"), extra.getMessage());
        CodecException unknown = assertThrows(CodecException.class, () -> decoder.decode(null, new byte[]{0, 0, 0, 0, 99, 0}));
        assertTrue(unknown.getMessage().contains("schema id 99"), unknown.getMessage());
        assertThrows(CodecException.class, () -> decoder.decode(null, null));
    }

    @Test
    void aSchemaNotWrittenByTiCDCIsRefusedByName() {
        String foreign = "{\"type\":\"record\",\"name\":\"r\",\"namespace\":\"x.y\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";
        int id = client().register("foreign-value", foreign, new Schema.Parser().parse(foreign));
        CodecException e = assertThrows(CodecException.class,
                () -> new AvroDecoder(client()).decode(null, new byte[]{0, 0, 0, 0, (byte) id, 2}));
        assertTrue(e.getMessage().contains("field a") && e.getMessage().contains("tidb_type"), e.getMessage());
    }
}
