package io.cdcconnect.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * What the benchmark reads from Kafka: end offsets of a set of topics, a sink group's committed offsets, a marker
 * token arriving on a topic (how a source variant's catch-up is timed), and a full read of topics that counts the
 * row changes they carry and their bytes, per wire format.
 */
public final class TopicMeter implements AutoCloseable {

    /** How a topic's messages carry rows. */
    public enum Format { CANAL_JSON, OPEN_PROTOCOL, AVRO, DEBEZIUM_JSON }

    /** A full read of some topics. {@code rows} counts row changes (DML), not watermarks, DDL or tombstones. */
    public record Tally(long messages, long rows, long keyBytes, long valueBytes, Map<String, Long> rowsByTopic) {
        public double bytesPerRow() {
            return rows == 0 ? Double.NaN : (double) (keyBytes + valueBytes) / rows;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String bootstrap;
    private final Admin admin;

    public TopicMeter(String bootstrap) {
        this.bootstrap = bootstrap;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    public List<TopicPartition> partitions(Pattern topics) {
        try {
            Set<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            List<String> matching = names.stream().filter(n -> topics.matcher(n).matches()).sorted().toList();
            List<TopicPartition> out = new ArrayList<>();
            if (matching.isEmpty()) return out;
            for (var d : admin.describeTopics(matching).allTopicNames().get(10, TimeUnit.SECONDS).values()) {
                d.partitions().forEach(p -> out.add(new TopicPartition(d.name(), p.partition())));
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list topics matching " + topics + ": " + e.getMessage(), e);
        }
    }

    public Map<TopicPartition, Long> endOffsets(Pattern topics) {
        List<TopicPartition> parts = partitions(topics);
        Map<TopicPartition, Long> out = new HashMap<>();
        if (parts.isEmpty()) return out;
        Map<TopicPartition, OffsetSpec> req = new HashMap<>();
        parts.forEach(p -> req.put(p, OffsetSpec.latest()));
        try {
            admin.listOffsets(req).all().get(10, TimeUnit.SECONDS).forEach((tp, info) -> out.put(tp, info.offset()));
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read end offsets of " + topics + ": " + e.getMessage(), e);
        }
    }

    public long endOffsetSum(Pattern topics) {
        return endOffsets(topics).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Messages of {@code topics} that consumer group {@code group} has not committed yet. */
    public long lag(String group, Pattern topics) {
        Map<TopicPartition, Long> end = endOffsets(topics);
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            long lag = 0;
            for (var e : end.entrySet()) {
                OffsetAndMetadata c = committed.get(e.getKey());
                lag += e.getValue() - (c == null ? 0 : c.offset());
            }
            return lag;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read offsets of group " + group + ": " + e.getMessage(), e);
        }
    }

    /** Watches a topic from its beginning for a message whose key or value contains a token. */
    public final class TokenWatch implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final byte[] token;
        private final String topic;

        TokenWatch(String topic, String token) {
            this.topic = topic;
            this.token = token.getBytes(StandardCharsets.UTF_8);
            this.consumer = consumer();
            List<TopicPartition> parts = partitions(Pattern.compile(Pattern.quote(topic)));
            if (parts.isEmpty()) throw new IllegalStateException("topic " + topic + " does not exist");
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
        }

        /** Polls once (up to {@code maxWait}); true when the token has arrived. */
        public boolean poll(Duration maxWait) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(maxWait)) {
                if (contains(r.value(), token) || contains(r.key(), token)) return true;
            }
            return false;
        }

        @Override
        public void close() {
            consumer.close();
        }

        @Override
        public String toString() {
            return "token watch on " + topic;
        }
    }

    public TokenWatch watch(String topic, String token) {
        return new TokenWatch(topic, token);
    }

    /** Reads every message of {@code topics} up to their current end and counts rows and bytes. */
    public Tally tally(Pattern topics, Format format) {
        try (RowCounter c = counter(topics, format)) {
            c.countTo(endOffsets(topics));
            return c.tally();
        }
    }

    public RowCounter counter(Pattern topics, Format format) {
        return new RowCounter(topics, format);
    }

    /**
     * Reads topics from their beginning, on demand up to given end offsets, counting row changes, the messages that
     * carry them and their bytes (watermark, DDL and other row-less messages are skipped), and remembering per
     * partition the offset of the last row-carrying message read.
     */
    public final class RowCounter implements AutoCloseable {
        private final Pattern topics;
        private final Format format;
        private final KafkaConsumer<byte[], byte[]> consumer = consumer();
        private final Map<TopicPartition, Long> position = new HashMap<>();
        private final Map<TopicPartition, Long> lastRowOffset = new HashMap<>();
        private final Map<String, Long> byTopic = new java.util.TreeMap<>();
        private long messages;
        private long rows;
        private long keyBytes;
        private long valueBytes;

        RowCounter(Pattern topics, Format format) {
            this.topics = topics;
            this.format = format;
        }

        /** Reads on until every partition in {@code ends} has been read up to its end offset. */
        public void countTo(Map<TopicPartition, Long> ends) {
            boolean added = false;
            for (TopicPartition tp : ends.keySet()) {
                if (!position.containsKey(tp)) {
                    position.put(tp, 0L);
                    added = true;
                }
            }
            if (added) {
                consumer.assign(position.keySet());
                for (var e : position.entrySet()) consumer.seek(e.getKey(), e.getValue());
            }
            long idleSince = System.nanoTime();
            while (behind(ends)) {
                var batch = consumer.poll(Duration.ofMillis(200));
                if (batch.isEmpty()) {
                    if (System.nanoTime() - idleSince > 60_000_000_000L) {
                        throw new IllegalStateException("reading " + topics + " stalled at " + position
                                + " short of " + ends);
                    }
                    continue;
                }
                idleSince = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    position.put(tp, r.offset() + 1);
                    long n = TopicMeter.rows(format, r);
                    if (n == 0) continue;
                    messages++;
                    rows += n;
                    keyBytes += r.key() == null ? 0 : r.key().length;
                    valueBytes += r.value() == null ? 0 : r.value().length;
                    byTopic.merge(r.topic(), n, Long::sum);
                    lastRowOffset.put(tp, r.offset());
                }
            }
        }

        private boolean behind(Map<TopicPartition, Long> ends) {
            for (var e : ends.entrySet()) {
                if (position.getOrDefault(e.getKey(), 0L) < e.getValue()) return true;
            }
            return false;
        }

        public long rows() {
            return rows;
        }

        /** Per partition, the offset of the last message read that carried a row change. */
        public Map<TopicPartition, Long> lastRowOffsets() {
            return new HashMap<>(lastRowOffset);
        }

        public Tally tally() {
            return new Tally(messages, rows, keyBytes, valueBytes, new java.util.TreeMap<>(byTopic));
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    /**
     * End offsets of some topics sampled every few milliseconds in the background, with the time of each sample:
     * afterwards, when a given message first was in Kafka (to the sampling interval).
     */
    public final class OffsetTimeline implements AutoCloseable {
        private record Sample(long nanos, Map<TopicPartition, Long> ends) {
        }

        private final Pattern topics;
        private final long intervalMillis;
        private final List<Sample> samples = java.util.Collections.synchronizedList(new ArrayList<>());
        private final Thread thread;
        private volatile boolean running = true;

        OffsetTimeline(Pattern topics, long intervalMillis) {
            this.topics = topics;
            this.intervalMillis = intervalMillis;
            this.thread = new Thread(this::run, "bench-offset-timeline");
            this.thread.setDaemon(true);
            this.thread.start();
        }

        private void run() {
            while (running) {
                try {
                    samples.add(new Sample(System.nanoTime(), endOffsets(topics)));
                    Thread.sleep(intervalMillis);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // a failed read leaves a gap in the timeline, no more
                }
            }
        }

        /** The first sample at which every partition's end is past the given offset; -1 if none. */
        public long firstCovering(Map<TopicPartition, Long> offsets) {
            synchronized (samples) {
                for (Sample s : samples) {
                    boolean all = true;
                    for (var e : offsets.entrySet()) {
                        if (s.ends().getOrDefault(e.getKey(), 0L) <= e.getValue()) {
                            all = false;
                            break;
                        }
                    }
                    if (all) return s.nanos();
                }
            }
            return -1;
        }

        /** The first sample whose total exceeds {@code total}; -1 if none. */
        public long firstAbove(long total) {
            synchronized (samples) {
                for (Sample s : samples) {
                    if (s.ends().values().stream().mapToLong(Long::longValue).sum() > total) return s.nanos();
                }
            }
            return -1;
        }

        @Override
        public void close() {
            running = false;
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public OffsetTimeline timeline(Pattern topics, long intervalMillis) {
        return new OffsetTimeline(topics, intervalMillis);
    }

    static long rows(Format format, ConsumerRecord<byte[], byte[]> r) {
        switch (format) {
            case CANAL_JSON -> {
                if (r.value() == null) return 0;
                long n = 0;
                String all = new String(r.value(), StandardCharsets.UTF_8);
                for (String line : all.split("\n")) {
                    if (line.isBlank()) continue;
                    JsonNode m = readJson(line, r);
                    String type = m.path("type").asText();
                    if (type.equals("INSERT") || type.equals("UPDATE") || type.equals("DELETE")) {
                        JsonNode data = m.get("data");
                        n += data != null && data.isArray() ? data.size() : 1;
                    }
                }
                return n;
            }
            case OPEN_PROTOCOL -> {
                return openProtocolRows(r);
            }
            case AVRO -> {
                // One Kafka message per row change; a delete carries the key and an empty value.
                return r.key() == null && r.value() == null ? 0 : 1;
            }
            case DEBEZIUM_JSON -> {
                // One message per row change; a null value is a tombstone.
                return r.value() == null ? 0 : 1;
            }
            default -> throw new IllegalArgumentException(format.name());
        }
    }

    /**
     * TiCDC's Open-protocol batches events into one message: the key is an 8-byte version, then for each event an
     * 8-byte big-endian length and that many bytes of JSON whose {@code "t"} is 1 for a row change.
     */
    static long openProtocolRows(ConsumerRecord<byte[], byte[]> r) {
        byte[] key = r.key();
        if (key == null || key.length < 8) return 0;
        ByteBuffer b = ByteBuffer.wrap(key);
        b.getLong();
        long n = 0;
        while (b.remaining() >= 8) {
            long len = b.getLong();
            if (len < 0 || len > b.remaining()) {
                throw new IllegalStateException("open-protocol key at " + r.topic() + "/" + r.partition() + "@"
                        + r.offset() + " has an event length " + len + " beyond the " + b.remaining() + " bytes left");
            }
            byte[] event = new byte[(int) len];
            b.get(event);
            JsonNode k = readJson(new String(event, StandardCharsets.UTF_8), r);
            if (k.path("t").asInt() == 1) n++;
        }
        return n;
    }

    private static JsonNode readJson(String text, ConsumerRecord<byte[], byte[]> r) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("message at " + r.topic() + "/" + r.partition() + "@" + r.offset()
                    + " is not JSON: " + e.getMessage(), e);
        }
    }

    static boolean contains(byte[] hay, byte[] needle) {
        if (hay == null || hay.length < needle.length) return false;
        outer:
        for (int i = 0; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) continue outer;
            }
            return true;
        }
        return false;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "50");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(8 << 20));
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public void close() {
        admin.close();
    }
}
