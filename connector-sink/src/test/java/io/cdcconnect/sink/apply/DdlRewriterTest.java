package io.cdcconnect.sink.apply;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DdlRewriterTest {

    private static final Map<String, String> MAP = Map.of("shop", "shop_replica");

    @Test
    void qualifiedNamesMoveToTheMappedDatabase() {
        assertEquals("ALTER TABLE `shop_replica`.orders ADD COLUMN x INT",
                DdlRewriter.renameSchemas("ALTER TABLE shop.orders ADD COLUMN x INT", MAP));
        assertEquals("RENAME TABLE `shop_replica`.`a` TO `shop_replica`.`b`",
                DdlRewriter.renameSchemas("RENAME TABLE `shop`.`a` TO `SHOP`.`b`", MAP));
        assertEquals("CREATE TABLE `shop_replica` . t2 LIKE `shop_replica`.t1",
                DdlRewriter.renameSchemas("CREATE TABLE shop . t2 LIKE shop.t1", MAP));
    }

    @Test
    void otherIdentifiersAndLiteralsAreLeftAlone() {
        String sql = "ALTER TABLE orders ADD COLUMN shop_id INT COMMENT 'from shop.orders', ADD KEY k (myshop)";
        assertEquals(sql, DdlRewriter.renameSchemas(sql, MAP));
        assertEquals("SELECT t.shop FROM t", DdlRewriter.renameSchemas("SELECT t.shop FROM t", MAP));
        assertEquals("ALTER TABLE workshop.orders ENGINE=InnoDB",
                DdlRewriter.renameSchemas("ALTER TABLE workshop.orders ENGINE=InnoDB", MAP));
    }

    @Test
    void noMapNoChange() {
        assertEquals("ALTER TABLE shop.orders", DdlRewriter.renameSchemas("ALTER TABLE shop.orders", Map.of()));
    }
}
