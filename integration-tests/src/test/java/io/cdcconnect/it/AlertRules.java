package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Prometheus alerting rules of deploy/prometheus/cdc-connect-alerts.yml (and the PrometheusRule that carries the
 * same groups), and what each rule's PromQL expression refers to: the metric names, the labels it matches on each, and
 * the labels it groups or joins by.
 *
 * <p>The expression reader knows enough PromQL for alert rules: string literals, label matchers in braces, ranges and
 * subqueries in brackets, numbers and durations, functions and aggregations (a name followed by a parenthesis), the
 * binary operators' keywords and the label lists of {@code by}, {@code without}, {@code on}, {@code ignoring},
 * {@code group_left} and {@code group_right}. Every other name is a metric. A selector without a metric name
 * ({@code {__name__=~"..."}}) is refused, since no metric could be checked for it.
 */
final class AlertRules {

    /** One alerting rule. */
    record Alert(String group, String name, String expr, String forDuration, Map<String, String> labels,
                 Map<String, String> annotations) {

        /** What {@link #expr()} refers to. */
        Refs refs() {
            return AlertRules.refs(expr);
        }
    }

    /** The metric names of an expression, each with the label names its matchers use, and the grouping labels. */
    record Refs(Map<String, Set<String>> metrics, Set<String> groupingLabels) {
    }

    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan", "atan2");
    /** Aggregation operators, which a grouping clause may separate from their parenthesis ({@code sum by (l) (...)}). */
    private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar",
            "count", "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio");
    private static final Set<String> GROUPING = Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

    private AlertRules() {
    }

    static Path plainFile() {
        return QuickstartComposeTest.root().resolve("deploy/prometheus/cdc-connect-alerts.yml");
    }

    static Path prometheusRuleFile() {
        return QuickstartComposeTest.root().resolve("deploy/strimzi/prometheus-rules.yaml");
    }

    static JsonNode yaml(Path file) {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The alerting rules of a rules file's {@code groups}, in order. */
    static List<Alert> alerts(JsonNode groups) {
        List<Alert> out = new ArrayList<>();
        for (JsonNode g : groups) {
            for (JsonNode r : g.path("rules")) {
                if (!r.has("alert")) continue;
                out.add(new Alert(g.path("name").asText(), r.path("alert").asText(), r.path("expr").asText(),
                        r.path("for").asText(""), strings(r.path("labels")), strings(r.path("annotations"))));
            }
        }
        return out;
    }

    /** The alerts of deploy/prometheus/cdc-connect-alerts.yml. */
    static List<Alert> read() {
        return alerts(yaml(plainFile()).path("groups"));
    }

    private static Map<String, String> strings(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** What a PromQL expression refers to. */
    static Refs refs(String expr) {
        Map<String, Set<String>> metrics = new TreeMap<>();
        Set<String> grouping = new TreeSet<>();
        String lastMetric = null; // the metric a following '{' belongs to
        int depth = 0;
        int i = 0;
        int n = expr.length();
        while (i < n) {
            char c = expr.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '"' || c == '\'' || c == '`') {
                i = skipString(expr, i);
                lastMetric = null;
            } else if (c == '{') {
                int end = i + 1;
                while (end < n && expr.charAt(end) != '}') {
                    char q = expr.charAt(end);
                    end = q == '"' || q == '\'' || q == '`' ? skipString(expr, end) : end + 1;
                }
                if (end >= n) throw new IllegalArgumentException("unclosed '{' in " + expr);
                if (lastMetric == null) {
                    throw new IllegalArgumentException("a selector without a metric name in " + expr);
                }
                metrics.get(lastMetric).addAll(matcherLabels(expr.substring(i + 1, end), expr));
                i = end + 1;
                lastMetric = null;
            } else if (c == '[') {
                int end = expr.indexOf(']', i);
                if (end < 0) throw new IllegalArgumentException("unclosed '[' in " + expr);
                i = end + 1;
                lastMetric = null;
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(expr.charAt(i + 1)))) {
                while (i < n && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '.'
                        || ((expr.charAt(i) == '+' || expr.charAt(i) == '-') && "eE".indexOf(expr.charAt(i - 1)) >= 0))) {
                    i++;
                }
                lastMetric = null;
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '_' || expr.charAt(i) == ':')) {
                    i++;
                }
                String word = expr.substring(start, i);
                int next = i;
                while (next < n && Character.isWhitespace(expr.charAt(next))) next++;
                boolean call = next < n && expr.charAt(next) == '(';
                String lower = word.toLowerCase(java.util.Locale.ROOT);
                lastMetric = null;
                if (GROUPING.contains(lower)) {
                    if (call) {
                        int end = expr.indexOf(')', next);
                        if (end < 0) throw new IllegalArgumentException("unclosed '(' in " + expr);
                        for (String l : expr.substring(next + 1, end).split(",")) {
                            if (!l.isBlank()) grouping.add(l.trim());
                        }
                        i = end + 1;
                    }
                } else if (KEYWORDS.contains(lower) || AGGREGATIONS.contains(lower) || call) {
                    // an operator, a function or an aggregation
                } else {
                    metrics.computeIfAbsent(word, k -> new TreeSet<>());
                    lastMetric = word;
                }
            } else {
                if (c == '(') depth++;
                if (c == ')') depth--;
                if (depth < 0) throw new IllegalArgumentException("unbalanced ')' in " + expr);
                i++;
                lastMetric = null;
            }
        }
        if (depth != 0) throw new IllegalArgumentException("unbalanced '(' in " + expr);
        return new Refs(metrics, grouping);
    }

    /** The label names of the matchers inside a selector's braces, e.g. {@code status="failed", task!~"1|2"}. */
    private static Set<String> matcherLabels(String inside, String expr) {
        Set<String> labels = new LinkedHashSet<>();
        int i = 0;
        while (i < inside.length()) {
            char c = inside.charAt(i);
            if (Character.isWhitespace(c) || c == ',') {
                i++;
                continue;
            }
            int start = i;
            while (i < inside.length() && (Character.isLetterOrDigit(inside.charAt(i)) || inside.charAt(i) == '_')) i++;
            if (i == start) throw new IllegalArgumentException("cannot read the matchers {" + inside + "} in " + expr);
            String label = inside.substring(start, i);
            if (label.equals("__name__")) throw new IllegalArgumentException("a selector by __name__ in " + expr);
            labels.add(label);
            while (i < inside.length() && "=!~ ".indexOf(inside.charAt(i)) >= 0) i++;
            if (i >= inside.length()) throw new IllegalArgumentException("a matcher without a value in " + expr);
            i = skipString(inside, i);
        }
        return labels;
    }

    /** The index after the string literal that starts at {@code i}. */
    private static int skipString(String s, int i) {
        char quote = s.charAt(i);
        if (quote != '"' && quote != '\'' && quote != '`') {
            throw new IllegalArgumentException("a string was expected at " + i + " of " + s);
        }
        int j = i + 1;
        while (j < s.length() && s.charAt(j) != quote) {
            if (s.charAt(j) == '\\' && quote != '`') j++;
            j++;
        }
        if (j >= s.length()) throw new IllegalArgumentException("unclosed string in " + s);
        return j + 1;
    }
}
