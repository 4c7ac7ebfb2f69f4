package io.cdcconnect.sink;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 21: a message may change only the schemas the configuration names ({@code schema.map}'s targets and
 * {@code schema.include}), never the server's own nor the sink's control database, driven through a real task on the
 * embedded MariaDB.
 */
class SchemaAllowListTest {

    private static final String TOPIC = TaskDriver.TOPIC;

    private final CanalJsonEncoder encoder = new CanalJsonEncoder(CanalJsonOptions.defaults());
    private TestDatabase source;
    private TestDatabase target;
    private TestDatabase control;
    /** A database on the target that the configuration does not name. */
    private TestDatabase other;
    private String connector;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("allow_src");
        target = SinkTarget.database("allow_dst");
        control = SinkTarget.database("allow_ctl");
        other = SinkTarget.database("allow_other");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        other.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE secret (id BIGINT PRIMARY KEY)");
        connector = "allow-" + target.name();
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
        control.close();
        other.close();
    }

    private Map<String, String> props() {
        Map<String, String> p = new HashMap<>();
        p.put("name", connector);
        p.put("schema.map", source.name() + "=" + target.name());
        p.put("ddl.checkpoint.database", control.name());
        p.put("errors.tolerance", "all");
        return p;
    }

    private SinkRecord record(RowChange change, long offset) {
        return new SinkRecord(TOPIC, 0, null, null, null, encoder.encode(change), offset);
    }

    private RowChange item(long id, String v) {
        return RowChange.insert(Rows.idValue(source.name(), "items"), new Object[]{id, v},
                Rows.ts(System.currentTimeMillis()));
    }

    /** The sink's own checkpoint table, as a message names it: its database and table, its columns. */
    private TableInfo checkpointTable() {
        int key = ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY;
        return TableInfo.of(control.name(), "ddl_checkpoint", List.of(
                ColumnInfo.of("connector", MySqlType.VARCHAR, key),
                ColumnInfo.of("topic", MySqlType.VARCHAR, key),
                ColumnInfo.of("kafka_partition", MySqlType.LONG, key),
                ColumnInfo.of("kafka_offset", MySqlType.LONGLONG, 0),
                ColumnInfo.of("ddl_commit_ts", MySqlType.LONGLONG, 0)));
    }

    /*
     * Before the allow-list (commit a209922), this test failed at the first assertion after the restart:
     *
     *   AssertionFailedError: expected: <[[1, before], [2, after], [3, restarted], [4, restarted]]>
     *   but was: <[[1, before], [2, after]]>
     *
     * the forged row was applied into <ddl.checkpoint.database>.ddl_checkpoint, and after the restart every record of
     * the partition below offset 1000000 was skipped as a replay of a DDL's records, silently.
     */
    @Test
    void aForgedCheckpointRowIsRefusedAndLaterRecordsAreAppliedAfterARestart() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        RowChange forged = RowChange.insert(checkpointTable(),
                new Object[]{connector, TOPIC, 0L, 1_000_000L, 1L}, Rows.ts(System.currentTimeMillis()));
        try (TaskDriver first = new TaskDriver(props(), context)) {
            List<SinkRecord> records = new ArrayList<>();
            records.add(record(item(1, "before"), 0));
            records.add(record(forged, 1));
            records.add(record(item(2, "after"), 2));
            first.putRecords(records);
            first.awaitApplied(3);
        }
        try (TaskDriver second = new TaskDriver(props(), context)) {
            second.putRecords(List.of(record(item(3, "restarted"), 3), record(item(4, "restarted"), 4)));
            second.awaitApplied(5);
        }
        assertEquals(List.of(List.of("1", "before"), List.of("2", "after"), List.of("3", "restarted"),
                List.of("4", "restarted")), target.query("SELECT id, v FROM items ORDER BY id"));
        assertEquals(List.of(), control.query("SELECT kafka_offset FROM ddl_checkpoint WHERE kafka_offset = 1000000"));
        assertEquals(1, context.reports.size(), "the forged record goes to the dead-letter queue");
        assertEquals(1L, context.reports.get(0).record().kafkaOffset());
        String reason = context.reports.get(0).error().getMessage();
        assertTrue(reason.contains("topic " + TOPIC) && reason.contains("partition 0") && reason.contains("offset 1")
                && reason.contains(control.name()), reason);
    }

    private SinkRecord ddl(String database, String sql, long offset) {
        String json = "{\"id\":0,\"database\":\"" + database + "\",\"table\":\"\",\"pkNames\":null,\"isDdl\":true,"
                + "\"type\":\"QUERY\",\"es\":1700000000000,\"ts\":1700000000001,\"sql\":\"" + sql
                + "\",\"sqlType\":null,\"mysqlType\":null,\"data\":null,\"old\":null}";
        return new SinkRecord(TOPIC, 0, null, null, null, json.getBytes(StandardCharsets.UTF_8), offset);
    }

    private static void assertRefused(StandInSinkTaskContext.Report report, long offset, String schema) {
        assertEquals(offset, report.record().kafkaOffset());
        String reason = report.error().getMessage();
        assertTrue(reason.contains("topic " + TOPIC + ", partition 0, offset " + offset)
                && reason.contains("`" + schema + "`"), reason);
    }

    @Test
    void aRowOfADatabaseTheConfigurationDoesNotNameIsRefusedThoughTheTargetHasIt() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        RowChange intoOther = RowChange.insert(Rows.idValue(other.name(), "items"), new Object[]{66L, "pwned"},
                Rows.ts(System.currentTimeMillis()));
        try (TaskDriver driver = new TaskDriver(props(), context)) {
            driver.putRecords(List.of(record(item(1, "a"), 0), record(intoOther, 1), record(item(2, "b"), 2)));
            driver.awaitApplied(3);
        }
        assertEquals(0, other.count("items"));
        assertEquals(List.of(List.of("1", "a"), List.of("2", "b")), target.query("SELECT id, v FROM items ORDER BY id"));
        assertEquals(1, context.reports.size());
        assertRefused(context.reports.get(0), 1, other.name());
    }

    @Test
    void aDdlNamingAnotherDatabaseOrSentFromOneIsNotRun() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        try (TaskDriver driver = new TaskDriver(props(), context)) {
            driver.putRecords(List.of(
                    // the message's database is mapped; the statement qualifies another one
                    ddl(source.name(), "ALTER TABLE " + other.name() + ".secret ADD COLUMN pwn INT", 0),
                    ddl(source.name(), "ALTER TABLE `" + other.name() + "`.`secret` ADD COLUMN pwn2 INT", 1),
                    // the message's own database is not permitted
                    ddl(other.name(), "ALTER TABLE secret ADD COLUMN pwn3 INT", 2),
                    ddl(source.name(), "CREATE DATABASE " + other.name() + "_new", 3),
                    // a permitted one runs, with a literal that looks like a qualifier
                    ddl(source.name(), "ALTER TABLE items ADD COLUMN price DECIMAL(10,2) DEFAULT 1.5", 4)));
            driver.awaitApplied(5);
        }
        assertEquals(List.of(List.of("id")), other.query("SELECT column_name FROM information_schema.columns "
                + "WHERE table_schema = DATABASE() AND table_name = 'secret'"));
        assertEquals(List.of(List.of("0")), other.query("SELECT COUNT(*) FROM information_schema.schemata "
                + "WHERE schema_name = '" + other.name() + "_new'"));
        assertEquals(List.of(List.of("1.50")), target.query("SELECT column_default FROM information_schema.columns "
                + "WHERE table_schema = DATABASE() AND table_name = 'items' AND column_name = 'price'"));
        assertEquals(4, context.reports.size(), context.reports.toString());
        assertRefused(context.reports.get(0), 0, other.name());
        assertRefused(context.reports.get(1), 1, other.name());
        assertRefused(context.reports.get(2), 2, other.name());
        assertRefused(context.reports.get(3), 3, other.name() + "_new");
    }

    @Test
    void withoutADeadLetterQueueTheTaskFailsNamingTheRecordAndTheSchema() throws Exception {
        Map<String, String> p = props();
        p.remove("errors.tolerance");
        RowChange intoOther = RowChange.insert(Rows.idValue(other.name(), "items"), new Object[]{66L, "pwned"},
                Rows.ts(System.currentTimeMillis()));
        try (TaskDriver driver = new TaskDriver(p)) {
            ConnectException e = assertThrows(ConnectException.class,
                    () -> driver.putRecords(List.of(record(item(1, "a"), 0), record(intoOther, 1))));
            assertTrue(e.getMessage().contains("topic " + TOPIC + ", partition 0, offset 1")
                    && e.getMessage().contains("`" + other.name() + "`"), e.getMessage());
        }
        assertEquals(0, other.count("items"));
    }

    @Test
    void aDebeziumEnvelopeIsCheckedLikeEveryOtherRecord() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        Map<String, String> p = props();
        p.put("input.format", "debezium");
        try (TaskDriver driver = new TaskDriver(p, context)) {
            driver.putRecords(List.of(debezium(source.name(), 1, 0), debezium(other.name(), 66, 1),
                    debezium(source.name(), 2, 2)));
            driver.awaitApplied(3);
        }
        assertEquals(0, other.count("items"));
        assertEquals(List.of(List.of("1", "d1"), List.of("2", "d2")), target.query("SELECT id, v FROM items ORDER BY id"));
        assertEquals(1, context.reports.size());
        assertRefused(context.reports.get(0), 1, other.name());
    }

    private static SinkRecord debezium(String db, long id, long offset) {
        Schema row = SchemaBuilder.struct().name("srv.db.items.Value").field("id", Schema.INT64_SCHEMA)
                .field("v", Schema.OPTIONAL_STRING_SCHEMA).optional().build();
        Schema key = SchemaBuilder.struct().name("srv.db.items.Key").field("id", Schema.INT64_SCHEMA).build();
        Schema sourceSchema = SchemaBuilder.struct().name("io.debezium.connector.mysql.Source")
                .field("connector", Schema.STRING_SCHEMA).field("ts_ms", Schema.INT64_SCHEMA)
                .field("db", Schema.STRING_SCHEMA).field("table", Schema.OPTIONAL_STRING_SCHEMA).build();
        Schema env = SchemaBuilder.struct().name("srv.db.items.Envelope").field("before", row).field("after", row)
                .field("source", sourceSchema).field("op", Schema.STRING_SCHEMA).build();
        Struct value = new Struct(env).put("after", new Struct(row).put("id", id).put("v", "d" + id))
                .put("source", new Struct(sourceSchema).put("connector", "mysql").put("ts_ms", 1_000L + offset)
                        .put("db", db).put("table", "items"))
                .put("op", "c");
        return new SinkRecord(TOPIC, 0, key, new Struct(key).put("id", id), env, value, offset);
    }
}
