package io.cdcconnect.sink.validate;

import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.ddl.sql.ParsedDdl;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.dml.SafeMode;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The sink's recommended values and visibility, for Connect's validation answer (what a UI offers in a drop-down,
 * and which settings it shows). Values come from the registries that hold them: {@link WireFormat}, {@link Dialects},
 * {@link SafeMode}, {@link ParsedDdl.Kind}, and the value lists of {@link SinkConfig}.
 */
public final class SinkRecommenders {

    private SinkRecommenders() {
    }

    /** {@code def} with recommenders and dependents on the settings they concern. */
    public static ConfigDef attach(ConfigDef def) {
        Map<String, ConfigDef.Recommender> recommenders = new java.util.HashMap<>();
        recommenders.put(SinkConfig.INPUT_FORMAT, values(p -> SinkConfig.INPUT_FORMATS));
        recommenders.put(SinkConfig.DIALECT, values(SinkRecommenders::dialects));
        recommenders.put(SinkConfig.SAFE_MODE, values(p -> Arrays.stream(SafeMode.values())
                .map(SafeMode::configName).toList()));
        recommenders.put(SinkConfig.DDL_UNSUPPORTED, new Recommender(p -> SinkConfig.DDL_UNSUPPORTED_VALUES,
                p -> format(p).carriesDdl()));
        recommenders.put(SinkConfig.DDL_APPLY, new Recommender(p -> ddlKinds(), p -> format(p).carriesDdl()));
        for (String ddl : List.of(SinkConfig.DDL_BARRIER_TIMEOUT_MS, SinkConfig.DDL_CHECKPOINT_DATABASE)) {
            recommenders.put(ddl, new Recommender(p -> List.of(), p -> format(p).carriesDdl()));
        }
        for (String registry : List.of(SinkConfig.SCHEMA_REGISTRY_URL, SinkConfig.SCHEMA_REGISTRY_TRUSTSTORE,
                SinkConfig.SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD)) {
            recommenders.put(registry, new Recommender(p -> List.of(), p -> format(p).needsSchemaRegistry()));
        }
        recommenders.put(SinkConfig.SCHEMA_REGISTRY_TRUSTSTORE_TYPE, new Recommender(
                p -> SinkConfig.TRUSTSTORE_TYPES, p -> format(p).needsSchemaRegistry()));
        recommenders.put(SinkConfig.INPUT_CODEC_OPTIONS, new Recommender(p -> List.of(),
                p -> !format(p).decoderOptions().isEmpty()));
        for (String largeMessages : List.of(SinkConfig.INPUT_MAX_DECODED_BYTES,
                SinkConfig.INPUT_CLAIM_CHECK_MAX_RECORD_BYTES, SinkConfig.INPUT_CLAIM_CHECK_MAX_RECORD_POINTERS)) {
            recommenders.put(largeMessages, new Recommender(p -> List.of(), p -> format(p).largeMessageHandling()));
        }

        Map<String, List<String>> dependents = Map.of(
                SinkConfig.CONNECTION_URL, List.of(SinkConfig.DIALECT),
                SinkConfig.INPUT_FORMAT, recommenders.entrySet().stream()
                        .filter(e -> e.getValue() instanceof Recommender r && r.dependsOnFormat())
                        .map(Map.Entry::getKey).sorted().toList());
        ConfigDef out = new ConfigDef();
        for (ConfigDef.ConfigKey k : def.configKeys().values()) {
            out.define(new ConfigDef.ConfigKey(k.name, k.type, k.hasDefault() ? k.defaultValue
                    : ConfigDef.NO_DEFAULT_VALUE, k.validator, k.importance, k.documentation, k.group, k.orderInGroup,
                    k.width, k.displayName, dependents.getOrDefault(k.name, k.dependents),
                    recommenders.getOrDefault(k.name, k.recommender), k.internalConfig));
        }
        return out;
    }

    /** auto and the names of the URL's family, or of every family while the URL names none. */
    private static List<String> dialects(Map<String, Object> parsed) {
        Object url = parsed.get(SinkConfig.CONNECTION_URL);
        Dialects.Family family = Dialects.familyOf(url instanceof Password p ? p.value() : url == null ? null
                : url.toString());
        if (family == null) return Dialects.names();
        List<String> out = new ArrayList<>();
        out.add("auto");
        out.addAll(family.names());
        return out;
    }

    private static List<String> ddlKinds() {
        List<String> out = new ArrayList<>(List.of("all", "none"));
        for (ParsedDdl.Kind k : ParsedDdl.Kind.values()) out.add(k.settingName());
        return out;
    }

    /** The input format the settings name, or the default while they name none the registry knows. */
    static WireFormat format(Map<String, Object> parsed) {
        Object f = parsed.get(SinkConfig.INPUT_FORMAT);
        try {
            return WireFormat.named(f == null ? WireFormat.CANAL_JSON.configName() : f.toString());
        } catch (IllegalArgumentException e) {
            return WireFormat.CANAL_JSON;
        }
    }

    private static Recommender values(Function<Map<String, Object>, List<String>> values) {
        return new Recommender(values, null);
    }

    /** Recommended values, and visibility (null: always visible; otherwise by input.format). */
    private record Recommender(Function<Map<String, Object>, List<String>> values,
                               Predicate<Map<String, Object>> visibleFor) implements ConfigDef.Recommender {
        @Override
        public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
            return new ArrayList<>(values.apply(parsedConfig));
        }

        @Override
        public boolean visible(String name, Map<String, Object> parsedConfig) {
            return visibleFor == null || visibleFor.test(parsedConfig);
        }

        boolean dependsOnFormat() {
            return visibleFor != null;
        }
    }
}
