package io.cdcconnect.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.canal.CanalJsonDecoder;
import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.ColumnFlags;
import io.cdcconnect.codec.model.ColumnInfo;
import io.cdcconnect.codec.model.MySqlType;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.codec.open.OpenProtocolDecoder;
import io.cdcconnect.codec.open.OpenProtocolEncoder;
import io.cdcconnect.codec.open.OpenProtocolOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** large-message-handle-option=claim-check against a real directory: what Kafka gets, what the store holds. */
class ClaimCheckTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long TS = 1_700_000_000_000L << 18;
    private static final TableInfo T = TableInfo.of("db", "docs", List.of(
            ColumnInfo.of("id", MySqlType.LONG, ColumnFlags.PRIMARY_KEY | ColumnFlags.HANDLE_KEY),
            ColumnInfo.of("body", MySqlType.BLOB, ColumnFlags.NULLABLE)));

    private static RowChange big(long id) {
        return RowChange.insert(T, new Object[] {id, "é<&>".repeat(2000)}, TS + id);
    }

    private static Path onlyFile(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            List<Path> files = s.toList();
            assertEquals(1, files.size(), files.toString());
            return files.get(0);
        }
    }

    @Test
    void canalJsonSendsKeyAndLocationAndStoresTiCdcsClaimCheckMessage(@TempDir Path dir) throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), false);
        CanalJsonOptions options = CanalJsonOptions.builder().enableTidbExtension(true).maxMessageBytes(1000)
                .largeMessageHandle(LargeMessageHandle.CLAIM_CHECK).claimCheck(store).build();
        byte[] kafka = new CanalJsonEncoder(options, () -> 5L).encode(big(7));

        JsonNode m = MAPPER.readTree(kafka);
        assertEquals("{\"id\":\"7\"}", m.get("data").get(0).toString(), "only the handle key goes to Kafka");
        assertFalse(m.get("_tidb").has("onlyHandleKey"), "TiCDC marks claim-check messages by location only");
        String location = m.get("_tidb").get("claimCheckLocation").asText();
        Path file = onlyFile(dir);
        assertEquals(store.uri() + "/" + file.getFileName(), location);
        assertTrue(file.getFileName().toString().matches("[0-9a-f-]{36}\\.json"), file.toString());

        // the file is Go's json.Marshal of ClaimCheckMessage{Key, Value}: nil key, base64 value
        JsonNode stored = MAPPER.readTree(Files.readAllBytes(file));
        assertTrue(stored.get("key").isNull());
        byte[] whole = Base64.getDecoder().decode(stored.get("value").asText());
        byte[] unlimited = new CanalJsonEncoder(options.toBuilder().maxMessageBytes(1 << 20).build(), () -> 5L)
                .encode(big(7));
        assertArrayEquals(unlimited, whole, "the store holds the message Kafka would have got");

        List<ChangeEvent> decoded = new CanalJsonDecoder(Compression.NONE, store).decode(kafka);
        assertEquals(1, decoded.size());
        RowChange r = (RowChange) decoded.get(0);
        assertEquals(2, r.table().columnCount());
        assertTrue("é<&>".repeat(2000).equals(r.after()[1]), "the stored row comes back whole");
        assertEquals(TS + 7, r.commitTs());
    }

    @Test
    void canalJsonRawValueWithCompression(@TempDir Path dir) throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), true);
        CanalJsonEncoder enc = new CanalJsonEncoder(CanalJsonOptions.builder().enableTidbExtension(true)
                .maxMessageBytes(500).compression(Compression.LZ4)
                .largeMessageHandle(LargeMessageHandle.CLAIM_CHECK).claimCheck(store).build());
        // random text, so that compression does not bring it under the limit
        java.util.Random rnd = new java.util.Random(8);
        StringBuilder noise = new StringBuilder();
        for (int i = 0; i < 3000; i++) noise.append((char) ('!' + rnd.nextInt(90)));
        RowChange row = RowChange.insert(T, new Object[] {8L, noise.toString()}, TS + 8);
        byte[] kafka = enc.encode(row);
        byte[] raw = Files.readAllBytes(onlyFile(dir));
        String json = new String(Compression.LZ4.decompress(raw), StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"id\":0,\"database\":\"db\",\"table\":\"docs\""), json.substring(0, 60));

        RowChange r = (RowChange) new CanalJsonDecoder(Compression.LZ4, store).decode(kafka).get(0);
        assertTrue(noise.toString().equals(r.after()[1]), "the stored row comes back whole");

        // a consumer told the wrong format gets an error that says which setting to check
        CodecException wrong = assertThrows(CodecException.class, () -> new CanalJsonDecoder(Compression.LZ4,
                ClaimCheck.open(dir.toUri().toString(), false)).decode(kafka));
        assertTrue(wrong.getMessage().contains("claim-check-raw-value"), wrong.getMessage());
    }

    @Test
    void decodingWithoutTheStoreOrWithoutTheFileFailsNamingTheLocation(@TempDir Path dir) throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), false);
        byte[] kafka = new CanalJsonEncoder(CanalJsonOptions.builder().enableTidbExtension(true).maxMessageBytes(500)
                .largeMessageHandle(LargeMessageHandle.CLAIM_CHECK).claimCheck(store).build()).encode(big(9));
        String location = MAPPER.readTree(kafka).get("_tidb").get("claimCheckLocation").asText();

        CodecException noStore = assertThrows(CodecException.class, () -> new CanalJsonDecoder().decode(kafka));
        assertTrue(noStore.getMessage().contains(location) && noStore.getMessage().contains("claim-check-storage-uri"),
                noStore.getMessage());

        Files.delete(onlyFile(dir));
        CodecException missing = assertThrows(CodecException.class,
                () -> new CanalJsonDecoder(Compression.NONE, store).decode(kafka));
        assertTrue(missing.getMessage().contains(location), missing.getMessage());
    }

    @Test
    void openProtocolStoresTheFramedOneRowMessageAndKeepsBatchOrder(@TempDir Path dir) throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), false);
        OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.builder().maxMessageBytes(1000)
                .largeMessageHandle(LargeMessageHandle.CLAIM_CHECK).claimCheck(store).build());
        RowChange small1 = RowChange.insert(T, new Object[] {1L, "a"}, TS + 1);
        RowChange small2 = RowChange.insert(T, new Object[] {3L, null}, TS + 3);
        assertTrue(enc.append(small1).isEmpty());
        assertTrue(enc.append(big(2)).isEmpty());
        assertTrue(enc.append(small2).isEmpty());
        EncodedMessage m = enc.flush().get(0);

        List<OpenProtocolDecoder.Entry> entries = new OpenProtocolDecoder().entries(m.key(), m.value());
        assertEquals(3, entries.size());
        String keyJson = new String(entries.get(1).keyJson(), StandardCharsets.UTF_8);
        assertTrue(keyJson.matches("\\{\"ts\":\\d+,\"scm\":\"db\",\"tbl\":\"docs\",\"t\":1,\"ccl\":\"file:///.*\\.json\"}"),
                keyJson);
        assertEquals("{\"u\":{\"id\":{\"t\":3,\"h\":true,\"f\":10,\"v\":2}}}",
                new String(entries.get(1).valueJson(), StandardCharsets.UTF_8));

        // stored: {"key": base64(version 1 + length + key JSON), "value": base64(length + value JSON)}
        JsonNode stored = MAPPER.readTree(Files.readAllBytes(onlyFile(dir)));
        byte[] k = Base64.getDecoder().decode(stored.get("key").asText());
        byte[] v = Base64.getDecoder().decode(stored.get("value").asText());
        assertEquals(1L, java.nio.ByteBuffer.wrap(k, 0, 8).getLong());
        assertEquals(k.length - 16, java.nio.ByteBuffer.wrap(k, 8, 8).getLong());
        assertEquals(v.length - 8, java.nio.ByteBuffer.wrap(v, 0, 8).getLong());
        assertFalse(new String(k, StandardCharsets.UTF_8).contains("ccl"));

        List<ChangeEvent> rows = new OpenProtocolDecoder(Compression.NONE, store).decode(m.key(), m.value());
        // Open-protocol sorts columns by name: body, id
        assertEquals(List.of(1L, 2L, 3L), rows.stream().map(e -> ((RowChange) e).after()[1]).toList());
        assertTrue("é<&>".repeat(2000).equals(((RowChange) rows.get(1)).after()[0]), "the stored row comes back whole");
        assertNull(((RowChange) rows.get(2)).after()[0]);

        CodecException noStore = assertThrows(CodecException.class,
                () -> new OpenProtocolDecoder().decode(m.key(), m.value()));
        assertTrue(noStore.getMessage().contains("entry #2") && noStore.getMessage().contains("claim-check-storage-uri"),
                noStore.getMessage());
    }

    @Test
    void optionsAreCheckedAsTiCdcChecksThem(@TempDir Path dir) {
        IllegalArgumentException noExtension = assertThrows(IllegalArgumentException.class,
                () -> CodecOptions.canalJson(Map.of("large-message-handle-option", "handle-key-only")));
        assertTrue(noExtension.getMessage().contains("enable-tidb-extension"), noExtension.getMessage());

        IllegalArgumentException noUri = assertThrows(IllegalArgumentException.class,
                () -> CodecOptions.openProtocol(Map.of("large-message-handle-option", "claim-check")));
        assertTrue(noUri.getMessage().contains("claim-check-storage-uri"), noUri.getMessage());

        IllegalArgumentException rawOpen = assertThrows(IllegalArgumentException.class,
                () -> CodecOptions.openProtocol(Map.of("large-message-handle-option", "claim-check",
                        "claim-check-storage-uri", dir.toUri().toString(), "claim-check-raw-value", "true")));
        assertTrue(rawOpen.getMessage().contains("claim-check-raw-value"), rawOpen.getMessage());

        IllegalArgumentException s3 = assertThrows(IllegalArgumentException.class,
                () -> ClaimCheck.open("s3://AKIAEXAMPLE:sup3rs3cret@bucket/claims", false));
        assertTrue(s3.getMessage().contains("only file://"), s3.getMessage());
        assertFalse(s3.getMessage().contains("sup3rs3cret"), "credentials leak: " + s3.getMessage());

        IllegalArgumentException relative = assertThrows(IllegalArgumentException.class,
                () -> ClaimCheck.open("file:claims", false));
        assertTrue(relative.getMessage().contains("absolute path"), relative.getMessage());

        CanalJsonOptions ok = CodecOptions.canalJson(Map.of("enable-tidb-extension", "true",
                "large-message-handle-option", "claim-check", "claim-check-storage-uri", dir.toUri().toString()));
        assertEquals(LargeMessageHandle.CLAIM_CHECK, ok.largeMessageHandle());
        assertFalse(ok.claimCheck().uri().endsWith("/"));
    }

    @Test
    void aLocationCannotLeaveTheStore(@TempDir Path dir) throws Exception {
        Path outside = Files.writeString(dir.resolve("secret.json"), "{\"key\":null,\"value\":\"AA==\"}");
        Path inner = Files.createDirectories(dir.resolve("store"));
        ClaimCheck store = ClaimCheck.open(inner.toUri().toString(), false);
        CodecException dots = assertThrows(CodecException.class, () -> store.read("file:///x/.."));
        assertTrue(dots.getMessage().contains("file name"), dots.getMessage());
        // only the last path element counts, and it is looked up inside the store
        CodecException other = assertThrows(CodecException.class, () -> store.read(outside.toUri().toString()));
        assertTrue(other.getMessage().contains("no file secret.json"), other.getMessage());
    }

    @Test
    void aStoredFileBeyondTheReadLimitIsRefusedBeforeItIsRead(@TempDir Path dir) throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), true).withReadLimit(1000);
        String location = store.newLocation();
        store.write(location, null, new byte[1001]);
        CodecException e = assertThrows(CodecException.class, () -> store.read(location));
        assertTrue(e.getMessage().contains("1001 bytes, more than the limit of 1000 bytes"), e.getMessage());
        assertEquals(1001, store.withReadLimit(1001).read(location).value().length);
        assertEquals(CodecOptions.DEFAULT_MAX_DECODED_BYTES, ClaimCheck.open(dir.toUri().toString(), true).readLimit());
        assertEquals(5000, CodecOptions.claimCheck(Map.of(ClaimCheck.STORAGE_URI_OPTION, dir.toUri().toString(),
                CodecOptions.MAX_DECODED_BYTES, "5000")).readLimit());
    }

    /** Replaces the stored file at {@code location} by a directory: reading it would fail as an outage of the store. */
    private static long trap(Path dir, String location) throws Exception {
        Path file = dir.resolve(location.substring(location.lastIndexOf('/') + 1));
        Files.delete(file);
        Files.createDirectory(file);
        long size = Files.size(file);
        org.junit.jupiter.api.Assumptions.assumeTrue(size > 0, "the file system gives directories a size");
        // what a read of it does: the store is taken to be down, not the record to be bad
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), false);
        assertThrows(UnavailableException.class, () -> store.read(location));
        return size;
    }

    private static byte[] concat(byte[]... values) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] v : values) {
            out.writeBytes(v);
            out.write('\n');
        }
        return out.toByteArray();
    }

    @Test
    void aCanalJsonRecordWithMorePointersThanItsBudgetFailsBeforeReadingThem(@TempDir Path dir) throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), false);
        CanalJsonEncoder enc = new CanalJsonEncoder(CanalJsonOptions.builder().enableTidbExtension(true)
                .maxMessageBytes(500).largeMessageHandle(LargeMessageHandle.CLAIM_CHECK).claimCheck(store).build());
        byte[] first = enc.encode(big(1));
        byte[] second = enc.encode(big(2));
        byte[] third = enc.encode(big(3));
        byte[] record = concat(first, second, third);
        assertEquals(3, new CanalJsonDecoder(Compression.NONE, store).decode(record).size(), "within the default");

        trap(dir, MAPPER.readTree(third).get("_tidb").get("claimCheckLocation").asText());
        ClaimCheck budgeted = store.withRecordBudget(1L << 30, 2);
        CodecException e = assertThrows(CodecException.class,
                () -> new CanalJsonDecoder(Compression.NONE, budgeted).decode(record));
        assertTrue(e.getMessage().contains("canal-json message #3") && e.getMessage().contains("more than 2 claim-check"
                + " locations") && e.getMessage().contains("claim-check-max-record-pointers")
                && e.getMessage().contains("input.claim.check.max.record.pointers"), e.getMessage());
        // the budget is per record: a decoder takes a fresh one for each
        CanalJsonDecoder decoder = new CanalJsonDecoder(Compression.NONE, budgeted);
        for (int i = 0; i < 3; i++) assertEquals(2, decoder.decode(concat(first, second)).size());
    }

    @Test
    void aCanalJsonRecordReadingBackMoreThanItsBudgetFailsBeforeReadingTheFileThatExceedsIt(@TempDir Path dir)
            throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), false);
        CanalJsonEncoder enc = new CanalJsonEncoder(CanalJsonOptions.builder().enableTidbExtension(true)
                .maxMessageBytes(500).largeMessageHandle(LargeMessageHandle.CLAIM_CHECK).claimCheck(store).build());
        byte[] first = enc.encode(big(1));
        byte[] second = enc.encode(big(2));
        String firstLocation = MAPPER.readTree(first).get("_tidb").get("claimCheckLocation").asText();
        long firstSize = Files.size(dir.resolve(firstLocation.substring(firstLocation.lastIndexOf('/') + 1)));
        long trapSize = trap(dir, MAPPER.readTree(second).get("_tidb").get("claimCheckLocation").asText());

        long budget = firstSize + trapSize - 1;
        ClaimCheck budgeted = store.withRecordBudget(budget, 10);
        CodecException e = assertThrows(CodecException.class,
                () -> new CanalJsonDecoder(Compression.NONE, budgeted).decode(concat(first, second)));
        assertTrue(e.getMessage().contains("canal-json message #2") && e.getMessage().contains("the file holds "
                + trapSize + " bytes") && e.getMessage().contains("the " + firstSize + " bytes already read back")
                && e.getMessage().contains("budget of " + budget + " bytes (claim-check-max-record-bytes; the sink's "
                + "input.claim.check.max.record.bytes)"), e.getMessage());
        assertEquals(1, new CanalJsonDecoder(Compression.NONE, budgeted).decode(first).size(), "alone it fits");
    }

    @Test
    void whatAStoredValueDecompressesToCountsAgainstTheRecordsBudget(@TempDir Path dir) throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), true);
        CanalJsonEncoder enc = new CanalJsonEncoder(CanalJsonOptions.builder().enableTidbExtension(true)
                .maxMessageBytes(500).compression(Compression.LZ4)
                .largeMessageHandle(LargeMessageHandle.CLAIM_CHECK).claimCheck(store).build());
        // text that compresses well: the stored file is small, what it decompresses to is not
        RowChange row = RowChange.insert(T, new Object[] {5L, "z".repeat(200_000)}, TS + 5);
        byte[] kafka = enc.encode(row);
        long fileSize = Files.size(onlyFile(dir));
        assertTrue(fileSize < 10_000, "stored compressed: " + fileSize);
        CodecException e = assertThrows(CodecException.class, () -> new CanalJsonDecoder(Compression.LZ4,
                store.withRecordBudget(100_000, 10)).decode(kafka));
        assertTrue(e.getMessage().contains("its value decompresses to more than " + (100_000 - fileSize) + " bytes")
                && e.getMessage().contains("budget of 100000 bytes (claim-check-max-record-bytes"), e.getMessage());
        assertEquals(1, new CanalJsonDecoder(Compression.LZ4, store.withRecordBudget(300_000, 10)).decode(kafka).size());
    }

    @Test
    void anOpenProtocolRecordWithMorePointersThanItsBudgetFailsBeforeReadingThem(@TempDir Path dir) throws Exception {
        ClaimCheck store = ClaimCheck.open(dir.toUri().toString(), false);
        OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.builder().maxMessageBytes(1000)
                .largeMessageHandle(LargeMessageHandle.CLAIM_CHECK).claimCheck(store).build());
        for (long id = 1; id <= 3; id++) assertTrue(enc.append(big(id)).isEmpty());
        EncodedMessage m = enc.flush().get(0);
        List<OpenProtocolDecoder.Entry> entries = new OpenProtocolDecoder().entries(m.key(), m.value());
        assertEquals(3, entries.size());
        assertEquals(3, new OpenProtocolDecoder(Compression.NONE, store).decode(m.key(), m.value()).size());

        trap(dir, entries.get(2).key().claimCheckLocation());
        CodecException e = assertThrows(CodecException.class, () -> new OpenProtocolDecoder(Compression.NONE,
                store.withRecordBudget(1L << 30, 2)).decode(m.key(), m.value()));
        assertTrue(e.getMessage().contains("open-protocol entry #3") && e.getMessage().contains("more than 2 "
                + "claim-check locations") && e.getMessage().contains("claim-check-max-record-pointers"), e.getMessage());
    }

    @Test
    void theRecordBudgetComesFromTheOptions(@TempDir Path dir) {
        ClaimCheck dflt = CodecOptions.claimCheck(Map.of(ClaimCheck.STORAGE_URI_OPTION, dir.toUri().toString()));
        assertEquals(CodecOptions.DEFAULT_CLAIM_CHECK_MAX_RECORD_BYTES, dflt.recordByteBudget());
        assertEquals(CodecOptions.DEFAULT_CLAIM_CHECK_MAX_RECORD_POINTERS, dflt.recordPointerBudget());
        ClaimCheck set = CodecOptions.claimCheck(Map.of(ClaimCheck.STORAGE_URI_OPTION, dir.toUri().toString(),
                CodecOptions.CLAIM_CHECK_MAX_RECORD_BYTES, "5000", CodecOptions.CLAIM_CHECK_MAX_RECORD_POINTERS, "3"));
        assertEquals(5000, set.recordByteBudget());
        assertEquals(3, set.recordPointerBudget());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> CodecOptions.claimCheck(
                Map.of(ClaimCheck.STORAGE_URI_OPTION, dir.toUri().toString(),
                        CodecOptions.CLAIM_CHECK_MAX_RECORD_POINTERS, "0")));
        assertTrue(bad.getMessage().contains("claim-check-max-record-pointers"), bad.getMessage());
    }
}
