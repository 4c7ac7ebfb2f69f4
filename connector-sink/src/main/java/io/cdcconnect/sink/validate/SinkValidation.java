package io.cdcconnect.sink.validate;

import io.cdcconnect.codec.CodecOptions;
import io.cdcconnect.codec.Compression;
import io.cdcconnect.codec.ConverterRules;
import io.cdcconnect.sink.config.SinkConfig;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The sink's answer to Connect's {@code validate}: each setting on its own (the ConfigDef: types, validators,
 * recommended values, visibility), then the rules that span settings ({@link ConfigRules}) and the converters the
 * configuration names ({@link #converters}), then, once the connection
 * settings are sound, the target itself ({@link TargetCheck}). Every finding goes on the setting it concerns.
 */
public final class SinkValidation {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SinkValidation.class);

    /** What the live check needs sound before it can run. */
    private static final Set<String> CONNECTION = Set.of(SinkConfig.CONNECTION_URL, SinkConfig.CONNECTION_USER,
            SinkConfig.CONNECTION_PASSWORD, SinkConfig.DIALECT, SinkConfig.SCHEMA_MAP,
            SinkConfig.DDL_APPLY, SinkConfig.DDL_CHECKPOINT_DATABASE);

    private SinkValidation() {
    }

    public static Config validate(Map<String, String> props) {
        List<ConfigValue> values = SinkConfigDef.configDef().validate(props);
        Map<String, ConfigValue> byName = new HashMap<>();
        for (ConfigValue v : values) byName.put(v.name(), v);
        // settings that are wrong on their own fall back to their defaults for the rules, and get no second error
        Map<String, String> sound = new HashMap<>(props);
        for (ConfigValue v : values) {
            if (!v.errorMessages().isEmpty()) sound.remove(v.name());
        }
        // the rules that span tasks see tasks.max as each task will (task.count)
        sound.put(SinkConfig.TASK_COUNT, Integer.toString(tasks(props)));
        // the settings of Confluent's and Debezium's JDBC sinks, refused naming ours; unknown settings only warned
        // about (Connect's validation has no warnings: logged, as transforms are, below)
        List<ConfigProblem> jdbcSink = JdbcSinkSettings.refusals(props);
        for (ConfigProblem w : JdbcSinkSettings.warnings("sink " + props.getOrDefault("name", "(validation)"), props)) {
            LOG.warn(w.message());
        }
        String metadata = topicPatternWarning("sink " + props.getOrDefault("name", "(validation)"), props);
        if (metadata != null) LOG.warn(metadata);
        SinkConfig config;
        try {
            config = SinkConfigDef.withoutRules(sound);
        } catch (ConfigException e) {
            // a required setting is missing or wrong: already reported on it
            return report(jdbcSink, props, sound, byName, values);
        }
        List<ConfigProblem> problems = concat(ConfigRules.check(config), converters(config, props));
        boolean live = problems.stream().noneMatch(p -> CONNECTION.contains(p.setting()))
                && CONNECTION.stream().allMatch(n -> byName.get(n) == null || byName.get(n).errorMessages().isEmpty());
        if (live) problems = concat(problems, TargetCheck.check(config, tasks(props)));
        return report(concat(problems, jdbcSink), props, sound, byName, values);
    }

    /** Each problem as an error on its setting (a setting wrong on its own keeps only its own error). */
    private static Config report(List<ConfigProblem> problems, Map<String, String> props, Map<String, String> sound,
                                 Map<String, ConfigValue> byName, List<ConfigValue> values) {
        for (ConfigProblem p : problems) {
            ConfigValue v = byName.get(p.setting());
            if (v == null) {
                v = new ConfigValue(p.setting());
                byName.put(p.setting(), v);
                values.add(v);
            }
            if (!props.containsKey(p.setting()) || sound.containsKey(p.setting())) v.addErrorMessage(p.message());
        }
        return new Config(values);
    }

    /**
     * The converters the connector's configuration names, against what the input format needs ({@link
     * ConverterRules}); a converter left to the worker's default is not visible here. Transformations that may change
     * a byte format's records are logged (Connect's validation has no warnings).
     */
    static List<ConfigProblem> converters(SinkConfig config, Map<String, String> props) {
        boolean compressed;
        try {
            compressed = CodecOptions.compression(config.inputCodecOptions()) != Compression.NONE;
        } catch (RuntimeException e) {
            compressed = false; // reported on input.codec.options
        }
        String warning = ConverterRules.transformWarning("sink " + props.getOrDefault("name", "(validation)"),
                config.inputWireFormat(), props);
        if (warning != null) LOG.warn(warning);
        return ConverterRules.forConsumer(config.inputWireFormat(), compressed, props).stream()
                .map(p -> new ConfigProblem(p.setting(), p.message())).toList();
    }

    /** The consumer override that makes {@code topics.regex} see a new topic soon (the templates in config/ set it). */
    public static final String METADATA_MAX_AGE_OVERRIDE = "consumer.override.metadata.max.age.ms";
    /** Kafka's consumer default for {@code metadata.max.age.ms}: 5 minutes. */
    static final long KAFKA_DEFAULT_METADATA_MAX_AGE_MS = 300_000L;

    /**
     * A warning when {@code topics.regex} is used without {@value #METADATA_MAX_AGE_OVERRIDE} below Kafka's default, or
     * null: a consumer matches its pattern against the topics its metadata lists, and refreshes that metadata only
     * every {@code metadata.max.age.ms} (5 minutes by default), so a new table's topic would be read up to 5 minutes
     * after it appears, its rows held back that long. Connect's validation has no warnings, so this is logged. The
     * worker may set {@code consumer.metadata.max.age.ms} for every sink, which validate() cannot see; the warning
     * says so.
     */
    static String topicPatternWarning(String who, Map<String, String> props) {
        String pattern = props.get("topics.regex");
        if (pattern == null || pattern.isBlank()) return null;
        String value = props.get(METADATA_MAX_AGE_OVERRIDE);
        String problem;
        if (value == null || value.isBlank()) {
            problem = "is used without " + METADATA_MAX_AGE_OVERRIDE;
        } else {
            long ms;
            try {
                ms = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                return who + ": " + METADATA_MAX_AGE_OVERRIDE + " is not a number of milliseconds";
            }
            if (ms < KAFKA_DEFAULT_METADATA_MAX_AGE_MS) return null;
            problem = "is used with " + METADATA_MAX_AGE_OVERRIDE + "=" + ms + ", no shorter than Kafka's default";
        }
        return who + ": topics.regex " + problem + ": the consumer sees a topic created later (a new table's) only when"
                + " it refreshes its metadata, every metadata.max.age.ms (Kafka's default 300000 ms, 5 minutes), so that"
                + " table's rows may wait up to 5 minutes. Set " + METADATA_MAX_AGE_OVERRIDE + " (e.g. 30000; the"
                + " templates in config/ set it) and let the worker accept it (connector.client.config.override.policy=All,"
                + " or on Kafka 4.2+ Allowlist with metadata.max.age.ms in connector.client.config.override.allowlist),"
                + " unless the worker itself sets consumer.metadata.max.age.ms";
    }

    private static List<ConfigProblem> concat(List<ConfigProblem> a, List<ConfigProblem> b) {
        List<ConfigProblem> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Connect's {@code tasks.max} (what the connector hands each task as task.count), at least 1. */
    static int tasks(Map<String, String> props) {
        try {
            return Math.max(1, Integer.parseInt(props.getOrDefault("tasks.max", "1").trim()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
