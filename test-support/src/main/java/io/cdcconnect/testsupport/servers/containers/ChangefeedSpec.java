package io.cdcconnect.testsupport.servers.containers;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A TiCDC changefeed into Kafka, as {@code cdc cli changefeed create} takes it: the sink URI, a changefeed config file
 * (table filter, topic dispatcher) and, for Avro, the schema registry. Addresses are those seen from inside the
 * containers' network ({@code kafka-1:19092}, {@code http://schema-registry-1:8081}).
 *
 * <p>What this assumes of TiCDC v8.5 (tiflow's docs and {@code pkg/cmd/cli/cli_changefeed_create.go}): the sink URI
 * parameters {@code protocol}, {@code partition-num}, {@code replication-factor}, {@code max-message-bytes},
 * {@code enable-tidb-extension}; the CLI flags {@code --server}, {@code --sink-uri}, {@code --changefeed-id},
 * {@code --config}, {@code --no-confirm} and {@code --schema-registry} (Avro's registry is a flag of its own, not a sink
 * URI parameter); a TOML config with {@code [filter] rules} and {@code [sink] dispatchers = [{matcher, topic}]}.
 */
public record ChangefeedSpec(String id, String protocol, String kafkaBootstrap, String defaultTopic,
                             String topicExpression, List<String> filterRules, Map<String, String> sinkUriParams,
                             String schemaRegistry) {

    public static final Set<String> PROTOCOLS = Set.of("canal-json", "open-protocol", "avro");
    /** TiCDC's rule for changefeed ids. */
    private static final Pattern ID = Pattern.compile("^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$");
    /** TiCDC's rule for topic expressions ({@code pkg/config/sink.go}). */
    private static final Pattern TOPIC_EXPRESSION =
            Pattern.compile("^[A-Za-z0-9._\\-]*\\{schema}([A-Za-z0-9._\\-]*\\{table})?[A-Za-z0-9._\\-]*$");
    /** Where the config file is copied inside the TiCDC container. */
    public static final String CONFIG_DIR = "/tmp";

    public ChangefeedSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(kafkaBootstrap, "kafkaBootstrap");
        Objects.requireNonNull(defaultTopic, "defaultTopic");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("TiCDC changefeed ids are letters and digits joined by '-': " + id);
        }
        if (!PROTOCOLS.contains(protocol)) {
            throw new IllegalArgumentException("protocol must be one of " + PROTOCOLS + ", not " + protocol);
        }
        if (topicExpression != null && !TOPIC_EXPRESSION.matcher(topicExpression).matches()) {
            throw new IllegalArgumentException("TiCDC rejects the topic expression " + topicExpression);
        }
        filterRules = List.copyOf(filterRules);
        sinkUriParams = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sinkUriParams));
    }

    /** A changefeed of every table into {@code defaultTopic} on {@code kafkaBootstrap}, one partition each. */
    public static ChangefeedSpec of(String id, String protocol, String kafkaBootstrap, String defaultTopic) {
        return new ChangefeedSpec(id, protocol, kafkaBootstrap, defaultTopic, null, List.of("*.*"), Map.of(), null);
    }

    /** Each table to a topic of its own, e.g. {@code cdc.{schema}.{table}}. */
    public ChangefeedSpec topicPerTable(String expression) {
        return new ChangefeedSpec(id, protocol, kafkaBootstrap, defaultTopic, expression, filterRules, sinkUriParams,
                schemaRegistry);
    }

    /** Only the tables these filter rules match, e.g. {@code shop.*}. */
    public ChangefeedSpec tables(String... rules) {
        return new ChangefeedSpec(id, protocol, kafkaBootstrap, defaultTopic, topicExpression, List.of(rules),
                sinkUriParams, schemaRegistry);
    }

    /** One more sink URI parameter, e.g. {@code enable-tidb-extension=true}. */
    public ChangefeedSpec param(String name, String value) {
        Map<String, String> p = new LinkedHashMap<>(sinkUriParams);
        p.put(name, value);
        return new ChangefeedSpec(id, protocol, kafkaBootstrap, defaultTopic, topicExpression, filterRules, p,
                schemaRegistry);
    }

    /** The schema registry (URL inside the network) Avro needs. */
    public ChangefeedSpec schemaRegistry(String url) {
        return new ChangefeedSpec(id, protocol, kafkaBootstrap, defaultTopic, topicExpression, filterRules,
                sinkUriParams, url);
    }

    /** {@code kafka://<bootstrap>/<topic>?protocol=...&partition-num=1&replication-factor=1&max-message-bytes=1048576...} */
    public String sinkUri() {
        StringBuilder sb = new StringBuilder("kafka://").append(kafkaBootstrap).append('/').append(defaultTopic)
                .append("?protocol=").append(protocol)
                .append("&partition-num=1&replication-factor=1&max-message-bytes=1048576");
        sinkUriParams.forEach((k, v) -> sb.append('&').append(k).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return sb.toString();
    }

    /** The changefeed config file (TOML). */
    public String configToml() {
        StringBuilder sb = new StringBuilder("[filter]\nrules = [");
        for (int i = 0; i < filterRules.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(tomlString(filterRules.get(i)));
        }
        sb.append("]\n");
        if (topicExpression != null) {
            sb.append("\n[sink]\ndispatchers = [\n  {matcher = ['*.*'], topic = ").append(tomlString(topicExpression))
                    .append("},\n]\n");
        }
        return sb.toString();
    }

    /** Path of the config file inside the TiCDC container. */
    public String configPath() {
        return CONFIG_DIR + "/changefeed-" + id + ".toml";
    }

    /** The command run inside the TiCDC container (TiCDC's API at 127.0.0.1:8300 there). */
    public List<String> createCommand() {
        if (protocol.equals("avro") && schemaRegistry == null) {
            throw new IllegalStateException("an avro changefeed needs a schema registry (schemaRegistry(url))");
        }
        List<String> cmd = new ArrayList<>(List.of("/cdc", "cli", "changefeed", "create",
                "--server=http://127.0.0.1:" + ServerArgs.TICDC_PORT, "--sink-uri=" + sinkUri(),
                "--changefeed-id=" + id, "--config=" + configPath(), "--no-confirm"));
        if (schemaRegistry != null) cmd.add("--schema-registry=" + schemaRegistry);
        return cmd;
    }

    /** {@code cdc cli changefeed remove} for this changefeed. */
    public List<String> removeCommand() {
        return List.of("/cdc", "cli", "changefeed", "remove", "--server=http://127.0.0.1:" + ServerArgs.TICDC_PORT,
                "--changefeed-id=" + id);
    }

    private static String tomlString(String s) {
        if (s.indexOf('\'') >= 0 || s.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("not representable as a TOML literal string: " + s);
        }
        return "'" + s + "'";
    }
}
