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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Table and column names a message may carry, however odd, reach the real target (embedded MariaDB) as the names
 * they are and nothing else: backticks, single and double quotes, spaces, dots, reserved words, non-ASCII letters,
 * and LIKE wildcards ({@code _}, {@code %}) beside a table they would also match. Inserts, updates that change the
 * key, deletes, in safe mode (upserts, deletes by key) and plain.
 */
class IdentifierQuotingTest {

    private static final String TABLE = "we`ird tab.le \"q\" 'x' ünï";
    private static final String WILDCARD_TABLE = "p_q%";
    /** Matched by "p_q%" as a LIKE pattern: its columns must not leak into the other's. */
    private static final String LOOKALIKE_TABLE = "pxq_lookalike";
    private static final List<String> COLUMNS = List.of("id", "co`l", "sp ace", "do.t", "order", "quo'te", "dq\"x",
            "ñame", "列");

    private TestDatabase source;
    private TestDatabase target;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("ident_src");
        target = SinkTarget.database("ident_dst");
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + q(TABLE) + " (" + q("id") + " BIGINT PRIMARY KEY");
        for (String c : COLUMNS.subList(1, COLUMNS.size())) ddl.append(", ").append(q(c)).append(" VARCHAR(40)");
        target.exec(ddl.append(") DEFAULT CHARSET=utf8mb4").toString());
        target.exec("CREATE TABLE " + q(LOOKALIKE_TABLE) + " (" + q("id") + " BIGINT PRIMARY KEY, extra INT NOT NULL,"
                + " more DATE NOT NULL)");
        target.exec("CREATE TABLE " + q(WILDCARD_TABLE) + " (" + q("id") + " BIGINT PRIMARY KEY, "
                + q("select") + " VARCHAR(10))");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private static String q(String name) {
        return '`' + name.replace("`", "``") + '`';
    }

    private TableInfo odd() {
        List<ColumnInfo> cols = new java.util.ArrayList<>();
        cols.add(ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY));
        for (String c : COLUMNS.subList(1, COLUMNS.size())) cols.add(ColumnInfo.of(c, MySqlType.VARCHAR, ColumnFlags.NULLABLE));
        return TableInfo.of(source.name(), TABLE, cols);
    }

    private static Object[] row(long id, String tag) {
        Object[] r = new Object[COLUMNS.size()];
        r[0] = id;
        for (int i = 1; i < r.length; i++) r[i] = tag + i + " `'\"";
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"always", "never"})
    void oddNamesAreAppliedAsTheNamesTheyAre(String safeMode) throws Exception {
        TableInfo t = odd();
        TableInfo w = TableInfo.of(source.name(), WILDCARD_TABLE, List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("select", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
        try (TaskDriver driver = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(),
                "safe.mode", safeMode))) {
            driver.put(RowChange.insert(t, row(1, "a"), Rows.ts(1000)),
                    RowChange.insert(t, row(2, "b"), Rows.ts(1001)),
                    RowChange.insert(t, row(3, "c"), Rows.ts(1002)),
                    RowChange.insert(w, new Object[]{1L, "s"}, Rows.ts(1003)));
            driver.put(RowChange.update(t, row(1, "a"), row(10, "z"), Rows.ts(1004)),
                    RowChange.update(t, row(2, "b"), row(2, "y"), Rows.ts(1005)),
                    RowChange.delete(t, row(3, "c"), Rows.ts(1006)),
                    RowChange.update(w, new Object[]{1L, "s"}, new Object[]{1L, "t"}, Rows.ts(1007)));
            driver.awaitApplied();
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < COLUMNS.size(); i++) select.append(i == 0 ? "" : ", ").append(q(COLUMNS.get(i)));
        List<List<String>> rows = target.query(select + " FROM " + q(TABLE) + " ORDER BY " + q("id"));
        assertEquals(2, rows.size(), rows.toString());
        assertEquals(expected(row(2, "y")), rows.get(0));
        assertEquals(expected(row(10, "z")), rows.get(1));
        assertEquals(List.of(List.of("1", "t")), target.query("SELECT * FROM " + q(WILDCARD_TABLE)));
        assertEquals(0, target.count(LOOKALIKE_TABLE));
    }

    private static List<String> expected(Object[] row) {
        return java.util.Arrays.stream(row).map(String::valueOf).toList();
    }
}
