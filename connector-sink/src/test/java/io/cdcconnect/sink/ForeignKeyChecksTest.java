package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code foreign.key.checks=replica} (the default) on a MariaDB target with foreign keys, as the source's binlog
 * delivers them: a child row may arrive before its parent, safe mode's REPLACE of a parent must not fire the target's
 * cascades, and a DELETE or a key UPDATE of a parent must do on the target what the source's foreign key actions did
 * without logging it (MariaDB and MySQL log no row of a cascade).
 */
class ForeignKeyChecksTest {

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo parent;
    private TableInfo child;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("fk_src");
        target = SinkTarget.database("fk_dst");
        // a second unique key makes safe mode write the parent with REPLACE (a delete and an insert)
        target.exec("CREATE TABLE parent (id BIGINT PRIMARY KEY, v VARCHAR(100), UNIQUE KEY uq_v (v))",
                "CREATE TABLE child (id BIGINT PRIMARY KEY, pid BIGINT NOT NULL, CONSTRAINT fk_child_parent "
                        + "FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE ON UPDATE CASCADE)");
        parent = Rows.idValue(source.name(), "parent");
        child = TableInfo.of(source.name(), "child", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("pid", MySqlType.LONGLONG, 0)));
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
        source.close();
    }

    private TaskDriver driver(String safeMode) {
        return new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(), "safe.mode", safeMode));
    }

    @Test
    void aChildRowBeforeItsParentIsApplied() throws Exception {
        try (TaskDriver d = driver("never")) {
            d.put(RowChange.insert(child, new Object[]{10L, 1L}, Rows.ts(2000)));
            d.awaitApplied();
            d.put(RowChange.insert(parent, new Object[]{1L, "a"}, Rows.ts(1000)));
            d.awaitApplied();
        }
        assertEquals(List.of(List.of("10", "1")), target.query("SELECT id, pid FROM child"));
        assertEquals(List.of(List.of("1", "a")), target.query("SELECT id, v FROM parent"));
    }

    @Test
    void safeModesReplaceOfAParentKeepsItsCascadingChildren() throws Exception {
        try (TaskDriver d = driver("always")) {
            d.put(RowChange.insert(parent, new Object[]{1L, "a"}, Rows.ts(1000)),
                    RowChange.insert(child, new Object[]{10L, 1L}, Rows.ts(1001)));
            d.awaitApplied();
            d.put(RowChange.update(parent, new Object[]{1L, "a"}, new Object[]{1L, "b"}, Rows.ts(2000)));
            d.awaitApplied();
        }
        assertEquals(List.of(List.of("1", "b")), target.query("SELECT id, v FROM parent"));
        assertEquals(List.of(List.of("10", "1")), target.query("SELECT id, pid FROM child"));
    }

    /** The source deleted the child through its ON DELETE CASCADE, and logged only the parent's row. */
    @ParameterizedTest(name = "safe.mode={0}")
    @ValueSource(strings = {"always", "never"})
    void aParentsDeleteCascadesOnTheTargetAsOnTheSource(String safeMode) throws Exception {
        try (TaskDriver d = driver(safeMode)) {
            d.put(RowChange.insert(parent, new Object[]{1L, "a"}, Rows.ts(1000)),
                    RowChange.insert(parent, new Object[]{2L, "b"}, Rows.ts(1000)),
                    RowChange.insert(child, new Object[]{10L, 1L}, Rows.ts(1001)),
                    RowChange.insert(child, new Object[]{11L, 2L}, Rows.ts(1001)));
            d.awaitApplied();
            d.put(RowChange.delete(parent, new Object[]{1L, "a"}, Rows.ts(2000)));
            d.awaitApplied();
        }
        assertEquals(List.of(List.of("2", "b")), target.query("SELECT id, v FROM parent"));
        assertEquals(List.of(List.of("11", "2")), target.query("SELECT id, pid FROM child"));
    }

    /** The source moved the child through its ON UPDATE CASCADE, and logged only the parent's row. */
    @Test
    void aParentsKeyUpdateCascadesOnTheTargetAsOnTheSource() throws Exception {
        try (TaskDriver d = driver("never")) {
            d.put(RowChange.insert(parent, new Object[]{1L, "a"}, Rows.ts(1000)),
                    RowChange.insert(child, new Object[]{10L, 1L}, Rows.ts(1001)));
            d.awaitApplied();
            d.put(RowChange.update(parent, new Object[]{1L, "a"}, new Object[]{5L, "a"}, Rows.ts(2000)));
            d.awaitApplied();
        }
        assertEquals(List.of(List.of("5", "a")), target.query("SELECT id, v FROM parent"));
        assertEquals(List.of(List.of("10", "5")), target.query("SELECT id, pid FROM child"));
    }

    /**
     * The source sends an update that changes a unique key as a delete and an insert of the row: without safe mode
     * the sink writes the update it was, which fires no ON DELETE action (the child would be deleted).
     */
    @ParameterizedTest(name = "foreign.key.checks={0}")
    @ValueSource(strings = {"replica", "server"})
    void anUpdateSentAsDeleteAndInsertFiresNoDeleteAction(String checks) throws Exception {
        try (TaskDriver d = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(),
                "safe.mode", "never", "foreign.key.checks", checks))) {
            d.put(RowChange.insert(parent, new Object[]{1L, "a"}, Rows.ts(1000)),
                    RowChange.insert(child, new Object[]{10L, 1L}, Rows.ts(1001)));
            d.awaitApplied();
            d.put(RowChange.delete(parent, new Object[]{1L, "a"}, Rows.ts(2000)),
                    RowChange.insert(parent, new Object[]{1L, "b"}, Rows.ts(2000)));
            d.awaitApplied();
        }
        assertEquals(List.of(List.of("1", "b")), target.query("SELECT id, v FROM parent"));
        assertEquals(List.of(List.of("10", "1")), target.query("SELECT id, pid FROM child"));
    }

    @Test
    void sessionsRunWithoutChecksUnlessTheSettingIsServer() throws Exception {
        try (TaskDriver d = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(),
                "foreign.key.checks", "server"))) {
            d.put(RowChange.insert(parent, new Object[]{1L, "a"}, Rows.ts(1000)),
                    RowChange.insert(child, new Object[]{10L, 1L}, Rows.ts(1001)));
            d.awaitApplied();
            d.put(RowChange.update(parent, new Object[]{1L, "a"}, new Object[]{1L, "b"}, Rows.ts(2000)));
            d.awaitApplied();
        }
        // safe mode (the replay window of a first start) wrote the parent with REPLACE: checked, it cascaded
        assertEquals(List.of(), target.query("SELECT id, pid FROM child"));
    }
}
