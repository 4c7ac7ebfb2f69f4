package io.cdcconnect.source.dispatch;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TiCDC's table-filter syntax, the subset docs/source.md documents. */
class TableMatcherTest {

    private static TableMatcher m(String... patterns) {
        return TableMatcher.parse(List.of(patterns));
    }

    @Test
    void wildcardsMatchWithinEachPart() {
        assertTrue(m("shop.*").matches("shop", "orders"));
        assertFalse(m("shop.*").matches("shop2", "orders"));
        assertTrue(m("*.orders").matches("any", "orders"));
        assertTrue(m("shop.ord?rs").matches("shop", "orders"));
        assertFalse(m("shop.ord?rs").matches("shop", "ordrs"));
        assertTrue(m("shop.t_[0-9]").matches("shop", "t_7"));
        assertFalse(m("shop.t_[!0-9]").matches("shop", "t_7"));
        assertTrue(m("shop.t_[!0-9]").matches("shop", "t_x"));
        assertTrue(m("*.*").matches("a", "b"));
    }

    @Test
    void namesCompareCaseInsensitivelyAsTicdcsDefault() {
        assertTrue(m("Shop.Orders").matches("shop", "ORDERS"));
    }

    @Test
    void theLastMatchingPatternDecidesAndExclusionsExclude() {
        TableMatcher m = m("shop.*", "!shop.tmp_*");
        assertTrue(m.matches("shop", "orders"));
        assertFalse(m.matches("shop", "tmp_1"));
        assertTrue(m("!shop.tmp_*", "shop.*").matches("shop", "tmp_1"), "a later pattern overrides an exclusion");
        assertFalse(m("!shop.tmp_*").matches("other", "x"), "no matching pattern: not matched");
    }

    @Test
    void quotedAndEscapedNamesAreLiteral() {
        assertTrue(m("`my.db`.`t*`").matches("my.db", "t*"));
        assertFalse(m("`my.db`.`t*`").matches("my.db", "tx"));
        assertTrue(m("\"a\"\"b\".t").matches("a\"b", "t"));
        assertTrue(m("db.a\\*b").matches("db", "a*b"));
        assertFalse(m("db.a\\*b").matches("db", "axb"));
        assertTrue(m("db.`t.x`").matches("db", "t.x"), "a dot inside a name is quoted");
    }

    @Test
    void badPatternsAreNamed() {
        for (String bad : new String[] {"shop", "shop.", ".t", "`shop.t", "shop.t[", "shop.t(x)", "db.t.x", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m(bad), bad);
            assertTrue(e.getMessage().contains(bad) || bad.isEmpty(), e.getMessage());
        }
    }
}
