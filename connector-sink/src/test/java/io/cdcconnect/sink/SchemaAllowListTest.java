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
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    private String connector;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("allow_src");
        target = SinkTarget.database("allow_dst");
        control = SinkTarget.database("allow_ctl");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        connector = "allow-" + target.name();
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
        control.close();
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
}
