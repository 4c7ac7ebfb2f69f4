package io.cdcconnect.sink;

import io.cdcconnect.codec.avro.AvroCodecFactory;
import io.cdcconnect.codec.util.Redaction;
import io.cdcconnect.codec.util.Transport;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.dialect.SqlDialect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the task says at start about secrets that would cross the network unprotected: the target's password over a
 * connection that is not verified TLS ({@value CdcSinkConfig#CONNECTION_SSL_MODE}), the schema registry's
 * credentials over plain http.
 */
final class TransportWarnings {

    private static final Logger LOG = LoggerFactory.getLogger(TransportWarnings.class);

    /** The modes that check who the server is: anything less lets an impostor learn the password. */
    private static final Set<String> VERIFIED = Set.of("verify-ca", "verify-identity");

    private TransportWarnings() {
    }

    /** Logs each of {@link #of} as a WARN. */
    static void log(CdcSinkConfig config) {
        for (String w : of(config)) LOG.warn("{}", w);
    }

    /** The warnings for {@code config}, none when nothing is exposed. */
    static List<String> of(CdcSinkConfig config) {
        List<String> out = new ArrayList<>();
        String url = config.connectionUrl();
        SqlDialect dialect = Dialects.forUrl(url);
        String configured = config.connectionSslMode();
        String mode = dialect.effectiveSslMode(url, configured);
        Set<String> inUrl = Redaction.secretsInJdbcUrl(url);
        boolean password = (config.connectionPassword() != null && !config.connectionPassword().isEmpty())
                || inUrl == null || !inUrl.isEmpty();
        if (password && !VERIFIED.contains(mode)) {
            boolean fromUrl = dialect.effectiveSslMode(url, null) != null; // null: the URL says nothing of TLS
            out.add("the password of " + CdcSinkConfig.CONNECTION_USER + " goes to " + Redaction.redactJdbcUrl(url)
                    + " over a connection that is not verified TLS (TLS mode " + mode
                    + (fromUrl ? ", chosen by " + CdcSinkConfig.CONNECTION_URL : "") + "): a server or proxy that "
                    + "is not the target can learn it. Set " + CdcSinkConfig.CONNECTION_SSL_MODE
                    + "=verify-identity" + (fromUrl ? " and drop the TLS settings from " + CdcSinkConfig.CONNECTION_URL
                    + ", which win over it" : "") + ", with the target's CA in the JVM's trust store or named in "
                    + "the URL");
        }
        Map<String, String> codec = config.inputCodecOptions();
        boolean registryCredentials = !codec.getOrDefault(AvroCodecFactory.SCHEMA_REGISTRY_USERNAME, "").isBlank()
                || !codec.getOrDefault(AvroCodecFactory.SCHEMA_REGISTRY_PASSWORD, "").isBlank();
        String registry = Transport.registryCredentialsInClear(config.schemaRegistryUrl(), registryCredentials,
                CdcSinkConfig.SCHEMA_REGISTRY_URL);
        if (registry != null) out.add(registry);
        return out;
    }

    /**
     * A hint for a failure to connect when the TLS mode needs the target to offer TLS (and, verifying, a certificate
     * the trust store accepts): empty otherwise, or when the driver's message says nothing of TLS.
     */
    static String connectHint(CdcSinkConfig config, Throwable failure) {
        SqlDialect dialect = Dialects.forUrl(config.connectionUrl());
        String mode = dialect.effectiveSslMode(config.connectionUrl(), config.connectionSslMode());
        if (mode.equals("disabled") || mode.equals("preferred")) return "";
        boolean aboutTls = false;
        for (Throwable t = failure; t != null && !aboutTls; t = t.getCause()) {
            String m = String.valueOf(t.getMessage()).toLowerCase(java.util.Locale.ROOT);
            aboutTls = m.contains("ssl") || m.contains("tls") || m.contains("certificate")
                    || t instanceof javax.net.ssl.SSLException;
        }
        if (!aboutTls) return "";
        return " (TLS mode " + mode + ": the target must offer TLS" + (VERIFIED.contains(mode) ? " with a "
                + "certificate the trust store accepts" + (mode.equals("verify-identity") ? " for this host name" : "")
                : "") + "; turn TLS on at the target, or change " + CdcSinkConfig.CONNECTION_SSL_MODE + ")";
    }
}
