package io.cdcconnect.codec.avro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.CodecException;
import io.cdcconnect.codec.UnavailableException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A client of the Confluent Schema Registry REST API (also served by Apicurio Registry under
 * {@code /apis/ccompat/v7}, and by Karapace and Redpanda), over {@code java.net.http}.
 *
 * <p>Credentials come either as arguments or as user info in the URL ({@code https://user:secret@host/...}); they
 * are sent as HTTP basic authentication and never appear in logs or exception messages.
 * Ids and (subject, schema) registrations are cached for the life of the client.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {

    private static final Logger LOG = LoggerFactory.getLogger(HttpSchemaRegistryClient.class);
    private static final String ACCEPT = "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json,"
            + " application/json";
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Transient failures (connection refused, 5xx) are retried this many times before giving up. */
    private static final int RETRIES = 2;
    private static final long RETRY_BACKOFF_MS = 200;

    private final String baseUrl;
    private final String authorization;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final Map<Integer, Schema> byId = new ConcurrentHashMap<>();
    private final Map<String, Integer> bySubjectAndSchema = new ConcurrentHashMap<>();

    /** A client without credentials other than those in the URL, with 10 s timeouts. */
    public HttpSchemaRegistryClient(String url) {
        this(url, null, null, Duration.ofSeconds(10));
    }

    /**
     * @param url            the registry's base URL, e.g. {@code http://registry:8081} or
     *                       {@code http://apicurio:8080/apis/ccompat/v7}
     * @param username       basic-auth user, or null (then user info in the URL, if any, is used)
     * @param password       basic-auth password, or null
     * @param requestTimeout connect and request timeout
     */
    public HttpSchemaRegistryClient(String url, String username, String password, Duration requestTimeout) {
        this(url, username, password, requestTimeout, null);
    }

    /**
     * As above, for an https registry checked against {@code tls}'s trust (null: the JVM's default trust store);
     * host names are verified either way.
     */
    public HttpSchemaRegistryClient(String url, String username, String password, Duration requestTimeout,
                                    javax.net.ssl.SSLContext tls) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            // The input may hold a password: say only where the syntax broke.
            throw new IllegalArgumentException("schema registry URL is not a valid URI (at index " + e.getIndex() + ")");
        }
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw new IllegalArgumentException("schema registry URL needs a scheme and a host, e.g. http://host:8081");
        }
        String user = username;
        String pass = password;
        if (user == null && uri.getRawUserInfo() != null) {
            String info = uri.getUserInfo();
            int colon = info.indexOf(':');
            user = colon < 0 ? info : info.substring(0, colon);
            pass = colon < 0 ? "" : info.substring(colon + 1);
        }
        String withoutUserInfo = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "")
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
        this.baseUrl = withoutUserInfo.endsWith("/") ? withoutUserInfo.substring(0, withoutUserInfo.length() - 1)
                : withoutUserInfo;
        this.authorization = user == null ? null : "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + (pass == null ? "" : pass)).getBytes(StandardCharsets.UTF_8));
        this.requestTimeout = requestTimeout;
        HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(requestTimeout);
        if (tls != null) http.sslContext(tls);
        this.http = http.build();
    }

    @Override
    public String describe() {
        return baseUrl;
    }

    @Override
    public int register(String subject, String schemaJson, Schema schema) {
        String cacheKey = subject + '\n' + schemaJson;
        Integer cached = bySubjectAndSchema.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        String body = MAPPER.createObjectNode().put("schema", schemaJson).toString();
        String path = "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20")
                + "/versions";
        HttpRequest request = request(path)
                .header("Content-Type", CONTENT_TYPE)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        String what = "registering a schema under subject '" + subject + "'";
        JsonNode reply = send(request, what);
        JsonNode id = reply.get("id");
        if (id == null || !id.canConvertToInt()) {
            throw new CodecException("schema registry " + baseUrl + " gave no schema id when " + what);
        }
        int schemaId = id.intValue();
        bySubjectAndSchema.put(cacheKey, schemaId);
        byId.putIfAbsent(schemaId, schema);
        LOG.info("Avro schema registered under subject '{}' with id {} at {}", subject, schemaId, baseUrl);
        return schemaId;
    }

    @Override
    public Schema schemaById(int id) {
        Schema cached = byId.get(id);
        if (cached != null) {
            return cached;
        }
        String what = "fetching schema id " + id;
        JsonNode reply = send(request("/schemas/ids/" + id).GET().build(), what);
        JsonNode text = reply.get("schema");
        if (text == null || !text.isTextual()) {
            throw new CodecException("schema registry " + baseUrl + " gave no schema text when " + what);
        }
        JsonNode type = reply.get("schemaType");
        if (type != null && type.isTextual() && !"AVRO".equalsIgnoreCase(type.asText())) {
            throw new CodecException("schema id " + id + " at schema registry " + baseUrl + " is a "
                    + type.asText() + " schema, not Avro");
        }
        Schema schema;
        try {
            schema = new Schema.Parser().parse(text.asText());
        } catch (SchemaParseException e) {
            throw new CodecException("schema id " + id + " at schema registry " + baseUrl + " is not a valid Avro schema: "
                    + e.getMessage(), e);
        }
        Schema raced = byId.putIfAbsent(id, schema);
        return raced != null ? raced : schema;
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(requestTimeout)
                .header("Accept", ACCEPT);
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    private JsonNode send(HttpRequest request, String what) {
        IOException lastIo = null;
        for (int attempt = 0; attempt <= RETRIES; attempt++) {
            if (attempt > 0) {
                sleep(RETRY_BACKOFF_MS * attempt);
            }
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                lastIo = e;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UnavailableException("schema registry " + baseUrl, "interrupted while " + what
                        + " at schema registry " + baseUrl, e);
            }
            int status = response.statusCode();
            if (status / 100 == 2) {
                try {
                    return MAPPER.readTree(response.body());
                } catch (IOException e) {
                    // a proxy's or a failing registry's page: nothing to do with the message
                    throw new UnavailableException("schema registry " + baseUrl, "schema registry " + baseUrl
                            + " answered " + what + " with something other than JSON", e);
                }
            }
            if (status >= 500 && attempt < RETRIES) {
                continue;
            }
            String answer = "HTTP " + status + errorDetail(response.body());
            if (unavailable(status)) {
                throw new UnavailableException("schema registry " + baseUrl, "schema registry " + baseUrl
                        + " is unavailable: it answered " + what + " with " + answer
                        + (status == 401 || status == 403 ? " (are its credentials right?)" : ""), null);
            }
            throw new CodecException("schema registry " + baseUrl + " refused " + what + ": " + answer);
        }
        String cause = lastIo == null ? "" : ": " + lastIo.getClass().getSimpleName()
                + (lastIo.getMessage() == null ? "" : " " + lastIo.getMessage());
        throw new UnavailableException("schema registry " + baseUrl, "schema registry " + baseUrl
                + " could not be reached when " + what + " (" + (RETRIES + 1) + " attempts)" + cause, lastIo);
    }

    /**
     * An answer that says nothing about the message: the registry fails (5xx), is overloaded or slow (429, 408), or
     * refuses the client (401, 403, 407: credentials or rights, an operator's matter). Anything else (404 for an id no
     * registry has, 422) is about what was asked.
     */
    static boolean unavailable(int status) {
        return status >= 500 || status == 401 || status == 403 || status == 407 || status == 408 || status == 429;
    }

    /** The registry's own error text ({@code {"error_code":40403,"message":"..."}}), when it sent one. */
    private static String errorDetail(String body) {
        if (body == null || body.isBlank()) return "";
        try {
            JsonNode n = MAPPER.readTree(body);
            StringBuilder sb = new StringBuilder();
            if (n.hasNonNull("error_code")) sb.append(" error_code ").append(n.get("error_code").asText());
            if (n.hasNonNull("message")) sb.append(" (").append(n.get("message").asText()).append(')');
            return sb.toString();
        } catch (IOException e) {
            return "";
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        // java.net.http.HttpClient of Java 17 has no close(); its threads end with it.
    }
}
