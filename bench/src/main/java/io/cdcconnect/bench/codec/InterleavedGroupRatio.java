package io.cdcconnect.bench.codec;

import io.cdcconnect.codec.EventEncoders;
import io.cdcconnect.codec.group.EncoderGroup;
import io.cdcconnect.codec.group.EncoderGroupConfig;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The encoder group with 1 and with 2 threads, measured side by side: on this virtual machine the speed of a core
 * drifts by a third between runs a minute apart, so two JMH runs one after the other mostly compare the machine's
 * moods. Here both groups exist at once (the idle one's threads are parked) and take turns of ~50 ms: each turn
 * submits the same batches as {@code EncoderGroupBenchmark} (32 tasks of 64 wide rows over 4 partitions, Canal-JSON)
 * and takes them back in order; wall-clock time is summed per group. Prints rows per second of each and their
 * ratio.
 *
 * <p>Run: {@code mvn -B -q -Pbench -pl bench -am -DskipTests package exec:exec
 * -Dbench.main=io.cdcconnect.bench.codec.InterleavedGroupRatio -Djmh.args=30} (seconds of measurement).
 */
public final class InterleavedGroupRatio {

    private static final int TASK_ROWS = 64;
    private static final int TASKS = 32;

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        RowChange[] rows = BenchRows.changes("wide", TASK_ROWS * TASKS, 3);
        List<List<ChangeEvent>> tasks = new ArrayList<>();
        for (int t = 0; t < TASKS; t++) {
            tasks.add(new ArrayList<>(Arrays.asList(rows).subList(t * TASK_ROWS, (t + 1) * TASK_ROWS)));
        }
        try (EncoderGroup<Void> one = group(1); EncoderGroup<Void> two = group(2)) {
            long warmEnd = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < warmEnd) {
                batch(one, tasks);
                batch(two, tasks);
            }
            com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            long[] cpu = new long[2];
            long[] nanos = new long[2];
            long[] done = new long[2];
            long[] stat0 = cpuStat();
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                for (int g = 0; g < 2; g++) {
                    EncoderGroup<Void> group = g == 0 ? one : two;
                    long t0 = System.nanoTime();
                    long c0 = os.getProcessCpuTime();
                    do {
                        batch(group, tasks);
                        done[g] += TASK_ROWS * TASKS;
                    } while (System.nanoTime() - t0 < 50_000_000L);
                    nanos[g] += System.nanoTime() - t0;
                    cpu[g] += os.getProcessCpuTime() - c0;
                }
            }
            long[] stat1 = cpuStat();
            double r1 = done[0] / (nanos[0] / 1e9);
            double r2 = done[1] / (nanos[1] / 1e9);
            System.out.printf("encoder group, wide rows, canal-json: 1 thread %.0f rows/s, 2 threads %.0f rows/s,"
                    + " ratio %.2fx (%d s each); CPU per row %.2f and %.2f us, cores busy %.2f and %.2f%n", r1, r2,
                    r2 / r1, Math.round(nanos[0] / 1e9), cpu[0] / 1e3 / done[0], cpu[1] / 1e3 / done[1],
                    (double) cpu[0] / nanos[0], (double) cpu[1] / nanos[1]);
            if (stat0 != null && stat1 != null) {
                long total = 0;
                for (int i = 0; i < stat0.length; i++) total += stat1[i] - stat0[i];
                // fields: user nice system idle iowait irq softirq steal ...
                System.out.printf("machine during the measurement: %.1f%% idle, %.1f%% stolen by the hypervisor%n",
                        100.0 * (stat1[3] - stat0[3]) / total, 100.0 * (stat1[7] - stat0[7]) / total);
            }
        }
    }

    /** The aggregate "cpu" line of /proc/stat (Linux), or null elsewhere. */
    private static long[] cpuStat() {
        try {
            String line = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0);
            String[] f = line.trim().split("\\s+");
            long[] v = new long[f.length - 1];
            for (int i = 1; i < f.length; i++) v[i - 1] = Long.parseLong(f[i]);
            return v.length >= 8 ? v : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    private static EncoderGroup<Void> group(int threads) {
        return new EncoderGroup<>(new EncoderGroupConfig(threads, 256L << 20),
                () -> EventEncoders.create(EventEncoders.CANAL_JSON, Map.of()));
    }

    private static void batch(EncoderGroup<Void> group, List<List<ChangeEvent>> tasks) throws InterruptedException {
        for (int t = 0; t < TASKS; t++) {
            group.submit("bench", t % 4, tasks.get(t), null);
        }
        for (int t = 0; t < TASKS; t++) {
            if (group.take() == null) throw new IllegalStateException("missing result");
        }
    }
}
