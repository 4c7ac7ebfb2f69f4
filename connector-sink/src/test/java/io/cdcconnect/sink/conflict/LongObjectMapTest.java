package io.cdcconnect.sink.conflict;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The conflict detector's key map against java.util.HashMap, over random puts and removals (growth and shrinking). */
class LongObjectMapTest {

    @Test
    void behavesAsAHashMapOverRandomOperations() {
        for (long seed = 0; seed < 20; seed++) {
            Random r = new Random(seed);
            LongObjectMap<Object> map = new LongObjectMap<>();
            Map<Long, Object> ref = new HashMap<>();
            List<Long> seen = new ArrayList<>();
            // few distinct keys (collisions, runs) for some seeds, many (growth) for others
            int range = seed % 2 == 0 ? 300 : 1_000_000;
            for (int op = 0; op < 20_000; op++) {
                long k = seen.isEmpty() || r.nextInt(3) > 0 ? (long) r.nextInt(range) * (seed % 3 == 0 ? 64 : 1)
                        : seen.get(r.nextInt(seen.size()));
                if (r.nextInt(5) < 3) {
                    Object v = new Object();
                    assertSame(ref.put(k, v), map.put(k, v), "put " + k + " seed " + seed);
                    seen.add(k);
                } else {
                    Object expected = r.nextBoolean() ? ref.get(k) : new Object();
                    boolean removes = expected != null && ref.get(k) == expected;
                    assertEquals(removes, map.remove(k, expected), "remove " + k + " seed " + seed);
                    if (removes) ref.remove(k);
                }
                assertEquals(ref.size(), map.size());
            }
            for (Map.Entry<Long, Object> e : ref.entrySet()) assertSame(e.getValue(), map.get(e.getKey()));
            for (Long k : seen) {
                if (!ref.containsKey(k)) assertNull(map.get(k));
            }
            // empties out and shrinks back: every key found and removed
            for (Map.Entry<Long, Object> e : new ArrayList<>(ref.entrySet())) {
                assertTrue(map.remove(e.getKey(), e.getValue()));
            }
            assertEquals(0, map.size());
            assertFalse(map.remove(1L, new Object()));
        }
    }
}
