package io.cdcconnect.bench.latency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the probe table's topic (Canal-JSON, one row per message) and records each probe's broker append time: the
 * topic is created with {@code message.timestamp.type=LogAppendTime}, so a record's timestamp is when the broker
 * appended it, whatever the producer set. That moment splits a probe's lag into the source side (commit → append:
 * binlog read, conversion, encoding, the task's poll batching, the producer's linger and send) and the sink side
 * (append → visible: consumer fetch, put(), buffering, apply and commit). Records of any other timestamp type are
 * counted and not used.
 */
final class AppendTimeReader implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ProbeLedger ledger;
    private final Thread thread;
    private final AtomicLong read = new AtomicLong();
    private final AtomicLong otherTimestampType = new AtomicLong();
    private final AtomicLong unreadable = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private volatile boolean stopping;

    AppendTimeReader(String bootstrapServers, String topic, ProbeLedger ledger) {
        this.ledger = ledger;
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        TopicPartition p = new TopicPartition(topic, 0);
        consumer.assign(List.of(p));
        consumer.seekToBeginning(List.of(p));
        thread = new Thread(this::run, "append-time-reader");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (!stopping) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    if (r.value() == null) continue;
                    long seq = seq(r.value());
                    if (seq < 0) {
                        unreadable.incrementAndGet();
                        continue;
                    }
                    read.incrementAndGet();
                    if (r.timestampType() != TimestampType.LOG_APPEND_TIME) {
                        otherTimestampType.incrementAndGet();
                        continue;
                    }
                    ledger.appended(seq, r.timestamp() * 1000L);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            failure.set(e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** {@code data[0].seq} of a Canal-JSON row message; -1 for a DDL or anything else. */
    private static long seq(byte[] value) {
        try {
            JsonNode seq = JSON.readTree(value).path("data").path(0).path("seq");
            return seq.isMissingNode() || seq.isNull() ? -1 : seq.asLong(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Probe messages read so far. */
    long read() {
        return read.get();
    }

    /** Probe messages whose timestamp was not the broker's append time (the topic was not created as intended). */
    long otherTimestampType() {
        return otherTimestampType.get();
    }

    /** Messages of the probe topic that carried no probe row (DDL). */
    long unreadable() {
        return unreadable.get();
    }

    void check() {
        Exception e = failure.get();
        if (e != null) throw new IllegalStateException("the append-time reader failed: " + e, e);
    }

    @Override
    public void close() throws InterruptedException {
        stopping = true;
        consumer.wakeup();
        thread.join(10_000);
    }
}
