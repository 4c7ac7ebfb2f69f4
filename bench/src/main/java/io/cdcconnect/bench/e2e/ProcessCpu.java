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

    private static double ticks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            p.waitFor();
            return Double.parseDouble(out);
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
