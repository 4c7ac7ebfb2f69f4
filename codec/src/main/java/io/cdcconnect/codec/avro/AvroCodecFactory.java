package io.cdcconnect.codec.avro;

import io.cdcconnect.codec.CodecOptions;
import io.cdcconnect.codec.EventDecoder;
import io.cdcconnect.codec.EventEncoder;
import io.cdcconnect.codec.EventEncoderFactory;
import io.cdcconnect.codec.MessageSize;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The factory of {@link io.cdcconnect.codec.WireFormat#AVRO}, from options named as TiCDC names them.
 *
 * <table>
 *   <caption>Avro options</caption>
 *   <tr><th>name</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>schema-registry</td><td>(required)</td><td>registry URL, e.g. {@code http://registry:8081} or
 *       {@code http://apicurio:8080/apis/ccompat/v7}; may hold {@code user:password@}</td></tr>
 *   <tr><td>schema-registry-username / schema-registry-password</td><td>none</td><td>basic auth</td></tr>
 *   <tr><td>schema-registry-timeout-ms</td><td>10000</td><td>connect and request timeout</td></tr>
 *   <tr><td>schema-registry-ssl-truststore-location / -password / -type</td><td>the JVM's trust store</td><td>the
 *       certificates an https registry is checked against (type PKCS12 by default, or JKS); host names are
 *       verified</td></tr>
 *   <tr><td>enable-tidb-extension</td><td>false</td><td>{@code _tidb_op}, {@code _tidb_commit_ts},
 *       {@code _tidb_commit_physical_time} in values</td></tr>
 *   <tr><td>avro-decimal-handling-mode</td><td>precise</td><td>precise (bytes, logical decimal) or string</td></tr>
 *   <tr><td>avro-bigint-unsigned-handling-mode</td><td>long</td><td>long or string</td></tr>
 *   <tr><td>avro-namespace</td><td>default</td><td>namespace prefix (TiCDC: the changefeed's namespace)</td></tr>
 *   <tr><td>max-message-bytes</td><td>10485760</td><td>a larger message fails, naming the table</td></tr>
 * </table>
 * TiCDC's large-message handling and value compression do not exist for Avro: other values than {@code none} are
 * refused.
 */
public final class AvroCodecFactory implements EventEncoderFactory {

    public static final String SCHEMA_REGISTRY = "schema-registry";
    public static final String SCHEMA_REGISTRY_USERNAME = "schema-registry-username";
    public static final String SCHEMA_REGISTRY_PASSWORD = "schema-registry-password";
    public static final String SCHEMA_REGISTRY_TIMEOUT_MS = "schema-registry-timeout-ms";
    /** A trust store (file) for an https registry whose certificate the JVM's default trust store does not hold. */
    public static final String SCHEMA_REGISTRY_TRUSTSTORE = "schema-registry-ssl-truststore-location";
    public static final String SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD = "schema-registry-ssl-truststore-password";
    public static final String SCHEMA_REGISTRY_TRUSTSTORE_TYPE = "schema-registry-ssl-truststore-type";
    public static final String DECIMAL_HANDLING = "avro-decimal-handling-mode";
    public static final String BIGINT_UNSIGNED_HANDLING = "avro-bigint-unsigned-handling-mode";
    public static final String NAMESPACE = "avro-namespace";

    /** What the decoder reads: the registry, its credentials, timeout and trust store. */
    public static final java.util.Set<String> DECODER_OPTIONS = java.util.Set.of(SCHEMA_REGISTRY,
            SCHEMA_REGISTRY_USERNAME, SCHEMA_REGISTRY_PASSWORD, SCHEMA_REGISTRY_TIMEOUT_MS, SCHEMA_REGISTRY_TRUSTSTORE,
            SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD, SCHEMA_REGISTRY_TRUSTSTORE_TYPE);

    @Override
    public java.util.Set<String> decoderOptions() {
        return DECODER_OPTIONS;
    }

    /**
     * Names and values as {@link #decoder} reads them, without making the registry client; the registry URL may come
     * later (the sink's schema.registry.url), so it is not required here.
     */
    @Override
    public void checkDecoderOptions(Map<String, String> options) {
        EventEncoderFactory.refuseUnknown(options, DECODER_OPTIONS);
        if (CodecOptions.integer(options, SCHEMA_REGISTRY_TIMEOUT_MS, 10_000) <= 0) {
            throw new IllegalArgumentException("option " + SCHEMA_REGISTRY_TIMEOUT_MS + " must be positive");
        }
        tls(options);
    }

    /** Options as {@link #encoder} reads them, without making the registry client. */
    @Override
    public void checkEncoderOptions(Map<String, String> options) {
        options(options);
        refuseUnsupported(options);
        String url = options.get(SCHEMA_REGISTRY);
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("format avro needs option " + SCHEMA_REGISTRY
                    + " (the schema registry URL, e.g. http://registry:8081)");
        }
    }

    @Override
    public EventEncoder encoder(Map<String, String> options) {
        AvroOptions o = options(options);
        int maxMessageBytes = CodecOptions.integer(options, CodecOptions.MAX_MESSAGE_BYTES,
                MessageSize.DEFAULT_MAX_MESSAGE_BYTES);
        refuseUnsupported(options);
        return new AvroEventEncoder(new AvroEncoder(o, registry(options)), maxMessageBytes);
    }

    @Override
    public EventDecoder decoder(Map<String, String> options) {
        return new AvroEventDecoder(new AvroDecoder(registry(options)));
    }

    /** The encoder settings from TiCDC-named options. */
    public static AvroOptions options(Map<String, String> o) {
        AvroOptions.DecimalHandling decimal = switch (lower(o, DECIMAL_HANDLING, "precise")) {
            case "precise" -> AvroOptions.DecimalHandling.PRECISE;
            case "string" -> AvroOptions.DecimalHandling.STRING;
            default -> throw new IllegalArgumentException("option " + DECIMAL_HANDLING
                    + " must be precise or string, was '" + o.get(DECIMAL_HANDLING) + "'");
        };
        AvroOptions.BigintUnsignedHandling bigint = switch (lower(o, BIGINT_UNSIGNED_HANDLING, "long")) {
            case "long" -> AvroOptions.BigintUnsignedHandling.LONG;
            case "string" -> AvroOptions.BigintUnsignedHandling.STRING;
            default -> throw new IllegalArgumentException("option " + BIGINT_UNSIGNED_HANDLING
                    + " must be long or string, was '" + o.get(BIGINT_UNSIGNED_HANDLING) + "'");
        };
        String namespace = o.getOrDefault(NAMESPACE, AvroOptions.DEFAULT_NAMESPACE);
        if (namespace == null || namespace.isBlank()) namespace = AvroOptions.DEFAULT_NAMESPACE;
        return new AvroOptions(namespace.trim(), CodecOptions.bool(o, CodecOptions.ENABLE_TIDB_EXTENSION, false),
                decimal, bigint);
    }

    /** A registry client from the options; the URL is required. */
    public static SchemaRegistryClient registry(Map<String, String> o) {
        String url = o.get(SCHEMA_REGISTRY);
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("format avro needs option " + SCHEMA_REGISTRY
                    + " (the schema registry URL, e.g. http://registry:8081)");
        }
        int timeoutMs = CodecOptions.integer(o, SCHEMA_REGISTRY_TIMEOUT_MS, 10_000);
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("option " + SCHEMA_REGISTRY_TIMEOUT_MS + " must be positive");
        }
        return new HttpSchemaRegistryClient(url, blankToNull(o.get(SCHEMA_REGISTRY_USERNAME)),
                o.get(SCHEMA_REGISTRY_PASSWORD), Duration.ofMillis(timeoutMs), tls(o));
    }

    /** The TLS context of the trust store options, or null for the JVM's default. */
    static javax.net.ssl.SSLContext tls(Map<String, String> o) {
        String location = blankToNull(o.get(SCHEMA_REGISTRY_TRUSTSTORE));
        if (location == null) return null;
        String type = lower(o, SCHEMA_REGISTRY_TRUSTSTORE_TYPE, "pkcs12");
        String password = o.get(SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD);
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(location.trim()))) {
            java.security.KeyStore store = java.security.KeyStore.getInstance(type.toUpperCase(Locale.ROOT));
            store.load(in, password == null || password.isEmpty() ? null : password.toCharArray());
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (java.io.IOException | java.security.GeneralSecurityException e) {
            // the message names the file and the failure, never the password
            throw new IllegalArgumentException("option " + SCHEMA_REGISTRY_TRUSTSTORE + ": cannot load the " + type
                    + " trust store " + location + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
    }

    private static void refuseUnsupported(Map<String, String> o) {
        for (String name : new String[]{CodecOptions.LARGE_MESSAGE_HANDLE, CodecOptions.COMPRESSION}) {
            String v = o.get(name);
            if (v != null && !v.isBlank() && !v.trim().equalsIgnoreCase("none")) {
                throw new IllegalArgumentException("option " + name + " is not available with format avro (was '"
                        + v + "'); TiCDC's Avro protocol has no large-message handling or value compression");
            }
        }
    }

    private static String lower(Map<String, String> o, String name, String dflt) {
        String v = o.get(name);
        return v == null || v.isBlank() ? dflt : v.trim().toLowerCase(Locale.ROOT);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
