package io.cdcconnect.bench.e2e;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The target server's own counters ({@code SHOW GLOBAL STATUS}) around one variant, and the peak of
 * {@code Prepared_stmt_count} sampled while it runs. MariaDB has no {@code Com_query}: {@code Questions} counts the
 * statements clients sent (text queries and {@code COM_STMT_EXECUTE}s alike).
 *
 * <p>The statements this class sends count too; {@link Delta#questions()} removes them.
 */
public final class ServerCounters implements AutoCloseable {

    public static final List<String> COUNTERS = List.of("Questions", "Com_stmt_prepare", "Com_stmt_execute",
            "Com_stmt_close", "Com_insert", "Com_update", "Com_delete", "Com_commit", "Com_select");

    private final Connection connection;
    private final long sampleMillis;
    private final AtomicLong peak = new AtomicLong();
    private final AtomicLong ownStatements = new AtomicLong();
    private volatile boolean sampling;
    private Thread sampler;
    private volatile SQLException samplerError;

    public ServerCounters(Connection connection, long sampleMillis) {
        this.connection = connection;
        this.sampleMillis = sampleMillis;
    }

    /** Counters of one variant: after minus before. */
    public record Delta(Map<String, Long> counters, long peakPreparedStatements, long ownStatements,
                        Map<String, Long> secondHalf, Map<String, Double> cpuSeconds,
                        Map<String, Map<String, Double>> threadCpuSeconds) {
        /**
         * CPU-seconds of the process watched as {@code name} over the window, by group of threads
         * ({@link ProcessCpu#threads}), largest first; empty when it cannot be told.
         */
        public Map<String, Double> threads(String name) {
            return threadCpuSeconds.getOrDefault(name, Map.of());
        }

        /** CPU-seconds (user + system, all threads) of the process watched as {@code name} over the window. */
        public double cpu(String name) {
            return cpuSeconds.getOrDefault(name, Double.NaN);
        }

        public long get(String name) {
            return counters.getOrDefault(name, 0L);
        }

        /** Reuse over the second half of the window ({@link #mark()} to the end): the steady state. */
        public double steadyReuse() {
            if (secondHalf == null) return Double.NaN;
            long exec = secondHalf.getOrDefault("Com_stmt_execute", 0L);
            return exec == 0 ? Double.NaN : 1.0 - (double) secondHalf.getOrDefault("Com_stmt_prepare", 0L) / exec;
        }

        public long secondHalf(String name) {
            return secondHalf == null ? 0 : secondHalf.getOrDefault(name, 0L);
        }

        /** Questions without this class's own status reads. */
        public long questions() {
            return get("Questions") - ownStatements;
        }

        /** Share of statement executions that ran an already-prepared statement: 1 - prepares / executes. */
        public double reuse() {
            long exec = get("Com_stmt_execute");
            return exec == 0 ? Double.NaN : 1.0 - (double) get("Com_stmt_prepare") / exec;
        }
    }

    private Map<String, Long> before;
    private Map<String, Long> mid;
    /** Processes whose CPU time each window measures, by name ("worker", "database"): a supplier of their pids. */
    private final Map<String, java.util.function.Supplier<List<Long>>> watched = new LinkedHashMap<>();
    private Map<String, Double> cpuBefore = Map.of();
    private Map<String, Map<Long, ProcessCpu.Thread>> threadsBefore = Map.of();

    /**
     * Measures the CPU time of the processes {@code pids} names (read at each {@link #start()} and {@link #stop()},
     * so a worker restarted between windows is followed) in every window as {@code name}.
     */
    public void watchCpu(String name, java.util.function.Supplier<List<Long>> pids) {
        watched.put(name, pids);
    }

    private Map<String, Map<Long, ProcessCpu.Thread>> threadsNow() {
        Map<String, Map<Long, ProcessCpu.Thread>> out = new LinkedHashMap<>();
        for (Map.Entry<String, java.util.function.Supplier<List<Long>>> e : watched.entrySet()) {
            Map<Long, ProcessCpu.Thread> all = new java.util.HashMap<>();
            for (long pid : e.getValue().get()) all.putAll(ProcessCpu.threads(pid));
            out.put(e.getKey(), all);
        }
        return out;
    }

    private Map<String, Double> cpuNow() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, java.util.function.Supplier<List<Long>>> e : watched.entrySet()) {
            double sum = 0;
            for (long pid : e.getValue().get()) sum += ProcessCpu.seconds(pid);
            out.put(e.getKey(), sum);
        }
        return out;
    }

    /** Reads the counters mid-window: {@link Delta#secondHalf()} is measured from here. */
    public void mark() throws SQLException {
        mid = read();
    }

    /** Reads the counters and starts sampling {@code Prepared_stmt_count}. */
    public void start() throws SQLException {
        mid = null;
        cpuBefore = cpuNow();
        threadsBefore = threadsNow();
        before = read();
        // Questions counts the statement that reads it: the read of "before" is in "before", not in the window.
        ownStatements.set(0);
        peak.set(preparedNow());
        sampling = true;
        samplerError = null;
        sampler = new Thread(this::sample, "bench-prepared-stmt-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Stops sampling and returns the counters' change since {@link #start()}. */
    public Delta stop() throws SQLException {
        sampling = false;
        try {
            sampler.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (samplerError != null) throw samplerError;
        peak.accumulateAndGet(preparedNow(), Math::max);
        Map<String, Long> after = read();
        Map<String, Long> delta = new LinkedHashMap<>();
        for (String k : COUNTERS) delta.put(k, after.getOrDefault(k, 0L) - before.getOrDefault(k, 0L));
        Map<String, Long> second = null;
        if (mid != null) {
            second = new LinkedHashMap<>();
            for (String k : COUNTERS) second.put(k, after.getOrDefault(k, 0L) - mid.getOrDefault(k, 0L));
        }
        Map<String, Double> cpuAfter = cpuNow();
        Map<String, Double> cpu = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : cpuAfter.entrySet()) {
            Double b = cpuBefore.get(e.getKey());
            // a process that is not the one measured at start (a restarted worker) has no window of its own
            cpu.put(e.getKey(), b == null || e.getValue() < b ? Double.NaN : e.getValue() - b);
        }
        Map<String, Map<String, Double>> threads = new LinkedHashMap<>();
        threadsNow().forEach((name, after2) -> {
            // a thread that did not exist at the start counts whole (threads started by the run)
            List<Map.Entry<String, Double>> d = new java.util.ArrayList<>(
                    ProcessCpu.byName(threadsBefore.getOrDefault(name, Map.of()), after2).entrySet());
            d.sort(Map.Entry.<String, Double>comparingByValue().reversed());
            Map<String, Double> ordered = new LinkedHashMap<>();
            for (Map.Entry<String, Double> x : d) if (x.getValue() > 0.005) ordered.put(x.getKey(), x.getValue());
            threads.put(name, ordered);
        });
        return new Delta(delta, peak.get(), ownStatements.get(), second, cpu, threads);
    }

    /** Stops sampling without reading anything (after a failed variant). */
    public void abort() {
        sampling = false;
        Thread t = sampler;
        if (t != null) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Counts statements the benchmark itself sent to the server on another connection during the window. */
    public void addOwn(long statements) {
        ownStatements.addAndGet(statements);
    }

    public long preparedNow() throws SQLException {
        return status("SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'").getOrDefault("Prepared_stmt_count", 0L);
    }

    private void sample() {
        while (sampling) {
            try {
                peak.accumulateAndGet(preparedNow(), Math::max);
                Thread.sleep(sampleMillis);
            } catch (SQLException e) {
                samplerError = e;
                return;
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private Map<String, Long> read() throws SQLException {
        StringBuilder in = new StringBuilder();
        for (String k : COUNTERS) in.append(in.length() == 0 ? "'" : ",'").append(k).append('\'');
        return status("SHOW GLOBAL STATUS WHERE Variable_name IN (" + in + ")");
    }

    private Map<String, Long> status(String sql) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        synchronized (connection) {
            ownStatements.incrementAndGet();
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) out.put(rs.getString(1), Long.parseLong(rs.getString(2)));
            }
        }
        return out;
    }

    /** The server's {@code max_prepared_stmt_count}. */
    public long maxPreparedStatements() throws SQLException {
        synchronized (connection) {
            try (Statement s = connection.createStatement();
                 ResultSet rs = s.executeQuery("SELECT @@GLOBAL.max_prepared_stmt_count")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        sampling = false;
        connection.close();
    }
}
