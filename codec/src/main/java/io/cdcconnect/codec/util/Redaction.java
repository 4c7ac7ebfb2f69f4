package io.cdcconnect.codec.util;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place that keeps secrets out of what the connectors show: JDBC URLs, driver and Debezium messages, logs
 * and validation answers. A JDBC URL is read as its driver reads it (MySQL Connector/J's own parser for
 * {@code jdbc:mysql:}, PgJDBC's grammar for {@code jdbc:postgresql:}), so that every secret it carries is known
 * however it is written: {@code user:password@} of any host, {@code password=} in the query, in a host's
 * {@code (key=value,...)} or {@code address=(key=value)...} block, a percent-encoded key such as
 * {@code pass%77ord}. A secret is the value of any key whose name, percent-decoded, contains "password" (also
 * "passwd", "secret", "credential"; case-insensitive), and the password of a host's user info. Every occurrence of
 * each one, raw or percent-encoded, is then replaced with {@value #MASK}; a URL that cannot be parsed shows
 * nothing after {@code //}.
 */
public final class Redaction {

    public static final String MASK = "***";

    private static final Pattern SECRET_NAME = Pattern.compile("(?i)password|passwd|secret|credential");
    /** key=value in a URL, a property list or a map's text; the value ends where any of those separate entries. */
    private static final Pattern KEY_VALUE = Pattern.compile("(?<![\\w.%-])([\\w.%-]+)=([^&;,()}\\s]*)");
    /** user:password@ after {@code //} or after the {@code ,} between the hosts of a multi-host URL. */
    private static final Pattern USER_INFO = Pattern.compile("(//|,)([^/@:,\\s()\\[\\]]*):([^@/\\s,]*)@");
    private static final Pattern JDBC_PREFIX = Pattern.compile("^\\s*jdbc:[A-Za-z0-9+.-]*:");
    private static final Pattern PERCENT = Pattern.compile("%([0-9A-Fa-f]{2})");

    private Redaction() {
    }

    /** Whether a setting or URL key of this name holds a secret; {@code name} may be percent-encoded. */
    public static boolean isSecretName(String name) {
        return name != null && SECRET_NAME.matcher(decodeLeniently(name)).find();
    }

    /**
     * The secrets {@code url} carries, as its driver would read them (decoded), or null when it cannot be parsed
     * (then nothing of it after {@code //} may be shown).
     */
    public static Set<String> secretsInJdbcUrl(String url) {
        if (url == null) return Set.of();
        String u = url.trim();
        String lower = u.toLowerCase(Locale.ROOT);
        try {
            if (lower.startsWith("jdbc:mysql:") || lower.startsWith("jdbc:mysql+srv:")) {
                try {
                    return MySqlUrls.secrets(u);
                } catch (LinkageError e) {
                    return structuralSecrets(u); // Connector/J is not on this class path
                }
            }
            if (lower.startsWith("jdbc:postgresql:")) return postgresSecrets(u);
            if (lower.startsWith("jdbc:") && u.contains("//")) return structuralSecrets(u);
            return null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** {@code url} with every secret it carries masked, or with nothing after {@code //} if it cannot be parsed. */
    public static String redactJdbcUrl(String url) {
        if (url == null) return null;
        Set<String> secrets = secretsInJdbcUrl(url);
        if (secrets == null) return unparseable(url);
        return maskSettings(mask(url, secrets));
    }

    /**
     * {@code text} (a driver's or Debezium's message, say) with {@code jdbcUrl} shown redacted, every secret of it
     * and every one of {@code secrets} masked, raw or percent-encoded, and any {@code ...password...=value} or
     * {@code //user:password@} in it masked.
     *
     * @param jdbcUrl the connection's URL, or null
     * @param secrets other secret values of the configuration (the password setting, ...); nulls are ignored
     */
    public static String scrub(String text, String jdbcUrl, Collection<String> secrets) {
        if (text == null) return null;
        String out = text;
        Set<String> all = new LinkedHashSet<>();
        if (jdbcUrl != null && !jdbcUrl.isBlank()) {
            out = out.replace(jdbcUrl, redactJdbcUrl(jdbcUrl));
            if (!jdbcUrl.trim().equals(jdbcUrl)) out = out.replace(jdbcUrl.trim(), redactJdbcUrl(jdbcUrl));
            Set<String> inUrl = secretsInJdbcUrl(jdbcUrl);
            if (inUrl != null) all.addAll(inUrl);
            else all.addAll(structuralSecrets(jdbcUrl)); // whatever can be told of a URL the driver cannot read
        }
        if (secrets != null) all.addAll(secrets);
        return maskSettings(mask(out, all));
    }

    /** Every occurrence of each of {@code secrets} in {@code text}, raw or percent-encoded, replaced with the mask. */
    public static String mask(String text, Collection<String> secrets) {
        if (text == null || secrets == null || secrets.isEmpty()) return text;
        Set<String> forms = new LinkedHashSet<>();
        for (String s : secrets) {
            if (s == null || s.isEmpty() || s.equals(MASK)) continue;
            forms.add(s);
            String encoded = URLEncoder.encode(s, StandardCharsets.UTF_8);
            forms.add(encoded);
            forms.add(encoded.replace("+", "%20"));
            forms.add(lowerHex(encoded));
            forms.add(lowerHex(encoded.replace("+", "%20")));
        }
        List<String> longestFirst = new ArrayList<>(forms);
        longestFirst.sort(Comparator.comparingInt(String::length).reversed());
        String out = text;
        for (String f : longestFirst) out = out.replace(f, MASK);
        return out;
    }

    /**
     * {@code text} with the value of every {@code key=value} whose key names a secret, and the password of every
     * {@code //user:password@} (or {@code ,user:password@} of a further host), masked: for text whose secrets are
     * not known by value, such as a message that lists a whole configuration.
     */
    public static String maskSettings(String text) {
        if (text == null) return null;
        Matcher m = KEY_VALUE.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String replacement = isSecretName(m.group(1)) && !m.group(2).isEmpty() ? m.group(1) + "=" + MASK
                    : m.group();
            m.appendReplacement(sb, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(sb);
        m = USER_INFO.matcher(sb.toString());
        sb = new StringBuilder();
        while (m.find()) {
            String replacement = m.group(3).isEmpty() ? m.group() : m.group(1) + m.group(2) + ":" + MASK + "@";
            m.appendReplacement(sb, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /**
     * The secrets among connector settings: the value of every setting whose name says it holds one
     * ({@link #isSecretName}), and the password of any {@code user:password@} in any value (a registry URL, say).
     */
    public static Set<String> secretValues(Map<String, String> settings) {
        Set<String> out = new LinkedHashSet<>();
        if (settings == null) return out;
        settings.forEach((k, v) -> {
            if (v == null || v.isEmpty()) return;
            if (isSecretName(k)) out.add(v);
            Matcher m = USER_INFO.matcher(v);
            while (m.find()) addRawAndDecoded(out, m.group(3));
        });
        out.remove("");
        return out;
    }

    /** What may be shown of a URL no parser can read: the scheme, and nothing after {@code //}. */
    static String unparseable(String url) {
        int slashes = url.indexOf("//");
        if (slashes >= 0) return url.substring(0, slashes + 2) + MASK;
        Matcher m = JDBC_PREFIX.matcher(url);
        return (m.find() ? m.group().trim() : "") + MASK;
    }

    /**
     * PgJDBC's grammar ({@code org.postgresql.Driver.parseURL}, which is not called: it logs a URL it cannot read,
     * password and all): {@code jdbc:postgresql:[//host[:port][,host[:port]...]/]database[?key=value&...]}, keys
     * and values percent-decoded; no user info. Both the decoded and the written value of each secret key.
     */
    static Set<String> postgresSecrets(String url) {
        String rest = url.substring("jdbc:postgresql:".length());
        int q = rest.indexOf('?');
        String base = q < 0 ? rest : rest.substring(0, q);
        if (base.startsWith("//") && base.indexOf('/', 2) < 0) return null;
        Set<String> out = new LinkedHashSet<>();
        if (q < 0) return out;
        for (String token : rest.substring(q + 1).split("&")) {
            if (token.isEmpty()) continue;
            int eq = token.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? token : token.substring(0, eq), StandardCharsets.UTF_8);
            if (eq < 0 || !isSecretName(key)) continue;
            String raw = token.substring(eq + 1);
            out.add(raw);
            out.add(URLDecoder.decode(raw, StandardCharsets.UTF_8));
        }
        out.remove("");
        return out;
    }

    /** The secrets the text of a URL shows as key=value or user:password@, raw and decoded. */
    static Set<String> structuralSecrets(String url) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = KEY_VALUE.matcher(url);
        while (m.find()) {
            if (isSecretName(m.group(1))) addRawAndDecoded(out, m.group(2));
        }
        m = USER_INFO.matcher(url);
        while (m.find()) addRawAndDecoded(out, m.group(3));
        out.remove("");
        return out;
    }

    private static void addRawAndDecoded(Set<String> out, String raw) {
        out.add(raw);
        out.add(decodeLeniently(raw));
    }

    /** %XX decoded where it is one; anything else kept as written (never fails). */
    private static String decodeLeniently(String s) {
        if (s.indexOf('%') < 0) return s;
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            Matcher m = PERCENT.matcher(s);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(sb, Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(m.group(1),
                        16))));
            }
            m.appendTail(sb);
            return sb.toString();
        }
    }

    private static String lowerHex(String encoded) {
        Matcher m = PERCENT.matcher(encoded);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, "%" + m.group(1).toLowerCase(Locale.ROOT));
        m.appendTail(sb);
        return sb.toString();
    }

    /** Connector/J's own reading of a URL; loaded only when a {@code jdbc:mysql:} URL is redacted. */
    private static final class MySqlUrls {
        static Set<String> secrets(String url) {
            // the parser ConnectionUrl.getConnectionUrlInstance reads with, called directly: that one would also
            // look a mysql+srv host up in DNS and keep the URL in its cache
            com.mysql.cj.conf.ConnectionUrlParser parsed = com.mysql.cj.conf.ConnectionUrlParser
                    .parseConnectionString(url);
            Set<String> out = new LinkedHashSet<>();
            secretValues(parsed.getProperties(), out);
            for (com.mysql.cj.conf.HostInfo h : parsed.getHosts()) {
                if (h.getPassword() != null) out.add(h.getPassword());
                secretValues(h.getHostProperties(), out);
            }
            // what the text shows may be written otherwise than the driver decoded it
            out.addAll(structuralSecrets(url));
            out.remove("");
            return out;
        }

        private static void secretValues(Map<String, String> properties, Set<String> out) {
            if (properties == null) return;
            properties.forEach((k, v) -> {
                if (v != null && isSecretName(k)) out.add(v);
            });
        }
    }
}
