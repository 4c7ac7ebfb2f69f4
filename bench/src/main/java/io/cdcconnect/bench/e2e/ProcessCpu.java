package io.cdcconnect.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's CPU time from Linux's {@code /proc/<pid>/stat} (fields 14 and 15, utime and stime, in clock ticks; all
 * its threads): the benchmark's "CPU-seconds per million applied rows" of the worker and of the database.
 */
final class ProcessCpu {

    /** {@code getconf CLK_TCK}; 100 on every Linux this runs on (read once, 100 if it cannot be read). */
    private static final double TICKS = ticks();

    private ProcessCpu() {
    }

    /** CPU-seconds used so far by {@code pid}; NaN if it cannot be read (gone, or not Linux). */
    static double seconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) is in parentheses and may hold spaces: count fields after its ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // f[0] is field 3 (state): utime is field 14, stime 15
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** One thread: its name now (Linux keeps its first 15 bytes) and its CPU-seconds so far. */
    record Thread(String name, double seconds) {
    }

    /**
     * {@code pid}'s threads by thread id ({@code /proc/<pid>/task/<tid>/stat}); empty if it cannot be read. A thread
     * that ended before the read is not in it (the process total still counts it).
     */
    static java.util.Map<Long, Thread> threads(long pid) {
        java.util.Map<Long, Thread> out = new java.util.HashMap<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out.put(Long.parseLong(t.getFileName().toString()),
                            new Thread(name, (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException e) {
            return java.util.Map.of();
        }
        return out;
    }

    /**
     * The CPU-seconds each thread used between two reads ({@link #threads}), by thread id (a thread is counted under
     * the name it has at the end: Connect renames its pooled threads as they change jobs), summed by name with digits
     * folded ({@code C2 CompilerThre0} and {@code 1} are {@code C# CompilerThre#}).
     */
    static java.util.Map<String, Double> byName(java.util.Map<Long, Thread> before, java.util.Map<Long, Thread> after) {
        java.util.Map<String, Double> out = new java.util.TreeMap<>();
        after.forEach((tid, t) -> {
            Thread b = before.get(tid);
            double used = t.seconds() - (b == null ? 0 : b.seconds());
            if (used > 0) out.merge(t.name().replaceAll("[0-9]", "#"), used, Double::sum);
        });
        return out;
    }

    private static double ticks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            p.waitFor();
            return Double.parseDouble(out);
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            java.lang.Thread.currentThread().interrupt();
            return 100;
        }
    }
}
