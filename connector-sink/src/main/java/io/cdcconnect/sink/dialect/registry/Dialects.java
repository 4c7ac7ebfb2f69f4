package io.cdcconnect.sink.dialect.registry;

import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.dialect.mysql.MySqlFamilyDialect;
import io.cdcconnect.sink.dialect.postgres.PostgresDialect;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The registry of target database families: which JDBC URLs each serves and which {@code dialect} names it answers
 * to. A new family is one package and one line here.
 */
public final class Dialects {

    /**
     * One family.
     *
     * @param urlPrefixes the JDBC URL prefixes it serves
     * @param names       the {@code dialect} settings it answers to besides auto
     * @param start       the dialect that connects first; {@link SqlDialect#refine} then picks the server's own
     */
    public record Family(String name, List<String> urlPrefixes, List<String> names, Supplier<SqlDialect> start) {
    }

    public static final List<Family> FAMILIES = List.of(
            new Family("MySQL (MySQL, MariaDB, TiDB)", MySqlFamilyDialect.URL_PREFIXES,
                    List.of("mariadb", "mysql57", "mysql8", "tidb"), () -> MySqlFamilyDialect.choose("mariadb", "")),
            new Family("PostgreSQL", PostgresDialect.URL_PREFIXES, List.of("postgresql"), PostgresDialect::new));

    private Dialects() {
    }

    /** The family serving {@code url}, or null. */
    public static Family familyOf(String url) {
        String u = url == null ? "" : url.trim().toLowerCase(Locale.ROOT);
        for (Family f : FAMILIES) {
            for (String p : f.urlPrefixes()) {
                if (u.startsWith(p)) return f;
            }
        }
        return null;
    }

    /** The dialect a connection to {@code url} starts with. */
    public static SqlDialect forUrl(String url) {
        Family f = familyOf(url);
        if (f == null) throw new IllegalArgumentException("no target dialect serves this JDBC URL; " + describeUrls());
        return f.start().get();
    }

    /** Every {@code dialect} value, auto first. */
    public static List<String> names() {
        List<String> out = new java.util.ArrayList<>();
        out.add("auto");
        for (Family f : FAMILIES) out.addAll(f.names());
        return out;
    }

    /** "URLs starting with jdbc:mysql:, ... or jdbc:postgresql:", for messages and docs. */
    public static String describeUrls() {
        List<String> all = FAMILIES.stream().flatMap(f -> f.urlPrefixes().stream()).toList();
        return "the URL must start with " + String.join(", ", all.subList(0, all.size() - 1)) + " or "
                + all.get(all.size() - 1) + " (" + String.join("; ", FAMILIES.stream().map(f -> f.name() + ": "
                + String.join(", ", f.urlPrefixes())).toList()) + ")";
    }

    /** Null when {@code dialect} suits the URL's family, else why not. */
    public static String mismatch(String url, String dialect) {
        Family f = familyOf(url);
        String d = dialect == null ? "auto" : dialect.toLowerCase(Locale.ROOT);
        if (f == null || d.equals("auto") || f.names().contains(d)) return null;
        return "dialect '" + dialect + "' does not serve a " + f.name() + " URL (choose auto or one of "
                + String.join(", ", f.names()) + ")";
    }
}
