package io.cdcconnect.verify;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The source tables a list of {@code schema.table} patterns names ({@code *} any run of characters, {@code ?} one),
 * in the order given, each once. A name without wildcards that matches nothing, or a pattern that matches nothing, is
 * an error of its own in the report (a typo must not pass as "equal").
 */
final class TableNames {
    private final SqlFamily family;
    private final Connection c;

    TableNames(SqlFamily family, Connection c) {
        this.family = family;
        this.c = c;
    }

    /** {schema, table} pairs; unmatched patterns become error results in {@code errors}. */
    List<String[]> resolve(List<String> patterns, List<TableResult> errors, int shown) throws SQLException {
        Set<String> seen = new LinkedHashSet<>();
        List<String[]> out = new ArrayList<>();
        List<String> schemas = null;
        for (String p : patterns) {
            int dot = p.indexOf('.');
            if (dot <= 0 || dot == p.length() - 1) {
                throw new IllegalArgumentException("table '" + p + "': name tables as schema.table (e.g. shop.orders or shop.*)");
            }
            String schemaGlob = p.substring(0, dot);
            Pattern tableGlob = glob(p.substring(dot + 1));
            List<String> candidates;
            if (hasWildcard(schemaGlob)) {
                if (schemas == null) schemas = family.schemas(c);
                Pattern sg = glob(schemaGlob);
                candidates = schemas.stream().filter(s -> sg.matcher(s).matches()).toList();
            } else {
                candidates = List.of(schemaGlob);
            }
            int matched = 0;
            for (String schema : candidates) {
                for (String table : family.tables(c, schema)) {
                    if (!tableGlob.matcher(table).matches()) continue;
                    matched++;
                    if (seen.add(schema + "." + table)) out.add(new String[] {schema, table});
                }
            }
            if (matched == 0) {
                TableResult none = new TableResult(p, "-", shown);
                none.failed(hasWildcard(p) ? "the pattern matches no table upstream" : "no such table upstream");
                none.finish(0);
                errors.add(none);
            }
        }
        return out;
    }

    private static boolean hasWildcard(String s) {
        return s.indexOf('*') >= 0 || s.indexOf('?') >= 0;
    }

    static Pattern glob(String glob) {
        StringBuilder re = new StringBuilder();
        for (char ch : glob.toCharArray()) {
            if (ch == '*') re.append(".*");
            else if (ch == '?') re.append('.');
            else re.append(Pattern.quote(String.valueOf(ch)));
        }
        return Pattern.compile(re.toString());
    }
}
