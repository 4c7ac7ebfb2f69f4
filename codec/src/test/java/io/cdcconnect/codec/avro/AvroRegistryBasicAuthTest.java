package io.cdcconnect.codec.avro;

import com.sun.net.httpserver.HttpServer;
import io.cdcconnect.codec.UnavailableException;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Basic authentication of the registry client. Apicurio authenticates only through an OpenID Connect server, which
 * cannot run here, so this test stands up a minimal HTTP endpoint (JDK HttpServer) that demands basic auth the way
 * Confluent Schema Registry does (401 with error_code 401) and answers lookups by id.
 */
class AvroRegistryBasicAuthTest {

    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"t\",\"fields\":[]}";
    private HttpServer server;
    private final List<String> authHeaders = new CopyOnWriteArrayList<>();
    private String url;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String expected = "Basic " + Base64.getEncoder().encodeToString("alice:p@ss:word".getBytes(StandardCharsets.UTF_8));
        server.createContext("/schemas/ids/", exchange -> {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            authHeaders.add(String.valueOf(auth));
            byte[] body;
            int status;
            if (expected.equals(auth)) {
                status = 200;
                body = ("{\"schema\":" + new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(SCHEMA)
                        + "}").getBytes(StandardCharsets.UTF_8);
            } else {
                status = 401;
                body = "{\"error_code\":401,\"message\":\"Unauthorized\"}".getBytes(StandardCharsets.UTF_8);
            }
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void credentialsFromTheUrlAreSentAsBasicAuth() {
        String withUserInfo = url.replace("http://", "http://alice:p%40ss%3Aword@");
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(withUserInfo)) {
            assertEquals(Schema.Type.RECORD, client.schemaById(1).getType());
            assertEquals(url, client.describe());
        }
    }

    @Test
    void explicitCredentialsAreSentAsBasicAuth() {
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url, "alice", "p@ss:word",
                Duration.ofSeconds(5))) {
            assertEquals(Schema.Type.RECORD, client.schemaById(1).getType());
        }
    }

    @Test
    void aRejectedLoginNamesTheRegistryAndIdButNotTheSecret() {
        try (HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url, "alice", "wrong-secret",
                Duration.ofSeconds(5))) {
            // refused credentials are an operator's matter, not a bad message: the registry is unavailable
            UnavailableException e = assertThrows(UnavailableException.class, () -> client.schemaById(7));
            assertTrue(e.getMessage().contains(url), e.getMessage());
            assertTrue(e.getMessage().contains("schema id 7"), e.getMessage());
            assertTrue(e.getMessage().contains("HTTP 401"), e.getMessage());
            assertFalse(e.getMessage().contains("wrong-secret"), e.getMessage());
            assertEquals(1, authHeaders.size(), "a 4xx answer is not retried");
        }
    }
}
