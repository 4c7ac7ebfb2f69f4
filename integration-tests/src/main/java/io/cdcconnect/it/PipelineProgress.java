package io.cdcconnect.it;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Reads the pipeline's progress from Kafka itself: messages the source has written to its topics (end offsets) and
 * messages the sink has committed downstream (its consumer group's offsets, which it reports only after the rows are
 * committed in the target). Lag is the difference.
 */
public final class PipelineProgress implements AutoCloseable {

    /** One reading. */
    public record Snapshot(long captured, long applied) {
        public long lag() {
            return Math.max(0, captured - applied);
        }
    }

    private final Admin admin;
    private final Pattern topics;
    private final String sinkGroup;

    public PipelineProgress(String bootstrapServers, Pattern topics, String sinkConnectorName) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        this.topics = topics;
        this.sinkGroup = "connect-" + sinkConnectorName;
    }

    public Snapshot read() {
        try {
            Set<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            for (var d : admin.describeTopics(names.stream().filter(n -> topics.matcher(n).matches()).toList())
                    .allTopicNames().get(10, TimeUnit.SECONDS).values()) {
                d.partitions().forEach(p -> request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
            }
            long captured = 0;
            if (!request.isEmpty()) {
                for (ListOffsetsResult.ListOffsetsResultInfo info : admin.listOffsets(request).all()
                        .get(10, TimeUnit.SECONDS).values()) {
                    captured += info.offset();
                }
            }
            long applied = 0;
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(sinkGroup)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            for (var e : committed.entrySet()) {
                if (e.getValue() != null && topics.matcher(e.getKey().topic()).matches()) applied += e.getValue().offset();
            }
            return new Snapshot(captured, applied);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read progress from Kafka: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
