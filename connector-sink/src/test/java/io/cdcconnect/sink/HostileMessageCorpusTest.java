package io.cdcconnect.sink;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 21's hostile-message corpus, through a real sink task against the embedded MariaDB 10.11: DDL texts read
 * differently by a naive check and by the server, statements that reach past the mapped database, table options that
 * reach the file system or other servers, rows into the server's own, the control and unmapped databases. Each case
 * names what it tries. Then the target's users, grants, databases, tables, columns and control tables are compared
 * with a snapshot taken before: they are unchanged, apart from what the valid messages between the cases carried,
 * and every hostile record went to the dead-letter queue with a reason naming topic, partition and offset.
 */
class HostileMessageCorpusTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TestDatabase source;
    private TestDatabase target;
    private TestDatabase control;
    private TestDatabase victim;
    private String evil;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("hostile_src");
        target = SinkTarget.database("hostile_dst");
        control = SinkTarget.database("hostile_ctl");
        victim = SinkTarget.database("hostile_vic");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        victim.exec("CREATE TABLE secret (id BIGINT PRIMARY KEY, s VARCHAR(20))",
                "INSERT INTO secret VALUES (1, 'kept')");
        evil = "evil_" + UUID.randomUUID().toString().substring(0, 6);
    }

    @AfterEach
    void tearDown() throws Exception {
        SinkTarget.server().execute("DROP USER IF EXISTS '" + evil + "'@'%'");
        source.close();
        target.close();
        control.close();
        victim.close();
    }

    private Map<String, String> props() {
        Map<String, String> p = new HashMap<>();
        p.put("name", "hostile-" + target.name());
        p.put("schema.map", source.name() + "=" + target.name());
        p.put("ddl.checkpoint.database", control.name());
        p.put("errors.tolerance", "all");
        return p;
    }

    /** The corpus: what each case tries, and its DDL text (in a message of the mapped database). */
    private Map<String, String> ddlCases() {
        String v = victim.name();
        String c = control.name();
        Map<String, String> m = new LinkedHashMap<>();
        // the server reads '--' and a control character as a comment; a naive check did not (item 5)
        for (int ch = 1; ch < 0x20; ch++) {
            if (ch == '\t' || ch == '\n' || ch == '\r' || ch == 0x0b || ch == 0x0c) continue;
            m.put("-- then U+" + String.format("%04X", ch) + " hides DROP DATABASE",
                    "--" + (char) ch + " CREATE TABLE x '\nDROP DATABASE " + v + "\n-- '");
        }
        m.put("-- then U+007F hides DROP DATABASE", "--\u007f CREATE TABLE x '\nDROP DATABASE " + v + "\n-- '");
        m.put("# comment hides a second statement", "CREATE TABLE x (i INT) # '\n; DROP DATABASE " + v);
        m.put("TiDB comment carries DROP DATABASE (item 6)", "/*T![clustered_index] DROP DATABASE " + v
                + " #*/ DROP DATABASE " + v);
        m.put("executable comment", "ALTER TABLE items ADD COLUMN c INT /*!50000 , RENAME TO " + v + ".moved */");
        m.put("MariaDB executable comment", "ALTER TABLE items /*M!100100 RENAME TO " + v + ".moved */");
        m.put("nested comment ends early", "ALTER TABLE items /* /* */ RENAME TO " + v + ".moved */");
        m.put("unterminated comment", "ALTER TABLE items RENAME TO " + v + ".moved /* ");
        m.put("second statement after ;", "ALTER TABLE items ADD COLUMN c INT; DROP DATABASE " + v);
        m.put("CREATE USER", "CREATE USER '" + evil + "'@'%' IDENTIFIED BY 'x'");
        m.put("GRANT", "GRANT ALL ON *.* TO '" + evil + "'@'%'");
        m.put("SET GLOBAL", "SET GLOBAL read_only = 1");
        m.put("cross-schema ALTER (item 3)", "ALTER TABLE " + v + ".secret ADD COLUMN pwn INT");
        m.put("cross-schema ALTER behind /**/ (item 8)", "ALTER TABLE " + v + "/**/.secret ADD COLUMN pwn INT");
        m.put("cross-schema RENAME", "RENAME TABLE " + v + ".secret TO items_stolen");
        m.put("RENAME into another schema", "RENAME TABLE items TO " + v + ".items");
        m.put("ALTER ... RENAME into another schema", "ALTER TABLE items RENAME TO " + v + ".moved");
        m.put("EXCHANGE PARTITION with another schema", "ALTER TABLE items EXCHANGE PARTITION p0 WITH TABLE " + v
                + ".secret");
        m.put("CREATE TABLE ... AS TABLE of another schema", "CREATE TABLE stolen AS TABLE " + v + ".secret");
        m.put("CREATE TABLE ... AS SELECT", "CREATE TABLE stolen AS SELECT * FROM " + v + ".secret");
        m.put("CREATE TABLE ... LIKE another schema", "CREATE TABLE stolen LIKE " + v + ".secret");
        m.put("DROP DATABASE of another schema", "DROP DATABASE " + v);
        m.put("DROP DATABASE/**/ of another schema (item 8)", "DROP DATABASE/**/" + v);
        m.put("DROP TABLE of the control database", "DROP TABLE " + c + ".ddl_checkpoint");
        m.put("TRUNCATE of the server's own", "TRUNCATE TABLE mysql.db");
        m.put("foreign key into another schema", "ALTER TABLE items ADD CONSTRAINT fk FOREIGN KEY (id) REFERENCES "
                + v + ".secret (id)");
        m.put("CONNECT engine reads a file (item 4)", "ALTER TABLE items ENGINE=CONNECT TABLE_TYPE=DOS "
                + "FILE_NAME='/etc/passwd'");
        m.put("DATA DIRECTORY", "CREATE TABLE dd (i INT) DATA DIRECTORY='/tmp'");
        m.put("CONNECTION to another server", "CREATE TABLE fed (i INT) ENGINE=FEDERATED "
                + "CONNECTION='mysql://u:p@elsewhere.invalid/" + v + "/secret'");
        m.put("UNION over another schema", "CREATE TABLE mrg (id BIGINT) ENGINE=MERGE UNION=(" + v + ".secret)");
        m.put("a function that is not allowed", "ALTER TABLE items ADD COLUMN c INT DEFAULT (sleep(5))");
        m.put("a variable", "ALTER TABLE items ADD COLUMN c VARCHAR(200) DEFAULT (@@global.datadir)");
        m.put("2,000 empty comments (item 9)", "ALTER TABLE items ADD COLUMN c INT" + "/**/".repeat(2000)
                + " , RENAME TO " + v + ".moved");
        m.put("a statement the target refuses (item 10)", "CREATE TABLE refused_by_target (id INT, PRIMARY KEY (no_such_column))");
        m.put("text that does not parse", "ALTER TABLE items FOO");
        return m;
    }

    private SinkRecord ddl(TaskDriver driver, String database, String sql) throws Exception {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", 0).put("database", database).put("table", "").putNull("pkNames");
        n.put("isDdl", true).put("type", "QUERY").put("es", 1700000000000L).put("ts", 1700000000001L);
        n.put("sql", sql).putNull("sqlType").putNull("mysqlType").putNull("data").putNull("old");
        return driver.record(JSON.writeValueAsBytes(n));
    }

    /** A Canal-JSON INSERT of one row {@code (id, v)} into {@code database.table}. */
    private SinkRecord row(TaskDriver driver, String database, String table, long id, String v) throws Exception {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", 0).put("database", database).put("table", table);
        n.putArray("pkNames").add("id");
        n.put("isDdl", false).put("type", "INSERT").put("es", 1700000000000L).put("ts", 1700000000001L);
        n.put("sql", "");
        n.putObject("sqlType").put("id", -5).put("v", 12);
        n.putObject("mysqlType").put("id", "bigint").put("v", "varchar(20)");
        ArrayNode data = n.putArray("data");
        data.addObject().put("id", String.valueOf(id)).put("v", v);
        n.putNull("old");
        return driver.record(JSON.writeValueAsBytes(n));
    }

    @Test
    void noHostileMessageChangesAnythingOutsideTheMappedDatabase() throws Exception {
        StandInSinkTaskContext context = new StandInSinkTaskContext();
        List<SinkRecord> hostile = new ArrayList<>();
        List<String> names = new ArrayList<>();
        long id = 0;
        Map<String, List<List<String>>> before;
        try (TaskDriver driver = new TaskDriver(props(), context)) {
            before = snapshot(); // the task has made its control tables

            List<SinkRecord> records = new ArrayList<>();
            for (Map.Entry<String, String> c : ddlCases().entrySet()) {
                records.add(row(driver, source.name(), "items", ++id, "ok"));
                SinkRecord r = ddl(driver, source.name(), c.getValue());
                records.add(r);
                hostile.add(r);
                names.add(c.getKey());
            }
            // rows into the server's own, the control and an unmapped database
            Map<String, SinkRecord> rows = new LinkedHashMap<>();
            rows.put("row into mysql.db", row(driver, "mysql", "db", 1, "x"));
            rows.put("row into the control database", row(driver, control.name(), "ddl_checkpoint", 1, "x"));
            rows.put("row into an unmapped database", row(driver, victim.name(), "secret", 2, "stolen"));
            rows.put("row into information_schema", row(driver, "information_schema", "tables", 1, "x"));
            rows.put("DDL in a message of an unmapped database", ddl(driver, victim.name(), "DROP TABLE secret"));
            rows.put("DDL in a message of the server's own", ddl(driver, "mysql", "DROP TABLE db"));
            for (Map.Entry<String, SinkRecord> e : rows.entrySet()) {
                records.add(row(driver, source.name(), "items", ++id, "ok"));
                records.add(e.getValue());
                hostile.add(e.getValue());
                names.add(e.getKey());
            }
            records.add(row(driver, source.name(), "items", ++id, "last"));
            driver.putRecords(records);
            driver.awaitApplied(records.size());
        }
        List<Long> reported = new ArrayList<>();
        for (StandInSinkTaskContext.Report r : context.reports) {
            reported.add(r.record().kafkaOffset());
            String reason = r.error().getMessage();
            assertTrue(reason.contains("partition 0") && reason.contains("offset " + r.record().kafkaOffset()),
                    "a reason names where the record is: " + reason);
        }
        for (int i = 0; i < hostile.size(); i++) {
            assertTrue(reported.contains(hostile.get(i).kafkaOffset()), "not refused: " + names.get(i));
        }
        assertEquals(hostile.size(), context.reports.size(), "only the hostile records are refused");
        Map<String, List<List<String>>> after = snapshot();
        for (String what : before.keySet()) {
            assertEquals(before.get(what), after.get(what), what + " outside the mapped database changed");
        }
        // the control database holds the sink's own tables, and no row a message forged
        for (List<String> table : control.query("SELECT table_name FROM information_schema.tables WHERE "
                + "table_schema = '" + control.name() + "'")) {
            assertTrue(List.of("control_schema", "ddl_checkpoint", "ddl_checkpoint_record", "ddl_run", "ddl_copy", "ddl_barrier",
                    "written_through")
                    .contains(table.get(0)),
                    table.toString());
        }
        assertEquals(List.of(List.of("0")), control.query("SELECT COUNT(*) FROM ddl_checkpoint WHERE kafka_offset > "
                + id * 2 + 20));
        // every valid row between the cases was applied, in a table that changed in no way but its rows
        assertEquals(List.of(List.of(String.valueOf(id))), target.query("SELECT COUNT(*) FROM items"));
        assertEquals(List.of(List.of("id"), List.of("v")), target.query("SELECT column_name FROM "
                + "information_schema.columns WHERE table_schema = '" + target.name() + "' AND table_name = 'items' "
                + "ORDER BY ordinal_position"));
        assertEquals(List.of(List.of("items")), target.query("SELECT table_name FROM information_schema.tables "
                + "WHERE table_schema = '" + target.name() + "'"));
        assertEquals(List.of(List.of("1", "kept")), victim.query("SELECT * FROM secret"));
    }

    @Test
    void underAnAnsiServerModeTheStatementRunsAsTheSinkReadIt() throws Exception {
        String mode;
        try (Connection c = SinkTarget.server().connect(null); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@GLOBAL.sql_mode")) {
            rs.next();
            mode = rs.getString(1);
        }
        SinkTarget.server().execute("SET GLOBAL sql_mode = CONCAT(@@GLOBAL.sql_mode, ',ANSI_QUOTES,NO_BACKSLASH_ESCAPES')");
        try {
            StandInSinkTaskContext context = new StandInSinkTaskContext();
            try (TaskDriver driver = new TaskDriver(props(), context)) {
                List<SinkRecord> records = List.of(
                        // read with backslash escapes, the default is a\' -- with NO_BACKSLASH_ESCAPES the server
                        // would end the string early and read a second clause
                        ddl(driver, source.name(), "ALTER TABLE items ADD COLUMN q VARCHAR(200) DEFAULT 'a\\' , "
                                + "RENAME TO " + victim.name() + ".moved -- '"),
                        // with ANSI_QUOTES "..." would be a name; the sink reads and writes it as a string
                        ddl(driver, source.name(), "ALTER TABLE items ADD COLUMN d VARCHAR(20) DEFAULT \"dq\""),
                        row(driver, source.name(), "items", 1, "ok"));
                driver.putRecords(records);
                driver.awaitApplied(records.size());
            }
            assertEquals(0, context.reports.size(), "both statements are harmless as the sink reads them");
            // the row took both defaults as the sink read them
            assertEquals(List.of(List.of("a' , RENAME TO " + victim.name() + ".moved -- ", "dq")),
                    target.query("SELECT q, d FROM items WHERE id = 1"));
            assertEquals(List.of(List.of("1", "kept")), victim.query("SELECT * FROM secret"));
        } finally {
            SinkTarget.server().execute("SET GLOBAL sql_mode = '" + mode + "'");
        }
    }

    @Test
    void aStatementTheTargetRefusesFailsTheTaskWithoutADeadLetterQueue() throws Exception {
        Map<String, String> p = props();
        p.remove("errors.tolerance");
        try (TaskDriver driver = new TaskDriver(p)) {
            SinkRecord bad = ddl(driver, source.name(), "CREATE TABLE refused_by_target (id INT, PRIMARY KEY (no_such_column))");
            ConnectException e = assertThrows(ConnectException.class, () -> {
                driver.putRecords(List.of(bad));
                driver.awaitApplied(1);
            });
            assertTrue(e.getMessage().contains("no_such_column") || String.valueOf(e.getCause()).contains("no_such_column"),
                    e.getMessage());
            assertTrue(driver.committable() < 1, "no offset past the refused statement");
        }
    }

    /** Users, grants, databases, tables with their columns and options, outside the mapped database. */
    private Map<String, List<List<String>>> snapshot() throws Exception {
        String t = target.name();
        Map<String, List<List<String>>> s = new LinkedHashMap<>();
        s.put("users", target.query("SELECT user, host FROM mysql.user ORDER BY user, host"));
        s.put("user grants", target.query("SELECT grantee, privilege_type FROM information_schema.user_privileges "
                + "ORDER BY 1, 2"));
        s.put("schema grants", target.query("SELECT grantee, table_schema, privilege_type FROM "
                + "information_schema.schema_privileges ORDER BY 1, 2, 3"));
        s.put("table grants", target.query("SELECT grantee, table_schema, table_name, privilege_type FROM "
                + "information_schema.table_privileges ORDER BY 1, 2, 3, 4"));
        // the control database is compared apart: the sink makes its own tables there when it first needs them
        String mine = "('" + victim.name() + "', 'mysql', '" + source.name() + "')";
        s.put("databases", target.query("SELECT schema_name FROM information_schema.schemata WHERE schema_name IN "
                + mine + " OR schema_name = '" + control.name() + "' OR schema_name LIKE 'hostile%' AND schema_name <> '" + t + "' ORDER BY 1"));
        s.put("tables", target.query("SELECT table_schema, table_name, engine, create_options FROM "
                + "information_schema.tables WHERE table_schema IN " + mine + " ORDER BY 1, 2"));
        s.put("columns", target.query("SELECT table_schema, table_name, column_name, column_type, column_default "
                + "FROM information_schema.columns WHERE table_schema IN " + mine + " AND table_schema <> 'mysql' "
                + "ORDER BY 1, 2, 3"));
        s.put("columns of mysql", target.query("SELECT table_name, COUNT(*), GROUP_CONCAT(column_name ORDER BY "
                + "column_name) FROM information_schema.columns WHERE table_schema = 'mysql' GROUP BY table_name "
                + "ORDER BY 1"));
        s.put("victim rows", victim.query("SELECT * FROM secret ORDER BY id"));
        s.put("mysql.db rows", target.query("SELECT COUNT(*) FROM mysql.db"));
        return s;
    }
}
