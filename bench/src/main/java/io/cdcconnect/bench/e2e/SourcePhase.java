package io.cdcconnect.bench.e2e;

import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import io.cdcconnect.it.ConnectorConfigFiles;
import io.cdcconnect.bench.e2e.TopicMeter.Format;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import static io.cdcconnect.bench.e2e.BenchContext.MARKER_TABLE;
import static io.cdcconnect.bench.e2e.BenchContext.SOURCE_DB;
import static io.cdcconnect.bench.e2e.BenchContext.say;

/**
 * Binlog to Kafka. Every source connector snapshots the empty tables and is stopped; the workload then goes into the
 * binlog; each connector is resumed alone and timed until the end marker (the last row written upstream) arrives on
 * its marker topic. Its topics are then read in full to count rows and bytes.
 */
public final class SourcePhase {

    /** One source connector under test. */
    public record Variant(String id, String label, String prefix, Format format, int serverId, boolean ours,
                          String outputFormat, int partitions, Map<String, String> overrides) {
        Variant(String id, String label, String prefix, Format format, int serverId, boolean ours, String outputFormat) {
            this(id, label, prefix, format, serverId, ours, outputFormat, 1, Map.of());
        }

        String connector() {
            return "bench-" + id;
        }

        Pattern tableTopics() {
            return Pattern.compile(Pattern.quote(prefix + "." + SOURCE_DB + ".") + "sbtest[0-9]+");
        }

        String markerTopic() {
            return prefix + "." + SOURCE_DB + "." + MARKER_TABLE;
        }
    }

    /** What one variant did; {@code error} set when it could not be measured. */
    public record Result(Variant variant, long expectedRows, double seconds, double secondsFromFirst,
                         TopicMeter.Tally tally, String error) {
        public double rowsPerSecond() {
            return seconds > 0 ? expectedRows / seconds : Double.NaN;
        }

        public double rowsPerSecondFromFirst() {
            return secondsFromFirst > 0 ? expectedRows / secondsFromFirst : Double.NaN;
        }

        public boolean ok() {
            return error == null;
        }
    }

    /** Partitions of the topics the tasks2 shape's sink reads. */
    public static final int SHAPE_PARTITIONS = 8;

    /**
     * Canal-JSON over topics of {@link #SHAPE_PARTITIONS} partitions, rows spread by primary key: the input of the
     * tasks2 shape (our sink with two tasks), run only with it.
     */
    public static final Variant PARTITIONED = new Variant("src-canal-p8", "ours, canal-json, " + SHAPE_PARTITIONS
            + " partitions per topic (partition.rule=pk; input of the tasks2 shape)", "oc8", Format.CANAL_JSON, 5405,
            true, "canal-json", SHAPE_PARTITIONS, Map.of());

    public static final List<Variant> VARIANTS = List.of(
            new Variant("src-canal", "ours, canal-json", "occ", Format.CANAL_JSON, 5401, true, "canal-json"),
            new Variant("src-open", "ours, open-protocol", "oop", Format.OPEN_PROTOCOL, 5402, true, "open-protocol"),
            new Variant("src-avro", "ours, avro", "oav", Format.AVRO, 5403, true, "avro"),
            new Variant("src-dbz", "Debezium MariaDB + JsonConverter", "dbz", Format.DEBEZIUM_JSON, 5404, false, null),
            // what converting ahead of Connect buys: the same connector converting inside poll()
            new Variant("src-canal-noahead", "ours, canal-json, convert.ahead.batches=0 (conversion inside poll())",
                    "ocn", Format.CANAL_JSON, 5406, true, "canal-json", 1, Map.of("convert.ahead.batches", "0")),
            // the worker's producer with larger batches, and compressed: what Connect's producer defaults cost
            new Variant("src-canal-batch", "ours, canal-json, producer.override.batch.size=262144", "ocb",
                    Format.CANAL_JSON, 5407, true, "canal-json", 1,
                    Map.of("producer.override.batch.size", "262144")),
            new Variant("src-canal-lz4", "ours, canal-json, producer.override.batch.size=262144 and compression.type=lz4",
                    "ocz", Format.CANAL_JSON, 5408, true, "canal-json", 1,
                    Map.of("producer.override.batch.size", "262144", "producer.override.compression.type", "lz4")),
            PARTITIONED);

    private final BenchContext ctx;
    private final List<Variant> active = new ArrayList<>();
    private final Map<String, String> setupErrors = new LinkedHashMap<>();
    private String endToken;

    public SourcePhase(BenchContext ctx) {
        this.ctx = ctx;
    }

    /** A sysbench-shaped table outside the measured set: its changes warm every connector's code up. */
    public static final String WARMUP_TABLE = "bench_warmup";

    /**
     * Registers every source connector on the empty tables and waits until each streams; then writes a warm-up
     * load into {@link #WARMUP_TABLE} that every connector reads (so that none is measured with a cold JIT, ours
     * sharing one plugin's classes), and stops them all.
     */
    public void register() throws Exception {
        int marker = 0;
        for (Variant v : VARIANTS) {
            if (!ctx.options.runs(v.id())) continue;
            marker++;
            try {
                ctx.connect.putConnector(v.connector(), config(v));
                ctx.connect.awaitRunning(v.connector(), 1, Duration.ofSeconds(180));
                String token = "ready-" + v.id() + "-" + UUID.randomUUID();
                insertMarker(marker, token);
                awaitToken(v, token, Duration.ofSeconds(180), System.nanoTime());
                active.add(v);
                say("      " + v.connector() + " registered and streaming");
            } catch (Exception e) {
                setupErrors.put(v.id(), BenchReport.oneLine(e));
                say("      " + v.connector() + " FAILED to start: " + BenchReport.oneLine(e));
                ctx.control.delete(v.connector());
            }
        }
        int warmRows = (int) Math.max(1000, Math.min(30_000, ctx.workload.rowChanges() / 8));
        long t0 = System.nanoTime();
        try (Connection c = ctx.connect(SOURCE_DB)) {
            SysbenchWorkload.writeWarmup(c, WARMUP_TABLE, warmRows);
        }
        String token = "warm-" + UUID.randomUUID();
        insertMarker(++marker, token);
        for (Variant v : new ArrayList<>(active)) {
            try {
                awaitToken(v, token, Duration.ofSeconds(300), System.nanoTime());
            } catch (Exception e) {
                setupErrors.put(v.id(), "warm-up: " + BenchReport.oneLine(e));
                active.remove(v);
            }
            ctx.control.stop(v.connector());
        }
        say(String.format("      warm-up: %d row changes read by every connector, %.1f s; all stopped", 2L * warmRows,
                (System.nanoTime() - t0) / 1e9));
    }

    /** Writes the end marker; call after the workload is in the binlog. */
    public void writeEndMarker() throws Exception {
        endToken = "end-" + UUID.randomUUID();
        insertMarker(100_000, endToken);
    }

    /** Resumes each stopped connector alone and times its catch-up. */
    public List<Result> measure() {
        List<Result> results = new ArrayList<>();
        long expected = ctx.workload.rowChanges();
        // one catch-up per connector, so a variant's place in the order counts (the first one measured has been
        // slower): -Dbench.sources.reverse=true measures them in reverse order, for a second run to compare
        List<Variant> order = new ArrayList<>(VARIANTS);
        if (Boolean.getBoolean("bench.sources.reverse")) java.util.Collections.reverse(order);
        for (Variant v : order) {
            if (!ctx.options.runs(v.id())) continue;
            if (setupErrors.containsKey(v.id())) {
                results.add(new Result(v, expected, Double.NaN, Double.NaN, null, setupErrors.get(v.id())));
                continue;
            }
            say("      " + v.connector() + ": catching up " + expected + " row changes from the binlog...");
            try {
                Result r = measureOne(v, expected);
                results.add(r);
                say(String.format("      %s: %.1f s from resume (%.0f rows/s), %.1f s from its first message (%.0f rows/s); "
                                + "%d messages, %d rows, %.1f bytes/row", v.connector(), r.seconds(), r.rowsPerSecond(),
                        r.secondsFromFirst(), r.rowsPerSecondFromFirst(), r.tally().messages(), r.tally().rows(),
                        r.tally().bytesPerRow()));
            } catch (Exception e) {
                results.add(new Result(v, expected, Double.NaN, Double.NaN, null, BenchReport.oneLine(e)));
                say("      " + v.connector() + " FAILED: " + BenchReport.oneLine(e));
            } finally {
                try {
                    ctx.control.stop(v.connector());
                } catch (RuntimeException e) {
                    ctx.control.delete(v.connector());
                }
            }
        }
        return results;
    }

    /**
     * Times one connector: from resume until the Kafka end offsets first covered the last message that carries one
     * of the expected row changes (end offsets are sampled every 50 ms in the background; rows are counted only once
     * the end marker shows the catch-up is over, so counting does not compete with the connector).
     */
    private Result measureOne(Variant v, long expected) throws Exception {
        Pattern topics = v.tableTopics();
        long before = ctx.meter.endOffsetSum(topics);
        long deadline;
        long t0;
        long t1;
        long first;
        TopicMeter.Tally tally;
        try (TopicMeter.OffsetTimeline timeline = ctx.meter.timeline(topics, 50)) {
            t0 = System.nanoTime();
            deadline = t0 + ctx.timeout().toNanos();
            ctx.control.resume(v.connector());
            awaitToken(v, endToken, ctx.timeout(), t0);
            try (TopicMeter.RowCounter counter = ctx.meter.counter(topics, v.format())) {
                counter.countTo(ctx.meter.endOffsets(topics));
                // The marker can overtake messages of other topics still in the producer.
                while (counter.rows() < expected && System.nanoTime() < deadline) {
                    ConnectorControl.sleep(50);
                    ctx.connect.assertNotFailed(v.connector());
                    counter.countTo(ctx.meter.endOffsets(topics));
                }
                ConnectorControl.sleep(100);
                t1 = timeline.firstCovering(counter.lastRowOffsets());
                first = timeline.firstAbove(before);
                tally = counter.tally();
            }
        }
        if (t1 < 0) t1 = System.nanoTime();
        if (first < 0) first = t0;
        String error = null;
        if (tally.rows() != expected) {
            StringBuilder per = new StringBuilder();
            for (int t = 1; t <= ctx.workload.tables(); t++) {
                String topic = v.prefix() + "." + SOURCE_DB + "." + SysbenchWorkload.table(t);
                per.append(per.length() == 0 ? "" : ", ").append(SysbenchWorkload.table(t)).append(' ')
                        .append(tally.rowsByTopic().getOrDefault(topic, 0L)).append('/').append(ctx.workload.rowChanges(t));
            }
            error = "topics hold " + tally.rows() + " row changes, expected " + expected + " (per table, found/expected: "
                    + per + ")";
        }
        return new Result(v, expected, (t1 - t0) / 1e9, (t1 - first) / 1e9, tally, error);
    }

    private void awaitToken(Variant v, String token, Duration timeout, long t0) {
        awaitToken(v, token, timeout, t0, () -> { });
    }

    /** Waits for the marker topic to exist and carry {@code token}; runs {@code tick} about every 250 ms. */
    private void awaitToken(Variant v, String token, Duration timeout, long t0, Runnable tick) {
        long deadline = t0 + timeout.toNanos();
        Pattern marker = Pattern.compile(Pattern.quote(v.markerTopic()));
        while (ctx.meter.partitions(marker).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + v.markerTopic() + " never appeared");
            }
            ctx.connect.assertNotFailed(v.connector());
            tick.run();
            ConnectorControl.sleep(250);
        }
        long lastCheck = System.nanoTime();
        try (TopicMeter.TokenWatch watch = ctx.meter.watch(v.markerTopic(), token)) {
            while (!watch.poll(Duration.ofMillis(100))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("marker " + token + " did not reach " + v.markerTopic()
                            + " within " + timeout);
                }
                if (System.nanoTime() - lastCheck > 250_000_000L) {
                    tick.run();
                    ctx.connect.assertNotFailed(v.connector());
                    lastCheck = System.nanoTime();
                }
            }
        }
        tick.run();
    }

    private void insertMarker(int id, String token) throws Exception {
        try (Connection c = ctx.connect(SOURCE_DB);
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + MARKER_TABLE + " (id, note) VALUES (?, ?)")) {
            ps.setInt(1, id);
            ps.setString(2, token);
            ps.executeUpdate();
        }
    }

    private Map<String, String> config(Variant v) {
        Map<String, String> c;
        if (v.ours()) {
            c = ourConfig(ctx.db, SOURCE_DB, v.serverId(), v.prefix(), ctx.connect.bootstrapServers());
            c.put("output.format", v.outputFormat());
            if (v.format() == Format.AVRO) c.put("schema.registry.url", ctx.registry.url());
            if (v.partitions() > 1) {
                c.put("topic.partitions", Integer.toString(v.partitions()));
                c.put("topic.creation.default.partitions", Integer.toString(v.partitions()));
                c.put("partition.rule", "pk");
            }
            c.putAll(v.overrides());
        } else {
            c = debeziumConfig(ctx.db, SOURCE_DB, v.serverId(), v.prefix(), ctx.connect.bootstrapServers());
        }
        return c;
    }

    /** Our source as {@code config/source-mariadb.json} has it, on {@code database} of {@code db}. */
    public static Map<String, String> ourConfig(EmbeddedMariaDb db, String database, int serverId, String prefix,
                                                String bootstrapServers) {
        Map<String, String> values = new HashMap<>();
        values.put("SOURCE_HOST", db.host());
        values.put("SOURCE_PORT", Integer.toString(db.port()));
        values.put("SOURCE_USER", EmbeddedMariaDb.USER);
        values.put("SOURCE_PASSWORD", EmbeddedMariaDb.PASSWORD);
        values.put("SOURCE_DATABASE", database);
        values.put("SOURCE_SERVER_ID", Integer.toString(serverId));
        values.put("TOPIC_PREFIX", prefix);
        values.put("KAFKA_BOOTSTRAP", bootstrapServers);
        return new LinkedHashMap<>(ConnectorConfigFiles.load("source-mariadb.json", values));
    }

    /**
     * Debezium's MariaDB connector as the baseline runs it: JsonConverter with schemas for key and value, one message
     * per row change (no schema-change messages, no tombstones), topics of one partition.
     */
    public static Map<String, String> debeziumConfig(EmbeddedMariaDb db, String database, int serverId, String prefix,
                                                     String bootstrapServers) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("connector.class", "io.debezium.connector.mariadb.MariaDbConnector");
        c.put("tasks.max", "1");
        c.put("database.hostname", db.host());
        c.put("database.port", Integer.toString(db.port()));
        c.put("database.user", EmbeddedMariaDb.USER);
        c.put("database.password", EmbeddedMariaDb.PASSWORD);
        c.put("database.server.id", Integer.toString(serverId));
        c.put("database.include.list", database);
        c.put("topic.prefix", prefix);
        c.put("snapshot.mode", "initial");
        c.put("schema.history.internal.kafka.bootstrap.servers", bootstrapServers);
        c.put("schema.history.internal.kafka.topic", prefix + ".schema-history");
        c.put("include.schema.changes", "false");
        // One message per row change, as our formats: no tombstone after each delete.
        c.put("tombstones.on.delete", "false");
        c.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        c.put("key.converter.schemas.enable", "true");
        c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        c.put("value.converter.schemas.enable", "true");
        c.put("topic.creation.default.partitions", "1");
        c.put("topic.creation.default.replication.factor", "1");
        return c;
    }
}
