package io.cdcconnect.source.check;

import io.cdcconnect.source.SourceFlavor;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The JDBC driver properties of the source connector's own connections to the source server (start-up checks, key
 * catalog), built from the same settings Debezium reads for its connections, the same way, so that both reach the
 * server alike: {@code database.user}/{@code database.password}, {@code database.ssl.mode},
 * {@code database.ssl.truststore}/{@code .password}, {@code database.ssl.keystore}/{@code .password}, and any
 * {@code driver.*} pass-through property (e.g. {@code driver.allowPublicKeyRetrieval=true}, which is never set
 * unless asked for: it lets a server that is not who it says it is learn the password).
 *
 * <p>SSL modes are the flavour's Debezium values: MariaDB {@code disable}, {@code trust}, {@code verify-ca},
 * {@code verify-full}; MySQL {@code disabled}, {@code preferred}, {@code required}, {@code verify_ca},
 * {@code verify_identity}. Unset, each driver keeps its own default (as Debezium's does).
 */
public final class SourceConnections {

    public static final String SSL_MODE = "database.ssl.mode";
    public static final String SSL_TRUSTSTORE = "database.ssl.truststore";
    public static final String SSL_TRUSTSTORE_PASSWORD = "database.ssl.truststore.password";
    public static final String SSL_KEYSTORE = "database.ssl.keystore";
    public static final String SSL_KEYSTORE_PASSWORD = "database.ssl.keystore.password";
    private static final String DRIVER_PREFIX = "driver.";

    private SourceConnections() {
    }

    /**
     * @param settings the connector's settings as given (Connect has already resolved {@code ${provider:...}})
     * @param password database.password, or null
     */
    public static Properties properties(SourceFlavor flavor, Map<String, String> settings, String user,
                                        String password) {
        Properties p = new Properties();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            if (e.getKey().startsWith(DRIVER_PREFIX) && e.getValue() != null
                    && e.getKey().length() > DRIVER_PREFIX.length()) {
                p.setProperty(e.getKey().substring(DRIVER_PREFIX.length()), e.getValue());
            }
        }
        p.setProperty("user", user);
        p.setProperty("password", password == null ? "" : password);
        p.putIfAbsent("connectTimeout", "10000");
        String mode = trimmed(settings.get(SSL_MODE));
        if (mode == null) return p;
        String m = mode.toLowerCase(Locale.ROOT);
        // MySQL's Connector/J spells the modes in capitals with '_', MariaDB's in lower case with '-', as Debezium's
        // values for each flavour already do
        p.setProperty("sslMode", flavor == SourceFlavor.MYSQL ? m.toUpperCase(Locale.ROOT) : m);
        boolean enabled = !(m.equals("disable") || m.equals("disabled"));
        if (!enabled) return p;
        String truststore = trimmed(settings.get(SSL_TRUSTSTORE));
        if (truststore != null) {
            String url = asFileUrl(truststore);
            p.setProperty("trustCertificateKeyStoreUrl", url); // Connector/J; MariaDB's alias of trustStore
            p.setProperty("trustStore", url);
            String pw = settings.get(SSL_TRUSTSTORE_PASSWORD);
            if (pw != null && !pw.isEmpty()) {
                p.setProperty("trustCertificateKeyStorePassword", pw);
                p.setProperty("trustStorePassword", pw);
            }
        }
        String keystore = trimmed(settings.get(SSL_KEYSTORE));
        if (keystore != null) {
            String url = asFileUrl(keystore);
            p.setProperty("clientCertificateKeyStoreUrl", url);
            p.setProperty("keyStore", url);
            String pw = settings.get(SSL_KEYSTORE_PASSWORD);
            if (pw != null && !pw.isEmpty()) {
                p.setProperty("clientCertificateKeyStorePassword", pw);
                p.setProperty("keyStorePassword", pw);
            }
        }
        return p;
    }

    /**
     * Null when no password is configured or the connections verify the server ({@code verify_ca},
     * {@code verify_identity}, {@code verify-ca}, {@code verify-full}, in {@value #SSL_MODE} or a
     * {@code driver.sslMode}); otherwise the warning to log at start: anything less lets a server that is not the
     * source learn the password.
     */
    public static String unverifiedTls(SourceFlavor flavor, Map<String, String> settings, String password) {
        if (password == null || password.isEmpty()) return null;
        String mode = trimmed(settings.get(SSL_MODE));
        if (mode == null) {
            for (Map.Entry<String, String> e : settings.entrySet()) {
                if (e.getKey().equalsIgnoreCase(DRIVER_PREFIX + "sslMode")) mode = trimmed(e.getValue());
            }
        }
        String m = mode == null ? "" : mode.toLowerCase(Locale.ROOT).replace('-', '_');
        if (m.equals("verify_ca") || m.equals("verify_identity") || m.equals("verify_full")) return null;
        String best = flavor == SourceFlavor.MYSQL ? "verify_identity" : "verify-full";
        return "the password of database.user goes to the source server over a connection that is not verified TLS ("
                + SSL_MODE + " " + (mode == null ? "unset: the driver's default" : mode) + "): a server or proxy "
                + "that is not the source can learn it. Set " + SSL_MODE + "=" + best + ", with " + SSL_TRUSTSTORE
                + " holding the server's CA";
    }

    private static String asFileUrl(String path) {
        return path.startsWith("file:") ? path : "file:" + path;
    }

    private static String trimmed(String v) {
        return v == null || v.isBlank() ? null : v.trim();
    }
}
