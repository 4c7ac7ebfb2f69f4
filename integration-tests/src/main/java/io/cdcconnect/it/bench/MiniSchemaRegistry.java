package io.cdcconnect.it.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for a schema registry in the benchmark only: the two calls of the Confluent API that our Avro encoder and
 * decoder make ({@code POST /subjects/{s}/versions}, {@code GET /schemas/ids/{id}}), in memory. The integration tests
 * use a real registry (Apicurio); here it would cost a second JVM on a 2-core machine for what is one call per table
 * (clients cache ids), so it would not change the figures.
 */
public final class MiniSchemaRegistry implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Map<String, Integer> idBySchema = new HashMap<>();
    private final List<String> schemas = new ArrayList<>();

    private MiniSchemaRegistry(HttpServer server) {
        this.server = server;
    }

    public static MiniSchemaRegistry start() throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        MiniSchemaRegistry r = new MiniSchemaRegistry(s);
        s.createContext("/", r::handle);
        s.start();
        return r;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getRawPath();
            String method = ex.getRequestMethod();
            if (method.equals("POST") && path.startsWith("/subjects/") && path.endsWith("/versions")) {
                String subject = URLDecoder.decode(path.substring("/subjects/".length(), path.length() - "/versions".length()),
                        StandardCharsets.UTF_8);
                JsonNode body = JSON.readTree(ex.getRequestBody());
                String schema = body.path("schema").asText();
                int id;
                synchronized (this) {
                    id = idBySchema.computeIfAbsent(schema, k -> {
                        schemas.add(k);
                        return schemas.size();
                    });
                }
                ObjectNode reply = JSON.createObjectNode().put("id", id);
                if (subject.isEmpty()) send(ex, 422, "{\"error_code\":422,\"message\":\"empty subject\"}");
                else send(ex, 200, reply.toString());
            } else if (method.equals("GET") && path.startsWith("/schemas/ids/")) {
                int id = Integer.parseInt(path.substring("/schemas/ids/".length()).replaceAll("[/?].*", ""));
                String schema;
                synchronized (this) {
                    schema = id >= 1 && id <= schemas.size() ? schemas.get(id - 1) : null;
                }
                if (schema == null) {
                    send(ex, 404, "{\"error_code\":40403,\"message\":\"Schema " + id + " not found\"}");
                } else {
                    send(ex, 200, JSON.createObjectNode().put("schema", schema).toString());
                }
            } else {
                send(ex, 404, "{\"error_code\":404,\"message\":\"not served by the benchmark's registry\"}");
            }
        }
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
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
