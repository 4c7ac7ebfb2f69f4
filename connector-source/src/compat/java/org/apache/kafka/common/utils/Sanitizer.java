package org.apache.kafka.common.utils;

import javax.management.ObjectName;
import java.util.regex.Pattern;

/**
 * A stand-in for the class Kafka 4.4 moved to {@code org.apache.kafka.common.utils.internals}: Debezium (through
 * 3.5.0.Final, the newest the source can use) names its JMX MBeans with {@code Sanitizer.jmxSanitize} from this
 * package (in {@code io.debezium.metrics.Metrics} and {@code io.debezium.pipeline.JmxUtils}), and on a Kafka 4.4
 * worker the source task's {@code start} failed with {@code NoClassDefFoundError: org/apache/kafka/common/utils/Sanitizer}
 * (WorkerVersionMatrixTest). Compiled apart from the connector and packed alone into the source archive's {@code lib/}
 * ({@code cdc-connect-kafka-compat-<version>.jar}), never on any build classpath.
 *
 * <p>A worker loads {@code org.apache.kafka.*} classes parent first: where the worker has this class (Kafka up to 4.3)
 * its own is used and this one never loads; only where the worker lacks it does the plugin's class loader fall back to
 * this copy. It does what Debezium asks of it and nothing more: a JMX key property value kept as it is when JMX accepts
 * it unquoted, quoted otherwise.
 */
public final class Sanitizer {
    /** The characters a JMX key property value may hold unquoted, as Kafka's own JMX names accept them. */
    private static final Pattern PLAIN = Pattern.compile("[\\w.%\\- \\t]*");

    private Sanitizer() {
    }

    /** {@code name} as a JMX key property value: unchanged if it needs no quoting, else {@link ObjectName#quote}. */
    public static String jmxSanitize(String name) {
        return PLAIN.matcher(name).matches() ? name : ObjectName.quote(name);
    }
}
