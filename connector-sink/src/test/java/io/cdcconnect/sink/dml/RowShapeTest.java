package io.cdcconnect.sink.dml;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.table.TargetColumn;
import io.cdcconnect.sink.table.TargetTable;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RowShapeTest {

    private static final TargetTable USERS = new TargetTable("dst", "users", "`dst`.`users`", List.of(
            new TargetColumn("id", "bigint(20)", false, false, false),
            new TargetColumn("email", "varchar(40)", true, false, true),
            new TargetColumn("total", "int(11)", false, true, true)),
            List.of(List.of("id"), List.of("email")), true);
    private static final TableInfo FULL = TableInfo.of("src", "users", List.of(
            ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY),
            ColumnInfo.of("email", MySqlType.VARCHAR, ColumnFlags.NULLABLE)));
    private static final TableInfo KEY_ONLY = TableInfo.of("src", "users", List.of(
            ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY)));

    private static long[] keys(RowShape shape, RowChange row) {
        RowShape.LongList out = new RowShape.LongList();
        shape.conflictKeys(row, out);
        return out.toArray();
    }

    @Test
    void generatedTargetColumnsAreNeverWritten() {
        assertEquals(List.of("id", "email"), RowShape.of(FULL, USERS).columns());
    }

    @Test
    void everyUniqueKeyOfOldAndNewImageIsAConflictKey() {
        RowShape shape = RowShape.of(FULL, USERS);
        long[] k = keys(shape, RowChange.update(FULL, new Object[]{1L, "a@x"}, new Object[]{2L, "b@x"}, 1));
        assertEquals(4, Arrays.stream(k).distinct().count());
    }

    @Test
    void aChildRowSharesAKeyWithTheParentRowItReferences() {
        TargetTable orders = new TargetTable("dst", "orders", "`dst`.`orders`", List.of(
                new TargetColumn("id", "bigint(20)", false, false, false),
                new TargetColumn("user_id", "bigint(20)", false, false, true)),
                List.of(List.of("id")), true, List.of(new TargetTable.ForeignKey(List.of("user_id"), "dst", "users",
                List.of("ID"))));
        TableInfo source = TableInfo.of("src", "orders", List.of(
                ColumnInfo.of("id", MySqlType.LONGLONG, ColumnFlags.PRIMARY_KEY),
                ColumnInfo.of("user_id", MySqlType.LONGLONG, ColumnFlags.NULLABLE)));
        RowShape child = RowShape.of(source, orders);
        long[] parent = keys(RowShape.of(FULL, USERS), RowChange.delete(FULL, new Object[]{7L, "a@x"}, 1));
        long[] ofUser7 = keys(child, RowChange.insert(source, new Object[]{1L, 7L}, 1));
        long[] ofUser8 = keys(child, RowChange.insert(source, new Object[]{2L, 8L}, 1));
        long[] ofNoUser = keys(child, RowChange.insert(source, new Object[]{3L, null}, 1));
        assertTrue(Arrays.stream(ofUser7).anyMatch(x -> Arrays.stream(parent).anyMatch(y -> y == x)));
        assertFalse(Arrays.stream(ofUser8).anyMatch(x -> Arrays.stream(parent).anyMatch(y -> y == x)));
        assertEquals(1, ofNoUser.length);
    }

    @Test
    void caseInsensitiveUniqueValuesShareAKey() {
        RowShape shape = RowShape.of(FULL, USERS);
        long[] a = keys(shape, RowChange.insert(FULL, new Object[]{1L, "Mail@X"}, 1));
        long[] b = keys(shape, RowChange.insert(FULL, new Object[]{2L, "mail@x "}, 1));
        assertTrue(Arrays.stream(a).anyMatch(x -> Arrays.stream(b).anyMatch(y -> y == x)));
        assertEquals(shape.identityOf(new Object[]{1L, "x"}), shape.identityOf(new Object[]{1L, "y"}));
    }

    @Test
    void aShapeMissingAUniqueKeyStillSharesThePrimaryKeyAndAddsTheTableKey() {
        RowShape full = RowShape.of(FULL, USERS);
        RowShape keyOnly = RowShape.of(KEY_ONLY, USERS);
        long[] upsert = keys(full, RowChange.insert(FULL, new Object[]{7L, "a@x"}, 1));
        long[] delete = keys(keyOnly, RowChange.delete(KEY_ONLY, new Object[]{7L}, 1));
        assertEquals(2, delete.length);
        assertTrue(Arrays.stream(delete).anyMatch(x -> Arrays.stream(upsert).anyMatch(y -> y == x)));
        assertFalse(keyOnly.tableWideConflicts());
    }

    @Test
    void aTargetKeyColumnMissingFromTheInputIsNamed() {
        TableInfo noId = TableInfo.of("src", "users", List.of(ColumnInfo.of("email", MySqlType.VARCHAR, 0)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RowShape.of(noId, USERS));
        assertTrue(e.getMessage().contains("`id`"), e.getMessage());
    }
}
