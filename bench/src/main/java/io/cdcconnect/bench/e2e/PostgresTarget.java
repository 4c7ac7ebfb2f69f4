package io.cdcconnect.bench.e2e;

import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.EmbeddedPostgreSql;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PostgreSQL target of the sink phase: test-support's embedded PostgreSQL 17 (zonky's binaries, never the
 * machine's own server), one database {@value #DATABASE} holding a schema per variant (the stream's MySQL database
 * {@code sbtest} becomes that schema), the sysbench tables in PostgreSQL's DDL, and what the server says a variant
 * did: {@code pg_stat_database} of the database, and, while statement logging is on, the statements the server
 * executed per session, from its log ({@code log_statement = mod}: each execute names its server-side prepared
 * statement, or {@code <unnamed>} for a one-shot one).
 */
public final class PostgresTarget implements AutoCloseable {
    public static final String DATABASE = "bench";

    /** Counted from {@code pg_stat_database}; {@code sessions} is PostgreSQL 14's. */
    public static final List<String> COUNTERS = List.of("xact_commit", "xact_rollback", "tup_inserted", "tup_updated",
            "tup_deleted", "sessions");

    /**
     * {@code -Dbench.postgres.durable=false} keeps test-support's fsync, synchronous_commit and full_page_writes off:
     * commits then cost no disk flush (to see how much of a result is commit cost).
     */
    public static final boolean DURABLE = Boolean.parseBoolean(System.getProperty("bench.postgres.durable", "true"));

    private final EmbeddedPostgreSql pg;
    private final String version;
    private final Path log;

    private PostgresTarget(EmbeddedPostgreSql pg, String version, Path log) {
        this.pg = pg;
        this.version = version;
        this.log = log;
    }

    /**
     * Starts the server and creates {@value #DATABASE}. test-support runs it with fsync, synchronous_commit and
     * full_page_writes off (tests); the benchmark turns them back on, PostgreSQL's durable defaults, as the MariaDB
     * phases run with innodb_flush_log_at_trx_commit=1 (unless {@link #DURABLE} is false).
     */
    public static PostgresTarget start(Path workDir) throws SQLException {
        EmbeddedPostgreSql pg = EmbeddedPostgreSql.start(DatabaseSpec.postgres(), workDir, 1);
        String durable = DURABLE ? "on" : "off";
        try {
            pg.execute("CREATE DATABASE " + DATABASE,
                    "ALTER SYSTEM SET fsync = " + durable,
                    "ALTER SYSTEM SET synchronous_commit = " + durable,
                    "ALTER SYSTEM SET full_page_writes = " + durable,
                    "ALTER SYSTEM SET log_line_prefix = '%m [%p] '",
                    "ALTER SYSTEM SET log_parameter_max_length = 0",
                    "ALTER SYSTEM SET log_statement = 'none'",
                    "SELECT pg_reload_conf()");
            ConnectorControl.sleep(500);
            Path logFile = pg.dataDir().getParent().resolve("postgres.log");
            return new PostgresTarget(pg, pg.serverVersion(), logFile);
        } catch (SQLException | RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    public String version() {
        return "PostgreSQL " + version;
    }

    public String provenance() {
        return pg.provenance();
    }

    public String host() {
        return pg.host();
    }

    public int port() {
        return pg.port();
    }

    public String user() {
        return EmbeddedPostgreSql.USER;
    }

    public String password() {
        return EmbeddedPostgreSql.PASSWORD;
    }

    /** The URL both sinks and the ceiling get: the database, the variant's schema first on the search path. */
    public String url(String schema) {
        return "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + DATABASE + "?currentSchema=" + schema;
    }

    public Connection connect(String schema) throws SQLException {
        return DriverManager.getConnection(url(schema), user(), password());
    }

    /** A connection to the maintenance database: its statements do not count in {@value #DATABASE}'s counters. */
    public Connection connectMaintenance() throws SQLException {
        return pg.connect(null);
    }

    /** The sysbench table in PostgreSQL's DDL: the same columns, the index on k a statement of its own. */
    public static List<String> ddl(String table) {
        return List.of("CREATE TABLE " + table + " (id INT NOT NULL PRIMARY KEY, k INT NOT NULL DEFAULT 0,"
                        + " c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '')",
                "CREATE INDEX k_" + table + " ON " + table + " (k)");
    }

    /** Drops {@code schema} if it exists and creates it with {@code tables} in it, empty. */
    public void freshSchema(String schema, List<String> tables) throws SQLException {
        try (Connection c = connect(schema); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            s.execute("CREATE SCHEMA " + schema);
            s.execute("SET search_path TO " + schema);
            for (String t : tables) {
                for (String sql : ddl(t)) s.execute(sql);
            }
        }
    }

    public void dropSchema(String schema) throws SQLException {
        try (Connection c = connect("public"); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    /**
     * Waits until no client session is connected to {@value #DATABASE} (a session's counters reach
     * {@code pg_stat_database} when it ends), at most {@code millis}; false if some are still there.
     */
    public boolean awaitNoSessions(Connection maintenance, long millis) throws SQLException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (true) {
            long n;
            try (Statement s = maintenance.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = '" + DATABASE + "'"
                            + " AND backend_type = 'client backend'")) {
                rs.next();
                n = rs.getLong(1);
            }
            if (n == 0) return true;
            if (System.nanoTime() > deadline) return false;
            ConnectorControl.sleep(100);
        }
    }

    /** {@value #DATABASE}'s row of {@code pg_stat_database}, read through the maintenance database. */
    public Map<String, Long> counters(Connection maintenance) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Statement s = maintenance.createStatement()) {
            s.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet rs = s.executeQuery("SELECT " + String.join(", ", COUNTERS)
                    + " FROM pg_stat_database WHERE datname = '" + DATABASE + "'")) {
                rs.next();
                for (String k : COUNTERS) out.put(k, rs.getLong(k));
            }
        }
        return out;
    }

    /** Turns {@code log_statement = mod} on or off (server-wide; sessions pick it up at their next statement). */
    public void statementLog(boolean on) throws SQLException {
        pg.execute("ALTER SYSTEM SET log_statement = '" + (on ? "mod" : "none") + "'", "SELECT pg_reload_conf()");
        ConnectorControl.sleep(300);
    }

    /** The server log's size now: where a window's statements start. */
    public long logPosition() {
        try {
            return Files.size(log);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Statements the server executed, from its log. */
    public record StatementLog(long executes, long prepares, long named, long unnamed, long simple, long sessions) {
        static final StatementLog NONE = new StatementLog(0, 0, 0, 0, 0, 0);

        /** 1 - prepares / executes: the share of executions that ran an already prepared server-side statement. */
        public double reuse() {
            return executes == 0 ? Double.NaN : 1.0 - (double) prepares / executes;
        }
    }

    /** The whole window and its part from {@code mark} on (the steady state). */
    public record LogWindow(StatementLog whole, StatementLog fromMark) {
    }

    // "2026-11-24 22:40:01.123 UTC [12345] LOG:  execute S_3: INSERT ..." (extended protocol; <unnamed> when the
    // driver did not prepare it), "... LOG:  statement: CREATE ..." (simple protocol). log_parameter_max_length = 0:
    // no DETAIL lines with parameters.
    private static final Pattern LINE = Pattern.compile("\\[(\\d+)] LOG:  (?:execute (?:fetch from )?([^:/ ]+)[^:]*|statement): ");

    /**
     * Parses the log between {@code from} and {@code to} (byte positions): every execute is an execution; the first
     * execute of a named statement in its session, and every unnamed or simple-protocol one, a prepare (PgJDBC never
     * reuses a statement name in a session). {@code mark}: where the second part starts.
     */
    public LogWindow statements(long from, long mark, long to) throws IOException {
        if (to <= from) return new LogWindow(StatementLog.NONE, StatementLog.NONE);
        byte[] bytes = new byte[(int) (to - from)];
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            f.seek(from);
            f.readFully(bytes);
        }
        String text = new String(bytes, StandardCharsets.ISO_8859_1); // one char per byte: offsets stay byte offsets
        long[] whole = new long[5];
        long[] later = new long[5];
        Set<String> seen = new HashSet<>();
        Set<String> sessions = new HashSet<>();
        Set<String> laterSessions = new HashSet<>();
        int pos = 0;
        while (pos < text.length()) {
            int end = text.indexOf('\n', pos);
            if (end < 0) end = text.length();
            Matcher m = LINE.matcher(text.substring(pos, end));
            if (m.find()) {
                boolean afterMark = from + pos >= mark;
                String pid = m.group(1);
                String name = m.group(2);
                int kind; // 0 named, 1 unnamed, 2 simple
                boolean prepare;
                if (name == null) {
                    kind = 2;
                    prepare = true;
                } else if (name.equals("<unnamed>")) {
                    kind = 1;
                    prepare = true;
                } else {
                    kind = 0;
                    prepare = seen.add(pid + "/" + name);
                }
                sessions.add(pid);
                count(whole, kind, prepare);
                if (afterMark) {
                    laterSessions.add(pid);
                    count(later, kind, prepare);
                }
            }
            pos = end + 1;
        }
        return new LogWindow(log(whole, sessions.size()), log(later, laterSessions.size()));
    }

    private static void count(long[] c, int kind, boolean prepare) {
        c[0]++;
        if (prepare) c[1]++;
        c[2 + kind]++;
    }

    private static StatementLog log(long[] c, int sessions) {
        return new StatementLog(c[0], c[1], c[2], c[3], c[4], sessions);
    }

    @Override
    public void close() {
        pg.close();
    }
}
