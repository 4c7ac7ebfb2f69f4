package io.cdcconnect.testsupport.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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
 * A running registry that speaks Confluent's Schema Registry API: Apicurio Registry's compatible API (embedded, a
 * child JVM) or Confluent's own (a container). Besides its URL, the two look-ups the tests make.
 */
public interface SchemaRegistry extends AutoCloseable {

    /** Base URL of the Confluent API, e.g. {@code http://127.0.0.1:41234/apis/ccompat/v7}. */
    String url();

    /** What runs, for the test report, e.g. "Apicurio Registry 3.0.9 (child JVM)". */
    String describe();

    /** The subjects registered so far ({@code GET /subjects}). */
    default List<String> subjects() throws IOException, InterruptedException {
        List<String> out = new ArrayList<>();
        for (JsonNode n : Http.get(URI.create(url() + "/subjects"))) out.add(n.asText());
        return out;
    }

    /** The latest schema registered under {@code subject}, as JSON text. */
    default String latestSchema(String subject) throws IOException, InterruptedException {
        URI uri = URI.create(url() + "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions/latest");
        return Http.get(uri).path("schema").asText();
    }

    @Override
    void close();

    /** The plain HTTP the look-ups need. */
    final class Http {
        private static final ObjectMapper JSON = new ObjectMapper();
        private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        private Http() {
        }

        static JsonNode get(URI uri) throws IOException, InterruptedException {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) throw new IOException("GET " + uri + " answered " + r.statusCode() + ": " + r.body());
            return JSON.readTree(r.body());
        }
    }
}
