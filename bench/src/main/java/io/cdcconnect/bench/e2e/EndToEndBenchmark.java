package io.cdcconnect.bench.e2e;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import io.cdcconnect.it.Pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static io.cdcconnect.bench.e2e.BenchContext.MARKER_TABLE;
import static io.cdcconnect.bench.e2e.BenchContext.SOURCE_DB;
import static io.cdcconnect.bench.e2e.BenchContext.say;

/**
 * The end-to-end benchmark of {@code BENCHMARKS.md}, source and sink, each against its Debezium baseline in the same
 * run, on the same MariaDB and the same Kafka broker + Connect worker (by default each in a child JVM of its own, as
 * users deploy them; {@code --deployment embedded} runs both in this JVM):
 * <ol>
 *   <li>source: binlog → Kafka rows/s and bytes per row for Canal-JSON, Open-protocol and Avro, against Debezium's
 *       MariaDB connector with JsonConverter;</li>
 *   <li>sink: Kafka → MariaDB rows/s of our sink (defaults, statement cache off, batching off, one worker, Debezium
 *       envelopes in) against the Debezium JDBC sink in upsert mode and a plain-JDBC ceiling, with the target's
 *       statement counters; our default variant and the in-order plain-JDBC reference also cold (a fresh worker
 *       process, a fresh JVM, before any warm-up) beside their warm median;</li>
 *   <li>sink: Kafka → PostgreSQL (an embedded PostgreSQL 17) rows/s of our sink against the Debezium JDBC sink in
 *       upsert mode and a plain-JDBC ceiling, with {@code pg_stat_database} and our sink's server-side prepared
 *       statements counted from the server's log ({@link PostgresSinkPhase}); {@code --targets} picks the targets.</li>
 * </ol>
 * {@code --shapes} adds scale shapes (two sink tasks over 8-partition topics, Open-protocol and Avro input, the
 * breakdown of the Debezium-envelope input into converter and decoder time, {@link DbzBreakdown}, one transaction
 * of 100k rows and the workload over 64 tables, {@link ShapeInput}).
 * Run it with {@code bench/run-e2e-benchmark.sh}; it is never part of the test suite. Options: {@link BenchOptions#USAGE}.
 */
public final class EndToEndBenchmark {

    /** The workload's seed: the same changes in every run, and in a child JVM that regenerates them. */
    static final long SEED = 20261122L;

    public static void main(String[] args) throws Exception {
        BenchOptions o;
        try {
            o = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        int exit = run(o);
        // The embedded cluster can leave non-daemon threads behind.
        System.exit(exit);
    }

    static int run(BenchOptions o) throws Exception {
        long start = System.nanoTime();
        String command = System.getProperty("bench.command", "EndToEndBenchmark " + o.commandLine()).trim();
        Path work = Path.of(System.getProperty("cdc.work.dir", "bench/target/bench-work"));
        Path ourPlugins = Pipeline.pluginDir();
        Path dbzPlugins = Path.of(System.getProperty("cdc.bench.plugin.dir", "bench/target/bench-plugins"));
        List<String> notes = new ArrayList<>();
        Set<String> skip = new LinkedHashSet<>(o.skip());
        if (!Files.isDirectory(dbzPlugins.resolve("debezium-connector-mariadb"))
                || !Files.isDirectory(dbzPlugins.resolve("debezium-connector-jdbc"))) {
            notes.add("Debezium's plugins were not found under " + dbzPlugins + " (build with -Pbench): the Debezium"
                    + " baselines and the Debezium-input variant did not run.");
            skip.addAll(List.of("src-dbz", "sink-dbz-jdbc", "sink-ours-dbzin", "pg-dbz-jdbc"));
        }
        if (!o.shape("tasks2")) skip.add(SourcePhase.PARTITIONED.id());
        BenchOptions opts = o.skipping(skip);
        String commit = commit();

        say("[1/6] generating the workload: " + opts.tables() + " tables x " + opts.rowsPerTable() + " rows, then "
                + opts.operations() + " row changes...");
        SysbenchWorkload workload = SysbenchWorkload.generate(opts.tables(), opts.rowsPerTable(), opts.operations(), SEED);
        say("      " + workload.rowChanges() + " row changes in " + workload.transactions() + " transactions");

        say("[2/6] starting MariaDB 11.4 (binlog), a Kafka broker and a Connect worker ("
                + (opts.separateProcesses() ? "each in a child JVM" : "embedded in this JVM") + ")...");
        EmbeddedMariaDb db = EmbeddedMariaDb.start(work.resolve("mariadb"), 1);
        StandInSchemaRegistry registry = null;
        ConnectCluster connect = null;
        TopicMeter meter = null;
        try {
            // A stand-in, not Apicurio: a real registry would cost a second JVM on a 2-core machine for what is one
            // call per table (clients cache ids), so it would not change the figures.
            registry = StandInSchemaRegistry.start();
            Map<String, String> worker = new HashMap<>();
            worker.put("plugin.path", ourPlugins.toAbsolutePath() + "," + dbzPlugins.toAbsolutePath());
            worker.put("offset.flush.interval.ms", "500");
            connect = opts.separateProcesses()
                    ? ConnectCluster.startSeparateProcesses(ourPlugins, work.resolve("connect"), 1, worker)
                    : ConnectCluster.start(ourPlugins, worker);
            meter = new TopicMeter(connect.bootstrapServers());
            BenchContext ctx = new BenchContext(opts, db, connect, meter, registry, workload, work);
            String version;
            long maxPrepared;
            try (Connection c = db.connect(null); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT VERSION(), @@max_prepared_stmt_count")) {
                rs.next();
                version = "MariaDB " + rs.getString(1);
                maxPrepared = rs.getLong(2);
            }
            ctx.execute(null, "CREATE DATABASE IF NOT EXISTS " + SOURCE_DB);
            try (Connection c = db.connect(SOURCE_DB)) {
                workload.createTables(c);
            }
            ctx.execute(SOURCE_DB, "CREATE TABLE " + MARKER_TABLE + " (id INT NOT NULL PRIMARY KEY, note VARCHAR(80))",
                    SysbenchWorkload.ddl(SourcePhase.WARMUP_TABLE));

            say("[3/6] registering the source connectors on the empty tables (snapshot), warming them up, stopping them...");
            SourcePhase source = new SourcePhase(ctx);
            source.register();

            say("[4/6] writing the workload upstream (into the binlog)...");
            long w0 = System.nanoTime();
            // Only while loading: the measured phases run with the server's durable default (1).
            ctx.execute(null, "SET GLOBAL innodb_flush_log_at_trx_commit = 2");
            try {
                workload.write(workload.preload(), () -> db.connect(SOURCE_DB), 2);
                workload.write(workload.operations(), () -> db.connect(SOURCE_DB), 2);
            } finally {
                ctx.execute(null, "SET GLOBAL innodb_flush_log_at_trx_commit = 1");
            }
            source.writeEndMarker();
            say(String.format("      %d row changes written in %.1f s", workload.rowChanges(), (System.nanoTime() - w0) / 1e9));
            long f0 = System.nanoTime();
            long dirty = ctx.awaitPagesFlushed(java.time.Duration.ofSeconds(120));
            say(String.format("      InnoDB wrote back the workload's pages in %.1f s (%d dirty pages left)",
                    (System.nanoTime() - f0) / 1e9, dirty));
            notes.add(String.format("Before the first catch-up the benchmark waited %.1f s for InnoDB to write back the"
                    + " pages the workload dirtied (%d left), so that no connector shares the cores with that flushing."
                    + " The first of our source connectors measured is still the slowest, whichever it is (about 27k"
                    + " rows/s against 35k to 42k for the next ones in the runs of 2026-11-25 06:08 to 06:16): it is"
                    + " the first of our plugin to run the real tables' paths, and the JIT compiles them during it.",
                    (System.nanoTime() - f0) / 1e9, dirty));

            say("[5/6] source: resuming each connector alone and timing its catch-up...");
            List<SourcePhase.Result> sources = source.measure();
            Set<String> filled = new LinkedHashSet<>();
            for (SourcePhase.Result r : sources) if (r.ok()) filled.add(r.variant().prefix());

            List<SinkPhase.Result> sinks = List.of();
            List<SinkPhase.Result> cold = List.of();
            if (opts.targets("mariadb")) {
                say("[6/6] sink into MariaDB: each variant alone into a fresh database...");
                List<ShapeInput.Dataset> inputs = new ArrayList<>();
                if (opts.shape("txn100k")) inputs.add(ShapeInput.txn100k());
                if (opts.shape("tables64")) inputs.add(ShapeInput.tables64(workload));
                if (opts.shape("ticdc")) inputs.add(ShapeInput.ticdc(workload));
                if (opts.shape("wide60")) inputs.add(ShapeInput.wide60(workload));
                for (ShapeInput.Dataset d : inputs) {
                    say("      " + d.shape() + ": writing " + d.rowChanges() + " row changes into " + d.prefix()
                            + ".* and a plain-JDBC reference copy (untimed)...");
                    try {
                        ShapeInput.prepare(ctx, d);
                        ctx.shapeInputs.put(d.shape(), d);
                        filled.add(d.prefix());
                    } catch (Exception e) {
                        notes.add("The " + d.shape() + " shape's input could not be written: " + BenchReport.oneLine(e));
                    }
                }
                SinkPhase sinkPhase = new SinkPhase(ctx);
                sinks = sinkPhase.run(filled);
                cold = sinkPhase.coldResults();
                if (sinkPhase.warmUpNote() != null) notes.add(sinkPhase.warmUpNote());
            }
            DbzBreakdown.Report breakdown = null;
            if (opts.shape("dbz-breakdown")) {
                if (filled.contains("dbz") && filled.contains("occ")) {
                    say("      dbz-breakdown: JsonConverter and our decoders on every message, in a child JVM...");
                    breakdown = DbzBreakdown.measure(ctx, Pattern.compile("dbz\\.sbtest\\.sbtest[0-9]+"),
                            Pattern.compile("occ\\.sbtest\\.sbtest[0-9]+"), 3, work.resolve("dbz-breakdown.log"));
                    say(breakdown.ok() ? "      dbz-breakdown: " + breakdown.steps()
                            : "      dbz-breakdown FAILED: " + breakdown.error());
                } else {
                    breakdown = new DbzBreakdown.Report(List.of(), 3, "the Debezium or the Canal-JSON topics were"
                            + " not filled by the source phase");
                }
            }
            PostgresSinkPhase.Report pg = null;
            if (opts.targets("postgres")) {
                say("[6/6] sink into PostgreSQL: starting an embedded PostgreSQL 17, each variant alone into a fresh schema...");
                try (PostgresTarget target = PostgresTarget.start(work.resolve("postgres"))) {
                    pg = new PostgresSinkPhase(ctx, target).run(filled);
                } catch (Exception e) {
                    notes.add("The PostgreSQL phase did not run: " + BenchReport.oneLine(e));
                }
                if (pg != null && pg.warmUpNote() != null) notes.add(pg.warmUpNote());
            }

            notes.add("Warm-up, not measured: every source connector first read " + "a load on a separate table"
                    + " (bench_warmup), and our sink and the Debezium JDBC sink each drained that table's topic once"
                    + " before the warm rounds, so no variant of the main table is timed with a cold JIT. The cold"
                    + " round alone ran before that warm-up: "
                    + (opts.separateProcesses() ? "the Connect worker was restarted (a new JVM) just before it, so"
                    + " our sink's cold run was the first task of that JVM; the in-order plain-JDBC reference's cold"
                    : "with the worker embedded in the benchmark's JVM, our sink's cold run was its first run in this"
                    + " JVM (which had run our source's plugin before, in another class loader); the in-order"
                    + " plain-JDBC reference's cold") + " run was a fresh child JVM of its own.");
            notes.add("The timed runs are short (seconds) on a shared 2-core machine: one round of a fast variant can"
                    + " differ from the next by 20% or more. Compare medians and the spread of the rounds, not single"
                    + " figures; the source phase has one round per connector (a binlog catch-up happens once).");
            notes.add("innodb_flush_log_at_trx_commit was 2 only while the workload was written upstream (not measured);"
                    + " 1, the default, during every measured phase.");
            notes.add("Connect worker: offset.flush.interval.ms=500; a sink's time ends at the first 200-ms poll that"
                    + " sees its group's lag at 0 and the tables matching, so it can be up to ~0.7 s late.");
            notes.add("Debezium's source ran with tombstones.on.delete=false and include.schema.changes=false (one"
                    + " message per row change, like ours), key and value through JsonConverter with schemas.");
            notes.add("Avro used test-support's stand-in schema registry (Confluent API, in memory, inside the benchmark"
                    + " JVM; clients cache ids, so it is one call per table), not Apicurio.");
            notes.add("Debezium plugins: io.debezium:debezium-connector-mariadb and debezium-connector-jdbc 3.3.0.Final"
                    + " plugin archives from Maven Central, in the same worker as ours (plugin.path holds both folders).");
            notes.add("max_prepared_stmt_count of the server: " + maxPrepared + ".");
            String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
            BenchReport.Setup setup = new BenchReport.Setup(command, date, Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"), version, (System.nanoTime() - start) / 1_000_000_000L,
                    maxPrepared, commit);
            String md = BenchReport.render(setup, opts, workload, sources, sinks, cold, breakdown, pg, notes);
            System.out.println();
            System.out.println(md);
            if (opts.report() != null) {
                // a bar chart of each table's ratios beside the report (<report>-<section>.svg), linked under the table
                Files.writeString(opts.report(), io.cdcconnect.it.charts.RatioCharts.addCharts(md, opts.report()));
                say("written to " + opts.report().toAbsolutePath() + ", with its charts beside it");
            }
            boolean allOk = sources.stream().allMatch(SourcePhase.Result::ok)
                    && sinks.stream().allMatch(SinkPhase.Result::ok) && cold.stream().allMatch(SinkPhase.Result::ok)
                    && (breakdown == null || breakdown.ok())
                    && (!opts.targets("postgres") || pg != null && pg.results().stream().allMatch(PostgresSinkPhase.Result::ok));
            return allOk ? 0 : 1;
        } finally {
            if (meter != null) meter.close();
            if (connect != null) connect.close();
            if (registry != null) registry.close();
            db.close();
        }
    }

    /** The commit the benchmark was built from: {@code git rev-parse --short HEAD}, "+ uncommitted" on a dirty tree. */
    static String commit() {
        try {
            String head = git("rev-parse", "--short", "HEAD");
            String dirty = git("status", "--porcelain", "--untracked-files=no");
            return head.isEmpty() ? "unknown (not a git checkout)" : head + (dirty.isEmpty() ? "" : " + uncommitted");
        } catch (Exception e) {
            return "unknown (" + BenchReport.oneLine(e) + ")";
        }
    }

    private static String git(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        return p.waitFor() == 0 ? out : "";
    }
}
