package io.cdcconnect.sink.dml;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.dialect.mysql.MariaDbDialect;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;
import io.cdcconnect.sink.testutil.Rows;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DmlBuilderTest {

    private static final TableInfo SOURCE = Rows.idValue("src", "t");
    private static final TargetTable PK_TABLE = new TargetTable("dst", "t", "`dst`.`t`", List.of(
            new TargetColumn("id", "bigint(20)", false, false, false),
            new TargetColumn("v", "varchar(20)", true, false, true)), List.of(List.of("id")), true);
    private static final TargetTable PK_AND_UK = new TargetTable("dst", "t", "`dst`.`t`", PK_TABLE.columns(),
            List.of(List.of("id"), List.of("v")), true);
    private static final TargetTable NO_KEY = new TargetTable("dst", "t", "`dst`.`t`", PK_TABLE.columns(), List.of(), false);

    private final DmlBuilder builder = new DmlBuilder(new MariaDbDialect(), 16 * 1024 * 1024);

    private static RowChange ins(long id, String v) {
        return RowChange.insert(SOURCE, new Object[]{id, v}, 1);
    }

    private static RowChange upd(long id, String v, long newId, String newV) {
        return RowChange.update(SOURCE, new Object[]{id, v}, new Object[]{newId, newV}, 1);
    }

    private static RowChange del(long id, String v) {
        return RowChange.delete(SOURCE, new Object[]{id, v}, 1);
    }

    private List<SqlBatch> build(TargetTable target, boolean safe, RowChange... rows) {
        List<SqlBatch> out = new ArrayList<>();
        builder.build(RowShape.of(SOURCE, target), Arrays.asList(rows), safe, out);
        return out;
    }

    @Test
    void safeModeWritesOneUpsertPerBatchOfRows() {
        List<SqlBatch> out = build(PK_TABLE, true, ins(1, "a"), ins(2, "b"), ins(3, "c"), ins(4, "d"), ins(5, "e"),
                ins(6, "f"), ins(7, "g"), ins(8, "h"), ins(9, "i"));
        assertEquals(List.of(8, 1), out.stream().map(SqlBatch::rows).toList());
        assertTrue(out.get(0).sql().startsWith("INSERT INTO `dst`.`t` (`id`,`v`) VALUES (?,?),"));
        assertTrue(out.get(0).sql().endsWith("ON DUPLICATE KEY UPDATE `v`=VALUES(`v`)"));
        assertEquals(16, out.get(0).params().length);
    }

    @Test
    void safeModeUsesReplaceWhenTheTableHasAnotherUniqueKey() {
        List<SqlBatch> out = build(PK_AND_UK, true, ins(1, "a"));
        assertEquals(SqlBatch.Kind.REPLACE, out.get(0).kind());
        assertEquals("REPLACE INTO `dst`.`t` (`id`,`v`) VALUES (?,?)", out.get(0).sql());
    }

    @Test
    void keyChangingUpdateBecomesDeleteOldThenUpsertNew() {
        List<SqlBatch> out = build(PK_TABLE, true, upd(1, "a", 2, "a"));
        assertEquals(List.of(SqlBatch.Kind.DELETE, SqlBatch.Kind.UPSERT), out.stream().map(SqlBatch::kind).toList());
        assertArrayEquals(new Object[]{1L}, out.get(0).params());
        assertArrayEquals(new Object[]{2L, "a"}, out.get(1).params());
    }

    @Test
    void safeModeWritesTheNetEffectPerKey() {
        List<SqlBatch> out = build(PK_TABLE, true, ins(1, "a"), upd(1, "a", 1, "b"), ins(2, "x"), del(2, "x"),
                del(3, "y"), ins(3, "z"));
        // key 1: last image; key 2: deleted; key 3: re-inserted (two rows: two single-row upserts, sizes are fixed)
        assertEquals(List.of(SqlBatch.Kind.DELETE, SqlBatch.Kind.UPSERT, SqlBatch.Kind.UPSERT),
                out.stream().map(SqlBatch::kind).toList());
        assertArrayEquals(new Object[]{2L}, out.get(0).params());
        assertEquals(List.of(1L, "b"), List.of(out.get(1).params()));
        assertEquals(List.of(3L, "z"), List.of(out.get(2).params()));
    }

    @Test
    void withoutSafeModeRowsGoInOrderAsPlainStatements() {
        List<SqlBatch> out = build(PK_TABLE, false, ins(1, "a"), ins(2, "b"), upd(1, "a", 1, "c"), del(2, "b"));
        assertEquals(List.of(SqlBatch.Kind.INSERT, SqlBatch.Kind.INSERT, SqlBatch.Kind.UPDATE, SqlBatch.Kind.DELETE),
                out.stream().map(SqlBatch::kind).toList());
        assertEquals("INSERT INTO `dst`.`t` (`id`,`v`) VALUES (?,?)", out.get(0).sql());
        assertEquals("UPDATE `dst`.`t` SET `id`=?,`v`=? WHERE `id`=?", out.get(2).sql());
        assertEquals(List.of(1L, "c", 1L), List.of(out.get(2).params()));
        assertEquals("DELETE FROM `dst`.`t` WHERE `id` IN (?)", out.get(3).sql());
    }

    @Test
    void withoutSafeModeADeleteAndInsertOfOneKeyGoAsTheUpdateTheSourceSplit() {
        // an update of a unique key arrives as delete + insert of the row, in the binlog's order
        List<SqlBatch> out = build(PK_AND_UK, false, del(1, "a"), ins(1, "b"), del(2, "x"), ins(3, "y"));
        assertEquals(List.of(SqlBatch.Kind.UPDATE, SqlBatch.Kind.DELETE, SqlBatch.Kind.INSERT),
                out.stream().map(SqlBatch::kind).toList());
        assertEquals(List.of(1L, "b", 1L), List.of(out.get(0).params()));
    }

    @Test
    void withReplicaForeignKeyChecksDeletesAndUpdatesCheckTheirOwnStatement() {
        DmlBuilder replica = new DmlBuilder(new MariaDbDialect(), 16 * 1024 * 1024,
                io.cdcconnect.sink.dialect.ForeignKeyChecks.REPLICA);
        List<SqlBatch> out = new ArrayList<>();
        replica.build(RowShape.of(SOURCE, PK_AND_UK), List.of(ins(1, "a"), upd(1, "a", 1, "b"), del(1, "b")), false,
                out);
        replica.build(RowShape.of(SOURCE, PK_AND_UK), List.of(ins(2, "c")), true, out);
        assertEquals(List.of("INSERT INTO `dst`.`t` (`id`,`v`) VALUES (?,?)",
                "SET STATEMENT foreign_key_checks = 1 FOR UPDATE `dst`.`t` SET `id`=?,`v`=? WHERE `id`=?",
                "SET STATEMENT foreign_key_checks = 1 FOR DELETE FROM `dst`.`t` WHERE `id` IN (?)",
                "REPLACE INTO `dst`.`t` (`id`,`v`) VALUES (?,?)"), out.stream().map(SqlBatch::sql).toList());
    }

    @Test
    void tablesWithoutKeyAreMatchedOnEveryColumnEvenInSafeMode() {
        List<SqlBatch> out = build(NO_KEY, true, ins(1, "a"), del(1, "a"));
        assertEquals("INSERT INTO `dst`.`t` (`id`,`v`) VALUES (?,?)", out.get(0).sql());
        assertEquals("DELETE FROM `dst`.`t` WHERE `id` <=> ? AND `v` <=> ? LIMIT 1", out.get(1).sql());
    }

    @Test
    void multiRowStatementsUseOnlyTheFixedRowCounts() {
        RowChange[] rows = new RowChange[300];
        for (int i = 0; i < rows.length; i++) rows[i] = ins(i, "v");
        List<SqlBatch> out = build(PK_TABLE, true, rows);
        // 300 = 256 + 4 x 8 + 12 x 1
        assertEquals(256, out.get(0).rows());
        assertTrue(out.stream().allMatch(b -> Arrays.stream(DmlBuilder.BATCH_SIZES).anyMatch(s -> s == b.rows())));
        assertEquals(300, out.stream().mapToInt(SqlBatch::rows).sum());
        assertEquals(3, out.stream().map(SqlBatch::sql).distinct().count());
    }

    @Test
    void wideTablesUseLargeStatementsOnlyOnceTheyHaveWrittenEnoughRows() {
        // 60 columns: 256 rows would be 15,360 placeholders, over the small-statement cap of 4,096
        List<io.cdcconnect.codec.model.ColumnInfo> cols = new ArrayList<>();
        List<TargetColumn> targetCols = new ArrayList<>();
        cols.add(io.cdcconnect.codec.model.ColumnInfo.of("id", io.cdcconnect.codec.model.MySqlType.LONGLONG,
                io.cdcconnect.codec.model.ColumnFlags.PRIMARY_KEY | io.cdcconnect.codec.model.ColumnFlags.HANDLE_KEY));
        targetCols.add(new TargetColumn("id", "bigint(20)", false, false, false));
        for (int i = 1; i < 60; i++) {
            cols.add(io.cdcconnect.codec.model.ColumnInfo.of("c" + i, io.cdcconnect.codec.model.MySqlType.VARCHAR,
                    io.cdcconnect.codec.model.ColumnFlags.NULLABLE));
            targetCols.add(new TargetColumn("c" + i, "varchar(20)", true, false, true));
        }
        TableInfo wideSource = TableInfo.of("src", "w", cols);
        TargetTable wide = new TargetTable("dst", "w", "`dst`.`w`", targetCols, List.of(List.of("id")), true);
        RowShape shape = RowShape.of(wideSource, wide);
        DmlBuilder b = new DmlBuilder(new MariaDbDialect(), 64L * 1024 * 1024);
        long written = 0;
        while (written < DmlBuilder.LARGE_STATEMENT_AFTER_ROWS) {
            List<SqlBatch> out = buildWide(b, shape, wideSource, written);
            assertEquals(64, out.get(0).rows(), "after " + written + " rows");
            assertEquals(1000, out.stream().mapToInt(SqlBatch::rows).sum());
            written += 1000;
        }
        List<SqlBatch> out = buildWide(b, shape, wideSource, written);
        assertEquals(256, out.get(0).rows(), "after " + written + " rows the table may use 256-row statements");
        // a narrow table is never held back: 256 rows of 2 columns are 512 placeholders
        DmlBuilder fresh = new DmlBuilder(new MariaDbDialect(), 64L * 1024 * 1024);
        RowChange[] narrow = new RowChange[300];
        for (int i = 0; i < narrow.length; i++) narrow[i] = ins(i, "v");
        List<SqlBatch> first = new ArrayList<>();
        fresh.build(RowShape.of(SOURCE, PK_TABLE), Arrays.asList(narrow), true, first);
        assertEquals(256, first.get(0).rows());
        // a DDL on the wide table (forget) starts its count again
        b.forget(wide);
        assertEquals(64, buildWide(b, shape, wideSource, written).get(0).rows());
    }

    /** 1,000 inserts of distinct keys from {@code firstId} into a 60-column table, through {@code b}. */
    private static List<SqlBatch> buildWide(DmlBuilder b, RowShape shape, TableInfo source, long firstId) {
        List<RowChange> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Object[] image = new Object[60];
            image[0] = firstId + i;
            rows.add(RowChange.insert(source, image, 1));
        }
        List<SqlBatch> out = new ArrayList<>();
        b.build(shape, rows, true, out);
        return out;
    }

    @Test
    void placeholderLimitCapsTheRowCount() {
        assertEquals(64, builder.chooseSize(1000, 1000, 10));
        assertEquals(8, builder.chooseSize(1000, 5000, 10));
        assertEquals(1, builder.chooseSize(1000, 40000, 10));
    }

    @Test
    void maxAllowedPacketCapsTheRowCount() {
        DmlBuilder small = new DmlBuilder(new MariaDbDialect(), 1024 * 1024);
        assertEquals(64, small.chooseSize(1000, 2, 4000));
        assertEquals(1, small.chooseSize(1000, 2, 600_000));
    }

    @Test
    void unsignedBigintAndBit64AreBoundWithoutSignLoss() {
        TableInfo src = TableInfo.of("src", "u", List.of(
                io.cdcconnect.codec.model.ColumnInfo.of("id", io.cdcconnect.codec.model.MySqlType.LONGLONG,
                        io.cdcconnect.codec.model.ColumnFlags.PRIMARY_KEY | io.cdcconnect.codec.model.ColumnFlags.UNSIGNED),
                io.cdcconnect.codec.model.ColumnInfo.of("b", io.cdcconnect.codec.model.MySqlType.BIT, 0)));
        TargetTable target = new TargetTable("dst", "u", "`dst`.`u`", List.of(
                new TargetColumn("id", "bigint(20) unsigned", false, false, false),
                new TargetColumn("b", "bit(64)", false, false, true)), List.of(List.of("id")), true);
        RowShape shape = RowShape.of(src, target, new MariaDbDialect());
        Object[] image = {-1L, -1L};
        assertEquals(new BigDecimal("18446744073709551615"), shape.value(image, 0));
        assertArrayEquals(new byte[]{-1, -1, -1, -1, -1, -1, -1, -1}, (byte[]) shape.value(image, 1));
        assertEquals(5L, shape.value(new Object[]{5L, 5L}, 1));
    }
}
