package io.cdcconnect.sink.decode;

import io.cdcconnect.codec.CodecOptions;
import io.cdcconnect.codec.ConverterRules;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.StringConverter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The converter rules against Kafka Connect's real converters: what the format registry says a converter keeps whole
 * ({@link WireFormat#readableThrough}, {@link WireFormat#WRITE_CONVERTER}) is what happens when each format's encoded
 * messages go through that converter on the producer side and on the consumer side and the sink's decoder reads them;
 * and which transformations the connectors warn about.
 */
class ConverterRulesTest {

    private static final TableInfo T = TableInfo.of("shop", "orders", List.of(
            ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("note", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
    private static final String TOPIC = "shop.orders";

    private static final Map<String, Supplier<Converter>> CONVERTERS = Map.of(
            WireFormat.BYTE_ARRAY_CONVERTER, ByteArrayConverter::new,
            WireFormat.STRING_CONVERTER, StringConverter::new,
            "org.apache.kafka.connect.json.JsonConverter", JsonConverter::new);

    private static StandInSchemaRegistry registry;

    @BeforeAll
    static void startRegistry() throws Exception {
        registry = StandInSchemaRegistry.start();
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) registry.close();
    }

    private static Converter converter(String className, boolean key) {
        Converter c = CONVERTERS.get(className).get();
        c.configure(Map.of(), key);
        return c;
    }

    private record Case(WireFormat format, String compression) {
        Map<String, String> options() {
            Map<String, String> o = new HashMap<>();
            if (format.needsSchemaRegistry()) o.put("schema-registry", registry.url());
            if (compression != null) o.put(CodecOptions.COMPRESSION, compression);
            return o;
        }

        boolean compressed() {
            return compression != null;
        }
    }

    private static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (WireFormat f : WireFormat.values()) {
            if (!f.encodable()) continue;
            out.add(new Case(f, null));
            if (f.largeMessageHandling()) out.add(new Case(f, "lz4"));
        }
        return out;
    }

    private static List<EncodedMessage> messages(Case c) {
        EventEncoder enc = c.format().encoder(c.options());
        List<EncodedMessage> out = new ArrayList<>();
        // ids from 1000 (multi-byte varints in Avro) and notes of growing length (Open-protocol's length prefixes
        // take every low byte): binary formats then hold bytes that are not UTF-8 text
        for (long id = 1000; id < 1008; id++) {
            String note = "note é \u00ff\u0001 " + "x".repeat((int) (id - 1000) * 37);
            ChangeEvent e = RowChange.insert(T, new Object[] {id, note}, id << 18);
            out.addAll(enc.encode(TOPIC, e));
        }
        out.addAll(enc.flush());
        assertFalse(out.isEmpty());
        return out;
    }

    /** What the sink's decoder makes of a record whose key and value reached it as given; null if it refuses it. */
    private static String decoded(Case c, Object key, Object value) {
        CodecRecordDecoder d = new CodecRecordDecoder(c.format().decoder(c.options()), c.format().nullValueIsTombstone());
        try {
            StringBuilder sb = new StringBuilder();
            for (ChangeEvent e : d.decode(new SinkRecord(TOPIC, 0, null, key, null, value, 0))) {
                RowChange r = (RowChange) e;
                sb.append(r.op()).append(' ').append(r.table().table()).append(' ')
                        .append(Arrays.deepToString(r.after())).append('\n');
            }
            return sb.toString();
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Test
    void whatTheRegistrySaysASinkConverterKeepsWholeIsWhatTheDecoderGetsWhole() {
        int whole = 0;
        int broken = 0;
        for (Case c : cases()) {
            for (EncodedMessage m : messages(c)) {
                String expected = decoded(c, m.key(), m.value());
                assertTrue(expected != null && !expected.isEmpty(), c + " decodes its own bytes");
                for (String className : CONVERTERS.keySet()) {
                    Object key;
                    Object value;
                    try {
                        key = m.key() == null ? null
                                : converter(className, true).toConnectData(TOPIC, m.key()).value();
                        value = converter(className, false).toConnectData(TOPIC, m.value()).value();
                    } catch (RuntimeException e) {
                        key = null;
                        value = null; // the converter refuses the bytes: the task would fail
                    }
                    boolean keptWhole = value != null && expected.equals(decoded(c, key, value));
                    boolean valueRule = c.format().readableThrough(className, c.compressed());
                    boolean keyRule = m.key() == null || c.format().readableThrough(className, c.compressed());
                    assertEquals(keptWhole, valueRule && keyRule, c + " through " + className);
                    if (keptWhole) whole++;
                    else broken++;
                }
            }
        }
        assertTrue(whole > 0 && broken > 0, whole + " kept whole, " + broken + " broken");
    }

    @Test
    void onlyTheWriteConverterWritesTheSourcesBytesUnchanged() {
        for (Case c : cases()) {
            for (EncodedMessage m : messages(c)) {
                for (String className : CONVERTERS.keySet()) {
                    byte[] wire = converter(className, false).fromConnectData(TOPIC, Schema.OPTIONAL_BYTES_SCHEMA,
                            m.value());
                    assertEquals(className.equals(WireFormat.WRITE_CONVERTER), Arrays.equals(m.value(), wire),
                            c + " written through " + className);
                    List<ConverterRules.Problem> problems = ConverterRules.forProducer(c.format(),
                            Map.of("value.converter", className));
                    assertEquals(!className.equals(WireFormat.WRITE_CONVERTER), !problems.isEmpty(),
                            c + " " + className + ": " + problems);
                }
            }
        }
    }

    @Test
    void aConsumerIsToldOnTheSettingAtFaultWithTheFix() {
        List<ConverterRules.Problem> p = ConverterRules.forConsumer(WireFormat.OPEN_PROTOCOL, false, Map.of(
                "key.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter", WireFormat.STRING_CONVERTER));
        assertEquals(List.of("key.converter", "value.converter"), p.stream().map(ConverterRules.Problem::setting)
                .toList(), p.toString());
        assertTrue(p.get(1).message().endsWith("set value.converter=" + WireFormat.BYTE_ARRAY_CONVERTER), p.toString());
        // Canal-JSON has no key: its key converter is not the sink's concern; text is fine unless compressed
        assertEquals(List.of(), ConverterRules.forConsumer(WireFormat.CANAL_JSON, false, Map.of(
                "key.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter", WireFormat.STRING_CONVERTER)));
        assertEquals(1, ConverterRules.forConsumer(WireFormat.CANAL_JSON, true, Map.of(
                "value.converter", WireFormat.STRING_CONVERTER)).size());
        // not set: the worker's default, which the connector cannot see
        assertEquals(List.of(), ConverterRules.forConsumer(WireFormat.AVRO, false, Map.of()));
        // Debezium envelopes need Structs: the byte and text converters, and JSON without schemas, yield none
        assertEquals(2, ConverterRules.forConsumer(WireFormat.DEBEZIUM, false, Map.of(
                "key.converter", WireFormat.STRING_CONVERTER, "value.converter", WireFormat.BYTE_ARRAY_CONVERTER))
                .size());
        List<ConverterRules.Problem> schemaless = ConverterRules.forConsumer(WireFormat.DEBEZIUM, false, Map.of(
                "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable", "false"));
        assertEquals(1, schemaless.size(), schemaless.toString());
        assertTrue(schemaless.get(0).message().contains("set value.converter.schemas.enable=true"));
        // JsonConverter hands a null over as the schema's default (Debezium's: the column's DEFAULT) unless told not to
        List<ConverterRules.Problem> defaults = ConverterRules.forConsumer(WireFormat.DEBEZIUM, false, Map.of(
                "value.converter", "org.apache.kafka.connect.json.JsonConverter"));
        assertEquals(1, defaults.size(), defaults.toString());
        assertEquals("value.converter", defaults.get(0).setting());
        assertTrue(defaults.get(0).message().contains("set value.converter.replace.null.with.default=false"),
                defaults.toString());
        assertEquals(List.of(), ConverterRules.forConsumer(WireFormat.DEBEZIUM, false, Map.of(
                "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "value.converter.replace.null.with.default", "false")));
        // the key converter's keys are never null: nothing to say there
        assertEquals(List.of(), ConverterRules.forConsumer(WireFormat.DEBEZIUM, false, Map.of(
                "key.converter", "org.apache.kafka.connect.json.JsonConverter")));
    }

    @Test
    void transformsThatMayChangeTheBytesAreNamedHeaderOnlyOnesAreNot() {
        Map<String, String> props = new HashMap<>();
        props.put("transforms", "drop, hdr,mask ,route");
        props.put("transforms.drop.type", "org.apache.kafka.connect.transforms.Filter");
        props.put("transforms.hdr.type", "org.apache.kafka.connect.transforms.InsertHeader");
        props.put("transforms.mask.type", "org.apache.kafka.connect.transforms.MaskField$Value");
        props.put("transforms.route.type", "org.apache.kafka.connect.transforms.RegexRouter");
        props.put("transforms.move.type", "org.apache.kafka.connect.transforms.HeaderFrom$Value");
        props.put("transforms", "drop, hdr,mask ,route,move");
        assertEquals(List.of("mask (org.apache.kafka.connect.transforms.MaskField$Value)",
                "move (org.apache.kafka.connect.transforms.HeaderFrom$Value)"),
                ConverterRules.valueChangingTransforms(props));
        String w = ConverterRules.transformWarning("sink cdc-sink", WireFormat.CANAL_JSON, props);
        assertTrue(w.startsWith("sink cdc-sink: transforms mask (") && w.contains("DropHeaders, Filter, InsertHeader, RegexRouter, TimestampRouter"),
                w);
        // Debezium's Structs are what transformations are for
        assertNull(ConverterRules.transformWarning("sink", WireFormat.DEBEZIUM, props));
        props.put("transforms", "drop,hdr,route");
        assertNull(ConverterRules.transformWarning("sink", WireFormat.CANAL_JSON, props));
        assertNull(ConverterRules.transformWarning("sink", WireFormat.CANAL_JSON, Map.of()));
    }
}
