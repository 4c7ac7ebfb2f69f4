package io.cdcconnect.bench.codec;

import io.cdcconnect.codec.EncodedMessage;
import io.cdcconnect.codec.avro.AvroDecoder;
import io.cdcconnect.codec.avro.AvroEncoder;
import io.cdcconnect.codec.avro.AvroMessage;
import io.cdcconnect.codec.avro.AvroOptions;
import io.cdcconnect.codec.avro.HttpSchemaRegistryClient;
import io.cdcconnect.codec.canal.CanalJsonDecoder;
import io.cdcconnect.codec.canal.CanalJsonEncoder;
import io.cdcconnect.codec.canal.CanalJsonOptions;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.open.OpenProtocolDecoder;
import io.cdcconnect.codec.open.OpenProtocolEncoder;
import io.cdcconnect.codec.open.OpenProtocolOptions;
import io.cdcconnect.testsupport.registry.StandInSchemaRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Rows decoded per second on one thread. Every message is decoded in full into model rows. Canal-JSON and Avro
 * carry one row per message; Open-protocol 16 (its default batch), so each invocation decodes 16 messages of each
 * kind's worth of rows: one op = one row throughout. Avro's schemas are registered with test-support's stand-in
 * registry over HTTP during setup; the decoder's client fetches each writer schema once and caches it, so the
 * registry is off the hot path.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DecodeBenchmark {

    private static final int ROWS_PER_OP = 16;

    @Param({"canal-json", "open-protocol", "avro"})
    public String protocol;

    @Param({"wide", "sysbench"})
    public String row;

    private final List<byte[][]> messages = new ArrayList<>();
    private int next;
    private CanalJsonDecoder canal;
    private OpenProtocolDecoder open;
    private AvroDecoder avro;
    private StandInSchemaRegistry registry;

    @Setup
    public void setup() throws IOException {
        RowChange[] rows = BenchRows.changes(row, 1024, 11);
        registry = StandInSchemaRegistry.start();
        switch (protocol) {
            case "canal-json" -> {
                CanalJsonEncoder enc = new CanalJsonEncoder(CanalJsonOptions.defaults());
                for (RowChange r : rows) messages.add(new byte[][] {null, enc.encode(r)});
            }
            case "open-protocol" -> {
                OpenProtocolEncoder enc = new OpenProtocolEncoder(OpenProtocolOptions.defaults());
                for (RowChange r : rows) {
                    for (EncodedMessage m : enc.append(r)) messages.add(new byte[][] {m.key(), m.value()});
                }
            }
            default -> {
                AvroEncoder enc = new AvroEncoder(AvroOptions.defaults(), new HttpSchemaRegistryClient(registry.url()));
                for (RowChange r : rows) {
                    AvroMessage m = enc.encode("bench_topic", r);
                    messages.add(new byte[][] {m.key(), m.value()});
                }
            }
        }
        canal = new CanalJsonDecoder();
        open = new OpenProtocolDecoder();
        avro = new AvroDecoder(new HttpSchemaRegistryClient(registry.url()));
    }

    @TearDown
    public void tearDown() {
        registry.close();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS_PER_OP)
    public void decode(Blackhole bh) {
        if (protocol.equals("open-protocol")) {
            byte[][] m = messages.get(next++ % messages.size());
            bh.consume(open.decode(m[0], m[1])); // 16 rows
            return;
        }
        for (int i = 0; i < ROWS_PER_OP; i++) {
            byte[][] m = messages.get(next++ & 1023);
            if (protocol.equals("canal-json")) bh.consume(canal.decode(m[1]));
            else bh.consume(avro.decode(m[0], m[1]));
        }
    }
}
