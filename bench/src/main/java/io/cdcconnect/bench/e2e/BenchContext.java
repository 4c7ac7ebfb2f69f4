package io.cdcconnect.bench.e2e;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/** What every phase of the benchmark shares: the servers, the workload and the options. */
public final class BenchContext {
    public static final String SOURCE_DB = "sbtest";
    public static final String MARKER_TABLE = "bench_marker";

    final BenchOptions options;
    final EmbeddedMariaDb db;
    final ConnectCluster connect;
    final ConnectorControl control;
    final TopicMeter meter;
    final StandInSchemaRegistry registry;
    final SysbenchWorkload workload;
    /** Where child processes write their logs. */
    final Path workDir;
    /** The rows of the shapes that bring their own (txn100k, tables64) by shape, once written into their topics. */
    final java.util.Map<String, ShapeInput.Dataset> shapeInputs = new java.util.LinkedHashMap<>();

    BenchContext(BenchOptions options, EmbeddedMariaDb db, ConnectCluster connect, TopicMeter meter,
                 StandInSchemaRegistry registry, SysbenchWorkload workload, Path workDir) {
        this.options = options;
        this.db = db;
        this.connect = connect;
        this.control = new ConnectorControl(connect);
        this.meter = meter;
        this.registry = registry;
        this.workload = workload;
        this.workDir = workDir;
    }

    Duration timeout() {
        return Duration.ofSeconds(options.timeoutSeconds());
    }

    Connection connect(String database) throws SQLException {
        return db.connect(database);
    }

    void execute(String database, String... sql) throws SQLException {
        try (Connection c = db.connect(database); Statement s = c.createStatement()) {
            for (String q : sql) s.execute(q);
        }
    }

    /**
     * Waits (at most {@code timeout}) until InnoDB has written back the pages the workload dirtied: the server flushes
     * them in the background after a large write, and whichever connector is measured first would otherwise share
     * the cores with that flushing. Returns the dirty pages left.
     */
    long awaitPagesFlushed(Duration timeout) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Connection c = db.connect(null); Statement s = c.createStatement()) {
            String pct;
            try (java.sql.ResultSet rs = s.executeQuery("SELECT @@innodb_max_dirty_pages_pct")) {
                rs.next();
                pct = rs.getString(1);
            }
            s.execute("SET GLOBAL innodb_max_dirty_pages_pct = 0");
            try {
                while (true) {
                    long dirty;
                    try (java.sql.ResultSet rs = s.executeQuery(
                            "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")) {
                        rs.next();
                        dirty = rs.getLong(2);
                    }
                    if (dirty <= 16 || System.nanoTime() > deadline) return dirty;
                    Thread.sleep(250);
                }
            } finally {
                s.execute("SET GLOBAL innodb_max_dirty_pages_pct = " + pct);
            }
        }
    }

    static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
