package io.cdcconnect.codec.avro;

import io.cdcconnect.testsupport.registry.ApicurioRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.UnavailableException;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Avro encoder and decoder against a real schema registry: Apicurio Registry 3.0.9 run as a child JVM, spoken
 * to through its Confluent-compatible API. The last test stops the registry to check behaviour when it is down.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AvroApicurioRegistryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TS = (1_763_800_000_000L << 18) | 7;
    private static ApicurioRegistry server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void startRegistry() throws Exception {
        server = ApicurioRegistry.start();
    }

    @AfterAll
    static void stopRegistry() {
        if (server != null) server.close();
        assertFalse(server != null && server.isRunning(), "the registry process is stopped");
    }

    private static TableInfo orders(boolean withNote) {
        List<ColumnInfo> cols = new ArrayList<>(List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                new ColumnInfo("amount", MySqlType.NEWDECIMAL, ColumnFlags.NULLABLE, null, 12, 2, -1, List.of(), null),
                new ColumnInfo("state", MySqlType.ENUM, 0, null, -1, -1, -1, List.of("new", "paid"), null)));
        if (withNote) {
            cols.add(ColumnInfo.of("note", MySqlType.VARCHAR, ColumnFlags.NULLABLE));
        }
        return TableInfo.of("shop", "orders", cols);
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private static int envelopeId(byte[] message) {
        assertEquals(0, message[0], "Confluent magic byte");
        return ByteBuffer.wrap(message, 1, 4).getInt();
    }

    @Test
    @Order(1)
    void subjectsAreTheTopicWithDotsReplacedPlusKeyAndValue() throws Exception {
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url())) {
            new AvroEncoder(AvroOptions.defaults(), client).encode("cdc.shop.orders",
                    RowChange.insert(orders(false), new Object[]{1L, new BigDecimal("9.99"), 1L}, TS));
        }
        List<String> subjects = new ArrayList<>();
        get("/subjects").forEach(n -> subjects.add(n.asText()));
        assertTrue(subjects.contains("cdc_shop_orders-key"), subjects.toString());
        assertTrue(subjects.contains("cdc_shop_orders-value"), subjects.toString());
    }

    @Test
    @Order(2)
    void messagesCarryTheRegisteredIdInTheConfluentEnvelope() throws Exception {
        AvroMessage m;
        AvroOptions options = AvroOptions.defaults().withTidbExtension(true);
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url())) {
            m = new AvroEncoder(options, client).encode("envelope.topic",
                    RowChange.insert(orders(false), new Object[]{42L, new BigDecimal("-12.50"), 2L}, TS));
        }
        JsonNode latestValue = get("/subjects/envelope_topic-value/versions/latest");
        JsonNode latestKey = get("/subjects/envelope_topic-key/versions/latest");
        assertEquals(latestValue.get("id").asInt(), envelopeId(m.value()));
        assertEquals(latestKey.get("id").asInt(), envelopeId(m.key()));

        // The registry stored our schema; a plain Avro reader with the registry's text reads the body.
        Schema stored = new Schema.Parser().parse(latestValue.get("schema").asText());
        assertEquals(new AvroSchemaBuilder(options).build(orders(false)).valueSchema(), stored);
        GenericRecord rec = AvroTicdcVectorsTest.readRaw(m.value(), stored);
        assertEquals(42L, rec.get("id"));
        assertEquals("paid", rec.get("state").toString());
        assertEquals("c", rec.get("_tidb_op").toString());
        assertEquals(TS, rec.get("_tidb_commit_ts"));
        Schema storedKey = new Schema.Parser().parse(latestKey.get("schema").asText());
        assertEquals(42L, AvroTicdcVectorsTest.readRaw(m.key(), storedKey).get("id"));
    }

    @Test
    @Order(3)
    void aTableThatGainsAColumnRegistersANewVersionAndBothDecode() throws Exception {
        AvroMessage before;
        AvroMessage after;
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url())) {
            AvroEncoder encoder = new AvroEncoder(AvroOptions.defaults(), client);
            before = encoder.encode("evolve", RowChange.insert(orders(false),
                    new Object[]{1L, null, 1L}, TS));
            // Same table version again: no new registration.
            encoder.encode("evolve", RowChange.insert(orders(false), new Object[]{2L, null, 1L}, TS));
            after = encoder.encode("evolve", RowChange.insert(orders(true),
                    new Object[]{3L, new BigDecimal("1.00"), 2L, "gift"}, TS));
        }
        JsonNode versions = get("/subjects/evolve-value/versions");
        assertEquals(2, versions.size(), versions.toString());
        assertEquals(1, get("/subjects/evolve-key/versions").size());
        assertNotEquals(envelopeId(before.value()), envelopeId(after.value()));
        assertEquals(envelopeId(before.key()), envelopeId(after.key()));

        // A decoder with an empty cache fetches both writer schemas by id.
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url())) {
            AvroDecoder decoder = new AvroDecoder(client);
            RowChange old = decoder.decode(before.key(), before.value());
            assertEquals(3, old.table().columnCount());
            assertArrayEquals(new Object[]{1L, null, 1L}, old.after());
            RowChange neu = decoder.decode(after.key(), after.value());
            assertEquals(4, neu.table().columnCount());
            assertEquals("note", neu.table().column(3).name());
            assertArrayEquals(new Object[]{3L, new BigDecimal("1.00"), 2L, "gift"}, neu.after());
            assertEquals(List.of("id"), neu.table().primaryKeyNames());
        }
    }

    @Test
    @Order(4)
    void deletesAreTombstonesDecodedFromTheKey() {
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url())) {
            AvroMessage m = new AvroEncoder(AvroOptions.defaults(), client).encode("deletes",
                    RowChange.delete(orders(false), new Object[]{5L, null, 1L}, TS));
            assertNull(m.value());
            RowChange d = new AvroDecoder(new HttpSchemaRegistryClient(server.url())).decode(m.key(), null);
            assertEquals(RowChange.Op.DELETE, d.op());
            assertEquals("shop.orders", d.table().toString());
            assertArrayEquals(new Object[]{5L}, d.before());
        }
    }

    @Test
    @Order(5)
    void anUnknownSchemaIdIsAClearError() {
        byte[] bogus = {0, 0, 0, 0x7F, 0x7F, 2};
        String url = server.url();
        CodecException e = assertThrows(CodecException.class,
                () -> new AvroDecoder(new HttpSchemaRegistryClient(url)).decode(null, bogus));
        assertTrue(e.getMessage().contains("schema id 32639"), e.getMessage());
        assertTrue(e.getMessage().contains(url), e.getMessage());
        assertTrue(e.getMessage().contains("HTTP 404"), e.getMessage());
    }

    @Test
    @Order(6)
    void credentialsInTheUrlAreSentButNeverShown() {
        // Apicurio runs without authentication here and ignores the header: this checks only that a URL with user
        // info works and that the secret stays out of what the client prints.
        String withSecret = server.url().replace("http://", "http://alice:s3cret-pw@");
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(withSecret)) {
            assertEquals(server.url(), client.describe());
            AvroMessage m = new AvroEncoder(AvroOptions.defaults(), client).encode("auth.topic",
                    RowChange.insert(orders(false), new Object[]{7L, null, 1L}, TS));
            assertEquals(7L, new AvroDecoder(client).decode(m.key(), m.value()).after()[0]);
            CodecException e = assertThrows(CodecException.class, () -> client.schemaById(999_999));
            assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
            assertFalse(e.getMessage().contains("alice"), e.getMessage());
        }
    }

    @Test
    @Order(7)
    void aRegistryThatCannotBeReachedIsNamedWithoutCredentials() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String url = "http://bob:hunter2@127.0.0.1:" + closedPort + "/apis/ccompat/v7";
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url, null, null, Duration.ofSeconds(2))) {
            AvroEncoder encoder = new AvroEncoder(AvroOptions.defaults(), client);
            // an outage, not a bad row: the caller retries it, and never treats it as bad data
            UnavailableException e = assertThrows(UnavailableException.class, () -> encoder.encode("down.topic",
                    RowChange.insert(orders(false), new Object[]{1L, null, 1L}, TS)));
            assertTrue(e.getMessage().contains("http://127.0.0.1:" + closedPort + "/apis/ccompat/v7"), e.getMessage());
            assertTrue(e.getMessage().contains("subject 'down_topic-"), e.getMessage());
            assertTrue(e.getMessage().contains("could not be reached"), e.getMessage());
            assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        }
    }

    @Test
    @Order(8)
    void aSchemaChangeTheRegistryRefusesIsAnErrorWithItsCode() throws Exception {
        HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(
                        URI.create(server.url() + "/config/strict-value"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"BACKWARD\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, put.statusCode(), put.body());
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url())) {
            AvroEncoder encoder = new AvroEncoder(AvroOptions.defaults(), client);
            encoder.encode("strict", RowChange.insert(orders(false), new Object[]{1L, null, 1L}, TS));
            // A NOT NULL column without default: readers of the new schema cannot read old records.
            List<ColumnInfo> cols = new ArrayList<>(orders(false).columns());
            cols.add(ColumnInfo.of("required", MySqlType.LONG, 0));
            TableInfo changed = TableInfo.of("shop", "orders", cols);
            CodecException e = assertThrows(CodecException.class, () -> encoder.encode("strict",
                    RowChange.insert(changed, new Object[]{2L, null, 1L, 5L}, TS)));
            assertTrue(e.getMessage().contains("subject 'strict-value'"), e.getMessage());
            assertTrue(e.getMessage().contains("HTTP 409"), e.getMessage());
        }
    }

    @Test
    @Order(9)
    void theAvroFormatThroughTheProtocolNeutralFactory() {
        java.util.Map<String, String> options = java.util.Map.of(
                AvroCodecFactory.SCHEMA_REGISTRY, server.url(),
                io.cdcconnect.codec.CodecOptions.ENABLE_TIDB_EXTENSION, "true");
        io.cdcconnect.codec.EventEncoder encoder = io.cdcconnect.codec.EventEncoders.create("avro", options);
        assertEquals("avro", encoder.format());
        assertTrue(io.cdcconnect.codec.EventEncoders.formats().contains("avro"));
        // DDL and watermarks have no Avro message: they are counted by the next row's message.
        assertEquals(List.of(), encoder.encode("factory.topic", new io.cdcconnect.codec.model.DdlChange("shop", "orders",
                "ALTER TABLE orders ADD note varchar(20)", io.cdcconnect.codec.model.DdlChange.Kind.ALTER, TS)));
        assertEquals(List.of(), encoder.encode("factory.topic", new io.cdcconnect.codec.model.Watermark(TS)));
        List<io.cdcconnect.codec.EncodedMessage> out = encoder.encode("factory.topic",
                RowChange.update(orders(false), new Object[]{4L, null, 1L}, new Object[]{4L, null, 2L}, TS + 1));
        assertEquals(1, out.size());
        io.cdcconnect.codec.EncodedMessage m = out.get(0);
        assertEquals(io.cdcconnect.codec.EncodedMessage.Kind.ROW, m.kind());
        assertEquals(3, m.events());
        assertEquals(1, m.rows());
        assertEquals(TS + 1, m.commitTs());
        assertEquals(List.of(), encoder.flush());

        List<io.cdcconnect.codec.model.ChangeEvent> back = io.cdcconnect.codec.EventEncoders
                .decoder("avro", java.util.Map.of(AvroCodecFactory.SCHEMA_REGISTRY, server.url()))
                .decode(m.key(), m.value());
        RowChange row = (RowChange) back.get(0);
        assertEquals(RowChange.Op.UPDATE, row.op());
        assertEquals(TS + 1, row.commitTs());
        assertArrayEquals(new Object[]{4L, null, 2L}, row.after());
    }

    @Test
    @Order(10)
    void aMessageOverMaxMessageBytesFailsNamingTableAndSize() {
        io.cdcconnect.codec.EventEncoder encoder = io.cdcconnect.codec.EventEncoders.create("avro", java.util.Map.of(
                AvroCodecFactory.SCHEMA_REGISTRY, server.url(),
                io.cdcconnect.codec.CodecOptions.MAX_MESSAGE_BYTES, "60"));
        CodecException e = assertThrows(CodecException.class, () -> encoder.encode("big.topic",
                RowChange.insert(orders(true), new Object[]{1L, null, 1L, "x".repeat(100)}, TS)));
        assertTrue(e.getMessage().contains("shop.orders"), e.getMessage());
        assertTrue(e.getMessage().contains("max-message-bytes 60"), e.getMessage());
    }

    @Test
    @Order(100)
    void afterTheRegistryGoesDownCachedSchemasStillDecodeAndNewIdsFailClearly() {
        HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url(), null, null, Duration.ofSeconds(2));
        AvroMessage m = new AvroEncoder(AvroOptions.defaults(), new HttpSchemaRegistryClient(server.url()))
                .encode("cache.topic", RowChange.insert(orders(true), new Object[]{9L, null, 1L, "x"}, TS));
        AvroDecoder decoder = new AvroDecoder(client);
        assertEquals(9L, decoder.decode(m.key(), m.value()).after()[0]);

        server.close();
        assertFalse(server.isRunning());

        // Both ids were fetched once and cached: decoding needs no registry now.
        assertEquals("x", new AvroDecoder(client).decode(m.key(), m.value()).after()[3]);
        byte[] unknown = m.value().clone();
        unknown[4] = (byte) (unknown[4] + 100);
        // the registry is down, not the message wrong: an outage, which the sink retries instead of dead-lettering
        UnavailableException e = assertThrows(UnavailableException.class, () -> decoder.decode(null, unknown));
        assertTrue(e.getMessage().contains("could not be reached"), e.getMessage());
        assertTrue(e.getMessage().contains(server.url()), e.getMessage());
        assertTrue(e.getMessage().contains("schema id " + envelopeId(unknown)), e.getMessage());
    }
}
