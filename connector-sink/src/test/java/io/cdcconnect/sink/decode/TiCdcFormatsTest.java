package io.cdcconnect.sink.decode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.EventEncoders;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.TestDatabase;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Open-protocol and Avro records, written by the codec's encoders as TiCDC writes them, applied to MariaDB. */
class TiCdcFormatsTest {

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo table;

    @BeforeEach
    void setUp() throws Exception {
        source = new TestDatabase("fmt_src");
        target = new TestDatabase("fmt_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        table = Rows.idValue(source.name(), "items");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private List<ChangeEvent> history() {
        List<ChangeEvent> events = new ArrayList<>();
        long ts = 1_000;
        for (int i = 0; i < 40; i++) events.add(RowChange.insert(table, new Object[]{(long) i, "v" + i}, Rows.ts(ts++)));
        events.add(RowChange.update(table, new Object[]{5L, "v5"}, new Object[]{5L, "five"}, Rows.ts(ts++)));
        events.add(RowChange.delete(table, new Object[]{6L, "v6"}, Rows.ts(ts++)));
        return events;
    }

    private static List<SinkRecord> records(EventEncoder encoder, List<ChangeEvent> events) {
        List<EncodedMessage> messages = new ArrayList<>();
        for (ChangeEvent e : events) messages.addAll(encoder.encode(TaskDriver.TOPIC, e));
        messages.addAll(encoder.flush());
        List<SinkRecord> records = new ArrayList<>();
        long offset = 0;
        for (EncodedMessage m : messages) {
            records.add(new SinkRecord(TaskDriver.TOPIC, 0, null, m.key(), null, m.value(), offset++));
        }
        return records;
    }

    @Test
    void openProtocolBatchesAndDdlAreApplied() throws Exception {
        List<ChangeEvent> events = history();
        events.add(new DdlChange(source.name(), "items", "ALTER TABLE items ADD COLUMN extra INT", DdlChange.Kind.ALTER,
                Rows.ts(5_000)));
        TableInfo wider = TableInfo.of(source.name(), "items", List.of(table.column(0), table.column(1),
                io.cdcconnect.codec.model.ColumnInfo.of("extra", io.cdcconnect.codec.model.MySqlType.LONG,
                        io.cdcconnect.codec.model.ColumnFlags.NULLABLE)));
        events.add(RowChange.insert(wider, new Object[]{100L, "after-ddl", 7L}, Rows.ts(5_001)));
        List<SinkRecord> records = records(EventEncoders.create("open-protocol", Map.of()), events);
        assertTrue(records.size() < events.size(), "rows travel in batches");
        try (TaskDriver driver = new TaskDriver(Map.of("input.format", "open-protocol", "schema.map",
                source.name() + "=" + target.name()))) {
            driver.putRecords(records);
            driver.awaitApplied(records.size());
        }
        assertEquals(40, target.count("items"));
        assertEquals(List.of(List.of("five")), target.query("SELECT v FROM items WHERE id = 5"));
        assertEquals(List.of(List.of("after-ddl", "7")), target.query("SELECT v, extra FROM items WHERE id = 100"));
    }

    @Test
    void avroRecordsAreUpsertedAndTombstonesDelete() throws Exception {
        try (RegistryStandIn registry = new RegistryStandIn()) {
            List<SinkRecord> records = records(EventEncoders.create("avro", Map.of("schema-registry", registry.url())),
                    history());
            try (TaskDriver driver = new TaskDriver(Map.of("input.format", "avro", "schema.registry.url",
                    registry.url(), "safe.mode", "never", "schema.map", source.name() + "=" + target.name()))) {
                driver.putRecords(records);
                driver.awaitApplied(records.size());
            }
        }
        assertEquals(39, target.count("items"));
        assertEquals(List.of(List.of("five")), target.query("SELECT v FROM items WHERE id = 5"));
    }

    /**
     * The two calls of the Confluent Schema Registry API the codec uses, over real HTTP. It stands in for a registry
     * (the lead's integration tests run Apicurio Registry) to keep this test fast.
     */
    static final class RegistryStandIn implements AutoCloseable {
        private final HttpServer server;
        private final Map<String, Integer> ids = new ConcurrentHashMap<>();
        private final Map<Integer, String> schemas = new ConcurrentHashMap<>();
        private final AtomicInteger next = new AtomicInteger(1);
        private final ObjectMapper json = new ObjectMapper();

        RegistryStandIn() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", this::handle);
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        private void handle(HttpExchange ex) throws IOException {
            String path = ex.getRequestURI().getPath();
            String reply;
            if (ex.getRequestMethod().equals("POST") && path.startsWith("/subjects/")) {
                JsonNode body = json.readTree(ex.getRequestBody());
                String schema = body.get("schema").asText();
                int id = ids.computeIfAbsent(schema, s -> next.getAndIncrement());
                schemas.put(id, schema);
                reply = json.createObjectNode().put("id", id).toString();
            } else if (path.startsWith("/schemas/ids/")) {
                String schema = schemas.get(Integer.parseInt(path.substring("/schemas/ids/".length())));
                reply = json.createObjectNode().put("schema", schema).toString();
            } else {
                ex.sendResponseHeaders(404, -1);
                ex.close();
                return;
            }
            byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
            ex.sendResponseHeaders(200, bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
