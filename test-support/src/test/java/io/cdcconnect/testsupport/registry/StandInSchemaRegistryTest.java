package io.cdcconnect.testsupport.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The stand-in registry answers the Confluent API calls the project's client and look-ups make, over real HTTP. */
class StandInSchemaRegistryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String A = "{\"type\":\"record\",\"name\":\"a\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}";
    private static final String B = "{\"type\":\"record\",\"name\":\"b\",\"fields\":[{\"name\":\"y\",\"type\":\"string\"}]}";

    private StandInSchemaRegistry registry;

    @BeforeEach
    void start() throws IOException {
        registry = StandInSchemaRegistry.start();
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    @Test
    void oneIdPerDistinctSchemaTextFromOneAndNoNewVersionForTheSameSchema() throws Exception {
        assertEquals(1, register("t-value", A));
        assertEquals(1, register("t-value", A), "the same schema under the same subject keeps its id");
        assertEquals(2, register("t-value", B));
        assertEquals(1, register("other-value", A), "ids are per schema text, across subjects");
        assertEquals(4, registry.registrations());
        assertEquals(List.of(1, 2), registry.versions("t-value"));
        assertEquals(List.of(1), registry.versions("other-value"));
        assertEquals(JSON.readTree("[1,2]"), get("/subjects/t-value/versions").body);
    }

    @Test
    void schemasAreFoundByIdAndAnUnknownIdIsA40403() throws Exception {
        int id = register("t-value", A);
        Reply found = get("/schemas/ids/" + id);
        assertEquals(200, found.status);
        assertEquals(A, found.body.get("schema").asText());

        Reply missing = get("/schemas/ids/99");
        assertEquals(404, missing.status);
        assertEquals(40403, missing.body.get("error_code").asInt());
        assertEquals(404, get("/schemas/ids/0").status);
        assertEquals(404, get("/schemas/ids/not-a-number").status);
        assertEquals(4, registry.lookups());
        assertEquals(1, registry.registrations());
    }

    @Test
    void subjectsAreListedInRegistrationOrderAndTheLatestVersionIsServed() throws Exception {
        register("z_topic-key", A);
        register("a topic.x-value", B); // a space, sent as %20
        register("z_topic-key", B);

        List<String> expected = List.of("z_topic-key", "a topic.x-value");
        assertEquals(expected, registry.subjects());
        assertEquals(JSON.valueToTree(expected), get("/subjects").body);

        // SchemaRegistry's default look-ups, which go over HTTP (URLEncoder: the space as '+').
        assertEquals(expected, SchemaRegistryLookups.subjects(registry));
        assertEquals(B, SchemaRegistryLookups.latestSchema(registry, "z_topic-key"));
        assertEquals(B, SchemaRegistryLookups.latestSchema(registry, "a topic.x-value"));
        assertEquals(B, registry.latestSchema("z_topic-key"));

        JsonNode latest = get("/subjects/z_topic-key/versions/latest").body;
        assertEquals("z_topic-key", latest.get("subject").asText());
        assertEquals(2, latest.get("version").asInt());
        assertEquals(2, latest.get("id").asInt());
        assertEquals(B, latest.get("schema").asText());
        assertEquals(A, get("/subjects/z_topic-key/versions/1").body.get("schema").asText());

        assertEquals(40401, get("/subjects/nobody/versions/latest").body.get("error_code").asInt());
        assertEquals(40402, get("/subjects/z_topic-key/versions/3").body.get("error_code").asInt());
        assertThrows(java.util.NoSuchElementException.class, () -> registry.latestSchema("nobody"));
    }

    @Test
    void aBodyWithoutAnAvroSchemaIsRefusedWith42201() throws Exception {
        Reply noSchema = post("/subjects/t-value/versions", "{\"schemma\":\"x\"}", null);
        assertEquals(422, noSchema.status);
        assertEquals(42201, noSchema.body.get("error_code").asInt());
        Reply notJson = post("/subjects/t-value/versions", JSON.createObjectNode().put("schema", "{nope").toString(), null);
        assertEquals(42201, notJson.body.get("error_code").asInt());
        Reply protobuf = post("/subjects/t-value/versions", JSON.createObjectNode().put("schema", "\"int\"")
                .put("schemaType", "PROTOBUF").toString(), null);
        assertEquals(42201, protobuf.body.get("error_code").asInt());
        assertEquals(List.of(), registry.subjects());
        assertEquals(3, registry.registrations());
    }

    @Test
    void withCredentialsEveryRequestNeedsBasicAuth() throws Exception {
        try (StandInSchemaRegistry secured = StandInSchemaRegistry.start("alice", "p@ss:word")) {
            String body = JSON.createObjectNode().put("schema", A).toString();
            String path = secured.url() + "/subjects/t-value/versions";
            Reply anonymous = send(HttpRequest.newBuilder(URI.create(path))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
            assertEquals(401, anonymous.status);
            assertEquals(401, anonymous.body.get("error_code").asInt());
            String wrong = "Basic " + Base64.getEncoder().encodeToString("alice:nope".getBytes(StandardCharsets.UTF_8));
            assertEquals(401, send(HttpRequest.newBuilder(URI.create(secured.url() + "/subjects"))
                    .header("Authorization", wrong).GET().build()).status);
            assertEquals(List.of(), secured.subjects());

            String right = "Basic " + Base64.getEncoder().encodeToString("alice:p@ss:word".getBytes(StandardCharsets.UTF_8));
            Reply ok = send(HttpRequest.newBuilder(URI.create(path)).header("Authorization", right)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
            assertEquals(200, ok.status);
            assertEquals(1, ok.body.get("id").asInt());
            assertEquals(List.of("t-value"), secured.subjects());
        }
    }

    @Test
    void otherPathsAndMethodsAreRefused() throws Exception {
        assertEquals(404, get("/config").status);
        assertEquals(405, send(HttpRequest.newBuilder(URI.create(registry.url() + "/schemas/ids/1"))
                .DELETE().build()).status);
        assertEquals(405, post("/subjects", "{}", null).status);
    }

    // ---- plumbing ----

    private record Reply(int status, JsonNode body) {
    }

    private int register(String subject, String schema) throws Exception {
        String path = "/subjects/" + java.net.URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20")
                + "/versions";
        Reply r = post(path, JSON.createObjectNode().put("schema", schema).toString(),
                "application/vnd.schemaregistry.v1+json");
        assertEquals(200, r.status, r.body.toString());
        return r.body.get("id").asInt();
    }

    private Reply get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(registry.url() + path)).GET().build());
    }

    private Reply post(String path, String body, String contentType) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(registry.url() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (contentType != null) b.header("Content-Type", contentType);
        return send(b.build());
    }

    private static Reply send(HttpRequest request) throws Exception {
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals("application/vnd.schemaregistry.v1+json", r.headers().firstValue("Content-Type").orElse(null));
        return new Reply(r.statusCode(), JSON.readTree(r.body()));
    }

    /** SchemaRegistry's default (HTTP) look-ups, which the stand-in overrides with reads of its memory. */
    private static final class SchemaRegistryLookups implements SchemaRegistry {
        private final String url;

        private SchemaRegistryLookups(String url) {
            this.url = url;
        }

        static List<String> subjects(StandInSchemaRegistry r) throws IOException, InterruptedException {
            return new SchemaRegistryLookups(r.url()).subjects();
        }

        static String latestSchema(StandInSchemaRegistry r, String subject) throws IOException, InterruptedException {
            return new SchemaRegistryLookups(r.url()).latestSchema(subject);
        }

        @Override
        public String url() {
            return url;
        }

        @Override
        public String describe() {
            return "the defaults of SchemaRegistry at " + url;
        }

        @Override
        public void close() {
        }
    }
}
