package io.cdcconnect.sink.dialect.mysql;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites database-qualified names in a DDL statement for {@code schema.map}: with {@code shop=shop_replica},
 * {@code ALTER TABLE shop.orders ...} and {@code `shop`.`orders`} become {@code `shop_replica`.`orders`}.
 * Without it a qualified statement would change the source's database when source and target share a server.
 *
 * <p>Only a database name directly followed by a dot and a name is rewritten; quoted string literals are skipped.
 */
final class MySqlDdlRewriter {

    private MySqlDdlRewriter() {
    }

    static String renameSchemas(String sql, Map<String, String> schemaMap) {
        if (schemaMap.isEmpty()) return sql;
        String out = sql;
        for (Map.Entry<String, String> e : schemaMap.entrySet()) {
            if (e.getKey().equals(e.getValue())) continue;
            out = rename(out, e.getKey(), e.getValue());
        }
        return out;
    }

    private static String rename(String sql, String from, String to) {
        String quotedFrom = Pattern.quote(from.replace("`", "``"));
        // `from`. or from. (not part of a longer identifier), followed by a name or a quoted name
        Pattern p = Pattern.compile("(?i)(?<![\\w$`.])(?:`" + quotedFrom + "`|" + Pattern.quote(from)
                + "(?![\\w$]))(\\s*\\.\\s*)(?=[`\\w$])");
        StringBuilder sb = new StringBuilder(sql.length() + 16);
        int i = 0;
        int n = sql.length();
        int segmentStart = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                sb.append(replaceIn(p, sql.substring(segmentStart, i), to));
                int end = endOfLiteral(sql, i, c);
                sb.append(sql, i, end);
                i = end;
                segmentStart = i;
                continue;
            }
            i++;
        }
        sb.append(replaceIn(p, sql.substring(segmentStart), to));
        return sb.toString();
    }

    private static String replaceIn(Pattern p, String segment, String to) {
        Matcher m = p.matcher(segment);
        String replacement = Matcher.quoteReplacement("`" + to.replace("`", "``") + "`") + "$1";
        return m.replaceAll(replacement);
    }

    private static int endOfLiteral(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }
}
