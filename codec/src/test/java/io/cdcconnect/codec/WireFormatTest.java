package io.cdcconnect.codec;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The format registry: names, and that what each format declares it carries is what its codec really does. */
class WireFormatTest {

    private static final TableInfo T = TableInfo.of("shop", "orders", List.of(
            ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("note", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
    private static final String TOPIC = "shop.orders";

    private static StandInSchemaRegistry registry;

    @BeforeAll
    static void startRegistry() throws Exception {
        registry = StandInSchemaRegistry.start();
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) registry.close();
    }

    private static Map<String, String> options(WireFormat f, boolean tidbExtension) {
        Map<String, String> o = new HashMap<>();
        o.put(CodecOptions.ENABLE_TIDB_EXTENSION, Boolean.toString(tidbExtension));
        if (f.needsSchemaRegistry()) o.put("schema-registry", registry.url());
        return o;
    }

    private static RowChange row(long id, String note) {
        return RowChange.insert(T, new Object[] {id, note}, id << 18);
    }

    /** Everything the encoder writes for the events, flushed. */
    private static List<EncodedMessage> encode(EventEncoder enc, ChangeEvent... events) {
        List<EncodedMessage> out = new ArrayList<>();
        for (ChangeEvent e : events) out.addAll(enc.encode(TOPIC, e));
        out.addAll(enc.flush());
        return out;
    }

    private static List<WireFormat> encodable() {
        return List.of(WireFormat.values()).stream().filter(WireFormat::encodable).toList();
    }

    @Test
    void everyFormatIsFoundByItsNameInAnyCase() {
        for (WireFormat f : WireFormat.values()) {
            assertSame(f, WireFormat.named(f.configName()));
            assertSame(f, WireFormat.named("  " + f.configName().toUpperCase() + " "));
            assertEquals(f.configName(), f.toString());
        }
        assertEquals(List.of("canal-json", "open-protocol", "avro", "debezium"), WireFormat.names(f -> true));
        assertEquals(List.of("canal-json", "open-protocol", "avro"), WireFormat.names(WireFormat::encodable));
        assertEquals(java.util.Set.of("canal-json", "open-protocol", "avro"), EventEncoders.formats());
    }

    @Test
    void anUnknownNameFailsListingTheRegistrysNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WireFormat.named("protobuf"));
        assertTrue(e.getMessage().contains("'protobuf'"), e.getMessage());
        for (String name : WireFormat.names(f -> true)) assertTrue(e.getMessage().contains(name), e.getMessage());
        IllegalArgumentException viaEncoders = assertThrows(IllegalArgumentException.class,
                () -> EventEncoders.create("protobuf", Map.of()));
        assertEquals(e.getMessage(), viaEncoders.getMessage());
    }

    @Test
    void debeziumIsDeclaredButNeitherEncodedNorDecodedByTheCodec() {
        WireFormat d = WireFormat.named("debezium");
        assertTrue(!d.encodable() && !d.codecDecoded() && !d.available());
        IllegalArgumentException enc = assertThrows(IllegalArgumentException.class,
                () -> WireFormat.encodable("debezium"));
        assertTrue(enc.getMessage().contains("canal-json, open-protocol, avro"), enc.getMessage());
        IllegalArgumentException dec = assertThrows(IllegalArgumentException.class,
                () -> EventDecoders.create("debezium", Map.of()));
        assertTrue(dec.getMessage().contains("sink"), dec.getMessage());
    }

    @Test
    void aFormatEncodesAndDecodesUnderItsOwnName() {
        for (WireFormat f : encodable()) {
            EventEncoder enc = f.encoder(options(f, false));
            assertEquals(f.configName(), enc.format());
            EncodedMessage m = encode(enc, row(1, "a")).get(0);
            EventDecoder dec = f.decoder(options(f, false));
            assertEquals(f.configName(), dec.format());
            RowChange back = (RowChange) dec.decode(m.key(), m.value()).get(0);
            assertEquals(1L, ((Number) back.after()[0]).longValue(), f.configName());
            assertEquals("a", back.after()[1], f.configName());
        }
    }

    @Test
    void watermarksAreWrittenExactlyWhereTheRegistrySaysTheyAreCarried() {
        for (WireFormat f : encodable()) {
            for (boolean ext : new boolean[] {false, true}) {
                List<EncodedMessage> out = encode(f.encoder(options(f, ext)), new Watermark(7L << 18));
                String what = f + (ext ? " with" : " without") + " the TiDB extension";
                if (f.carriesWatermarks(ext)) {
                    assertEquals(1, out.size(), what);
                    assertEquals(EncodedMessage.Kind.WATERMARK, out.get(0).kind(), what);
                    List<ChangeEvent> back = f.decoder(options(f, ext)).decode(out.get(0).key(), out.get(0).value());
                    assertEquals(new Watermark(7L << 18), back.get(0), what);
                } else {
                    assertEquals(List.of(), out, what + ": dropped, counted by the next message");
                    EncodedMessage next = encode(f.encoder(options(f, ext)), new Watermark(1), row(2, "b")).get(0);
                    assertEquals(2, next.events(), what);
                }
            }
        }
        assertTrue(WireFormat.OPEN_PROTOCOL.carriesWatermarks(false));
        assertTrue(!WireFormat.CANAL_JSON.carriesWatermarks(false) && WireFormat.CANAL_JSON.carriesWatermarks(true));
        assertTrue(!WireFormat.AVRO.carriesWatermarks(true));
    }

    @Test
    void ddlIsWrittenExactlyWhereTheRegistrySaysItIsCarried() {
        DdlChange ddl = new DdlChange("shop", "orders", "ALTER TABLE orders ADD x INT", DdlChange.Kind.ALTER, 9L << 18);
        for (WireFormat f : encodable()) {
            List<EncodedMessage> out = encode(f.encoder(options(f, true)), ddl);
            if (f.carriesDdl()) {
                assertEquals(EncodedMessage.Kind.DDL, out.get(0).kind(), f.configName());
                DdlChange back = (DdlChange) f.decoder(options(f, true)).decode(out.get(0).key(), out.get(0).value())
                        .get(0);
                assertEquals(ddl.query(), back.query(), f.configName());
            } else {
                assertEquals(List.of(), out, f.configName());
            }
        }
        assertTrue(WireFormat.OPEN_PROTOCOL.ddlOnEveryPartition() && !WireFormat.CANAL_JSON.ddlOnEveryPartition());
    }

    @Test
    void keysAndRowsPerMessageAreAsDeclared() {
        for (WireFormat f : encodable()) {
            Map<String, String> o = options(f, false);
            o.put(CodecOptions.MAX_BATCH_SIZE, "10");
            List<EncodedMessage> out = encode(f.encoder(o), row(1, "a"), row(2, "b"), row(3, "c"));
            assertEquals(f.batchesRows() ? 1 : 3, out.size(), f.configName());
            assertEquals(f.batchesRows() ? 3 : 1, out.get(0).rows(), f.configName());
            switch (f.key()) {
                case NONE -> assertNull(out.get(0).key(), f.configName());
                case BATCH_KEY -> {
                    assertNotNull(out.get(0).key(), f.configName());
                    EventDecoder dec = f.decoder(o);
                    assertThrows(CodecException.class, () -> dec.decode(null, out.get(0).value()),
                            "the batch key is needed to decode");
                }
                case HANDLE_KEY -> assertNotNull(out.get(0).key(), f.configName());
                case PRIMARY_KEY_STRUCT -> throw new AssertionError("not a codec format: " + f);
            }
        }
    }

    @Test
    void onlyAFormatThatTellsUpdatesFromInsertsDecodesAnUpdate() {
        RowChange update = RowChange.update(T, new Object[] {1L, "a"}, new Object[] {1L, "b"}, 5L << 18);
        for (WireFormat f : encodable()) {
            EncodedMessage m = encode(f.encoder(options(f, false)), update).get(0);
            RowChange back = (RowChange) f.decoder(options(f, false)).decode(m.key(), m.value()).get(0);
            assertEquals(f.tellsUpdatesFromInserts() ? RowChange.Op.UPDATE : RowChange.Op.INSERT, back.op(),
                    f.configName());
        }
    }

    @Test
    void aNullValueOfAFormatWithAHandleKeyIsADelete() {
        WireFormat f = WireFormat.AVRO;
        assertTrue(!f.nullValueIsTombstone() && f.key() == WireFormat.Key.HANDLE_KEY);
        EncodedMessage m = encode(f.encoder(options(f, false)), row(4, "d")).get(0);
        RowChange back = (RowChange) f.decoder(options(f, false)).decode(m.key(), null).get(0);
        assertEquals(RowChange.Op.DELETE, back.op());
        assertTrue(WireFormat.CANAL_JSON.nullValueIsTombstone() && WireFormat.DEBEZIUM.nullValueIsTombstone());
    }

    @Test
    void theSchemaRegistryAndLargeMessageHandlingAreNeededAndRefusedAsDeclared() {
        for (WireFormat f : encodable()) {
            Map<String, String> compressed = options(f, true);
            compressed.put(CodecOptions.COMPRESSION, "snappy");
            if (f.largeMessageHandling()) {
                f.checkEncoderOptions(compressed);
                EncodedMessage m = encode(f.encoder(compressed), row(5, "e")).get(0);
                Map<String, String> d = Map.of(CodecOptions.COMPRESSION, "snappy");
                assertInstanceOf(RowChange.class, f.decoder(d).decode(m.key(), m.value()).get(0), f.configName());
            } else {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> f.checkEncoderOptions(compressed));
                assertTrue(e.getMessage().contains(CodecOptions.COMPRESSION), e.getMessage());
            }
            Map<String, String> noRegistry = new HashMap<>(options(f, false));
            noRegistry.remove("schema-registry");
            if (f.needsSchemaRegistry()) {
                assertThrows(IllegalArgumentException.class, () -> f.checkEncoderOptions(noRegistry));
                assertThrows(IllegalArgumentException.class, () -> f.encoder(noRegistry));
            } else {
                f.checkEncoderOptions(noRegistry);
                f.encoder(noRegistry);
            }
        }
    }

    @Test
    void theDocumentationComesFromTheDeclarations() {
        String all = WireFormat.describe(f -> true);
        for (WireFormat f : WireFormat.values()) assertTrue(all.contains("'" + f.configName() + "' ("), all);
        assertTrue(all.contains(") or 'debezium' ("), all);
        assertTrue(WireFormat.AVRO.describe().contains("needs a schema registry"));
        assertTrue(WireFormat.CANAL_JSON.describe().contains("watermarks with the TiDB extension"));
        String table = WireFormat.markdownTable();
        assertEquals(WireFormat.values().length + 2, table.split("\n").length);
        assertTrue(table.contains("| `debezium` | no | sink |"), table);
    }
}
