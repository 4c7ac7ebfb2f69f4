package io.cdcconnect.it;

import io.cdcconnect.testsupport.servers.TestServers;
import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import io.cdcconnect.testsupport.db.TestDatabase;
import io.cdcconnect.verify.Endpoint;
import io.cdcconnect.verify.Summary;
import io.cdcconnect.verify.Verifier;
import io.cdcconnect.verify.VerifyReport;
import io.cdcconnect.verify.VerifyRequest;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The README's main job: the whole pipeline on embedded servers, a workload, progress while it runs, and a
 * row-by-row comparison of source and target at the end. Exits 0 only when every table matches.
 *
 * <pre>
 * options: --transactions N   workload transactions after the snapshot (default 3000)
 *          --preload N        customers (each with two orders) written before the connectors start (default 300)
 *          --pause-micros N   pause between transactions (default 0)
 *          --keep-running     leave everything running afterwards, for exploring over REST (Ctrl-C stops)
 *          --mysql8           MySQL 8.0 (the embedded 8.0.15) into MySQL 8.0 (the same server, database shop_replica),
 *                             config/source-mysql.json and config/sink-mariadb.json
 *          --mysql8-to-postgres  MySQL 8.0 into PostgreSQL 17 (embedded, schema public of its own database; the sink
 *                             creates the tables), config/source-mysql.json and config/sink-postgres.json
 *          --target-host H --target-port P --target-user U --target-password W --target-database D
 *                             apply into another MariaDB/MySQL server instead of a database on the embedded one
 * </pre>
 */
public final class PipelineDemo {

    public static void main(String[] args) throws Exception {
        int transactions = 3000;
        int preload = 300;
        long pauseMicros = 0;
        boolean keepRunning = false;
        String flavor = "mariadb";
        String tHost = null, tUser = "root", tPassword = "", tDb = "shop_replica";
        int tPort = 3306;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--transactions" -> transactions = Integer.parseInt(args[++i]);
                case "--preload" -> preload = Integer.parseInt(args[++i]);
                case "--pause-micros" -> pauseMicros = Long.parseLong(args[++i]);
                case "--keep-running" -> keepRunning = true;
                case "--mysql8" -> flavor = "mysql8";
                case "--mysql8-to-postgres" -> flavor = "mysql8-to-postgres";
                case "--target-host" -> tHost = args[++i];
                case "--target-port" -> tPort = Integer.parseInt(args[++i]);
                case "--target-user" -> tUser = args[++i];
                case "--target-password" -> tPassword = args[++i];
                case "--target-database" -> tDb = args[++i];
                default -> {
                    System.err.println("unknown option " + args[i] + " (see PipelineDemo's javadoc or README.md)");
                    System.exit(2);
                }
            }
        }
        Pipeline.Target target = tHost == null ? null : new Pipeline.Target(tHost, tPort, tUser, tPassword, tDb);
        boolean mysql8 = !flavor.equals("mariadb");
        boolean postgres = flavor.equals("mysql8-to-postgres");
        if (postgres && target != null) {
            System.err.println("--mysql8-to-postgres applies to an embedded PostgreSQL; --target-* name a MySQL-family target");
            System.exit(2);
        }
        String sourceName = mysql8 ? "MySQL 8.0" : "MariaDB 11.4";
        String sourceFile = mysql8 ? "source-mysql.json" : "source-mariadb.json";
        String sinkFile = postgres ? "sink-postgres.json" : "sink-mariadb.json";
        Path work = Path.of(System.getProperty("cdc.work.dir", "target/demo-work"));
        long t0 = System.nanoTime();
        say("[1/5] starting " + sourceName + " with binlog, " + (postgres ? "PostgreSQL 17, " : "")
                + "a Kafka broker and a Connect worker (embedded)...");
        DatabaseServer pg = postgres ? TestServers.database(DatabaseSpec.postgres()) : null;
        TestDatabase pgDb = postgres ? new TestDatabase(pg, "shop_pg") : null;
        Pipeline p = Pipeline.start(mysql8 ? DatabaseSpec.mysql("8.0") : DatabaseSpec.mariadb("11.4"), work, "shop", target, false);
        boolean ok = false;
        try {
            say("      " + sourceName + " at 127.0.0.1:" + p.source().port() + ", Kafka at " + p.connect().bootstrapServers()
                    + ", Connect REST at " + p.connect().restUrl() + (postgres ? ", PostgreSQL at 127.0.0.1:" + pg.port() : ""));
            String downstream = postgres ? pgDb.name() + "." + PG_SCHEMA + " (PostgreSQL; the sink creates the tables)"
                    : p.target().database();
            say("[2/5] creating `shop` upstream and `" + downstream + "` downstream; preloading "
                    + preload + " customers with two orders each...");
            // PostgreSQL: the MySQL-family target database is created empty and unused; the sink creates the tables
            // in PostgreSQL from the snapshot's DDL
            p.createSchemas(Workload.TABLES, Workload.DDL, !postgres);
            if (postgres) {
                p.putConfigValue("TARGET_HOST", pg.host());
                p.putConfigValue("TARGET_PORT", Integer.toString(pg.port()));
                p.putConfigValue("TARGET_USER", pg.user());
                p.putConfigValue("TARGET_PASSWORD", pg.password() == null ? "" : pg.password());
                p.putConfigValue("TARGET_DATABASE", pgDb.name());
                p.putConfigValue("TARGET_SCHEMA", PG_SCHEMA);
            }
            Workload workload = new Workload(20261122L);
            try (Connection c = p.sourceConnection()) {
                workload.preload(c, preload);
            }
            say("      " + workload.rowChanges() + " rows written before capture starts (they arrive by snapshot)");
            say("[3/5] registering the connectors over REST (config/" + sourceFile + ", config/" + sinkFile + ")...");
            p.registerSource(sourceFile, 1);
            p.registerSink(sinkFile, 1);
            StageRates rates = StageRates.start(p::progress);
            say("[4/5] running " + transactions + " transactions upstream (inserts, updates incl. key changes, deletes)...");
            long w0 = System.nanoTime();
            long[] lastPrint = {System.nanoTime()};
            try (Connection c = p.sourceConnection()) {
                workload.run(c, transactions, pauseMicros, rows -> {
                    if (System.nanoTime() - lastPrint[0] > 2_000_000_000L) {
                        lastPrint[0] = System.nanoTime();
                        PipelineProgress.Snapshot s = p.progress();
                        say(String.format("      written %d row changes | captured %d messages | applied %d | lag %d",
                                rows, s.captured(), s.applied(), s.lag()));
                    }
                });
            }
            double writeSecs = (System.nanoTime() - w0) / 1e9;
            say(String.format("      workload done: %d row changes in %.1f s", workload.rowChanges(), writeSecs));
            say("[5/5] waiting for the target to catch up, then comparing every row...");
            long c0 = System.nanoTime();
            List<String> tables = new ArrayList<>();
            for (String t : Workload.TABLES) tables.add(p.sourceDb() + "." + t);
            Endpoint up = new Endpoint(p.source().jdbcUrl(p.sourceDb()), p.source().user(), p.source().password());
            Endpoint down = postgres ? new Endpoint(pgDb.jdbcUrl(), pg.user(), pg.password())
                    : new Endpoint(p.target().jdbcUrl(p.target().database()), p.target().user(), p.target().password());
            VerifyRequest request = VerifyRequest.of(up, down, tables,
                    Map.of(p.sourceDb(), postgres ? PG_SCHEMA : p.target().database())).withChunkSize(1000);
            List<TableComparison.Result> results;
            if (postgres) {
                // the row comparison of awaitCaughtUp reads MySQL on both sides: across engines, cdc-verify decides
                results = List.of();
                awaitEqual(p, request, Duration.ofMinutes(5));
            } else {
                results = p.awaitCaughtUp(Duration.ofMinutes(5), line -> say("      " + line));
            }
            double catchUp = (System.nanoTime() - c0) / 1e9;
            rates.close();
            say("      caught up; cdc-verify compares every table, chunk by chunk (docs/verify.md)...");
            long v0 = System.nanoTime();
            VerifyReport report = Verifier.run(request, line -> say("      " + line));
            double verifySecs = (System.nanoTime() - v0) / 1e9;
            say("");
            say("Summary (cdc-verify)");
            for (String line : Summary.lines(report)) say("  " + line);
            PipelineProgress.Snapshot s = p.progress();
            say(String.format("  %d row changes written; %d messages captured and applied; caught up %.1f s after the "
                    + "workload ended; %.1f s in all", workload.rowChanges(), s.applied(), catchUp, (System.nanoTime() - t0) / 1e9));
            say("");
            say("Rows per second of each stage, while it was busy");
            String written = "written upstream (workload)";
            rates.add(written, workload.rowChanges(), writeSecs);
            for (String line : rates.render(written)) say("  " + line);
            long compared = report.tables().stream().mapToLong(io.cdcconnect.verify.TableResult::sourceRows).sum();
            say(String.format("  (cdc-verify compared %,d rows upstream with their copies in %.1f s)", compared, verifySecs));
            ok = report.equal() && results.stream().allMatch(TableComparison.Result::matches);
            say(ok ? "RESULT: source and target match" : "RESULT: source and target DIFFER");
            if (keepRunning) {
                say("");
                say("Everything keeps running. Connect REST: " + p.connect().restUrl() + "  (try GET /connectors/cdc-sink/status)");
                say("Kafka: " + p.connect().bootstrapServers() + "   MariaDB: 127.0.0.1:" + p.source().port() + " user "
                        + EmbeddedMariaDb.USER + " (password in EmbeddedMariaDb.java), databases shop and " + p.target().database());
                say("Press Ctrl-C to stop.");
                CountDownLatch stop = new CountDownLatch(1);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    p.close();
                    stop.countDown();
                }));
                stop.await();
                return;
            }
        } catch (Exception e) {
            say("FAILED: " + e.getMessage());
            e.printStackTrace();
        } finally {
            if (!keepRunning) {
                p.close();
                if (pgDb != null) pgDb.close();
            }
        }
        System.exit(ok ? 0 : 1);
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** The PostgreSQL schema the sink writes into with --mysql8-to-postgres. */
    private static final String PG_SCHEMA = "public";

    /** Runs cdc-verify every few seconds until source and target are equal (or the time is up). */
    private static void awaitEqual(Pipeline p, VerifyRequest request, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            VerifyReport r = Verifier.run(request, null);
            PipelineProgress.Snapshot s = p.progress();
            if (r.equal()) return;
            if (System.nanoTime() > deadline) {
                say("      not equal after " + timeout.toSeconds() + " s");
                return;
            }
            say(String.format("      captured %d | applied %d | lag %d | not equal yet", s.captured(), s.applied(), s.lag()));
            Thread.sleep(3000);
        }
    }
}
