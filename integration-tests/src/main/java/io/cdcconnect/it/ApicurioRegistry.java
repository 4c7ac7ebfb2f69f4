package io.cdcconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cdcconnect.codec.avro.ApicurioRegistryServer;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real Apicurio Registry 3.0.x (a Quarkus app, in-memory H2 storage) run as a child JVM, serving the
 * Confluent-compatible API under {@code /apis/ccompat/v7}, plus the two look-ups the end-to-end Avro tests make.
 *
 * <p>Starting and stopping is the codec's test launcher, {@link ApicurioRegistryServer} (from the codec test-jar, the
 * only thing this module takes from it): it reads the system property {@code apicurio.registry.home}, which
 * integration-tests/pom.xml's {@code apicurio-registry-for-tests} profile sets after unpacking the distribution, and
 * makes sure no registry JVM outlives this one.
 */
public final class ApicurioRegistry implements AutoCloseable {

    public static final String HOME_PROPERTY = ApicurioRegistryServer.HOME_PROPERTY;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final ApicurioRegistryServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    private ApicurioRegistry(ApicurioRegistryServer server) {
        this.server = server;
    }

    /** Starts a registry and waits until it reports ready. */
    public static ApicurioRegistry start() throws IOException, InterruptedException {
        return new ApicurioRegistry(ApicurioRegistryServer.start());
    }

    /** Base URL of the Confluent-compatible API, e.g. {@code http://127.0.0.1:41234/apis/ccompat/v7}. */
    public String url() {
        return server.url();
    }

    public int port() {
        return server.port();
    }

    /** True while the wrapper or the registry JVM is alive. */
    public boolean isRunning() {
        return server.isRunning();
    }

    /** The subjects registered so far ({@code GET /subjects} of the Confluent-compatible API). */
    public List<String> subjects() throws IOException, InterruptedException {
        List<String> out = new ArrayList<>();
        for (JsonNode n : get(URI.create(url() + "/subjects"))) out.add(n.asText());
        return out;
    }

    /** The latest schema registered under {@code subject}, as JSON text. */
    public String latestSchema(String subject) throws IOException, InterruptedException {
        URI uri = URI.create(url() + "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8)
                + "/versions/latest");
        return get(uri).path("schema").asText();
    }

    private JsonNode get(URI uri) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IOException("GET " + uri + " answered " + r.statusCode() + ": " + r.body());
        return JSON.readTree(r.body());
    }

    @Override
    public void close() {
        server.close();
    }
}
