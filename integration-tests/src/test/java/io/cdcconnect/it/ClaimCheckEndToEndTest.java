package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rows larger than the source's max.message.bytes travel by claim-check ({@code large.message.handle.option=
 * claim-check}): the source writes each such message whole into a directory and sends Kafka only the key columns
 * with the file's location; the sink, given the same directory, reads the whole row back and applies it. Inserts,
 * updates in every size direction and deletes of large rows, in the snapshot and from the binlog, must all arrive.
 */
class ClaimCheckEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_MESSAGE_BYTES = 16 * 1024;
    private static Pipeline pipeline;
    private static Path store;

    @BeforeAll
    static void startPipeline() throws Exception {
        Path work = FormatTestSupport.workDir("claim-check");
        pipeline = Pipeline.start(work, "shop_claims", null);
        store = work.resolve("claim-check-store").toAbsolutePath();
        try (Stream<Path> old = Files.exists(store) ? Files.list(store) : Stream.empty()) {
            for (Path p : old.toList()) Files.delete(p); // a rerun in the same work folder starts empty
        }
        pipeline.putConfigValue("CLAIM_CHECK_STORAGE_URI", store.toUri().toString());
        pipeline.putConfigValue("MAX_MESSAGE_BYTES", Integer.toString(MAX_MESSAGE_BYTES));
        pipeline.createSchemas(List.of("documents"), List.of("CREATE TABLE IF NOT EXISTS documents ("
                + "id INT NOT NULL PRIMARY KEY, title VARCHAR(64) NOT NULL, body MEDIUMTEXT NULL, "
                + "data MEDIUMBLOB NULL) DEFAULT CHARSET=utf8mb4"));
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) pipeline.close();
    }

    private static String text(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        String extra = "é中😀<&>\"\\\n\t'";
        while (sb.length() < n) {
            sb.append(r.nextInt(8) == 0 ? extra.charAt(r.nextInt(extra.length())) : (char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }

    private static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static void upsert(Connection c, String sql, int id, String title, String body, byte[] data)
            throws Exception {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, title);
            ps.setString(2, body);
            ps.setBytes(3, data);
            ps.setInt(4, id);
            ps.executeUpdate();
        }
    }

    private static final String INSERT = "INSERT INTO documents (title, body, data, id) VALUES (?, ?, ?, ?)";
    private static final String UPDATE = "UPDATE documents SET title = ?, body = ?, data = ? WHERE id = ?";

    @Test
    void largeRowsArriveWholeThroughTheClaimCheckStore() throws Exception {
        Random r = new Random(42);
        int large = 0;
        try (Connection c = pipeline.sourceConnection()) {
            // in the snapshot: two large rows, one small
            upsert(c, INSERT, 1, "snapshot large", text(r, 30_000), bytes(r, 5_000));
            upsert(c, INSERT, 2, "snapshot large", text(r, 12_000), bytes(r, 12_000));
            upsert(c, INSERT, 3, "snapshot small", text(r, 200), bytes(r, 10));
            large += 2;
        }
        pipeline.registerSource("source-mariadb-canal-json-claim-check.json", 1);
        pipeline.registerSink("sink-mariadb-claim-check.json", 1);
        try (Connection c = pipeline.sourceConnection(); Statement s = c.createStatement()) {
            for (int id = 10; id < 40; id++) {
                boolean big = id % 3 == 0;
                upsert(c, INSERT, id, "binlog " + id, text(r, big ? 20_000 + r.nextInt(40_000) : 300),
                        big ? bytes(r, 8_000) : null);
                if (big) large++;
            }
            upsert(c, UPDATE, 12, "small to large", text(r, 25_000), bytes(r, 100)); // 12 % 3 == 0: large to large
            upsert(c, UPDATE, 11, "small to large", text(r, 25_000), null);
            upsert(c, UPDATE, 15, "large to small", "short", null);
            upsert(c, UPDATE, 1, "large to larger", text(r, 60_000), bytes(r, 60_000));
            large += 4; // each update's message holds a large image, old or new
            s.execute("DELETE FROM documents WHERE id IN (2, 18)"); // a delete carries the whole old image
            large += 2;
            s.execute("DELETE FROM documents WHERE id = 13");
            upsert(c, INSERT, 50, "after", text(r, 100), null);
        }
        FormatTestSupport.assertCaughtUpAndEqual(pipeline, Duration.ofMinutes(3));

        Set<String> stored = new HashSet<>();
        try (Stream<Path> files = Files.list(store)) {
            files.forEach(p -> stored.add(p.getFileName().toString()));
        }
        int claimMessages = 0;
        for (ConsumerRecord<byte[], byte[]> rec : FormatTestSupport.readAll(pipeline)) {
            String where = rec.topic() + "/" + rec.partition() + "@" + rec.offset();
            assertTrue(rec.value().length <= MAX_MESSAGE_BYTES, "message over the limit at " + where);
            JsonNode m = JSON.readTree(rec.value());
            JsonNode location = m.path("_tidb").get("claimCheckLocation");
            if (location == null) continue;
            claimMessages++;
            String name = location.asText().substring(location.asText().lastIndexOf('/') + 1);
            assertTrue(location.asText().startsWith(store.toUri().toString().replaceAll("/$", "") + "/"),
                    "location outside the store at " + where + ": " + location);
            assertTrue(stored.contains(name), "no stored file for " + location + " at " + where);
            JsonNode data = m.get("data").get(0);
            assertEquals(1, data.size(), "only the key column travels in Kafka at " + where + ": " + data.fieldNames());
            assertTrue(data.has("id"));
        }
        assertEquals(large, claimMessages, "messages sent by claim-check");
        assertEquals(large, stored.size(), "files in the store: " + stored);
    }
}
