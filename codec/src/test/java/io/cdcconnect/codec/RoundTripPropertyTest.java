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
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
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

    private static List<RowChange> changes(RandomRows gen, int count) {
        List<RowChange> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) rows.add(gen.change((1_700_000_000_000L + i) << 18 | i));
        return rows;
    }

    /** Each row through the encoder and back, one message per row. */
    private static void canalRoundTrip(long seed, List<RowChange> rows, CanalJsonEncoder enc, CanalJsonDecoder dec,
                                       String what) {
        for (int i = 0; i < rows.size(); i++) {
            RowChange in = rows.get(i);
            List<ChangeEvent> out;
            try {
                out = dec.decode(enc.encode(in));
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ", row " + i + " (" + what + "): " + e, e);
            }
            assertEquals(1, out.size());
            check(seed, in, out.get(0), i);
        }
    }

    /** All rows through the batching encoder and back; every row comes back, in order, with its exact commit ts. */
    private static void openRoundTrip(long seed, List<RowChange> in, OpenProtocolEncoder enc, OpenProtocolDecoder dec,
                                      String what) {
        List<ChangeEvent> out = new ArrayList<>();
        try {
            for (RowChange r : in) {
                for (EncodedMessage m : enc.append(r)) out.addAll(dec.decode(m.key(), m.value()));
            }
            for (EncodedMessage m : enc.flush()) out.addAll(dec.decode(m.key(), m.value()));
        } catch (RuntimeException e) {
            throw new AssertionError("seed " + seed + " (" + what + "): " + e, e);
        }
        assertEquals(in.size(), out.size(), "seed " + seed);
        for (int i = 0; i < in.size(); i++) {
            check(seed, in.get(i), out.get(i), i);
            assertEquals(in.get(i).commitTs(), out.get(i).commitTs(), "seed " + seed + ": exact commit ts");
        }
    }

    @Test
    void canalJsonRoundTripsEveryType() {
        long seed = seed();
        RandomRows gen = new RandomRows(seed);
        for (Compression compression : Compression.values()) {
            CanalJsonEncoder enc = new CanalJsonEncoder(CanalJsonOptions.builder()
                    .enableTidbExtension(gen.random().nextBoolean()).compression(compression).build());
            CanalJsonDecoder dec = new CanalJsonDecoder(compression);
            canalRoundTrip(seed, changes(gen, ROWS), enc, dec, compression.configName());
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
            openRoundTrip(seed, changes(gen, ROWS), enc, new OpenProtocolDecoder(compression), compression.configName());
        }
    }

    private static long files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".json")).count();
        }
    }

    /** The median size of the rows' messages, so that about half of them exceed it. */
    private static int medianSize(List<RowChange> rows, java.util.function.ToIntFunction<RowChange> size) {
        int[] sizes = rows.stream().mapToInt(size).sorted().toArray();
        return sizes[sizes.length / 2];
    }

    /** Rows over max-message-bytes go to the claim-check store; every row still decodes whole, in order. */
    @Test
    void canalJsonRoundTripsThroughTheClaimCheckStore(@TempDir Path dir) throws IOException {
        long seed = seed();
        RandomRows gen = new RandomRows(seed);
        for (Compression compression : Compression.values()) {
            for (boolean raw : new boolean[] {false, true}) {
                List<RowChange> rows = changes(gen, ROWS / 4);
                CanalJsonOptions unlimited = CanalJsonOptions.builder().enableTidbExtension(true)
                        .compression(compression).build();
                CanalJsonEncoder sizer = new CanalJsonEncoder(unlimited);
                int limit = medianSize(rows, r -> MessageSize.length(null, sizer.encode(r)));
                Path store = Files.createDirectories(dir.resolve(compression + "-" + raw));
                CanalJsonEncoder enc = new CanalJsonEncoder(unlimited.toBuilder().maxMessageBytes(limit)
                        .largeMessageHandle(LargeMessageHandle.CLAIM_CHECK)
                        .claimCheck(ClaimCheck.open(store.toUri().toString(), raw)).build());
                // the consumer opens the same store by its own URI
                CanalJsonDecoder dec = new CanalJsonDecoder(compression, ClaimCheck.open("file://" + store, raw));
                canalRoundTrip(seed, rows, enc, dec, compression.configName() + ", raw " + raw);
                long stored = files(store);
                assertTrue(stored > 0 && stored < rows.size(), "seed " + seed + ": " + stored + " of "
                        + rows.size() + " rows went to the store; the limit of " + limit + " bytes should split them");
            }
        }
    }

    @Test
    void openProtocolRoundTripsThroughTheClaimCheckStore(@TempDir Path dir) throws IOException {
        long seed = seed();
        RandomRows gen = new RandomRows(seed);
        for (Compression compression : Compression.values()) {
            List<RowChange> in = changes(gen, ROWS / 2);
            OpenProtocolOptions unlimited = OpenProtocolOptions.builder().maxBatchSize(1).compression(compression)
                    .build();
            OpenProtocolEncoder sizer = new OpenProtocolEncoder(unlimited);
            int limit = medianSize(in, r -> sizer.append(r).get(0).length());
            Path store = Files.createDirectories(dir.resolve(compression.configName()));
            OpenProtocolEncoder enc = new OpenProtocolEncoder(unlimited.toBuilder()
                    .maxBatchSize(1 + gen.random().nextInt(8)).maxMessageBytes(limit)
                    .largeMessageHandle(LargeMessageHandle.CLAIM_CHECK)
                    .claimCheck(ClaimCheck.open(store.toUri().toString(), false)).build());
            OpenProtocolDecoder dec = new OpenProtocolDecoder(compression, ClaimCheck.open("file://" + store, false));
            openRoundTrip(seed, in, enc, dec, compression.configName());
            long stored = files(store);
            assertTrue(stored > 0 && stored < in.size(), "seed " + seed + ": " + stored + " of " + in.size()
                    + " rows went to the store; the limit of " + limit + " bytes should split them");
        }
    }
}
