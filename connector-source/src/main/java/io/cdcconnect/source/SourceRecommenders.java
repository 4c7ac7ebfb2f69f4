package io.cdcconnect.source;

import io.cdcconnect.codec.WireFormat;
import org.apache.kafka.common.config.ConfigDef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The source's recommended values and visibility, for Connect's validation answer (what a UI offers in a drop-down,
 * and which settings it shows). A setting with a fixed set of values recommends its validator's values (the one list,
 * {@link CdcSourceConfig.EnumValidator}); settings that only one kind of format reads are shown only for it, as the
 * format registry ({@link WireFormat}) and {@link CdcSourceConfig#ENCODER_OPTIONS} say.
 */
final class SourceRecommenders {

    private SourceRecommenders() {
    }

    static ConfigDef attach(ConfigDef def) {
        Map<String, Predicate<Map<String, Object>>> visible = new HashMap<>();
        for (String s : List.of(CdcSourceConfig.SCHEMA_REGISTRY_URL, CdcSourceConfig.SCHEMA_REGISTRY_USERNAME,
                CdcSourceConfig.SCHEMA_REGISTRY_PASSWORD, CdcSourceConfig.SCHEMA_REGISTRY_TRUSTSTORE,
                CdcSourceConfig.SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD, CdcSourceConfig.SCHEMA_REGISTRY_TRUSTSTORE_TYPE,
                CdcSourceConfig.AVRO_DECIMAL_HANDLING, CdcSourceConfig.AVRO_BIGINT_UNSIGNED_HANDLING)) {
            visible.put(s, p -> format(p).needsSchemaRegistry());
        }
        for (String s : List.of(CdcSourceConfig.LARGE_MESSAGE_HANDLE, CdcSourceConfig.COMPRESSION,
                CdcSourceConfig.CLAIM_CHECK_STORAGE_URI, CdcSourceConfig.CLAIM_CHECK_RAW_VALUE)) {
            visible.put(s, p -> format(p).largeMessageHandling());
        }
        visible.put(CdcSourceConfig.OPEN_PROTOCOL_MAX_BATCH_SIZE, p -> format(p).batchesRows());
        for (CdcSourceConfig.EncoderOption o : CdcSourceConfig.ENCODER_OPTIONS) {
            visible.put(o.setting(), p -> o.formats().contains(format(p)));
        }
        visible.put(CdcSourceConfig.PARTITION_COLUMNS, p -> "columns".equals(lower(p.get(
                CdcSourceConfig.PARTITION_RULE))));

        List<String> byFormat = new ArrayList<>();
        for (String s : visible.keySet()) {
            if (!s.equals(CdcSourceConfig.PARTITION_COLUMNS)) byFormat.add(s);
        }
        byFormat.sort(null);
        Map<String, List<String>> dependents = Map.of(CdcSourceConfig.OUTPUT_FORMAT, byFormat,
                CdcSourceConfig.PARTITION_RULE, List.of(CdcSourceConfig.PARTITION_COLUMNS));

        ConfigDef out = new ConfigDef();
        for (ConfigDef.ConfigKey k : def.configKeys().values()) {
            List<String> values = k.validator instanceof CdcSourceConfig.EnumValidator e ? e.allowed() : List.of();
            Predicate<Map<String, Object>> shown = visible.get(k.name);
            ConfigDef.Recommender r = values.isEmpty() && shown == null ? k.recommender
                    : new Recommender(values, shown);
            out.define(new ConfigDef.ConfigKey(k.name, k.type, k.hasDefault() ? k.defaultValue
                    : ConfigDef.NO_DEFAULT_VALUE, k.validator, k.importance, k.documentation, k.group, k.orderInGroup,
                    k.width, k.displayName, dependents.getOrDefault(k.name, k.dependents), r, k.internalConfig));
        }
        return out;
    }

    /** The output format the settings name, or the default while they name none our source writes. */
    static WireFormat format(Map<String, Object> parsed) {
        Object f = parsed.get(CdcSourceConfig.OUTPUT_FORMAT);
        try {
            return WireFormat.encodable(f == null ? WireFormat.CANAL_JSON.configName() : f.toString());
        } catch (IllegalArgumentException e) {
            return WireFormat.CANAL_JSON;
        }
    }

    private static String lower(Object v) {
        return v == null ? "" : v.toString().trim().toLowerCase(Locale.ROOT);
    }

    private record Recommender(List<String> values, Predicate<Map<String, Object>> shown)
            implements ConfigDef.Recommender {
        @Override
        public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
            return new ArrayList<>(values);
        }

        @Override
        public boolean visible(String name, Map<String, Object> parsedConfig) {
            return shown == null || shown.test(parsedConfig);
        }
    }
}
