package io.cdcconnect.bench.codec;

import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.RowChange;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/** Our streaming Canal-JSON encoder against an ObjectMapper-tree encoder of the same messages. One op = one row. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CanalBaselineBenchmark {

    @Param({"wide", "sysbench"})
    public String row;

    private RowChange[] rows;
    private int next;
    private CanalJsonEncoder ours;
    private TreeCanalJsonEncoder tree;

    @Setup
    public void setup() {
        rows = BenchRows.changes(row, 1024, 7);
        ours = new CanalJsonEncoder(CanalJsonOptions.defaults());
        tree = new TreeCanalJsonEncoder();
    }

    @Benchmark
    public byte[] streaming() {
        return ours.encode(rows[next++ & 1023]);
    }

    @Benchmark
    public byte[] objectMapperTree() throws Exception {
        return tree.encode(rows[next++ & 1023]);
    }
}
