package io.cdcconnect.source.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for a Confluent-compatible schema registry: just the two calls the Avro encoder and decoder make
 * (register a schema under a subject, fetch a schema by id), in memory. Used only by the source task's Avro wiring
 * test; the codec's own Avro tests run against a real Apicurio Registry, and so do the lead's pipeline tests.
 */
public final class RegistryStandIn implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Map<String, Integer> idBySchema = new ConcurrentHashMap<>();
    private final Map<Integer, String> schemaById = new ConcurrentHashMap<>();
    public final List<String> subjects = new CopyOnWriteArrayList<>();

    public RegistryStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        try {
            if (ex.getRequestMethod().equals("POST") && path.startsWith("/subjects/") && path.endsWith("/versions")) {
                String subject = URLDecoder.decode(path.substring(10, path.length() - 9), StandardCharsets.UTF_8);
                JsonNode body = JSON.readTree(ex.getRequestBody());
                String schema = body.get("schema").asText();
                int id = idBySchema.computeIfAbsent(schema, s -> idBySchema.size() + 1);
                schemaById.put(id, schema);
                if (!subjects.contains(subject)) subjects.add(subject);
                reply(ex, 200, JSON.createObjectNode().put("id", id).toString());
            } else if (ex.getRequestMethod().equals("GET") && path.startsWith("/schemas/ids/")) {
                String schema = schemaById.get(Integer.parseInt(path.substring(13)));
                if (schema == null) {
                    reply(ex, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
                } else {
                    reply(ex, 200, JSON.createObjectNode().put("schema", schema).toString());
                }
            } else {
                reply(ex, 404, "{\"error_code\":404,\"message\":\"not here\"}");
            }
        } catch (RuntimeException e) {
            reply(ex, 500, "{\"message\":\"" + e.getClass().getSimpleName() + "\"}");
        }
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
