package io.cdcconnect.sink;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
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
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whoever can write to the topic writes a Canal-JSON message with {@code "isDdl":true} and a statement that is not a
 * schema change. Before {@code ddl.apply}, the sink ran it as its own user (which holds DDL privileges). Now it is
 * never run: with a dead-letter queue the record goes there and the rows around it are applied; without one the task
 * fails naming topic, partition and offset.
 */
class DdlInjectionTest {

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo table;
    private String evil;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("inject_src");
        target = SinkTarget.database("inject_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        table = Rows.idValue(source.name(), "items");
        evil = "evil_" + UUID.randomUUID().toString().substring(0, 6);
    }

    @AfterEach
    void tearDown() throws Exception {
        SinkTarget.server().execute("DROP USER IF EXISTS '" + evil + "'@'%'");
        source.close();
        target.close();
    }

    private Map<String, String> props(String ddlApply) {
        Map<String, String> p = new HashMap<>();
        p.put("schema.map", source.name() + "=" + target.name());
        if (ddlApply != null) p.put("ddl.apply", ddlApply);
        return p;
    }

    private SinkRecord ddlRecord(TaskDriver driver, String sql) {
        String json = "{\"id\":0,\"database\":\"" + source.name() + "\",\"table\":\"\",\"pkNames\":null,\"isDdl\":true,"
                + "\"type\":\"QUERY\",\"es\":1700000000000,\"ts\":1700000000001,\"sql\":\"" + sql
                + "\",\"sqlType\":null,\"mysqlType\":null,\"data\":null,\"old\":null}";
        return driver.record(json.getBytes(StandardCharsets.UTF_8));
    }

    private long users() throws Exception {
        try (var c = SinkTarget.server().connect(null); var st = c.createStatement();
             var rs = st.executeQuery("SELECT COUNT(*) FROM mysql.user WHERE user = '" + evil + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aCreateUserSentAsDdlIsNeverRunAndGoesToTheDeadLetterQueue() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        try (TaskDriver driver = new TaskDriver(props(null), context)) {
            List<SinkRecord> records = new ArrayList<>();
            records.add(driver.recordOf(RowChange.insert(table, new Object[]{1L, "before"}, Rows.ts(1000))));
            SinkRecord bad = ddlRecord(driver, "CREATE USER '" + evil + "'@'%' IDENTIFIED BY 'x'");
            records.add(bad);
            SinkRecord hidden = ddlRecord(driver, "ALTER TABLE items ADD COLUMN c INT; DROP DATABASE " + target.name());
            records.add(hidden);
            records.add(driver.recordOf(RowChange.insert(table, new Object[]{2L, "after"}, Rows.ts(1002))));
            driver.putRecords(records);
            driver.awaitApplied();
            assertEquals(2, context.reports.size());
            assertEquals(bad, context.reports.get(0).record());
            String reason = context.reports.get(0).error().getMessage();
            assertTrue(reason.contains("offset 1") && reason.contains("CREATE USER"), reason);
            assertTrue(context.reports.get(1).error().getMessage().contains("second statement"),
                    context.reports.get(1).error().getMessage());
            assertEquals(4, driver.committable());
        }
        assertEquals(0, users(), "the user must not exist");
        assertEquals(List.of(List.of("1", "before"), List.of("2", "after")),
                target.query("SELECT * FROM items ORDER BY id"));
    }

    @Test
    void withoutADeadLetterQueueTheTaskFailsNamingTheRecord() throws Exception {
        try (TaskDriver driver = new TaskDriver(props(null))) {
            SinkRecord bad = ddlRecord(driver, "GRANT ALL ON *.* TO '" + evil + "'@'%' IDENTIFIED BY 'x'");
            ConnectException e = assertThrows(ConnectException.class, () -> driver.putRecords(List.of(bad)));
            assertTrue(e.getMessage().contains("topic " + TaskDriver.TOPIC + ", partition 0, offset 0")
                    && e.getMessage().contains("GRANT"), e.getMessage());
            assertTrue(driver.committable() < 1, "no offset past the refused record");
        }
        assertEquals(0, users());
    }

    @Test
    void kindsLeftOutOfDdlApplyAreSkippedAndTheRowsStillApplied() throws Exception {
        try (TaskDriver driver = new TaskDriver(props("create-table,alter-table"))) {
            driver.put(RowChange.insert(table, new Object[]{1L, "kept"}, Rows.ts(1000)));
            driver.putRecords(List.of(ddlRecord(driver, "TRUNCATE TABLE items"),
                    ddlRecord(driver, "ALTER TABLE items ADD COLUMN note VARCHAR(5)")));
            driver.awaitApplied();
        }
        assertEquals(List.of(java.util.Arrays.asList("1", "kept", null)), target.query("SELECT * FROM items"));
    }
}
