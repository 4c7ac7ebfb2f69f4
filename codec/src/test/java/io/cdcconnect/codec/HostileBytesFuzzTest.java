package io.cdcconnect.codec;

import io.cdcconnect.codec.avro.AvroDecoder;
import io.cdcconnect.codec.avro.AvroEncoder;
import io.cdcconnect.codec.avro.AvroMessage;
import io.cdcconnect.codec.avro.AvroOptions;
import io.cdcconnect.codec.avro.HttpSchemaRegistryClient;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.Watermark;
import io.cdcconnect.testsupport.TicdcVectors;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hostile bytes into every decoder of the codec: valid messages (TiCDC's own vectors and this codec's output for
 * random rows of every type) mutated at random (bit flips, special bytes, cut, repeated, spliced, lengths
 * overwritten, JSON tokens and deep nesting inserted), and random bytes. Whatever comes in, a decoder either decodes
 * or throws a {@link CodecException}: no other exception, no hang (each decoder's run is bounded by
 * {@code assertTimeoutPreemptively}, each case by 2 s of its thread's CPU), and what a value expands to stays under the decoded-size
 * limit. Seeded: {@code -Dcodec.fuzz.seed=N} repeats a run, {@code -Dcodec.fuzz.cases=N} sets the cases per decoder.
 */
class HostileBytesFuzzTest {

    private static final long SEED = Long.getLong("codec.fuzz.seed", 0x5EED_2026_1124L);
    private static final int CASES = Integer.getInteger("codec.fuzz.cases", 1500);
    /** Small, so that mutated compressed values and claim-check files run into it. */
    private static final long LIMIT = 256 * 1024;
    /** A hang detector, not a speed goal: generous, as a busy 2-core machine may give the run a fraction of a core. */
    private static final Duration PER_DECODER = Duration.ofSeconds(300);
    /** The CPU one case may take (the thread's own, so that other processes on the machine do not count). */
    private static final long SLOW_CASE_NANOS = Duration.ofSeconds(2).toNanos();
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    @TempDir
    static Path store;
    private static StandInSchemaRegistry registry;

    @BeforeAll
    static void startRegistry() throws Exception {
        registry = StandInSchemaRegistry.start();
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) registry.close();
    }

    /** One Kafka record: key (null for Canal-JSON) and value. */
    record Sample(byte[] key, byte[] value) {
    }

    // ---------------------------------------------------------------- the decoders

    @Test
    void canalJson() {
        run("canal-json", Map.of(), canalSeeds(Compression.NONE, Map.of()), false);
    }

    @Test
    void canalJsonSnappy() {
        run("canal-json", Map.of(CodecOptions.COMPRESSION, "snappy"), canalSeeds(Compression.SNAPPY, Map.of()), false);
    }

    @Test
    void canalJsonLz4() {
        run("canal-json", Map.of(CodecOptions.COMPRESSION, "lz4"), canalSeeds(Compression.LZ4, Map.of()), false);
    }

    @Test
    void openProtocol() {
        run("open-protocol", Map.of(), openSeeds(Compression.NONE, Map.of()), true);
    }

    @Test
    void openProtocolSnappy() {
        run("open-protocol", Map.of(CodecOptions.COMPRESSION, "snappy"), openSeeds(Compression.SNAPPY, Map.of()), true);
    }

    @Test
    void openProtocolLz4() {
        run("open-protocol", Map.of(CodecOptions.COMPRESSION, "lz4"), openSeeds(Compression.LZ4, Map.of()), true);
    }

    /** Claim-check pointers mutated, and the files they point to mutated too. */
    @Test
    void canalJsonClaimCheck() throws Exception {
        Map<String, String> cc = claimCheckOptions("canal", "lz4");
        List<Sample> seeds = canalSeeds(Compression.LZ4, cc);
        run("canal-json", cc, seeds, false);
        mutateStoredFiles("canal-json", cc, seeds, Compression.LZ4);
    }

    @Test
    void openProtocolClaimCheck() throws Exception {
        Map<String, String> cc = claimCheckOptions("open", "snappy");
        List<Sample> seeds = openSeeds(Compression.SNAPPY, cc);
        run("open-protocol", cc, seeds, true);
        mutateStoredFiles("open-protocol", cc, seeds, Compression.SNAPPY);
    }

    @Test
    void avro() {
        AvroEncoder encoder = new AvroEncoder(AvroOptions.defaults(), new HttpSchemaRegistryClient(registry.url()));
        RandomRows rows = new RandomRows(SEED);
        List<Sample> seeds = new ArrayList<>();
        for (int i = 0; i < 200 && seeds.size() < 40; i++) {
            AvroMessage m;
            try {
                m = encoder.encode("fuzz_topic", rows.change(1000L << 18 | i));
            } catch (CodecException e) {
                continue; // a value Avro's DECIMAL(65,30) cannot carry: not a seed
            }
            seeds.add(new Sample(m.key(), m.value()));
        }
        AvroDecoder decoder = new AvroDecoder(new HttpSchemaRegistryClient(registry.url()));
        fuzz("avro", (k, v) -> List.of(decoder.decode(k, v)), seeds, true, CASES / 2);
    }

    // ---------------------------------------------------------------- seeds

    private static Map<String, String> claimCheckOptions(String name, String compression) throws Exception {
        Path dir = Files.createDirectories(store.resolve(name));
        return Map.of(CodecOptions.LARGE_MESSAGE_HANDLE, "claim-check",
                ClaimCheck.STORAGE_URI_OPTION, dir.toUri().toString(),
                CodecOptions.MAX_MESSAGE_BYTES, "2048",
                CodecOptions.ENABLE_TIDB_EXTENSION, "true",
                CodecOptions.COMPRESSION, compression);
    }

    /** TiCDC's Canal-JSON messages (compressed as asked) and this codec's own, rows, DDL and watermarks. */
    private static List<Sample> canalSeeds(Compression c, Map<String, String> encoderOptions) {
        List<Sample> seeds = new ArrayList<>();
        if (encoderOptions.isEmpty()) {
            for (String line : TicdcVectors.lines("canal-json/messages.jsonl")) {
                seeds.add(new Sample(null, c.compress(line.getBytes(StandardCharsets.UTF_8))));
            }
        }
        Map<String, String> o = new java.util.HashMap<>(Map.of(CodecOptions.ENABLE_TIDB_EXTENSION, "true",
                CodecOptions.COMPRESSION, c.configName()));
        o.putAll(encoderOptions);
        seeds.addAll(ours(EventEncoders.CANAL_JSON, o));
        return seeds;
    }

    /** TiCDC's Open-protocol key/value pairs (values compressed as asked) and this codec's own batches. */
    private static List<Sample> openSeeds(Compression c, Map<String, String> encoderOptions) {
        List<Sample> seeds = new ArrayList<>();
        if (encoderOptions.isEmpty()) {
            for (String kind : List.of("row", "ddl", "rts")) {
                for (int i = 0; i < 3; i++) {
                    byte[] key = TicdcVectors.read("open-protocol/key/" + kind + "_key_" + i);
                    byte[] value = TicdcVectors.read("open-protocol/value/" + kind + "_value_" + i);
                    seeds.add(new Sample(key, kind.equals("rts") ? value : recompress(value, c)));
                }
            }
        }
        Map<String, String> o = new java.util.HashMap<>(Map.of(CodecOptions.COMPRESSION, c.configName(),
                CodecOptions.MAX_BATCH_SIZE, "4"));
        o.putAll(encoderOptions);
        seeds.addAll(ours(EventEncoders.OPEN_PROTOCOL, o));
        return seeds;
    }

    /** An Open-protocol value with each length-prefixed entry compressed. */
    private static byte[] recompress(byte[] value, Compression c) {
        if (c == Compression.NONE) return value;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int pos = 0;
        while (pos + 8 <= value.length) {
            int len = (int) java.nio.ByteBuffer.wrap(value, pos, 8).getLong();
            byte[] entry = c.compress(Arrays.copyOfRange(value, pos + 8, pos + 8 + len));
            out.writeBytes(java.nio.ByteBuffer.allocate(8).putLong(entry.length).array());
            out.writeBytes(entry);
            pos += 8 + len;
        }
        return out.toByteArray();
    }

    private static List<Sample> ours(String format, Map<String, String> options) {
        EventEncoder enc = EventEncoders.create(format, options);
        RandomRows rows = new RandomRows(SEED ^ format.hashCode());
        List<ChangeEvent> events = new ArrayList<>();
        for (int i = 0; i < 30; i++) events.add(rows.change(2000L << 18 | i));
        events.add(new DdlChange("prop_db", "all_types", "ALTER TABLE all_types ADD COLUMN z INT",
                DdlChange.Kind.ALTER, 3000L << 18));
        events.add(new Watermark(3001L << 18));
        List<Sample> out = new ArrayList<>();
        for (ChangeEvent e : events) {
            for (EncodedMessage m : enc.encode("fuzz_topic", e)) out.add(new Sample(m.key(), m.value()));
        }
        for (EncodedMessage m : enc.flush()) out.add(new Sample(m.key(), m.value()));
        return out;
    }

    // ---------------------------------------------------------------- the fuzzing

    private static void run(String format, Map<String, String> options, List<Sample> seeds, boolean keyMatters) {
        Map<String, String> o = new java.util.HashMap<>(options);
        o.put(CodecOptions.MAX_DECODED_BYTES, Long.toString(LIMIT));
        EventDecoder decoder = EventDecoders.create(format, o);
        fuzz(format + " " + options.getOrDefault(CodecOptions.COMPRESSION, "none")
                + (options.containsKey(ClaimCheck.STORAGE_URI_OPTION) ? " claim-check" : ""),
                decoder::decode, seeds, keyMatters, CASES);
    }

    /** Overwrites the stored claim-check files with mutations of themselves and decodes the pointers again. */
    private static void mutateStoredFiles(String format, Map<String, String> options, List<Sample> pointers,
                                          Compression c) throws Exception {
        Path dir = Path.of(java.net.URI.create(options.get(ClaimCheck.STORAGE_URI_OPTION)));
        List<Path> files;
        try (var s = Files.list(dir)) {
            files = s.filter(f -> f.getFileName().toString().endsWith(".json")).toList();
        }
        assertFalse(files.isEmpty(), "the encoder stored rows by claim-check");
        List<byte[]> originals = new ArrayList<>();
        for (Path f : files) originals.add(Files.readAllBytes(f));
        Map<String, String> o = new java.util.HashMap<>(options);
        o.put(CodecOptions.MAX_DECODED_BYTES, Long.toString(LIMIT));
        EventDecoder decoder = EventDecoders.create(format, o);
        Random r = new Random(SEED ^ 0xC1A1L);
        List<Sample> pointing = pointers.stream().filter(s -> s.value() != null && s.value().length < 2048).toList();
        List<String> failures = new ArrayList<>();
        AtomicReference<String> current = new AtomicReference<>("");
        assertTimeoutPreemptively(PER_DECODER, () -> {
            for (int i = 0; i < CASES / 3; i++) {
                int which = r.nextInt(files.size());
                byte[] mutated = r.nextInt(8) == 0 ? new byte[(int) LIMIT + 1 + r.nextInt(100)]
                        : mutate(originals.get(which), r, originals);
                Files.write(files.get(which), mutated);
                for (Sample s : pointing) {
                    current.set("stored file " + which + " case " + i);
                    check(format + " claim-check store", decoder::decode, s, i, failures);
                }
                Files.write(files.get(which), originals.get(which));
            }
        }, () -> "hung at " + current.get());
        report(format + " claim-check store", failures);
    }

    private static void fuzz(String name, BiFunction<byte[], byte[], List<ChangeEvent>> decoder, List<Sample> seeds,
                             boolean keyMatters, int cases) {
        assertTrue(seeds.size() >= 5, name + ": seeds " + seeds.size());
        for (Sample s : seeds) {
            try {
                decoder.apply(s.key(), s.value());
            } catch (RuntimeException e) {
                fail(name + ": a valid seed does not decode: " + e, e);
            }
        }
        List<byte[]> pool = new ArrayList<>();
        for (Sample s : seeds) pool.add(s.value());
        Random r = new Random(SEED ^ name.hashCode());
        List<String> failures = new ArrayList<>();
        AtomicReference<String> current = new AtomicReference<>("");
        assertTimeoutPreemptively(PER_DECODER, () -> {
            for (int i = 0; i < cases; i++) {
                Sample seed = seeds.get(r.nextInt(seeds.size()));
                Sample s;
                int pick = r.nextInt(20);
                if (pick == 0) {
                    s = new Sample(random(r), random(r));
                } else if (keyMatters && pick < 6) {
                    s = new Sample(mutate(seed.key(), r, pool), seed.value());
                } else if (keyMatters && pick < 8) {
                    s = new Sample(mutate(seed.key(), r, pool), mutate(seed.value(), r, pool));
                } else {
                    s = new Sample(seed.key(), mutate(seed.value(), r, pool));
                }
                current.set("case " + i + ": " + show(s));
                check(name, decoder, s, i, failures);
            }
        }, () -> name + " hung at " + current.get());
        report(name, failures);
    }

    private static final java.util.concurrent.atomic.AtomicInteger DECODED = new java.util.concurrent.atomic.AtomicInteger();
    private static final java.util.concurrent.atomic.AtomicInteger REFUSED = new java.util.concurrent.atomic.AtomicInteger();

    private static void check(String name, BiFunction<byte[], byte[], List<ChangeEvent>> decoder, Sample s, int i,
                              List<String> failures) {
        long t0 = CPU.getCurrentThreadCpuTime();
        try {
            List<ChangeEvent> events = decoder.apply(s.key(), s.value());
            DECODED.incrementAndGet();
            if (events == null) failures.add(name + " case " + i + ": null instead of a list, on " + show(s));
            else for (ChangeEvent e : events) {
                if (e instanceof RowChange row && row.table() == null) {
                    failures.add(name + " case " + i + ": a row without a table, on " + show(s));
                }
            }
        } catch (CodecException expected) {
            // the one way to refuse a record
            REFUSED.incrementAndGet();
        } catch (Throwable t) {
            if (failures.size() < 20) {
                java.io.StringWriter w = new java.io.StringWriter();
                t.printStackTrace(new java.io.PrintWriter(w));
                failures.add(name + " case " + i + ": " + w.toString().lines().limit(8)
                        .reduce((a, b) -> a + "\n    " + b).orElse("") + "\n  on " + show(s));
            } else {
                failures.add(name + " case " + i + ": " + t);
            }
        }
        long took = CPU.getCurrentThreadCpuTime() - t0;
        if (took > SLOW_CASE_NANOS) {
            failures.add(name + " case " + i + ": took " + took / 1_000_000 + " ms on " + show(s));
        }
    }

    private static void report(String name, List<String> failures) {
        System.out.printf("%s: %d cases decoded, %d refused with a CodecException, %d failed otherwise%n", name,
                DECODED.getAndSet(0), REFUSED.getAndSet(0), failures.size());
        if (!failures.isEmpty()) {
            fail(failures.size() + " of the " + name + " cases failed other than with a CodecException (seed " + SEED
                    + "):\n" + String.join("\n", failures.subList(0, Math.min(10, failures.size()))));
        }
    }

    private static byte[] random(Random r) {
        byte[] b = new byte[r.nextInt(300)];
        r.nextBytes(b);
        return r.nextInt(10) == 0 ? null : b;
    }

    private static final byte[] SPECIAL = {0, 1, (byte) 0x7F, (byte) 0x80, (byte) 0xFF, (byte) 0xC0, (byte) 0xED,
            '"', '\\', '{', '}', '[', ']', ':', ',', '0', '9', '-', 'e', 'n', 't', 'f'};
    private static final String[] TOKENS = {"null", "true", "\"\"", "[]", "{}", "1e999999", "-1", "0",
            "99999999999999999999999999", "-9223372036854775809", "\"\\u0000\"", "\"\\ud800\"", "\"\\u", "NaN",
            "\"isDdl\":true", "\"type\":\"UPDATE\"", "\"old\":[{}]", "\"data\":null", "\"mysqlType\":{\"a\":\"int\"}",
            "\"claimCheckLocation\":\"file:///etc/passwd\"", "\"ccl\":\"../../x.json\"", "\"t\":3", "\"t\":99",
            "\"p\":{\"a\":{\"t\":246,\"v\":\"1e99999\"}}", "\"sqlType\":{\"a\":-5}"};
    private static final long[] LENGTHS = {-1, 0, 1, 7, 8, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Long.MAX_VALUE,
            Long.MIN_VALUE, 1L << 32, 0xFFFFFFFFL};

    /** One to four random mutations of {@code in} (which may be null). */
    static byte[] mutate(byte[] in, Random r, List<byte[]> pool) {
        byte[] b = in == null ? new byte[0] : in.clone();
        int n = 1 + r.nextInt(4);
        for (int k = 0; k < n; k++) {
            int len = b.length;
            int pos = len == 0 ? 0 : r.nextInt(len);
            switch (r.nextInt(11)) {
                case 0 -> {
                    if (len > 0) b[pos] ^= (byte) (1 << r.nextInt(8));
                }
                case 1 -> {
                    if (len > 0) b[pos] = SPECIAL[r.nextInt(SPECIAL.length)];
                }
                case 2 -> b = cut(b, pos, Math.min(len, pos + 1 + r.nextInt(32)));
                case 3 -> {
                    int end = Math.min(len, pos + 1 + r.nextInt(64));
                    b = insert(b, pos, Arrays.copyOfRange(b, pos, end));
                }
                case 4 -> {
                    byte[] junk = new byte[1 + r.nextInt(16)];
                    r.nextBytes(junk);
                    b = insert(b, pos, junk);
                }
                case 5 -> b = Arrays.copyOf(b, pos);
                case 6 -> {
                    byte[] other = pool.get(r.nextInt(pool.size()));
                    if (other != null && other.length > 0) {
                        int from = r.nextInt(other.length);
                        b = concat(Arrays.copyOf(b, pos), Arrays.copyOfRange(other, from, other.length));
                    }
                }
                case 7 -> {
                    if (len >= 8) {
                        int at = r.nextBoolean() ? (r.nextInt(Math.max(1, len / 8))) * 8 : r.nextInt(len - 7);
                        long v = LENGTHS[r.nextInt(LENGTHS.length)];
                        for (int i = 7; i >= 0; i--) {
                            b[at + i] = (byte) v;
                            v >>>= 8;
                        }
                    }
                }
                case 8 -> b = insert(b, pos, TOKENS[r.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8));
                case 9 -> {
                    byte open = r.nextBoolean() ? (byte) '[' : (byte) '{';
                    byte[] deep = new byte[500 + r.nextInt(3000)];
                    Arrays.fill(deep, open);
                    b = insert(b, pos, deep);
                }
                default -> {
                    int end = Math.min(len, pos + 1 + r.nextInt(16));
                    byte[] piece = Arrays.copyOfRange(b, pos, end);
                    int times = 2 + r.nextInt(200);
                    byte[] many = new byte[piece.length * times];
                    for (int i = 0; i < times; i++) System.arraycopy(piece, 0, many, i * piece.length, piece.length);
                    b = insert(b, pos, many);
                }
            }
        }
        return b;
    }

    private static byte[] cut(byte[] b, int from, int to) {
        return concat(Arrays.copyOf(b, from), Arrays.copyOfRange(b, to, b.length));
    }

    private static byte[] insert(byte[] b, int at, byte[] what) {
        return concat(concat(Arrays.copyOf(b, at), what), Arrays.copyOfRange(b, at, b.length));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String show(Sample s) {
        return "key " + hex(s.key()) + ", value " + hex(s.value());
    }

    private static String hex(byte[] b) {
        if (b == null) return "null";
        String h = HexFormat.of().formatHex(b, 0, Math.min(b.length, 120));
        return b.length + " bytes " + h + (b.length > 120 ? "…" : "");
    }
}
