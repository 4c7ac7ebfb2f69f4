package io.cdcconnect.source.dispatch;

import java.util.HashMap;
import java.util.Map;

/**
 * Names the topic of a table from a pattern with {prefix}, {schema} and {table}. Characters Kafka refuses in topic
 * names become '_', and names are cached per table since every row asks.
 */
public final class TopicNamer {
    private static final int MAX_TOPIC_LENGTH = 249;

    private final String pattern;
    private final String prefix;
    private final Map<String, Map<String, String>> cache = new HashMap<>();

    public TopicNamer(String pattern, String prefix) {
        this.pattern = pattern;
        this.prefix = prefix;
    }

    /** A namer of the same {prefix} with another pattern (a dispatcher's topic). */
    public TopicNamer withPattern(String otherPattern) {
        return new TopicNamer(otherPattern, prefix);
    }

    /** Whether each table gets a topic of its own. */
    public boolean perTable() {
        return pattern.contains("{table}");
    }

    /**
     * Checks a pattern uses only the placeholders we fill in, so a typo fails at validation, not per row:
     * IllegalArgumentException saying what is wrong.
     */
    public static void checkPattern(String p) {
        if (p == null || p.isBlank()) throw new IllegalArgumentException("a topic pattern must not be empty");
        String rest = p.replace("{prefix}", "").replace("{schema}", "").replace("{table}", "");
        if (rest.indexOf('{') >= 0 || rest.indexOf('}') >= 0) {
            throw new IllegalArgumentException("unknown placeholder in topic pattern '" + p + "': only {prefix}, "
                    + "{schema} and {table} are filled in");
        }
    }

    public String topic(String schema, String table) {
        return cache.computeIfAbsent(schema, s -> new HashMap<>()).computeIfAbsent(table, t -> name(schema, t));
    }

    private String name(String schema, String table) {
        String raw = pattern.replace("{prefix}", prefix).replace("{schema}", schema).replace("{table}", table);
        StringBuilder sb = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            sb.append(legal ? c : '_');
        }
        String name = sb.toString();
        if (name.equals(".") || name.equals("..")) name = name.replace('.', '_');
        if (name.length() > MAX_TOPIC_LENGTH) {
            throw new IllegalArgumentException("topic name for " + schema + "." + table + " from topic.pattern '"
                    + pattern + "' is longer than Kafka's " + MAX_TOPIC_LENGTH + " characters");
        }
        return name;
    }
}
