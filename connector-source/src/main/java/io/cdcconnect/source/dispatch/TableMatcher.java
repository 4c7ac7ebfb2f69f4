package io.cdcconnect.source.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * TiCDC's table filter (TiDB's table-filter syntax), the subset a dispatcher's {@code matcher} uses: each pattern is
 * {@code schema.table}, where either part may hold {@code *} (any characters), {@code ?} (one character),
 * {@code [a-z]} or {@code [!a-z]} (one character of, or not of, a set), {@code \} before a character taken as it is,
 * and may be quoted in backticks or double quotes (then only a doubled quote is special); a pattern starting with
 * {@code !} excludes what it matches. Patterns are read in order and the last one that matches a table decides; a
 * table no pattern matches is not matched. Names compare case-insensitively (TiCDC's default, case-sensitive=false).
 */
public final class TableMatcher {

    private record Rule(boolean exclude, Pattern schema, Pattern table, String text) {
    }

    private final List<Rule> rules;

    private TableMatcher(List<Rule> rules) {
        this.rules = rules;
    }

    /** Parses the patterns; IllegalArgumentException naming the first bad one. */
    public static TableMatcher parse(List<String> patterns) {
        if (patterns == null || patterns.isEmpty()) {
            throw new IllegalArgumentException("a matcher needs at least one pattern such as \"shop.*\"");
        }
        List<Rule> rules = new ArrayList<>(patterns.size());
        for (String p : patterns) rules.add(rule(p));
        return new TableMatcher(List.copyOf(rules));
    }

    public boolean matches(String schema, String table) {
        boolean matched = false;
        for (Rule r : rules) {
            if (r.schema.matcher(schema).matches() && r.table.matcher(table).matches()) matched = !r.exclude;
        }
        return matched;
    }

    @Override
    public String toString() {
        return rules.stream().map(Rule::text).toList().toString();
    }

    private static Rule rule(String text) {
        String p = text == null ? "" : text.trim();
        boolean exclude = p.startsWith("!");
        if (exclude) p = p.substring(1).trim();
        if (p.isEmpty()) throw new IllegalArgumentException("empty table pattern in matcher");
        StringBuilder schema = new StringBuilder();
        StringBuilder table = null;
        StringBuilder part = schema;
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '`' || c == '"') {
                int end = i + 1;
                StringBuilder literal = new StringBuilder();
                while (true) {
                    if (end >= p.length()) throw bad(text, "unclosed " + c);
                    char d = p.charAt(end);
                    if (d == c) {
                        if (end + 1 < p.length() && p.charAt(end + 1) == c) {
                            literal.append(c);
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    literal.append(d);
                    end++;
                }
                part.append(Pattern.quote(literal.toString()));
                i = end + 1;
            } else if (c == '\\') {
                if (i + 1 >= p.length()) throw bad(text, "'\\' at the end");
                part.append(Pattern.quote(String.valueOf(p.charAt(i + 1))));
                i += 2;
            } else if (c == '*') {
                part.append(".*");
                i++;
            } else if (c == '?') {
                part.append('.');
                i++;
            } else if (c == '[') {
                int end = p.indexOf(']', i + 2);
                if (end < 0) throw bad(text, "unclosed [");
                String set = p.substring(i + 1, end);
                boolean negate = set.startsWith("!");
                if (negate) set = set.substring(1);
                if (set.isEmpty()) throw bad(text, "empty [ ]");
                part.append(negate ? "[^" : "[");
                for (int k = 0; k < set.length(); k++) {
                    char s = set.charAt(k);
                    part.append(s == '-' && k > 0 && k < set.length() - 1 ? "-" : classChar(s));
                }
                part.append(']');
                i = end + 1;
            } else if (c == '.' && table == null) {
                table = new StringBuilder();
                part = table;
                i++;
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '-' || c > 127) {
                part.append(Pattern.quote(String.valueOf(c)));
                i++;
            } else {
                throw bad(text, "unexpected '" + c + "' (quote the name in backticks)");
            }
        }
        if (table == null || schema.length() == 0 || table.length() == 0) {
            throw bad(text, "expected schema.table, e.g. \"shop.*\" or \"*.orders\"");
        }
        int flags = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL;
        return new Rule(exclude, Pattern.compile(schema.toString(), flags), Pattern.compile(table.toString(), flags),
                text);
    }

    /** A character inside a regex class: letters and digits as they are, anything else escaped. */
    private static String classChar(char c) {
        return Character.isLetterOrDigit(c) ? String.valueOf(c) : "\\" + c;
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException("bad table pattern '" + text + "': " + why);
    }
}
