package io.cdcconnect.source;

import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * When the source is exactly-once under Connect's KIP-618 (a worker with {@code exactly.once.source.support=enabled}):
 * which of Connect's transaction boundaries keep it so, and what validation says otherwise.
 *
 * <p>Every record carries Debezium's offset of the last event it and the records before it complete (see
 * {@code CdcSourceTask.toRecords}), and Debezium's binlog offsets mean "resume after this event, row" (its {@code
 * event} and {@code row} counters within a binlog transaction). A poll's last record therefore claims exactly what the
 * poll read: a transaction that ends where a poll ends commits an offset from which a restart re-emits exactly what
 * follows. Inside a poll that is not so: a batch (Open-protocol) or the encoder group may put a later row before an
 * earlier one of another partition, and one binlog event can become several messages (an update that moves its key
 * between partitions, a DDL copy per partition), which one Debezium offset covers together. Hence:
 * <ul>
 *   <li>{@code transaction.boundary=poll} (Connect's default): supported;</li>
 *   <li>{@code transaction.boundary=connector}: supported; the task asks for a commit at the last record of each poll,
 *       and a poll cut short by a stop is then never committed in part;</li>
 *   <li>{@code transaction.boundary=interval}: not supported (a commit can fall inside a poll).</li>
 * </ul>
 * Snapshots are outside this guarantee by Debezium's design: a snapshot interrupted before its end is read again from
 * the start (a new snapshot, not a redelivery; docs/reliability.md).
 */
public final class ExactlyOnce {
    /** Connect's source connector settings (KIP-618), read here and nowhere else in the source. */
    public static final String SUPPORT_CONFIG = "exactly.once.support";
    public static final String TRANSACTION_BOUNDARY_CONFIG = "transaction.boundary";

    private ExactlyOnce() {
    }

    /** The transaction boundary Connect will use for {@code config} (its default is poll). */
    static String boundary(Map<String, String> config) {
        String b = config.get(TRANSACTION_BOUNDARY_CONFIG);
        return b == null || b.isBlank() ? "poll" : b.trim().toLowerCase(Locale.ROOT);
    }

    /** SUPPORTED unless a transaction could end inside a poll. */
    public static ExactlyOnceSupport support(Map<String, String> config) {
        return boundary(config).equals("interval") ? ExactlyOnceSupport.UNSUPPORTED : ExactlyOnceSupport.SUPPORTED;
    }

    /** The task can say where transactions end: at the end of each poll. */
    public static ConnectorTransactionBoundaries boundaries(Map<String, String> config) {
        return ConnectorTransactionBoundaries.SUPPORTED;
    }

    /**
     * The problem to report under {@code transaction.boundary} when {@code exactly.once.support=required} asks for
     * what this configuration cannot give (Connect's own message only says "not supported with the provided
     * configuration").
     */
    public static Optional<String> problem(Map<String, String> config) {
        String level = config.getOrDefault(SUPPORT_CONFIG, "");
        if (!level.trim().equalsIgnoreCase("required") || support(config) == ExactlyOnceSupport.SUPPORTED) {
            return Optional.empty();
        }
        return Optional.of(TRANSACTION_BOUNDARY_CONFIG + "=" + boundary(config) + " can commit a transaction inside "
                + "one poll of the source, whose records carry Debezium offsets that are exact only at the poll's end "
                + "(a restart would send some messages again): with " + SUPPORT_CONFIG + "=required use "
                + TRANSACTION_BOUNDARY_CONFIG + "=poll (the default) or connector");
    }
}
