package io.cdcconnect.sink.conflict;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class KeyNormalizerTest {

    private static long hash(Object v, boolean ci) {
        return KeyHasher.keyHash(KeyHasher.tableSeed("db", "t"), 0, new Object[]{KeyNormalizer.normalize(v, ci)});
    }

    @Test
    void caseInsensitiveColumnsTreatCaseAndAccentsAsEqual() {
        assertEquals(hash("Alice", true), hash("alice", true));
        assertEquals(hash("ÉCOLE", true), hash("ecole", true));
        assertNotEquals(hash("Alice", false), hash("alice", false));
    }

    @Test
    void trailingSpacesDoNotMakeAStringDistinct() {
        assertEquals(hash("abc  ", false), hash("abc", false));
    }

    @Test
    void decimalsEqualInValueHashAlike() {
        assertEquals(hash(new BigDecimal("1.500"), false), hash(new BigDecimal("1.5"), false));
        assertEquals(hash(new BigDecimal("0.000"), false), hash(BigDecimal.ZERO, false));
    }

    @Test
    void bytesCompareByContent() {
        assertEquals(hash(new byte[]{1, 2, 3}, false), hash(new byte[]{1, 2, 3}, false));
        assertNotEquals(hash(new byte[]{1, 2, 3}, false), hash(new byte[]{1, 2, 4}, false));
    }

    @Test
    void sameValueInAnotherTableOrKeyIsAnotherKey() {
        long seed = KeyHasher.tableSeed("db", "t");
        Object[] v = {1L};
        assertNotEquals(KeyHasher.keyHash(seed, 0, v), KeyHasher.keyHash(KeyHasher.tableSeed("db", "u"), 0, v));
        assertNotEquals(KeyHasher.keyHash(seed, 0, v), KeyHasher.keyHash(seed, 1, v));
        assertNotEquals(KeyHasher.keyHash(seed, 0, v), KeyHasher.keyHash(seed, 0, new Object[]{"1"}));
    }
}
