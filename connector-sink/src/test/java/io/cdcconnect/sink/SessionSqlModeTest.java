package io.cdcconnect.sink;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink's session pins the sql_mode its quoting assumes: on a server whose default sql_mode has ANSI_QUOTES and
 * NO_BACKSLASH_ESCAPES, values with backslashes and quotes arrive exactly, and a DDL statement's quoted defaults
 * (single-quoted with a backslash escape, double-quoted) mean what they meant at the source.
 */
class SessionSqlModeTest {

    private static final List<String> VALUES = List.of("back\\slash", "it's", "say \"hi\"", "\\'; DROP TABLE x; --",
            "tab\\tnot a tab", "ends in \\", "`tick`");

    private TestDatabase source;
    private TestDatabase target;
    private String savedMode;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("mode_src");
        target = SinkTarget.database("mode_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(100))");
        savedMode = globalMode();
        SinkTarget.server().execute("SET GLOBAL sql_mode = CONCAT(@@GLOBAL.sql_mode, ',ANSI_QUOTES,NO_BACKSLASH_ESCAPES')");
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            // restored first: every other test of this JVM shares the server
            SinkTarget.server().execute("SET GLOBAL sql_mode = '" + savedMode + "'");
        } finally {
            source.close();
            target.close();
        }
    }

    private static String globalMode() throws Exception {
        try (Connection c = SinkTarget.server().connect(null); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@GLOBAL.sql_mode")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** @param statementCacheSize 0: statements sent as text (the driver quotes the values); else server-side */
    @ParameterizedTest(name = "statement.cache.size={0}")
    @ValueSource(ints = {0, 256})
    void valuesAndDdlDefaultsArriveExactlyUnderAnsiQuotesAndNoBackslashEscapes(int statementCacheSize)
            throws Exception {
        // a new session of the server has the modes the sink must not run under
        String sessionMode = target.query("SELECT @@SESSION.sql_mode").get(0).get(0);
        assertTrue(sessionMode.contains("ANSI_QUOTES") && sessionMode.contains("NO_BACKSLASH_ESCAPES"), sessionMode);

        TableInfo table = Rows.idValue(source.name(), "items");
        List<RowChange> rows = new ArrayList<>();
        for (int i = 0; i < VALUES.size(); i++) {
            rows.add(RowChange.insert(table, new Object[]{(long) i, VALUES.get(i)}, Rows.ts(1000 + i)));
        }
        // as the source wrote it, under MySQL's default sql_mode: \' and \\ are escapes, "..." is a string
        String ddl = "ALTER TABLE items ADD COLUMN note VARCHAR(60) NOT NULL DEFAULT 'it\\'s \"q\" \\\\ b', "
                + "ADD COLUMN dq VARCHAR(20) DEFAULT \"double\"";
        try (TaskDriver driver = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(),
                "statement.cache.size", Integer.toString(statementCacheSize)))) {
            driver.put(rows.toArray(new RowChange[0]));
            driver.put(new DdlChange(source.name(), "items", ddl, DdlChange.Kind.ALTER, Rows.ts(2000)));
            driver.put(RowChange.insert(Rows.idValue(source.name(), "items"), new Object[]{100L, "after \\ ddl"},
                    Rows.ts(3000)));
            driver.awaitApplied();
        }
        List<List<String>> expected = new ArrayList<>();
        for (int i = 0; i < VALUES.size(); i++) expected.add(List.of(Integer.toString(i), VALUES.get(i)));
        expected.add(List.of("100", "after \\ ddl"));
        assertEquals(expected, target.query("SELECT id, v FROM items ORDER BY id"));
        assertEquals(List.of(List.of("it's \"q\" \\ b", "double")), target.query("SELECT DISTINCT note, dq FROM items"));
        assertEquals(List.of(List.of("dq"), List.of("id"), List.of("note"), List.of("v")), target.query(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() "
                        + "AND table_name = 'items' ORDER BY column_name"));
    }
}
