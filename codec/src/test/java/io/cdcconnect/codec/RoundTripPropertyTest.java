package io.cdcconnect.codec;

import io.cdcconnect.codec.canal.CanalJsonDecoder;
import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.open.OpenProtocolDecoder;
import io.cdcconnect.codec.open.OpenProtocolEncoder;
import io.cdcconnect.codec.open.OpenProtocolOptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random rows of every type: encode, decode, compare. The seed is printed on failure; rerun one with
 * {@code -Dcodec.seed=N}.
 */
class RoundTripPropertyTest {

    private static final int ROWS = 400;

    private static long seed() {
        String s = System.getProperty("codec.seed");
        return s != null ? Long.parseLong(s) : System.nanoTime();
    }

    /**
     * Compares by column name: Canal-JSON keeps the table's column order, Open-protocol sorts columns by name (as
     * TiCDC does), so a decoded table may list them differently.
     */
    private static void check(long seed, RowChange in, ChangeEvent out, int i) {
        if (!(out instanceof RowChange r)) {
            fail("seed " + seed + ", row " + i + ": decoded " + out);
            return;
        }
        String where = "seed " + seed + ", row " + i + " (" + in.op() + "): ";
        assertEquals(in.op(), r.op(), where + "op");
        assertEquals(in.commitTs() >>> 18 << 18, r.commitTs() >>> 18 << 18, where + "commitTs");
        List<ColumnInfo> cols = RandomRows.ALL_TYPES.columns();
        assertEquals(cols.size(), r.table().columnCount(), where + "column count");
        int[] map = new int[cols.size()];
        for (int c = 0; c < cols.size(); c++) {
            map[c] = r.table().indexOf(cols.get(c).name());
            assertEquals(cols.get(c).type(), r.table().column(map[c]).type(), where + "type of " + cols.get(c).name());
        }
        if (in.after() != null && !RandomRows.sameValues(in.after(), reorder(r.after(), map))) {
            fail(where + "after differs: " + RandomRows.describeDifferences(in.after(), reorder(r.after(), map)));
        }
        if (in.before() != null && !RandomRows.sameValues(in.before(), reorder(r.before(), map))) {
            fail(where + "before differs: " + RandomRows.describeDifferences(in.before(), reorder(r.before(), map)));
        }
    }

    private static Object[] reorder(Object[] decoded, int[] map) {
        Object[] out = new Object[map.length];
        for (int c = 0; c < map.length; c++) out[c] = decoded[map[c]];
        return out;
    }

    @Test
    void canalJsonRoundTripsEveryType() {
        long seed = seed();
        RandomRows gen = new RandomRows(seed);
        for (Compression compression : Compression.values()) {
            CanalJsonEncoder enc = new CanalJsonEncoder(CanalJsonOptions.builder()
                    .enableTidbExtension(gen.random().nextBoolean()).compression(compression).build());
            CanalJsonDecoder dec = new CanalJsonDecoder(compression);
            for (int i = 0; i < ROWS; i++) {
                RowChange in = gen.change((1_700_000_000_000L + i) << 18 | i);
                List<ChangeEvent> out;
                try {
                    out = dec.decode(enc.encode(in));
                } catch (RuntimeException e) {
                    throw new AssertionError("seed " + seed + ", row " + i + " (" + compression + "): " + e, e);
                }
                assertEquals(1, out.size());
                check(seed, in, out.get(0), i);
            }
            assertEquals(1, dec.cachedTables(), "one TableInfo for one table shape");
        }
    }

    @Test
    void openProtocolRoundTripsEveryTypeInBatches() {
        long seed = seed();
        RandomRows gen = new RandomRows(seed);
        for (Compression compression : Compression.values()) {
            OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.builder()
                    .maxBatchSize(1 + gen.random().nextInt(20)).compression(compression).build());
            OpenProtocolDecoder dec = new OpenProtocolDecoder(compression);
            List<RowChange> in = new ArrayList<>();
            List<ChangeEvent> out = new ArrayList<>();
            try {
                for (int i = 0; i < ROWS; i++) {
                    RowChange r = gen.change((1_700_000_000_000L + i) << 18 | i);
                    in.add(r);
                    for (EncodedMessage m : enc.append(r)) out.addAll(dec.decode(m.key(), m.value()));
                }
                for (EncodedMessage m : enc.flush()) out.addAll(dec.decode(m.key(), m.value()));
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + " (" + compression + "): " + e, e);
            }
            assertEquals(in.size(), out.size(), "seed " + seed);
            for (int i = 0; i < in.size(); i++) {
                check(seed, in.get(i), out.get(i), i);
                assertEquals(in.get(i).commitTs(), out.get(i).commitTs(), "seed " + seed + ": exact commit ts");
            }
        }
    }
}
