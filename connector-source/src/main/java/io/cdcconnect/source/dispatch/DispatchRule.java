package io.cdcconnect.source.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * One of TiCDC's {@code dispatchers}: the tables its matcher selects get this topic pattern and partition rule. Read
 * from the source's {@code dispatchers} setting, a JSON array of objects with TiCDC's field names:
 * {@code {"matcher": ["shop.*", "!shop.tmp_*"], "topic": "{prefix}.{schema}", "partition": "index-value"}}, and
 * {@code "columns": ["a", "b"]} with {@code "partition": "columns"}.
 *
 * @param matcher   which tables
 * @param topic     their topic pattern ({prefix}, {schema}, {table}), or null for topic.pattern
 * @param partition their partition rule, or null for partition.rule (with partition.columns)
 * @param columns   the hashed columns of the {@code columns} rule, else empty
 */
public record DispatchRule(TableMatcher matcher, String topic, PartitionRule partition, List<String> columns) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("matcher", "topic", "partition", "dispatcher", "columns", "index");

    public DispatchRule {
        columns = List.copyOf(columns);
        if (partition == PartitionRule.COLUMNS && columns.isEmpty()) {
            throw new IllegalArgumentException("partition \"columns\" needs \"columns\": [names]");
        }
        if (partition != PartitionRule.COLUMNS && !columns.isEmpty()) {
            throw new IllegalArgumentException("\"columns\" is read only with \"partition\": \"columns\"");
        }
        if (topic != null) TopicNamer.checkPattern(topic);
    }

    /**
     * The rules of a {@code dispatchers} value, in order; blank means none. IllegalArgumentException saying which
     * rule (1-based) is wrong and why.
     */
    public static List<DispatchRule> parseAll(String json) {
        if (json == null || json.isBlank()) return List.of();
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException("expected a JSON array of rules such as [{\"matcher\": [\"shop.*\"], "
                    + "\"partition\": \"index-value\"}]");
        }
        List<DispatchRule> rules = new ArrayList<>(root.size());
        for (int i = 0; i < root.size(); i++) {
            try {
                rules.add(parse(root.get(i)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("rule " + (i + 1) + ": " + e.getMessage());
            }
        }
        return List.copyOf(rules);
    }

    private static DispatchRule parse(JsonNode rule) {
        if (!rule.isObject()) throw new IllegalArgumentException("expected an object");
        for (Iterator<String> names = rule.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field \"" + name + "\" (known: matcher, topic, partition, "
                        + "columns)");
            }
        }
        List<String> matcher = strings(rule, "matcher");
        if (matcher.isEmpty()) throw new IllegalArgumentException("\"matcher\" needs at least one table pattern");
        String partition = text(rule, "partition");
        String dispatcher = text(rule, "dispatcher");
        if (partition != null && dispatcher != null) {
            throw new IllegalArgumentException("set \"partition\" only (\"dispatcher\" is its old name), not both");
        }
        if (partition == null) partition = dispatcher;
        String index = text(rule, "index");
        if (index != null) {
            throw new IllegalArgumentException("\"index\" is not supported: use \"partition\": \"columns\" with the "
                    + "index's columns in \"columns\", which TiCDC hashes the same way (index \"" + index + "\")");
        }
        String topic = text(rule, "topic");
        return new DispatchRule(TableMatcher.parse(matcher), topic, partition == null ? null
                : PartitionRule.parse(partition), strings(rule, "columns"));
    }

    private static String text(JsonNode rule, String field) {
        JsonNode v = rule.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual()) throw new IllegalArgumentException("\"" + field + "\" must be a string");
        return v.asText().isBlank() ? null : v.asText().trim();
    }

    private static List<String> strings(JsonNode rule, String field) {
        JsonNode v = rule.get(field);
        if (v == null || v.isNull()) return List.of();
        if (v.isTextual()) return List.of(v.asText());
        if (!v.isArray()) throw new IllegalArgumentException("\"" + field + "\" must be an array of strings");
        List<String> out = new ArrayList<>(v.size());
        for (JsonNode e : v) {
            if (!e.isTextual() || e.asText().isBlank()) {
                throw new IllegalArgumentException("\"" + field + "\" must hold non-empty strings");
            }
            out.add(e.asText().trim());
        }
        return out;
    }
}
