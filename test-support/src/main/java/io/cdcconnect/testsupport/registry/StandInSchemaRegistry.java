package io.cdcconnect.testsupport.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A <b>stand-in</b> for a schema registry: a small in-memory HTTP server (JDK {@code com.sun.net.httpserver}, on a
 * free loopback port) that answers the few calls of Confluent's Schema Registry API that the project's
 * {@code HttpSchemaRegistryClient} and {@link SchemaRegistry}'s look-ups make. It is not a registry and does not
 * pretend to check what one checks (compatibility, references, schema canonical forms, modes).
 *
 * <p>Use it only where the registry is <em>not</em> what is tested: unit tests of the Avro schema mapping and value
 * conversions, and the benchmarks (where a real registry would cost a second JVM for what is one call per table,
 * because clients cache ids). The registry protocol itself is tested against the real Apicurio Registry
 * ({@link ApicurioRegistry}) in the codec's {@code AvroApicurioRegistryTest} and in the end-to-end tests.
 *
 * <p>What it serves, under {@link #url()} (no path prefix):
 * <ul>
 *   <li>{@code POST /subjects/{subject}/versions} with {@code {"schema":"..."}} → {@code {"id":N}}: one id per
 *       distinct schema text, ids from 1, shared by all subjects; the same schema under a subject again gets the same
 *       id and no new version. A body without a textual {@code schema} that is JSON, or with a {@code schemaType}
 *       other than {@code AVRO}, is refused with 422 and {@code error_code} 42201.</li>
 *   <li>{@code GET /schemas/ids/{id}} → {@code {"schema":"..."}}, or 404 with {@code error_code} 40403.</li>
 *   <li>{@code GET /subjects} → the subjects in the order they were first registered.</li>
 *   <li>{@code GET /subjects/{subject}/versions} → {@code [1,2,...]}; {@code GET /subjects/{subject}/versions/latest}
 *       (or {@code /versions/{n}}) → {@code {"subject","version","id","schema"}}; 404 with {@code error_code} 40401
 *       for an unknown subject, 40402 for an unknown version.</li>
 * </ul>
 * Replies carry {@code Content-Type: application/vnd.schemaregistry.v1+json}; other paths get 404, other methods 405.
 * Started with {@link #start(String, String)}, every request must carry those credentials as HTTP basic
 * authentication, else 401 with {@code error_code} 401, as Confluent's registry answers; started with
 * {@link #start()}, any {@code Authorization} header is ignored.
 *
 * <p>{@link #failFor(java.time.Duration, int)} makes it answer every request with one status (e.g. 503) for a while, as
 * a registry that is down behind its load balancer would; the requests answered so are counted in {@link #refused()}.
 *
 * <p>For assertions it counts what it was asked: {@link #registrations()} (register requests) and
 * {@link #lookups()} (look-ups by id), and lists {@link #subjects()}. Those and {@link #latestSchema(String)} read its
 * memory directly, so they need no credentials and throw no checked exceptions. {@link #close()} stops the server.
 */
public final class StandInSchemaRegistry implements SchemaRegistry {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final HttpServer server;
    private final ExecutorService executor;
    private final String expectedAuthorization;

    // Guarded by this.
    private final Map<String, Integer> idBySchema = new HashMap<>();
    private final List<String> schemaById = new ArrayList<>();
    private final Map<String, List<Integer>> versionsBySubject = new LinkedHashMap<>();

    private final AtomicInteger registrations = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile int outageStatus;
    private volatile long outageEndsNanos;
    private final AtomicInteger lookups = new AtomicInteger();

    private StandInSchemaRegistry(HttpServer server, ExecutorService executor, String expectedAuthorization) {
        this.server = server;
        this.executor = executor;
        this.expectedAuthorization = expectedAuthorization;
    }

    /** Starts a stand-in that asks for no credentials. */
    public static StandInSchemaRegistry start() throws IOException {
        return start0(null);
    }

    /** Starts a stand-in that answers only requests carrying these credentials as HTTP basic authentication. */
    public static StandInSchemaRegistry start(String username, String password) throws IOException {
        if (username == null || password == null) throw new IllegalArgumentException("username and password are required");
        return start0("Basic " + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Starts a stand-in that serves https with {@code tls}'s key and certificate (clients then need a trust store
     * holding its certificate or CA), asking for no credentials.
     */
    public static StandInSchemaRegistry startTls(javax.net.ssl.SSLContext tls) throws IOException {
        com.sun.net.httpserver.HttpsServer server = com.sun.net.httpserver.HttpsServer.create(
                new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(tls));
        return start0(null, server);
    }

    private static StandInSchemaRegistry start0(String expectedAuthorization) throws IOException {
        return start0(expectedAuthorization, HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
    }

    private static StandInSchemaRegistry start0(String expectedAuthorization, HttpServer server) {
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "stand-in-schema-registry-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        StandInSchemaRegistry registry = new StandInSchemaRegistry(server, executor, expectedAuthorization);
        server.createContext("/", registry::handle);
        server.setExecutor(executor);
        server.start();
        return registry;
    }

    /** Base URL of the API, e.g. {@code http://127.0.0.1:41234}: the paths are served at its root. */
    @Override
    public String url() {
        return (server instanceof com.sun.net.httpserver.HttpsServer ? "https" : "http") + "://127.0.0.1:" + port();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public String describe() {
        return "stand-in schema registry (in memory, test-support; not a real registry) at " + url();
    }

    /**
     * Answers every request with {@code status} and an error body (Confluent's shape) from now until {@code duration}
     * has passed, then serves normally again.
     */
    public void failFor(java.time.Duration duration, int status) {
        outageEndsNanos = System.nanoTime() + duration.toNanos();
        outageStatus = status;
    }

    /** Whether an outage started by {@link #failFor} is still going on. */
    public boolean failing() {
        return outageStatus != 0 && System.nanoTime() - outageEndsNanos < 0;
    }

    /** How many requests it answered with the outage's status. */
    public int refused() {
        return refused.get();
    }

    /** How many register requests ({@code POST /subjects/{s}/versions}) it has answered, refused ones included. */
    public int registrations() {
        return registrations.get();
    }

    /** How many look-ups by id ({@code GET /schemas/ids/{id}}) it has answered, 404s included. */
    public int lookups() {
        return lookups.get();
    }

    /** The subjects registered so far, in the order of their first registration. */
    @Override
    public synchronized List<String> subjects() {
        return List.copyOf(versionsBySubject.keySet());
    }

    /** The ids of a subject's versions, oldest first (empty for an unknown subject). */
    public synchronized List<Integer> versions(String subject) {
        return List.copyOf(versionsBySubject.getOrDefault(subject, List.of()));
    }

    /** The latest schema text registered under {@code subject}; {@link NoSuchElementException} if there is none. */
    @Override
    public synchronized String latestSchema(String subject) {
        List<Integer> versions = versionsBySubject.get(subject);
        if (versions == null) throw new NoSuchElementException("subject '" + subject + "' is not registered");
        return schemaById.get(versions.get(versions.size() - 1) - 1);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // ---- HTTP ----

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            try (InputStream in = ex.getRequestBody()) {
                byte[] body = in.readAllBytes();
                Reply reply = route(ex, body);
                send(ex, reply.status, reply.body);
            } catch (RuntimeException e) {
                send(ex, 500, error(50001, "stand-in registry failed: " + e));
            }
        }
    }

    private record Reply(int status, String body) {
    }

    private Reply route(HttpExchange ex, byte[] body) throws IOException {
        if (failing()) {
            refused.incrementAndGet();
            return new Reply(outageStatus, error(outageStatus * 100 + 1, "stand-in registry unavailable (failFor)"));
        }
        if (expectedAuthorization != null
                && !expectedAuthorization.equals(ex.getRequestHeaders().getFirst("Authorization"))) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"stand-in-schema-registry\"");
            return new Reply(401, error(401, "Unauthorized"));
        }
        String path = ex.getRequestURI().getRawPath();
        if (path.length() > 1 && path.endsWith("/")) path = path.substring(0, path.length() - 1);
        String[] parts = path.substring(1).split("/", -1);
        String method = ex.getRequestMethod();

        if (parts.length == 3 && parts[0].equals("schemas") && parts[1].equals("ids")) {
            if (!method.equals("GET")) return notAllowed();
            lookups.incrementAndGet();
            return schemaById(parts[2]);
        }
        if (parts[0].equals("subjects")) {
            if (parts.length == 1) {
                if (!method.equals("GET")) return notAllowed();
                ArrayNode list = JSON.createArrayNode();
                subjects().forEach(list::add);
                return new Reply(200, list.toString());
            }
            if (parts.length >= 3 && parts[2].equals("versions")) {
                String subject = URLDecoder.decode(parts[1], StandardCharsets.UTF_8);
                if (parts.length == 3 && method.equals("POST")) {
                    registrations.incrementAndGet();
                    return register(subject, body);
                }
                if (!method.equals("GET")) return notAllowed();
                if (parts.length == 3) return versionList(subject);
                if (parts.length == 4) return version(subject, parts[3]);
            }
        }
        return new Reply(404, error(404, "HTTP 404 Not Found: " + method + " " + path
                + " is not served by the stand-in schema registry"));
    }

    private Reply register(String subject, byte[] body) {
        if (subject.isEmpty()) return new Reply(422, error(422, "the subject is empty"));
        JsonNode request;
        try {
            request = JSON.readTree(body);
        } catch (IOException e) {
            return new Reply(422, error(42201, "Invalid schema: the request body is not JSON"));
        }
        JsonNode schema = request == null ? null : request.get("schema");
        if (schema == null || !schema.isTextual()) {
            return new Reply(422, error(42201, "Invalid schema: no \"schema\" text in the request"));
        }
        JsonNode type = request.get("schemaType");
        if (type != null && !type.isNull() && !"AVRO".equalsIgnoreCase(type.asText())) {
            return new Reply(422, error(42201, "Invalid schema: the stand-in registry holds AVRO schemas only, not "
                    + type.asText()));
        }
        String text = schema.asText();
        try {
            JSON.readTree(text);
        } catch (IOException e) {
            return new Reply(422, error(42201, "Invalid schema: the schema text is not JSON"));
        }
        int id;
        synchronized (this) {
            id = idBySchema.computeIfAbsent(text, t -> {
                schemaById.add(t);
                return schemaById.size();
            });
            List<Integer> versions = versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
            if (!versions.contains(id)) versions.add(id);
        }
        return new Reply(200, JSON.createObjectNode().put("id", id).toString());
    }

    private synchronized Reply schemaById(String rawId) {
        int id = parseInt(rawId);
        if (id < 1 || id > schemaById.size()) {
            return new Reply(404, error(40403, "Schema " + rawId + " not found"));
        }
        return new Reply(200, JSON.createObjectNode().put("schema", schemaById.get(id - 1)).toString());
    }

    private synchronized Reply versionList(String subject) {
        List<Integer> versions = versionsBySubject.get(subject);
        if (versions == null) return subjectNotFound(subject);
        ArrayNode list = JSON.createArrayNode();
        for (int v = 1; v <= versions.size(); v++) list.add(v);
        return new Reply(200, list.toString());
    }

    private synchronized Reply version(String subject, String rawVersion) {
        List<Integer> versions = versionsBySubject.get(subject);
        if (versions == null) return subjectNotFound(subject);
        int version = rawVersion.equals("latest") || rawVersion.equals("-1") ? versions.size() : parseInt(rawVersion);
        if (version < 1 || version > versions.size()) {
            return new Reply(404, error(40402, "Version " + rawVersion + " not found."));
        }
        int id = versions.get(version - 1);
        ObjectNode reply = JSON.createObjectNode()
                .put("subject", subject)
                .put("version", version)
                .put("id", id)
                .put("schema", schemaById.get(id - 1));
        return new Reply(200, reply.toString());
    }

    private static Reply subjectNotFound(String subject) {
        return new Reply(404, error(40401, "Subject '" + subject + "' not found."));
    }

    private static Reply notAllowed() {
        return new Reply(405, error(405, "HTTP 405 Method Not Allowed"));
    }

    private static int parseInt(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String error(int code, String message) {
        return JSON.createObjectNode().put("error_code", code).put("message", message).toString();
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}
