package io.cdcconnect.bench.codec;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.avro.AvroEncoder;
import io.cdcconnect.codec.avro.AvroOptions;
import io.cdcconnect.codec.avro.HttpSchemaRegistryClient;
import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.open.OpenProtocolEncoder;
import io.cdcconnect.codec.open.OpenProtocolOptions;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Rows encoded per second on one thread, per protocol and row shape. One op = one row. Avro registers its schemas
 * with test-support's stand-in registry over HTTP; the encoder and its client cache the ids, so the registry is off
 * the hot path.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EncodeBenchmark {

    @Param({"canal-json", "open-protocol", "avro"})
    public String protocol;

    @Param({"wide", "sysbench"})
    public String row;

    private RowChange[] rows;
    private int next;
    private CanalJsonEncoder canal;
    private OpenProtocolEncoder open;
    private AvroEncoder avro;
    private StandInSchemaRegistry registry;

    @Setup
    public void setup() throws IOException {
        rows = BenchRows.changes(row, 1024, 7);
        canal = new CanalJsonEncoder(CanalJsonOptions.defaults());
        open = new OpenProtocolEncoder(OpenProtocolOptions.defaults());
        registry = StandInSchemaRegistry.start();
        avro = new AvroEncoder(AvroOptions.defaults(), new HttpSchemaRegistryClient(registry.url()));
    }

    @TearDown
    public void tearDown() {
        registry.close();
    }

    @Benchmark
    public void encode(Blackhole bh) {
        RowChange r = rows[next++ & 1023];
        switch (protocol) {
            case "canal-json" -> bh.consume(canal.encode(r));
            case "open-protocol" -> {
                List<EncodedMessage> closed = open.append(r); // a 16-row batch closes every 16th row
                bh.consume(closed);
            }
            default -> bh.consume(avro.encode("bench_topic", r));
        }
    }
}
