package io.cdcconnect.sink;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.ddl.control.ControlSchema;
import io.cdcconnect.sink.dialect.ControlSql;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.offset.RecordFingerprints;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.SinkTaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An upgrade from 0.1.0 over a control database that 0.1.0 wrote: its six control tables created by 0.1.0's own DDL
 * (from {@code StandardControlSql} at commit a092367, the MySQL family's flavour), without {@code control_schema}, and
 * holding what a 0.1.0 task had stored when it died: a DDL checkpoint at the TRUNCATE's offset (with the fingerprints
 * of its records) and how far it had written. Connect's offsets are older (its last commit predates the records), so
 * the new task gets the whole partition again from offset 0. It must take the 0.1.0 layout as version 0, record
 * version 1 and keep every table and row, skip what the checkpoint covers (the rows before the TRUNCATE stay gone and
 * the TRUNCATE does not run again) and apply everything after it.
 */
class ControlSchemaUpgradeTest {

    /** 0.1.0's control tables (a092367:connector-sink/.../dialect/StandardControlSql.java with MySqlControlSql's parts). */
    static List<String> layout010(String db) {
        String ts = "TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)";
        String opts = " DEFAULT CHARSET = utf8mb4";
        String q = "`" + db + "`.";
        return List.of("CREATE DATABASE IF NOT EXISTS `" + db + "`",
                "CREATE TABLE IF NOT EXISTS " + q + "`ddl_checkpoint`"
                        + " (connector VARCHAR(255) NOT NULL, topic VARCHAR(255) NOT NULL, kafka_partition INT NOT NULL,"
                        + " kafka_offset BIGINT NOT NULL, ddl_commit_ts BIGINT NOT NULL, updated_at " + ts + ","
                        + " PRIMARY KEY (connector, topic, kafka_partition))" + opts,
                "CREATE TABLE IF NOT EXISTS " + q + "`ddl_checkpoint_record`"
                        + " (connector VARCHAR(255) NOT NULL, topic VARCHAR(255) NOT NULL, kafka_partition INT NOT NULL,"
                        + " kafka_offset BIGINT NOT NULL, fingerprints VARCHAR(512) NOT NULL,"
                        + " PRIMARY KEY (connector, topic, kafka_partition))" + opts,
                "CREATE TABLE IF NOT EXISTS " + q + "`written_through`"
                        + " (connector VARCHAR(255) NOT NULL, topic VARCHAR(255) NOT NULL, kafka_partition INT NOT NULL,"
                        + " kafka_offset BIGINT NOT NULL, PRIMARY KEY (connector, topic, kafka_partition))" + opts,
                "CREATE TABLE IF NOT EXISTS " + q + "`ddl_barrier` (connector VARCHAR(255) NOT NULL,"
                        + " topic VARCHAR(255) NOT NULL, ddl_id CHAR(64) NOT NULL, kafka_partition INT NOT NULL,"
                        + " arrived_at " + ts + ","
                        + " PRIMARY KEY (connector, topic, ddl_id, kafka_partition))" + opts,
                "CREATE TABLE IF NOT EXISTS " + q + "`ddl_run` (connector VARCHAR(255) NOT NULL,"
                        + " topic VARCHAR(255) NOT NULL, ddl_id CHAR(64) NOT NULL, claimed_by VARCHAR(64) NOT NULL,"
                        + " claimed_partition INT NOT NULL, done SMALLINT NOT NULL, updated_at " + ts + ","
                        + " PRIMARY KEY (connector, topic, ddl_id))" + opts,
                "CREATE TABLE IF NOT EXISTS " + q + "`ddl_copy` (connector VARCHAR(255) NOT NULL,"
                        + " topic VARCHAR(255) NOT NULL, ddl_key CHAR(64) NOT NULL, kafka_partition INT NOT NULL,"
                        + " kafka_offset BIGINT NOT NULL, sending BIGINT NOT NULL, arrived_at " + ts + ","
                        + " PRIMARY KEY (connector, topic, ddl_key, kafka_partition, kafka_offset))" + opts);
    }

    private TestDatabase source;
    private TestDatabase target;
    private TestDatabase control;
    private String connector;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("upg_src");
        target = SinkTarget.database("upg_dst");
        control = SinkTarget.database("upg_ctl");
        connector = "upgrade-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
        control.close();
    }

    /** Each control table's definition as the server shows it, by name. */
    private Map<String, String> definitions() throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String t : ControlSchema.TABLES) {
            out.put(t, control.query("SHOW CREATE TABLE `" + control.name() + "`.`" + t + "`").get(0).get(1));
        }
        return out;
    }

    @Test
    void aNewSinkContinuesFromTheCheckpointAndOffsetsA010SinkLeft() throws Exception {
        control.exec(layout010(control.name()).toArray(String[]::new));
        Map<String, String> before = definitions();

        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(40))");
        long t = System.currentTimeMillis() + 3_600_000; // past the replay window: plain statements
        TableInfo items = Rows.idValue(source.name(), "items");
        List<ChangeEvent> history = List.of(
                RowChange.insert(items, new Object[]{1L, "a"}, Rows.ts(t)),                            // 0
                RowChange.insert(items, new Object[]{2L, "b"}, Rows.ts(t + 1)),                        // 1
                new DdlChange(source.name(), "items", "TRUNCATE TABLE items", DdlChange.Kind.TRUNCATE,
                        Rows.ts(t + 2)),                                                               // 2
                RowChange.insert(items, new Object[]{3L, "c"}, Rows.ts(t + 3)),                        // 3
                RowChange.update(items, new Object[]{3L, "c"}, new Object[]{3L, "c2"}, Rows.ts(t + 4)), // 4
                RowChange.insert(items, new Object[]{4L, "d"}, Rows.ts(t + 5)));                       // 5
        CanalJsonEncoder encoder = new CanalJsonEncoder(CanalJsonOptions.defaults());
        List<SinkRecord> records = new ArrayList<>();
        for (int i = 0; i < history.size(); i++) {
            records.add(new SinkRecord(SinkTaskDriver.TOPIC, 0, null, null, null, encoder.encode(history.get(i)), i));
        }

        // what the 0.1.0 task had done when it died: rows 0 and 1, the TRUNCATE (checkpoint at offset 2, with the
        // fingerprints of the records through it), row 3 (written through offset 3); Connect committed nothing.
        // Row 100 was written into the table after the TRUNCATE by someone else: the TRUNCATE running again would
        // remove it.
        target.exec("INSERT INTO items VALUES (3, 'c'), (100, 'written after the TRUNCATE')");
        StringBuilder window = new StringBuilder();
        for (int i = 0; i <= 2; i++) {
            if (i > 0) window.append(',');
            window.append(i).append(':').append(Long.toHexString(RecordFingerprints.of(records.get(i))));
        }
        String ddlTs = String.valueOf(((DdlChange) history.get(2)).commitTs());
        control.exec("INSERT INTO ddl_checkpoint (connector, topic, kafka_partition, kafka_offset, ddl_commit_ts)"
                        + " VALUES ('" + connector + "', '" + SinkTaskDriver.TOPIC + "', 0, 2, " + ddlTs + ")",
                "INSERT INTO ddl_checkpoint_record (connector, topic, kafka_partition, kafka_offset, fingerprints)"
                        + " VALUES ('" + connector + "', '" + SinkTaskDriver.TOPIC + "', 0, 2, '" + window + "')",
                "INSERT INTO written_through (connector, topic, kafka_partition, kafka_offset)"
                        + " VALUES ('" + connector + "', '" + SinkTaskDriver.TOPIC + "', 0, 3)");

        Map<String, String> props = Map.of("name", connector, "schema.map", source.name() + "=" + target.name(),
                "safe.mode", "auto", "ddl.checkpoint.database", control.name());
        try (TaskDriver upgraded = new TaskDriver(props, new StandInSinkTaskContext())) {
            upgraded.putRecords(records);
            upgraded.awaitApplied(records.size());
            assertEquals(records.size(), upgraded.committable(), "every offset committable after the upgrade");
        }

        assertEquals(List.of(List.of("3", "c2"), List.of("4", "d"), List.of("100", "written after the TRUNCATE")),
                target.query("SELECT * FROM items ORDER BY id"),
                "rows 1 and 2 (covered by the checkpoint) not applied again, the TRUNCATE not run again, rows after it applied");
        assertEquals(List.of(List.of(String.valueOf(ControlSchema.CURRENT))),
                control.query("SELECT version FROM control_schema"), "the layout's version recorded");
        assertEquals(before, definitions(), "0.1.0's tables kept as they were");
        assertEquals(List.of(List.of("2")), control.query("SELECT kafka_offset FROM ddl_checkpoint WHERE connector = '"
                + connector + "'"), "the checkpoint kept");
        long written = Long.parseLong(control.query("SELECT kafka_offset FROM written_through WHERE connector = '"
                + connector + "'").get(0).get(0));
        assertTrue(written >= 5, "written_through moved on from 0.1.0's 3: " + written);
    }

    @Test
    void anEmptyDatabaseGetsTheCurrentVersionAndAnOlderLayoutIsMigratedOnce() throws Exception {
        ControlSql sql = Dialects.forUrl(SinkTarget.url()).control(control.name());
        try (Connection c = control.connect()) {
            assertEquals(ControlSchema.CURRENT, ControlSchema.ensure(c, sql), "nothing there: the current layout");
            assertEquals(ControlSchema.CURRENT, ControlSchema.ensure(c, sql), "and it stays");
        }
        assertEquals(List.of(List.of("1", String.valueOf(ControlSchema.CURRENT))),
                control.query("SELECT id, version FROM control_schema"));

        control.exec("DROP TABLE control_schema");
        control.exec(layout010(control.name()).toArray(String[]::new));
        try (Connection c = control.connect()) {
            assertEquals(0, ControlSchema.ensure(c, sql), "tables without control_schema: 0.1.0's layout");
            assertEquals(ControlSchema.CURRENT, ControlSchema.ensure(c, sql), "migrated once");
        }
        assertEquals(List.of(List.of("1", String.valueOf(ControlSchema.CURRENT))),
                control.query("SELECT id, version FROM control_schema"), "one row");
    }

    @Test
    void aNewerLayoutIsRefusedNamingBothVersions() throws Exception {
        ControlSql sql = Dialects.forUrl(SinkTarget.url()).control(control.name());
        try (Connection c = control.connect()) {
            ControlSchema.ensure(c, sql);
        }
        control.exec("UPDATE control_schema SET version = " + (ControlSchema.CURRENT + 1));
        try (Connection c = control.connect()) {
            SQLException e = assertThrows(SQLException.class, () -> ControlSchema.ensure(c, sql));
            assertTrue(e.getMessage().contains("version " + (ControlSchema.CURRENT + 1) + ", newer than this sink's "
                    + ControlSchema.CURRENT), e.getMessage());
        }
    }
}
