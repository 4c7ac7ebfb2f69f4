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
import io.cdcconnect.sink.dml.TargetColumn;
import io.cdcconnect.sink.dml.TargetTable;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.Rows;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TransactionApplierTest {

    private static final TargetTable TARGET = new TargetTable("dst", "t", "`dst`.`t`", List.of(
            new TargetColumn("id", "bigint(20)", false, false, false),
            new TargetColumn("v", "varchar(20)", false, false, true)), List.of(List.of("id")), true);

    @Test
    void rowsOfOneTableInTwoShapesKeepTheirOrder() {
        // an Avro stream: full rows, and deletes that carry only the key
        TableInfo full = Rows.idValue("src", "t");
        TableInfo keyOnly = TableInfo.of("src", "t", List.of(ColumnInfo.of("id", MySqlType.LONGLONG,
                ColumnFlags.PRIMARY_KEY)));
        RowShape fullShape = RowShape.of(full, TARGET);
        RowShape keyShape = RowShape.of(keyOnly, TARGET);
        List<RowChange> rows = List.of(RowChange.insert(full, new Object[]{1L, "a"}, 0),
                RowChange.delete(keyOnly, new Object[]{1L}, 0),
                RowChange.insert(full, new Object[]{1L, "b"}, 0));
        TransactionApplier applier = new TransactionApplier(new DmlBuilder(new MariaDbDialect(), 1 << 24),
                SinkMetrics.inMemory("c", "0"));
        WorkItem item = new WorkItem(TxnFixtures.transaction(rows), new RowShape[]{fullShape, keyShape, fullShape},
                true, null);
        List<SqlBatch> batches = applier.plan(item);
        assertEquals(List.of(SqlBatch.Kind.UPSERT, SqlBatch.Kind.DELETE, SqlBatch.Kind.UPSERT),
                batches.stream().map(SqlBatch::kind).toList());
        assertEquals(List.of(1L, "b"), List.of(batches.get(2).params()));
    }
}
