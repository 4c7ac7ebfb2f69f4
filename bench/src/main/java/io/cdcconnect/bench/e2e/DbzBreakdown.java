package io.cdcconnect.bench.e2e;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.sink.CdcSinkConfig;
import io.cdcconnect.sink.decode.RecordDecoder;
import io.cdcconnect.sink.decode.RecordDecoders;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The {@code dbz-breakdown} shape: where the time of our sink's Debezium-envelope input goes. Our sink fed Debezium
 * envelopes (input.format=debezium) gets each record through the worker's {@code JsonConverter} (schemas on) and then
 * through our {@code DebeziumEnvelopeDecoder}; fed Canal-JSON it gets bytes and decodes them itself. This reads the
 * Debezium topics and the Canal-JSON topics of the source phase and times, on all of their messages, each step alone:
 * {@code JsonConverter.toConnectData} of key and value, our Debezium decoder on the converter's results, and our
 * Canal-JSON decoder on the raw bytes (the default input, for scale). Each is warmed up by untimed passes over all
 * messages, one at least and more until {@link #WARM_UP_NANOS} have passed, then timed over several; the median pass is reported, as
 * ns per message and per row change.
 *
 * <p>It runs in a child JVM ({@link #measure}) with our sink's jars from its plugin folder added to the classpath:
 * the benchmark's own classpath must not hold them, since the forked Connect worker inherits it and our connectors
 * must load from their plugin folder only.
 */
public final class DbzBreakdown {

    /** Per step: the median pass's ns per message and per row change, messages and row changes of one pass. */
    public record Step(String name, double nsPerMessage, double nsPerRow, long messages, long rows, List<Double> passes) {
    }

    /** The three steps, or the error that stopped the measurement. */
    public record Report(List<Step> steps, int passes, String error) {
        public boolean ok() {
            return error == null;
        }
    }

    /** Untimed passes go on until this much time has passed: a smoke run's few messages need several. */
    static final long WARM_UP_NANOS = 5_000_000_000L;

    private DbzBreakdown() {
    }

    /** Runs the breakdown in a child JVM on the topics of {@code dbzTopics} and {@code canalTopics}. */
    static Report measure(BenchContext ctx, Pattern dbzTopics, Pattern canalTopics, int passes, Path log) {
        try {
            Path lib = io.cdcconnect.it.ConnectPlugins.home(io.cdcconnect.it.Pipeline.pluginDir(), "cdc-connect-sink")
                    .resolve("lib");
            List<Path> jars;
            try (var s = java.nio.file.Files.list(lib)) {
                jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
            }
            Map<String, String> r = ChildJvm.run(DbzBreakdown.class, List.of(ctx.connect.bootstrapServers(),
                            dbzTopics.pattern(), canalTopics.pattern(), Integer.toString(passes)), jars, "3g", log,
                    ctx.timeout());
            List<Step> steps = new ArrayList<>();
            for (String step : List.of("converter", "dbzdecoder", "canaldecoder")) {
                List<Double> each = new ArrayList<>();
                for (String x : r.get(step + ".passes").split(",")) each.add(Double.parseDouble(x));
                steps.add(new Step(step, Double.parseDouble(r.get(step + ".nsPerMessage")),
                        Double.parseDouble(r.get(step + ".nsPerRow")), Long.parseLong(r.get(step + ".messages")),
                        Long.parseLong(r.get(step + ".rows")), each));
            }
            return new Report(steps, passes, null);
        } catch (Exception e) {
            return new Report(List.of(), passes, BenchReport.oneLine(e));
        }
    }

    /** The child: {@code DbzBreakdown <bootstrap> <debezium topics regex> <canal-json topics regex> <passes>}. */
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        int passes = Integer.parseInt(args[3]);
        List<ConsumerRecord<byte[], byte[]>> dbz = readAll(bootstrap, Pattern.compile(args[1]));
        List<ConsumerRecord<byte[], byte[]>> canal = readAll(bootstrap, Pattern.compile(args[2]));
        System.out.println("read " + dbz.size() + " Debezium and " + canal.size() + " Canal-JSON messages");

        JsonConverter keys = new JsonConverter();
        keys.configure(Map.of("schemas.enable", "true"), true);
        JsonConverter values = new JsonConverter();
        values.configure(Map.of("schemas.enable", "true"), false);
        List<SinkRecord> converted = new ArrayList<>(dbz.size());
        long[] converterNanos = new long[passes];
        long warmUntil = System.nanoTime() + WARM_UP_NANOS;
        for (int pass = 0, untimed = 0; pass < passes; ) {
            converted.clear();
            long t0 = System.nanoTime();
            for (ConsumerRecord<byte[], byte[]> r : dbz) {
                SchemaAndValue k = keys.toConnectData(r.topic(), r.headers(), r.key());
                SchemaAndValue v = values.toConnectData(r.topic(), r.headers(), r.value());
                converted.add(new SinkRecord(r.topic(), r.partition(), k.schema(), k.value(), v.schema(), v.value(),
                        r.offset()));
            }
            long t1 = System.nanoTime();
            if (untimed == 0 || pass == 0 && t1 < warmUntil) {
                untimed++; // warming up
                continue;
            }
            converterNanos[pass++] = t1 - t0;
        }

        Map<String, Object> out = new LinkedHashMap<>();
        RecordDecoder dbzDecoder = RecordDecoders.forConfig(sinkConfig("debezium"));
        long[] dbzNanos = new long[passes];
        long dbzRows = decodePasses(dbzDecoder, converted, dbzNanos);
        put(out, "converter", converterNanos, dbz.size(), dbz.size());
        put(out, "dbzdecoder", dbzNanos, converted.size(), dbzRows);

        List<SinkRecord> raw = new ArrayList<>(canal.size());
        for (ConsumerRecord<byte[], byte[]> r : canal) {
            raw.add(new SinkRecord(r.topic(), r.partition(), Schema.OPTIONAL_BYTES_SCHEMA, r.key(),
                    Schema.OPTIONAL_BYTES_SCHEMA, r.value(), r.offset()));
        }
        RecordDecoder canalDecoder = RecordDecoders.forConfig(sinkConfig("canal-json"));
        long[] canalNanos = new long[passes];
        long canalRows = decodePasses(canalDecoder, raw, canalNanos);
        put(out, "canaldecoder", canalNanos, raw.size(), canalRows);
        ChildJvm.result(out);
    }

    /**
     * Decodes every record once per pass, untimed passes first for {@link #WARM_UP_NANOS}; returns the row changes of
     * one pass.
     */
    private static long decodePasses(RecordDecoder decoder, List<SinkRecord> records, long[] nanos) {
        long rows = 0;
        long warmUntil = System.nanoTime() + WARM_UP_NANOS;
        for (int pass = 0, untimed = 0; pass < nanos.length; ) {
            long n = 0;
            long t0 = System.nanoTime();
            for (SinkRecord r : records) {
                for (ChangeEvent e : decoder.decode(r)) {
                    if (e instanceof RowChange) n++;
                }
            }
            long t1 = System.nanoTime();
            rows = n;
            if (untimed == 0 || pass == 0 && t1 < warmUntil) {
                untimed++; // warming up
                continue;
            }
            nanos[pass++] = t1 - t0;
        }
        return rows;
    }

    /** The median of the timed passes and every timed pass's ns per message. */
    private static void put(Map<String, Object> out, String step, long[] nanos, long messages, long rows) {
        List<Double> perMessage = new ArrayList<>();
        for (long n : nanos) perMessage.add(messages == 0 ? Double.NaN : (double) n / messages);
        List<Double> sorted = new ArrayList<>(perMessage);
        Collections.sort(sorted);
        double median = sorted.get((sorted.size() - 1) / 2);
        out.put(step + ".nsPerMessage", median);
        out.put(step + ".nsPerRow", rows == 0 ? Double.NaN : median * messages / rows);
        out.put(step + ".messages", messages);
        out.put(step + ".rows", rows);
        StringBuilder each = new StringBuilder();
        for (double x : perMessage) each.append(each.length() == 0 ? "" : ",").append(x);
        out.put(step + ".passes", each);
    }

    /** A sink configuration that only chooses the decoder (no connection is opened). */
    private static CdcSinkConfig sinkConfig(String inputFormat) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put(CdcSinkConfig.INPUT_FORMAT, inputFormat);
        c.put("connection.url", "jdbc:mysql://127.0.0.1:3306/");
        c.put("connection.user", "root");
        c.put(CdcSinkConfig.SCHEMA_INCLUDE, "sbtest");
        return new CdcSinkConfig(c);
    }

    /** Every message with a value of the matching topics, from their beginning to their current end. */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, Pattern topics) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(8 << 20));
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            for (Map.Entry<String, List<PartitionInfo>> t : c.listTopics(Duration.ofSeconds(30)).entrySet()) {
                if (!topics.matcher(t.getKey()).matches()) continue;
                for (PartitionInfo i : t.getValue()) parts.add(new TopicPartition(i.topic(), i.partition()));
            }
            if (parts.isEmpty()) throw new IllegalStateException("no topic matches " + topics);
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(30));
            long idleSince = System.nanoTime();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                var batch = c.poll(Duration.ofMillis(200));
                if (batch.isEmpty()) {
                    if (System.nanoTime() - idleSince > 60_000_000_000L) {
                        throw new IllegalStateException("reading " + topics + " stalled");
                    }
                    continue;
                }
                idleSince = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    if (r.value() != null) out.add(r);
                }
            }
        }
        return out;
    }
}
