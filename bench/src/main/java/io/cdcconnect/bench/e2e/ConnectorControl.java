package io.cdcconnect.bench.e2e;

import io.cdcconnect.testsupport.connect.ConnectCluster;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The Connect REST calls the harness's {@link ConnectCluster} does not offer: stop, resume and delete a connector,
 * and wait for a state. A stopped connector keeps its committed offsets, so resuming it reads on from there.
 */
public final class ConnectorControl {
    private final ConnectCluster connect;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public ConnectorControl(ConnectCluster connect) {
        this.connect = connect;
    }

    /** {@code PUT /connectors/{name}/stop}, then waits until the connector reports STOPPED. */
    public void stop(String name) {
        send("PUT", "/connectors/" + name + "/stop");
        awaitState(name, "STOPPED", Duration.ofSeconds(60));
    }

    /**
     * {@code PUT /connectors/{name}/config}, retried while the worker answers 409: a worker that has just joined its
     * group (after a restart) knows no leader for a few seconds.
     */
    public void put(String name, Map<String, String> config, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                connect.putConnector(name, config);
                return;
            } catch (IllegalStateException e) {
                if (!String.valueOf(e.getMessage()).contains(" answered 409") || System.nanoTime() > deadline) throw e;
                sleep(500);
            }
        }
    }

    /** {@code PUT /connectors/{name}/resume} (also restarts a STOPPED connector with its tasks). */
    public void resume(String name) {
        send("PUT", "/connectors/" + name + "/resume");
    }

    /** {@code DELETE /connectors/{name}}; unknown connectors are ignored. */
    public void delete(String name) {
        if (connect.status(name) == null) return;
        send("DELETE", "/connectors/" + name);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (connect.status(name) != null && System.nanoTime() < deadline) sleep(200);
    }

    public void awaitState(String name, String state, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = connect.status(name);
            if (last != null && state.equals(last.path("connector").path("state").asText())) return;
            sleep(200);
        }
        throw new IllegalStateException("connector " + name + " not " + state + " after " + timeout + ": " + last);
    }

    private void send(String method, String path) {
        try {
            HttpRequest req = HttpRequest.newBuilder(connect.restUrl().resolve(path)).timeout(Duration.ofSeconds(60))
                    .method(method, HttpRequest.BodyPublishers.noBody()).build();
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            if (resp.statusCode() >= 300) {
                throw new IllegalStateException(method + " " + path + " answered " + resp.statusCode() + ": " + resp.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException("Connect REST API unreachable for " + method + " " + path + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
