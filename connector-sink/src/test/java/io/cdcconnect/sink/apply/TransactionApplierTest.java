package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.dialect.mysql.MariaDbDialect;
import io.cdcconnect.sink.dml.DmlBuilder;
import io.cdcconnect.sink.dml.RowShape;
import io.cdcconnect.sink.dml.SqlBatch;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.Rows;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TransactionApplierTest {

    private static final TargetTable TARGET = new TargetTable("dst", "t", "`dst`.`t`", List.of(
            new TargetColumn("id", "bigint(20)", false, false, false),
            new TargetColumn("v", "varchar(20)", false, false, true)), List.of(List.of("id")), true);

    private static final TableInfo FULL = Rows.idValue("src", "t");
    private static final TableInfo KEY_ONLY = TableInfo.of("src", "t", List.of(ColumnInfo.of("id", MySqlType.LONGLONG,
            ColumnFlags.PRIMARY_KEY)));
    private static final RowShape FULL_SHAPE = RowShape.of(FULL, TARGET);
    private static final RowShape KEY_SHAPE = RowShape.of(KEY_ONLY, TARGET);

    private static TransactionApplier applier() {
        return new TransactionApplier(new DmlBuilder(new MariaDbDialect(), 1 << 24), SinkMetrics.inMemory("c", "0"));
    }

    private static RowShape[] shapesOf(List<RowChange> rows) {
        return rows.stream().map(r -> r.table() == FULL ? FULL_SHAPE : KEY_SHAPE).toArray(RowShape[]::new);
    }

    @Test
    void inSafeModeRowsOfOneTableInTwoShapesTakeTheirNetEffectPerKeyAcrossShapes() {
        // an Avro stream: full rows, and deletes that carry only the key; insert, delete and re-insert of key 1
        List<RowChange> rows = List.of(RowChange.insert(FULL, new Object[]{1L, "a"}, 0),
                RowChange.delete(KEY_ONLY, new Object[]{1L}, 0),
                RowChange.insert(FULL, new Object[]{1L, "b"}, 0),
                RowChange.insert(FULL, new Object[]{2L, "c"}, 0),
                RowChange.delete(KEY_ONLY, new Object[]{2L}, 0),
                RowChange.delete(KEY_ONLY, new Object[]{3L}, 0));
        List<SqlBatch> batches = applier().plan(new WorkItem(TxnFixtures.transaction(rows), shapesOf(rows), true,
                null));
        // the net effect: keys 2 and 3 deleted (two rows: statements of 1 row each), key 1 written as its last image
        assertEquals(List.of(SqlBatch.Kind.DELETE, SqlBatch.Kind.DELETE, SqlBatch.Kind.UPSERT),
                batches.stream().map(SqlBatch::kind).toList());
        assertEquals(List.of(2L), List.of(batches.get(0).params()));
        assertEquals(List.of(3L), List.of(batches.get(1).params()));
        assertEquals(batches.get(0).sql(), batches.get(1).sql());
        assertEquals(List.of(1L, "b"), List.of(batches.get(2).params()));
    }

    @Test
    void inSafeModeAChangeOfShapeDoesNotEndAMultiRowStatement() {
        // 64 keys, each updated (full shape), then every other one deleted (key-only shape), interleaved
        List<RowChange> rows = new java.util.ArrayList<>();
        for (long k = 0; k < 64; k++) {
            rows.add(RowChange.update(FULL, new Object[]{k, "x"}, new Object[]{k, "y"}, 0));
            rows.add(RowChange.delete(KEY_ONLY, new Object[]{k + 1000}, 0));
        }
        List<SqlBatch> batches = applier().plan(new WorkItem(TxnFixtures.transaction(rows), shapesOf(rows), true,
                null));
        assertEquals(List.of(SqlBatch.Kind.DELETE, SqlBatch.Kind.UPSERT),
                batches.stream().map(SqlBatch::kind).toList());
        assertEquals(List.of(64, 64), batches.stream().map(SqlBatch::rows).toList());
    }

    @Test
    void withoutSafeModeRowsOfOneTableInTwoShapesKeepTheirOrder() {
        List<RowChange> rows = List.of(RowChange.insert(FULL, new Object[]{1L, "a"}, 0),
                RowChange.delete(KEY_ONLY, new Object[]{1L}, 0),
                RowChange.insert(FULL, new Object[]{1L, "b"}, 0));
        List<SqlBatch> batches = applier().plan(new WorkItem(TxnFixtures.transaction(rows), shapesOf(rows), false,
                null));
        assertEquals(List.of(SqlBatch.Kind.INSERT, SqlBatch.Kind.DELETE, SqlBatch.Kind.INSERT),
                batches.stream().map(SqlBatch::kind).toList());
        assertEquals(List.of(1L, "b"), List.of(batches.get(2).params()));
    }
}
