package io.cdcconnect.bench.codec;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.RowChange;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * On a shared, loaded machine wall-clock throughput of two benchmarks run one after the other mostly measures the
 * neighbours. This runs our streaming Canal-JSON encoder and the ObjectMapper-tree baseline in alternating slices of
 * ~20 ms on one thread and counts this thread's CPU time for each, so both see the same conditions; it prints rows
 * per CPU-second and their ratio.
 *
 * <p>Run: {@code java -cp <bench classpath> io.cdcconnect.bench.codec.InterleavedRatio [seconds]}
 */
public final class InterleavedRatio {

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (String which : new String[] {"wide", "sysbench"}) {
            RowChange[] rows = BenchRows.changes(which, 1024, 7);
            CanalJsonEncoder ours = new CanalJsonEncoder(CanalJsonOptions.defaults());
            TreeCanalJsonEncoder tree = new TreeCanalJsonEncoder();
            long sink = 0;
            // warm both up
            long warmEnd = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < warmEnd) {
                for (RowChange r : rows) sink += ours.encode(r).length + tree.encode(r).length;
            }
            long oursCpu = 0;
            long treeCpu = 0;
            long oursRows = 0;
            long treeRows = 0;
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int k = 0; k < 4; k++) {
                    for (RowChange r : rows) sink += ours.encode(r).length;
                }
                long t1 = mx.getCurrentThreadCpuTime();
                for (int k = 0; k < 4; k++) {
                    for (RowChange r : rows) sink += tree.encode(r).length;
                }
                long t2 = mx.getCurrentThreadCpuTime();
                oursCpu += t1 - t0;
                treeCpu += t2 - t1;
                oursRows += 4L * rows.length;
                treeRows += 4L * rows.length;
            }
            double a = oursRows / (oursCpu / 1e9);
            double b = treeRows / (treeCpu / 1e9);
            System.out.printf("%s row: streaming %.0f rows/CPU-s, ObjectMapper tree %.0f rows/CPU-s, ratio %.2fx (%d)%n",
                    which, a, b, a / b, sink % 10);
        }
    }
}
