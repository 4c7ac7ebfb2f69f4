package io.cdcconnect.source.dispatch;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * TiCDC's own expected partitions, from pingcap/tiflow's dispatcher tests (cdc/sink/dmlsink/mq/dispatcher/partition/,
 * commit c7b2588e): each case is the table, the row and the partition out of 16 that TiCDC's test asserts. Our
 * dispatcher must put the same row on the same partition, so that our topics and a TiCDC changefeed's agree.
 */
class TicdcPartitionVectorsTest {
    private static final int HANDLE = ColumnFlags.HANDLE_KEY | ColumnFlags.PRIMARY_KEY;

    private static Dispatcher dispatcher(PartitionRule rule, String... columns) {
        return new Dispatcher(new TopicNamer("t", "p"), rule, List.of(columns), 16);
    }

    private static int partition(Dispatcher d, TableInfo t, Object... values) {
        return d.route(RowChange.insert(t, values, 1L)).get(0).partition();
    }

    /** index_value_test.go, TestIndexValueDispatcher: single and composite primary keys, Go int values. */
    @Test
    void indexValueMatchesTicdcsTestIndexValueDispatcher() {
        TableInfo t1 = TableInfo.of("test", "t1", List.of(ColumnInfo.of("a", MySqlType.LONG, HANDLE),
                ColumnInfo.of("b", MySqlType.LONG, 0)));
        TableInfo t2 = TableInfo.of("test", "t2", List.of(ColumnInfo.of("a", MySqlType.LONG, HANDLE),
                ColumnInfo.of("b", MySqlType.LONG, HANDLE)));
        Dispatcher d = dispatcher(PartitionRule.INDEX_VALUE);
        assertEquals(2, partition(d, t1, 11L, 22L));
        assertEquals(11, partition(d, t1, 22L, 22L));
        assertEquals(2, partition(d, t1, 11L, 33L));
        assertEquals(5, partition(d, t2, 11L, 22L));
        assertEquals(14, partition(d, t2, 11L, 0L));
        assertEquals(2, partition(d, t2, 11L, 33L));
    }

    /** The same vectors under 'pk': integer keys are not folded, so they land where TiCDC puts them. */
    @Test
    void pkPutsIntegerKeysWhereIndexValueDoes() {
        TableInfo t2 = TableInfo.of("test", "t2", List.of(ColumnInfo.of("a", MySqlType.LONG, HANDLE),
                ColumnInfo.of("b", MySqlType.LONG, HANDLE)));
        assertEquals(5, partition(dispatcher(PartitionRule.PK), t2, 11L, 22L));
        assertEquals(14, partition(dispatcher(PartitionRule.PK), t2, 11L, 0L));
    }

    /** table_test.go, TestTableDispatcher. */
    @Test
    void tableMatchesTicdcsTestTableDispatcher() {
        Dispatcher d = dispatcher(PartitionRule.TABLE);
        assertEquals(15, d.tablePartition("test", "t1"));
        assertEquals(5, d.tablePartition("test", "t2"));
        assertEquals(3, d.tablePartition("test", "t3"));
        TableInfo t1 = TableInfo.of("test", "t1", List.of(ColumnInfo.of("id", MySqlType.LONG, HANDLE)));
        assertEquals(15, partition(d, t1, 1L));
        assertEquals(15, partition(d, t1, 2L));
    }

    /**
     * columns_test.go, TestColumnsDispatcher: table test.t1 with col1 = 22, col2 = 11, col3 = 33; columns col2, col1
     * give 15, named in any case; when the table's own names are COL2 and Col1, they give 5 (TiCDC hashes the
     * table's spelling of the names).
     */
    @Test
    void columnsMatchesTicdcsTestColumnsDispatcher() {
        TableInfo t1 = TableInfo.of("test", "t1", List.of(ColumnInfo.of("col1", MySqlType.LONG, 0),
                ColumnInfo.of("col2", MySqlType.LONG, 0), ColumnInfo.of("col3", MySqlType.LONG, 0)));
        assertEquals(15, partition(dispatcher(PartitionRule.COLUMNS, "col2", "col1"), t1, 22L, 11L, 33L));
        assertEquals(15, partition(dispatcher(PartitionRule.COLUMNS, "COL2", "Col1"), t1, 22L, 11L, 33L));
        TableInfo upper = TableInfo.of("test", "t1", List.of(ColumnInfo.of("Col1", MySqlType.LONG, 0),
                ColumnInfo.of("COL2", MySqlType.LONG, 0), ColumnInfo.of("col3", MySqlType.LONG, 0)));
        assertEquals(5, partition(dispatcher(PartitionRule.COLUMNS, "col2", "col1"), upper, 22L, 11L, 33L));
    }

    /** ts.go: commit ts modulo the partition count. */
    @Test
    void tsIsTheCommitTsModuloThePartitionCount() {
        TableInfo t = TableInfo.of("test", "t1", List.of(ColumnInfo.of("a", MySqlType.LONG, HANDLE)));
        Dispatcher d = dispatcher(PartitionRule.TS);
        assertEquals((int) (450_000_000_000_000_017L % 16),
                d.route(RowChange.insert(t, new Object[] {1L}, 450_000_000_000_000_017L)).get(0).partition());
        assertEquals((int) Long.remainderUnsigned(-3L, 16),
                d.route(RowChange.insert(t, new Object[] {1L}, -3L)).get(0).partition(), "unsigned, as Go's uint64");
    }
}
