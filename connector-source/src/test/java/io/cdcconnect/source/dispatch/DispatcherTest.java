package io.cdcconnect.source.dispatch;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.source.ddl.TableRef;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DispatcherTest {
    private static final TableInfo ORDERS = TableInfo.of("shop", "orders", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("customer", MySqlType.VARCHAR, 0),
            ColumnInfo.of("amount", MySqlType.NEWDECIMAL, 0)));
    private static final TableInfo LOG = TableInfo.of("shop", "log", List.of(
            ColumnInfo.of("msg", MySqlType.VARCHAR, 0)));

    private static Dispatcher dispatcher(PartitionRule rule, int partitions, String... columns) {
        return new Dispatcher(new TopicNamer("{prefix}.{schema}.{table}", "cdc"), rule, List.of(columns), partitions);
    }

    private static RowChange insert(TableInfo t, Object... v) {
        return RowChange.insert(t, v, 100L);
    }

    @Test
    void tableRulePutsAllRowsOfATableOnOnePartition() {
        Dispatcher d = dispatcher(PartitionRule.TABLE, 8);
        Set<Integer> seen = new HashSet<>();
        for (long i = 0; i < 50; i++) seen.add(d.route(insert(ORDERS, i, "c" + i, BigDecimal.ONE)).get(0).partition());
        assertEquals(1, seen.size());
        assertEquals(d.tablePartition("shop", "orders"), seen.iterator().next());
        assertEquals("cdc.shop.orders", d.route(insert(ORDERS, 1L, "c", null)).get(0).topic());
    }

    @Test
    void aTablesDdlGoesWhereItsRowsGo() {
        Dispatcher table = dispatcher(PartitionRule.TABLE, 4);
        int rows = table.route(insert(ORDERS, 1L, "c", null)).get(0).partition();
        assertArrayEquals(new int[] {rows}, table.ddlPartitions("shop", "orders"));
        assertArrayEquals(new int[] {0, 1, 2, 3}, table.ddlPartitions("shop", ""),
                "a database-level statement concerns every table");
        assertArrayEquals(new int[] {0, 1, 2, 3}, dispatcher(PartitionRule.PK, 4).ddlPartitions("shop", "orders"),
                "a rule that spreads a table's rows spreads its DDL too");
        assertArrayEquals(new int[] {0}, dispatcher(PartitionRule.TS, 1).ddlPartitions("shop", ""));
    }

    @Test
    void aRenameReachesTheRowsOfTheOldAndTheNewNameEachOnItsOwnTopic() {
        Dispatcher table = dispatcher(PartitionRule.TABLE, 8);
        TableRef old = new TableRef("shop", "orders");
        TableRef renamed = new TableRef("shop", "_orders_del");
        List<Dispatcher.DdlRoute> routes = table.ddlRoutes(List.of(old, renamed));
        assertEquals(List.of("cdc.shop.orders", "cdc.shop._orders_del"),
                routes.stream().map(Dispatcher.DdlRoute::topic).toList(), "no topic named from joined names");
        assertEquals(List.of(old, renamed), routes.stream().map(Dispatcher.DdlRoute::table).toList());
        assertArrayEquals(new int[] {table.tablePartition("shop", "orders")}, routes.get(0).partitions());
        assertArrayEquals(new int[] {table.tablePartition("shop", "_orders_del")}, routes.get(1).partitions(),
                "the new name's rows: its own partition under 'table'");
        List<Dispatcher.DdlRoute> spread = dispatcher(PartitionRule.PK, 3).ddlRoutes(List.of(old, renamed));
        assertEquals(2, spread.size());
        for (Dispatcher.DdlRoute r : spread) assertArrayEquals(new int[] {0, 1, 2}, r.partitions());
    }

    @Test
    void tablesSharingATopicGetOneCopyOnEachPartitionThatHoldsTheirRows() {
        // find two tables whose rows land on different partitions under 'table', so the union shows
        Dispatcher shared = new Dispatcher(new TopicNamer("{prefix}.{schema}", "cdc"), PartitionRule.TABLE, List.of(),
                8);
        String other = null;
        for (int i = 0; other == null; i++) {
            if (shared.tablePartition("shop", "t" + i) != shared.tablePartition("shop", "orders")) other = "t" + i;
        }
        List<Dispatcher.DdlRoute> routes = shared.ddlRoutes(List.of(new TableRef("shop", other),
                new TableRef("shop", "orders")));
        assertEquals(1, routes.size(), "one topic, one set of copies");
        assertEquals("cdc.shop", routes.get(0).topic());
        assertEquals(new TableRef("shop", other), routes.get(0).table(), "the first table named");
        int[] expected = java.util.stream.IntStream.of(shared.tablePartition("shop", other),
                shared.tablePartition("shop", "orders")).sorted().toArray();
        assertArrayEquals(expected, routes.get(0).partitions());
    }

    @Test
    void pkRuleSpreadsKeysAndKeepsOneKeyOnOnePartition() {
        Dispatcher d = dispatcher(PartitionRule.PK, 8);
        Set<Integer> seen = new HashSet<>();
        for (long i = 0; i < 200; i++) {
            int p = d.route(insert(ORDERS, i, "c", null)).get(0).partition();
            assertEquals(p, d.route(RowChange.delete(ORDERS, new Object[] {i, "x", BigDecimal.TEN}, 5L)).get(0).partition(),
                    "same key, same partition whatever the other columns");
            seen.add(p);
        }
        assertEquals(8, seen.size(), "200 keys reach all 8 partitions");
    }

    @Test
    void aNewVersionOfATableIsHashedByItsOwnKey() {
        // after a DDL the table's rows carry a new TableInfo: its key columns, not the cached ones, are hashed
        TableInfo keyedByCustomer = TableInfo.of("shop", "orders", List.of(
                ColumnInfo.of("id", MySqlType.LONG, 0),
                ColumnInfo.of("customer", MySqlType.VARCHAR, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
                ColumnInfo.of("amount", MySqlType.NEWDECIMAL, 0)));
        Dispatcher d = dispatcher(PartitionRule.INDEX_VALUE, 8);
        Set<Integer> seen = new HashSet<>();
        for (long i = 0; i < 50; i++) {
            d.route(insert(ORDERS, i, "c", null));
            int p = d.route(insert(keyedByCustomer, i, "c", null)).get(0).partition();
            assertEquals(dispatcher(PartitionRule.INDEX_VALUE, 8).route(insert(keyedByCustomer, i, "c", null)).get(0)
                    .partition(), p, "as a dispatcher that never saw the old version");
            seen.add(p);
        }
        assertEquals(1, seen.size(), "one customer, one partition, whatever the id");
    }

    @Test
    void pkRuleWithoutPrimaryKeyFallsBackToTable() {
        Dispatcher d = dispatcher(PartitionRule.PK, 8);
        int p = d.route(insert(LOG, "a")).get(0).partition();
        assertEquals(d.tablePartition("shop", "log"), p);
        assertEquals(p, d.route(insert(LOG, "b")).get(0).partition());
    }

    @Test
    void updateThatMovesTheKeyToAnotherPartitionIsSplitIntoDeleteAndInsert() {
        Dispatcher d = dispatcher(PartitionRule.PK, 8);
        long other = 1;
        int p0 = d.route(insert(ORDERS, 0L, "c", null)).get(0).partition();
        while (d.route(insert(ORDERS, other, "c", null)).get(0).partition() == p0) other++;
        RowChange upd = RowChange.update(ORDERS, new Object[] {0L, "c", null}, new Object[] {other, "c", null}, 77L);
        List<Dispatcher.Route> routes = d.route(upd);
        assertEquals(2, routes.size());
        assertEquals(RowChange.Op.DELETE, routes.get(0).row().op());
        assertEquals(p0, routes.get(0).partition());
        assertEquals(RowChange.Op.INSERT, routes.get(1).row().op());
        assertNotEquals(p0, routes.get(1).partition());
        assertEquals(77L, routes.get(0).row().commitTs());
        assertEquals(77L, routes.get(1).row().commitTs());

        RowChange sameKey = RowChange.update(ORDERS, new Object[] {0L, "a", null}, new Object[] {0L, "b", null}, 78L);
        assertEquals(List.of(RowChange.Op.UPDATE), d.route(sameKey).stream().map(r -> r.row().op()).toList());
    }

    @Test
    void tsRuleKeepsATransactionOnOnePartition() {
        Dispatcher d = dispatcher(PartitionRule.TS, 4);
        RowChange a = RowChange.insert(ORDERS, new Object[] {1L, "a", null}, 1001L);
        RowChange b = RowChange.insert(LOG, new Object[] {"x"}, 1001L);
        assertEquals(d.route(a).get(0).partition(), d.route(b).get(0).partition());
        assertEquals((int) (1001L % 4), d.route(a).get(0).partition());
    }

    @Test
    void columnsRuleHashesTheNamedColumnsAndFallsBackForTablesWithoutThem() {
        Dispatcher d = dispatcher(PartitionRule.COLUMNS, 16, "customer");
        int p1 = d.route(insert(ORDERS, 1L, "alice", null)).get(0).partition();
        assertEquals(p1, d.route(insert(ORDERS, 2L, "alice", null)).get(0).partition());
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) seen.add(d.route(insert(ORDERS, 1L, "cust" + i, null)).get(0).partition());
        assertTrue(seen.size() > 8);
        assertEquals(d.tablePartition("shop", "log"), d.route(insert(LOG, "x")).get(0).partition());
    }

    @Test
    void equalDecimalsAndCaseVariantsOfAKeyHashAlike() {
        TableInfo t = TableInfo.of("s", "t", List.of(
                ColumnInfo.of("k", MySqlType.NEWDECIMAL, ColumnFlags.PRIMARY_KEY),
                ColumnInfo.of("n", MySqlType.VARCHAR, ColumnFlags.PRIMARY_KEY)));
        Dispatcher d = dispatcher(PartitionRule.PK, 64);
        assertEquals(d.route(insert(t, new BigDecimal("1.0"), "Abc")).get(0).partition(),
                d.route(insert(t, new BigDecimal("1.000"), "abc ")).get(0).partition());
    }

    @Test
    void oneTopicAndSchemaTablePatterns() {
        assertEquals("all_changes", new TopicNamer("all_changes", "p").topic("s", "t"));
        assertEquals("shop_orders", new TopicNamer("{schema}_{table}", "p").topic("shop", "orders"));
        assertEquals("p.sh_p.t_1", new TopicNamer("{prefix}.{schema}.{table}", "p").topic("sh p", "t$1"));
        assertThrows(IllegalArgumentException.class, () -> new TopicNamer("{table}", "p").topic("s", "x".repeat(300)));
    }
}
