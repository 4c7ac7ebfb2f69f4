package io.cdcconnect.source.dispatch;

import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.source.ddl.TableRef;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dispatchers setting: parsing, first match wins, the global settings as the fallback, key-update splits. */
class DispatchRulesTest {
    private static final int HANDLE = ColumnFlags.HANDLE_KEY | ColumnFlags.PRIMARY_KEY;
    private static final TableInfo ORDERS = TableInfo.of("shop", "orders", List.of(
            ColumnInfo.of("id", MySqlType.LONG, HANDLE), ColumnInfo.of("tenant", MySqlType.VARCHAR, 0)));
    private static final TableInfo TMP = TableInfo.of("shop", "tmp_1", List.of(
            ColumnInfo.of("id", MySqlType.LONG, HANDLE), ColumnInfo.of("tenant", MySqlType.VARCHAR, 0)));
    private static final TableInfo USERS = TableInfo.of("crm", "users", List.of(
            ColumnInfo.of("id", MySqlType.LONG, HANDLE), ColumnInfo.of("email", MySqlType.VARCHAR,
                    ColumnFlags.UNIQUE_KEY)));

    private static Dispatcher dispatcher(String json, boolean raw) {
        return new Dispatcher(new TopicNamer("{prefix}.{schema}.{table}", "cdc"), PartitionRule.TABLE, List.of(), 8,
                DispatchRule.parseAll(json), raw);
    }

    @Test
    void ticdcsFieldsAreRead() {
        List<DispatchRule> rules = DispatchRule.parseAll("[{\"matcher\": [\"shop.*\", \"!shop.tmp_*\"], \"topic\": "
                + "\"{prefix}_{schema}\", \"partition\": \"index-value\"}, {\"matcher\": [\"*.events\"], "
                + "\"dispatcher\": \"columns\", \"columns\": [\"tenant\"]}, {\"matcher\": \"crm.*\"}]");
        assertEquals(3, rules.size());
        assertEquals("{prefix}_{schema}", rules.get(0).topic());
        assertEquals(PartitionRule.INDEX_VALUE, rules.get(0).partition());
        assertEquals(PartitionRule.COLUMNS, rules.get(1).partition(), "TiCDC's old field name 'dispatcher'");
        assertEquals(List.of("tenant"), rules.get(1).columns());
        assertNull(rules.get(2).topic());
        assertNull(rules.get(2).partition());
        assertEquals(List.of(), DispatchRule.parseAll("  "));
        assertEquals(PartitionRule.INDEX_VALUE, DispatchRule.parseAll("[{\"matcher\": [\"*.*\"], \"partition\": "
                + "\"rowid\"}]").get(0).partition(), "TiCDC's deprecated rowid");
    }

    @Test
    void badRulesAreRefusedSayingWhichAndWhy() {
        assertMessage("[{\"matcher\": [\"shop.*\"], \"partition\": \"columns\"}]", "rule 1", "columns");
        assertMessage("[{\"matcher\": [\"a.*\"]}, {\"matcher\": [\"shop\"]}]", "rule 2", "schema.table");
        assertMessage("[{\"matcher\": [\"a.*\"], \"partition\": \"hash\"}]", "rule 1", "hash");
        assertMessage("[{\"matcher\": [\"a.*\"], \"topic\": \"{db}\"}]", "rule 1", "{db}");
        assertMessage("[{\"matcher\": [\"a.*\"], \"index\": \"uk_email\"}]", "rule 1", "\"columns\"");
        assertMessage("[{\"matcher\": [\"a.*\"], \"partiton\": \"ts\"}]", "rule 1", "partiton");
        assertMessage("[{\"partition\": \"ts\"}]", "rule 1", "matcher");
        assertMessage("[{\"matcher\": [\"a.*\"], \"partition\": \"ts\", \"dispatcher\": \"ts\"}]", "rule 1", "both");
        assertMessage("{\"matcher\": [\"a.*\"]}", "JSON array");
        assertMessage("[{\"matcher\": [\"a.*\"}]", "not JSON");
    }

    private static void assertMessage(String json, String... parts) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DispatchRule.parseAll(json));
        for (String p : parts) assertTrue(e.getMessage().contains(p), e.getMessage() + " should name " + p);
    }

    @Test
    void theFirstMatchingRuleGivesTopicAndPartitionAndTheGlobalSettingsTheRest() {
        Dispatcher d = dispatcher("[{\"matcher\": [\"shop.*\", \"!shop.tmp_*\"], \"topic\": \"{prefix}_{schema}\", "
                + "\"partition\": \"index-value\"}, {\"matcher\": [\"shop.*\"], \"partition\": \"ts\"}]", false);
        assertEquals("cdc_shop", d.topic("shop", "orders"));
        assertEquals("cdc.shop.tmp_1", d.topic("shop", "tmp_1"), "the second rule has no topic: topic.pattern");
        assertEquals("cdc.crm.users", d.topic("crm", "users"), "no rule: topic.pattern");

        java.util.Set<Integer> spread = new java.util.HashSet<>();
        for (long id = 0; id < 64; id++) {
            spread.add(d.route(RowChange.insert(ORDERS, new Object[] {id, "x"}, 5L)).get(0).partition());
        }
        assertTrue(spread.size() > 4, "index-value spreads orders' keys: " + spread);
        assertEquals((int) (1237L % 8), d.route(RowChange.insert(TMP, new Object[] {1L, "x"}, 1237L)).get(0)
                .partition(), "tmp_1 falls to the second rule, ts");
        int users = d.tablePartition("crm", "users");
        for (long id = 0; id < 16; id++) {
            assertEquals(users, d.route(RowChange.insert(USERS, new Object[] {id, "e"}, 9L)).get(0).partition(),
                    "crm.users follows partition.rule=table");
        }
        assertArrayEquals(new int[] {users}, d.ddlPartitions("crm", "users"),
                "DDL of a 'table' table: its partition");
        assertEquals(8, d.ddlPartitions("shop", "orders").length,
                "DDL of an index-value table: every partition");
        // a rename across rules: each table's topic, on the partitions of that table's rule
        List<Dispatcher.DdlRoute> routes = d.ddlRoutes(List.of(new TableRef("crm", "users"),
                new TableRef("shop", "orders")));
        assertEquals(List.of("cdc.crm.users", "cdc_shop"), routes.stream().map(Dispatcher.DdlRoute::topic).toList());
        assertArrayEquals(new int[] {users}, routes.get(0).partitions());
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, routes.get(1).partitions());
        assertEquals(new TableRef("shop", "orders"), routes.get(1).table());
        assertTrue(d.topicsPerTable());
        assertFalse(new Dispatcher(new TopicNamer("all", "p"), PartitionRule.TABLE, List.of(), 1,
                DispatchRule.parseAll("[{\"matcher\": [\"*.*\"], \"topic\": \"{schema}\"}]"), false).topicsPerTable());
    }

    @Test
    void anUpdateOfAPrimaryOrUniqueKeyIsSplitAsTicdcSplitsIt() {
        Dispatcher table = dispatcher("", false);
        RowChange pk = RowChange.update(ORDERS, new Object[] {1L, "a"}, new Object[] {2L, "a"}, 7L);
        List<Dispatcher.Route> routes = table.route(pk);
        assertEquals(List.of(RowChange.Op.DELETE, RowChange.Op.INSERT), routes.stream().map(r -> r.row().op()).toList());
        assertEquals(routes.get(0).partition(), routes.get(1).partition(), "under 'table' both on the table's");
        assertEquals(1L, routes.get(0).row().before()[0]);
        assertEquals(2L, routes.get(1).row().after()[0]);

        RowChange uk = RowChange.update(USERS, new Object[] {1L, "a@x"}, new Object[] {1L, "b@x"}, 7L);
        assertEquals(2, table.route(uk).size(), "a unique key changed");
        RowChange other = RowChange.update(ORDERS, new Object[] {1L, "a"}, new Object[] {1L, "b"}, 7L);
        assertEquals(List.of(RowChange.Op.UPDATE), table.route(other).stream().map(r -> r.row().op()).toList());
    }

    @Test
    void rawChangeEventsKeepKeyUpdatesWholeUnlessTheyChangePartition() {
        assertEquals(1, dispatcher("", true).route(RowChange.update(ORDERS, new Object[] {1L, "a"},
                new Object[] {2L, "a"}, 7L)).size(), "same partition under 'table': one update");
        Dispatcher byKey = dispatcher("[{\"matcher\": [\"*.*\"], \"partition\": \"index-value\"}]", true);
        long other = 2;
        int p1 = byKey.route(RowChange.insert(ORDERS, new Object[] {1L, "a"}, 1L)).get(0).partition();
        while (byKey.route(RowChange.insert(ORDERS, new Object[] {other, "a"}, 1L)).get(0).partition() == p1) other++;
        List<Dispatcher.Route> moved = byKey.route(RowChange.update(ORDERS, new Object[] {1L, "a"},
                new Object[] {other, "a"}, 7L));
        assertEquals(List.of(RowChange.Op.DELETE, RowChange.Op.INSERT), moved.stream().map(r -> r.row().op()).toList());
        assertEquals(p1, moved.get(0).partition());
    }

    @Test
    void pkFoldsTextKeysAsCollationsCompareThemAndIndexValueDoesNot() {
        TableInfo t = TableInfo.of("s", "t", List.of(ColumnInfo.of("k", MySqlType.VARCHAR, HANDLE)));
        Dispatcher pk = new Dispatcher(new TopicNamer("t", "p"), PartitionRule.PK, List.of(), 64);
        Dispatcher iv = new Dispatcher(new TopicNamer("t", "p"), PartitionRule.INDEX_VALUE, List.of(), 64);
        int differing = 0;
        for (int i = 0; i < 20; i++) {
            RowChange lower = RowChange.insert(t, new Object[] {"key" + i}, 1L);
            RowChange upper = RowChange.insert(t, new Object[] {"KEY" + i + "  "}, 1L);
            assertEquals(pk.route(lower).get(0).partition(), pk.route(upper).get(0).partition());
            if (iv.route(lower).get(0).partition() != iv.route(upper).get(0).partition()) differing++;
        }
        assertTrue(differing > 10, "index-value hashes the bytes, as TiCDC: " + differing);
    }
}
