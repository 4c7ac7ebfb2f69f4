package io.cdcconnect.sink.dialect.mysql;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * MariaDB Connector/J, the driver the sink uses for MariaDB targets (measured: {@code bench/run-driver-benchmark.sh},
 * bench/results/benchmarks-driver.md): which {@code connection.url}s, written for mysql-connector-j, it may serve, the URL
 * and properties it then gets, and what {@code connection.ssl.mode} means in its words. The one place that knows
 * MariaDB Connector/J.
 *
 * <p>A URL switches only when every option it carries means the same to both drivers: the TLS options (read through
 * {@code connection.ssl.mode}'s meaning) and {@link #SAME_MEANING}. Anything else (trust stores, time zone
 * options, several hosts, {@code jdbc:mysql+srv:}, credentials in the URL) keeps mysql-connector-j, which is then
 * what the URL was written for.
 */
public final class MariaDbConnectorJ {

    public static final String DRIVER_CLASS = "org.mariadb.jdbc.Driver";
    public static final String NAME = "MariaDB Connector/J";
    /** The port a URL without one means, to both drivers. */
    public static final int DEFAULT_PORT = 3306;

    /** {@code connection.driver}: the choice by measurement, or mysql-connector-j always. */
    public static final String SETTING_AUTO = "auto";
    public static final String SETTING_MYSQL = "mysql-connector-j";

    /** Options (lower case) with the same name and meaning in both drivers: passed on as they are. */
    private static final Set<String> SAME_MEANING = Set.of("allowpublickeyretrieval", "connecttimeout",
            "sockettimeout", "tcpkeepalive");
    /** Options only about TLS: the mode they choose is carried over ({@link MySqlFamilyDialect#effectiveSslMode}). */
    private static final Set<String> TLS = Set.of("sslmode", "usessl", "requiressl", "verifyservercertificate");
    /** Options that change nothing the sink relies on with MariaDB Connector/J (which always speaks UTF-8). */
    private static final Set<String> HARMLESS = Set.of("nulldatabasemeanscurrent", "useunicode");
    private static final Set<String> UTF8 = Set.of("utf-8", "utf8", "utf8mb4");
    private static final Pattern PLAIN_DATABASE = Pattern.compile("[A-Za-z0-9_$]*");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._\\-]+|\\[?[0-9A-Fa-f:.]+]?");

    private MariaDbConnectorJ() {
    }

    /**
     * How a URL is served: by MariaDB Connector/J ({@code url} its own, {@code options} passed on), or not
     * ({@code url} null, {@code why} says which part of the URL keeps mysql-connector-j).
     */
    public record Plan(String url, Map<String, String> options, String why) {
        public boolean switches() {
            return url != null;
        }
    }

    /** Whether MariaDB Connector/J can serve {@code mysqlUrl} with the meaning mysql-connector-j gives it. */
    public static Plan plan(String mysqlUrl) {
        if (mysqlUrl == null) return new Plan(null, Map.of(), "no URL");
        String url = mysqlUrl.trim();
        if (!url.regionMatches(true, 0, "jdbc:mysql://", 0, "jdbc:mysql://".length())) {
            return new Plan(null, Map.of(), "the URL is not of the form jdbc:mysql://host:port/");
        }
        com.mysql.cj.conf.ConnectionUrlParser parsed;
        try {
            parsed = com.mysql.cj.conf.ConnectionUrlParser.parseConnectionString(url);
        } catch (RuntimeException e) {
            return new Plan(null, Map.of(), "mysql-connector-j reads the URL otherwise");
        }
        if (parsed.getHosts().size() != 1) {
            return new Plan(null, Map.of(), "the URL names " + parsed.getHosts().size() + " hosts");
        }
        com.mysql.cj.conf.HostInfo h = parsed.getHosts().get(0);
        if (h.getUser() != null || h.getPassword() != null) {
            return new Plan(null, Map.of(), "the URL carries credentials");
        }
        String host = h.getHost();
        if (host == null || host.isEmpty() || !HOST.matcher(host).matches()) {
            return new Plan(null, Map.of(), "the URL's host is not a plain name or address");
        }
        String database = parsed.getPath() == null ? "" : parsed.getPath();
        if (!PLAIN_DATABASE.matcher(database).matches()) {
            return new Plan(null, Map.of(), "the URL's database name is not plain");
        }
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> all = new LinkedHashMap<>();
        if (parsed.getProperties() != null) all.putAll(parsed.getProperties());
        all.putAll(h.getHostProperties());
        for (Map.Entry<String, String> e : all.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            String value = e.getValue() == null ? "" : e.getValue();
            if (key.equals("user") || key.equals("password")) {
                return new Plan(null, Map.of(), "the URL carries credentials");
            }
            if (TLS.contains(key) || HARMLESS.contains(key)) continue;
            if (key.equals("characterencoding") && UTF8.contains(value.toLowerCase(Locale.ROOT))) continue;
            if (!SAME_MEANING.contains(key)) {
                return new Plan(null, Map.of(), "the URL option " + e.getKey() + " is mysql-connector-j's");
            }
            options.put(e.getKey(), value);
        }
        int port = h.getPort() > 0 ? h.getPort() : DEFAULT_PORT;
        String authority = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return new Plan("jdbc:mariadb://" + authority + ":" + port + "/" + database, options, null);
    }

    /**
     * {@code connection.ssl.mode} (as the URL and the setting choose it; null: mysql-connector-j's default,
     * preferred) as MariaDB Connector/J's sslMode. It has no "preferred": {@code tlsInUse} says whether the first
     * connection, made by mysql-connector-j with that mode, found TLS, and the same is then asked for.
     */
    public static String sslMode(String mode, boolean tlsInUse) {
        String m = mode == null ? "preferred" : mode.toLowerCase(Locale.ROOT);
        return switch (m) {
            case "disabled" -> "disable";
            case "preferred" -> tlsInUse ? "trust" : "disable";
            case "required" -> "trust";
            case "verify-ca" -> "verify-ca";
            case "verify-identity" -> "verify-full";
            default -> throw new IllegalArgumentException("unknown TLS mode '" + mode + "'");
        };
    }

    /**
     * The TLS cipher suites to offer a server whose TLS library is {@code sslLibrary} ({@code @@version_ssl_library}),
     * or null: the driver's (the JDK's) own list.
     *
     * <p>MariaDB's bundled wolfSSL ({@code "WolfSSL 5.7.6"} in MariaDB 11.4.5's release binaries, which turn TLS on by
     * default) spends about four times the server CPU on AES-GCM, the suite TLS 1.3 otherwise settles on, as on
     * ChaCha20-Poly1305: 0.37 to 0.62 s against 0.08 to 0.15 s more than plain text for 102,400 sysbench rows written
     * through MariaDB Connector/J (2026-11-29, docs/sink.md "JDBC driver"). A wolfSSL server picks the suite by its
     * own order, so ChaCha20-Poly1305 is offered alone (for TLS 1.3 and, with ECDHE, for TLS 1.2); a server that
     * refuses it (one whose
     * {@code ssl_cipher} leaves it out) is connected to again with the driver's list. Against OpenSSL, AES-GCM costs
     * the server next to nothing and the JDK less than ChaCha20: the driver's list stays.
     */
    public static String cipherSuites(String sslLibrary) {
        if (sslLibrary == null || !sslLibrary.regionMatches(true, 0, "wolfssl", 0, "wolfssl".length())) return null;
        return CHACHA20_SUITES;
    }

    /** ChaCha20-Poly1305's suites, TLS 1.3's first, as the JDK names them. */
    static final String CHACHA20_SUITES = "TLS_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,"
            + "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256";

    /**
     * The driver's properties: server-side statements, cached by the sink's own bounded cache and never by the
     * driver; no bulk protocol (it was the slowest variant measured); the connection's bounds; with TLS, the cipher
     * suites {@link #cipherSuites} chose (null: the driver's). The sink's own override the URL's, as with
     * mysql-connector-j.
     */
    public static Properties properties(Plan plan, String sslMode, String cipherSuites, long socketTimeoutMillis) {
        Properties p = new Properties();
        plan.options().forEach(p::setProperty);
        p.setProperty("useServerPrepStmts", "true");
        p.setProperty("cachePrepStmts", "false");
        p.setProperty("useBulkStmts", "false");
        p.setProperty("useBulkStmtsForInserts", "false");
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("connectTimeout", "30000");
        if (socketTimeoutMillis > 0) p.setProperty("socketTimeout", Long.toString(socketTimeoutMillis));
        p.setProperty("sslMode", sslMode);
        if (cipherSuites != null && !"disable".equals(sslMode)) p.setProperty("enabledSslCipherSuites", cipherSuites);
        return p;
    }
}
