package io.cdcconnect.sink.dialect.mysql;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MySqlDdlRewriterTest {

    private static final Map<String, String> MAP = Map.of("shop", "shop_replica");

    @Test
    void qualifiedNamesMoveToTheMappedDatabase() {
        assertEquals("ALTER TABLE `shop_replica`.orders ADD COLUMN x INT",
                MySqlDdlRewriter.renameSchemas("ALTER TABLE shop.orders ADD COLUMN x INT", MAP));
        assertEquals("RENAME TABLE `shop_replica`.`a` TO `shop_replica`.`b`",
                MySqlDdlRewriter.renameSchemas("RENAME TABLE `shop`.`a` TO `SHOP`.`b`", MAP));
        assertEquals("CREATE TABLE `shop_replica` . t2 LIKE `shop_replica`.t1",
                MySqlDdlRewriter.renameSchemas("CREATE TABLE shop . t2 LIKE shop.t1", MAP));
    }

    @Test
    void otherIdentifiersAndLiteralsAreLeftAlone() {
        String sql = "ALTER TABLE orders ADD COLUMN shop_id INT COMMENT 'from shop.orders', ADD KEY k (myshop)";
        assertEquals(sql, MySqlDdlRewriter.renameSchemas(sql, MAP));
        assertEquals("SELECT t.shop FROM t", MySqlDdlRewriter.renameSchemas("SELECT t.shop FROM t", MAP));
        assertEquals("ALTER TABLE workshop.orders ENGINE=InnoDB",
                MySqlDdlRewriter.renameSchemas("ALTER TABLE workshop.orders ENGINE=InnoDB", MAP));
    }

    @Test
    void noMapNoChange() {
        assertEquals("ALTER TABLE shop.orders", MySqlDdlRewriter.renameSchemas("ALTER TABLE shop.orders", Map.of()));
    }
}
