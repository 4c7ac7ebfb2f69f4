package io.cdcconnect.bench.codec;

import io.cdcconnect.codec.EventEncoders;
import io.cdcconnect.codec.group.EncoderGroup;
import io.cdcconnect.codec.group.EncoderGroupConfig;
import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The encoder group on wide rows in Canal-JSON: one op = one row, submitted in tasks of 64 rows over 4 partitions
 * and taken back in order by the benchmark thread. Compare threads=1 with threads=2.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EncoderGroupBenchmark {

    private static final int TASK_ROWS = 64;
    private static final int TASKS = 32;

    @Param({"1", "2"})
    public int threads;

    @Param({"canal-json"})
    public String protocol;

    private List<List<ChangeEvent>> tasks;
    private EncoderGroup<Void> group;

    @Setup(Level.Trial)
    public void setup() {
        RowChange[] rows = BenchRows.changes("wide", TASK_ROWS * TASKS, 3);
        tasks = new ArrayList<>();
        for (int t = 0; t < TASKS; t++) {
            tasks.add(new ArrayList<>(Arrays.asList(rows).subList(t * TASK_ROWS, (t + 1) * TASK_ROWS)));
        }
        group = new EncoderGroup<>(new EncoderGroupConfig(threads, 256L << 20),
                () -> EventEncoders.create(protocol, Map.of()));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        group.close();
    }

    @Benchmark
    @OperationsPerInvocation(TASK_ROWS * TASKS)
    public void encodeInOrder(Blackhole bh) throws InterruptedException {
        for (int t = 0; t < TASKS; t++) {
            group.submit("bench", t % 4, tasks.get(t), null);
        }
        for (int t = 0; t < TASKS; t++) {
            bh.consume(group.take());
        }
    }
}
