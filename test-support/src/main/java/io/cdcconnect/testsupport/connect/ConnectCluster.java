package io.cdcconnect.testsupport.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.MBeanAttributeInfo;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A real Kafka broker and a real distributed Connect worker with its REST API ({@link EmbeddedConnectCluster}).
 * The worker's {@code plugin.path} is the folder where the build unpacked our plugin archives: the connectors are
 * loaded from there, in their own plugin class loaders, exactly as a user installs them; they are not on this
 * classpath, so a packaging mistake fails here.
 */
public final class ConnectCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectCluster.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Set in embedded mode: broker and worker in this JVM. */
    private final EmbeddedConnectCluster cluster;
    /** Set in forked mode: the broker in this JVM, the worker a child process that can be killed. */
    private final ForkedConnectWorker forked;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ConnectCluster(EmbeddedConnectCluster cluster, ForkedConnectWorker forked) {
        this.cluster = cluster;
        this.forked = forked;
    }

    /**
     * A real broker in this JVM and {@code workers} Connect workers of one group, each a separate JVM: a test can kill
     * one ({@link #killWorker(int)}), add one ({@link #addWorker()}) and stop the broker ({@link #stopBroker()}).
     */
    public static ConnectCluster startWithForkedWorkers(Path pluginDir, Path workDir, int workers) {
        return startWithForkedWorkers(pluginDir, workDir, workers, Map.of());
    }

    /**
     * As {@link #startWithForkedWorkers(Path, Path, int)}, every worker (also those added or restarted later) with
     * {@code extraWorkerProps} on top of the shared settings, e.g. {@code exactly.once.source.support=enabled}.
     */
    public static ConnectCluster startWithForkedWorkers(Path pluginDir, Path workDir, int workers,
                                                        Map<String, String> extraWorkerProps) {
        checkPluginDir(pluginDir);
        return new ConnectCluster(null, ForkedConnectWorker.start(pluginDir, workDir, brokerProps(), workers,
                extraWorkerProps));
    }

    /**
     * The broker and {@code workers} Connect workers each in a child JVM of its own, as users deploy them: nothing of
     * theirs (heap, JIT, garbage collector, CPU time) is shared with this process, which only drives them over REST,
     * Kafka's protocol and JMX. The broker sets {@code group.initial.rebalance.delay.ms} to 0, as the embedded one does
     * (Kafka's default is 3 s). It cannot be stopped alone ({@link #stopBroker()} needs it in this JVM).
     */
    public static ConnectCluster startSeparateProcesses(Path pluginDir, Path workDir, int workers,
                                                        Map<String, String> extraWorkerProps) {
        checkPluginDir(pluginDir);
        Properties props = brokerProps();
        // 0, as the broker of the harness that measures the connectors as users install them (issue 41): Kafka's
        // default of 3 s makes the first consumer of an empty group wait before it gets partitions, a cost of the
        // broker's setting and not of a connector
        props.put("group.initial.rebalance.delay.ms", "0");
        BrokerProcess broker = BrokerProcess.start(workDir.resolve("broker"), props);
        try {
            return new ConnectCluster(null, ForkedConnectWorker.start(pluginDir, workDir, broker.bootstrapServers(),
                    broker, workers, extraWorkerProps));
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
    }

    /**
     * A real broker in this JVM and one Connect worker in a child JVM whose classpath is {@code workerClasspath}, not
     * this JVM's: another Kafka release's Connect runtime (e.g. Kafka 3.9's jars), so that our plugins can be run on
     * that release's worker. {@code workerJvmOptions} are added to its command line (e.g. the logging configuration
     * its jars expect); {@code extraWorkerProps} to the shared settings, which every worker since Kafka 3.6 knows.
     */
    public static ConnectCluster startWithForkedWorkerOn(java.util.List<Path> workerClasspath,
                                                         java.util.List<String> workerJvmOptions, Path pluginDir,
                                                         Path workDir, Map<String, String> extraWorkerProps) {
        checkPluginDir(pluginDir);
        return new ConnectCluster(null, ForkedConnectWorker.start(pluginDir, workDir, brokerProps(),
                new ForkedConnectWorker.WorkerRuntime(workerClasspath, workerJvmOptions), extraWorkerProps));
    }

    /** A Connect worker in a child JVM on a broker that runs elsewhere (a container); {@code broker} stops it. */
    public static ConnectCluster startWithForkedWorker(Path pluginDir, Path workDir, String bootstrapServers,
                                                       AutoCloseable broker) {
        checkPluginDir(pluginDir);
        return new ConnectCluster(null, ForkedConnectWorker.start(pluginDir, workDir, bootstrapServers, broker,
                System.nanoTime()));
    }

    public static ConnectCluster start(Path pluginDir, Map<String, String> extraWorkerProps) {
        checkPluginDir(pluginDir);
        Map<String, String> worker = workerProps(pluginDir);
        worker.putAll(extraWorkerProps);
        Properties broker = brokerProps();
        long t0 = System.nanoTime();
        EmbeddedConnectCluster c = new EmbeddedConnectCluster.Builder()
                .name("cdc-connect")
                .numWorkers(1)
                .numBrokers(1)
                .brokerProps(broker)
                .workerProps(worker)
                .maskExitProcedures(true)
                .build();
        c.start();
        ConnectCluster cc = new ConnectCluster(c, null);
        LOG.info("Kafka broker at {} and Connect worker at {} started in {} ms", c.kafka().bootstrapServers(),
                cc.restUrl(), (System.nanoTime() - t0) / 1_000_000);
        return cc;
    }

    private static void checkPluginDir(Path pluginDir) {
        if (!Files.isDirectory(pluginDir)) {
            throw new IllegalStateException("plugin folder " + pluginDir + " does not exist: build the plugin archives first "
                    + "(mvn -DskipTests install) so that integration-tests can unpack them");
        }
    }

    /** Worker settings both modes share. */
    public static Map<String, String> workerProps(Path pluginDir) {
        Map<String, String> worker = new HashMap<>();
        worker.put(WorkerConfig.PLUGIN_PATH_CONFIG, pluginDir.toAbsolutePath().toString());
        // service_load: plugins are found only through their ServiceLoader manifests, so a missing manifest fails here
        worker.put("plugin.discovery", "service_load");
        worker.put("offset.flush.interval.ms", "1000");
        worker.put("connector.client.config.override.policy", "All");
        worker.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG, "org.apache.kafka.connect.converters.ByteArrayConverter");
        worker.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG, "org.apache.kafka.connect.converters.ByteArrayConverter");
        return worker;
    }

    private static Properties brokerProps() {
        Properties broker = new Properties();
        broker.put("auto.create.topics.enable", "false");
        broker.put("log.flush.interval.messages", "1000000");
        // one broker: transactions (exactly-once source tasks) need their state log to fit on it
        broker.put("transaction.state.log.replication.factor", "1");
        broker.put("transaction.state.log.min.isr", "1");
        // a killed worker's transaction is aborted soon after it times out (the broker looks every 10 s by default)
        broker.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        return broker;
    }

    /** The process ids of the forked workers; empty when the workers run in this JVM. */
    public java.util.List<Long> workerPids() {
        return forked != null ? forked.pids() : java.util.List.of();
    }

    public String bootstrapServers() {
        return forked != null ? forked.bootstrapServers() : cluster.kafka().bootstrapServers();
    }

    /** The REST address of a running worker, e.g. http://localhost:8083/. */
    public URI restUrl() {
        if (forked != null) return forked.restUrl();
        return cluster.healthyWorkers().stream().findFirst()
                .map(w -> ((WorkerHandle) w).url())
                .orElseThrow(() -> new IllegalStateException("no healthy Connect worker"));
    }

    /** {@code DELETE /connectors/{name}}: the connector and its tasks go; its stored offsets stay. */
    public void deleteConnector(String name) {
        send("DELETE", "/connectors/" + name, null);
    }

    /** {@code PUT /connectors/{name}/stop}: tasks stop, the connector stays registered (its offsets may be reset). */
    public void stopConnector(String name) {
        send("PUT", "/connectors/" + name + "/stop", null);
    }

    /** {@code PUT /connectors/{name}/resume}. */
    public void resumeConnector(String name) {
        send("PUT", "/connectors/" + name + "/resume", null);
    }

    /** {@code GET /connectors/{name}/offsets}: the offsets the worker has committed for the connector, as JSON. */
    public String offsets(String name) {
        return send("GET", "/connectors/" + name + "/offsets", null);
    }

    /** {@code DELETE /connectors/{name}/offsets} on a stopped connector: it starts over (a re-snapshot). */
    public String resetOffsets(String name) {
        return send("DELETE", "/connectors/" + name + "/offsets", null);
    }

    /** {@code POST /connectors/{name}/restart?includeTasks=true}: the connector and every task restart. */
    public void restartConnector(String name) {
        send("POST", "/connectors/" + name + "/restart?includeTasks=true&onlyFailed=false", null);
    }

    /** {@code POST /connectors/{name}/tasks/{task}/restart}. */
    public void restartTask(String name, int task) {
        send("POST", "/connectors/" + name + "/tasks/" + task + "/restart", null);
    }

    /** Sends a REST request; returns the body, or fails with the worker's status and message. */
    private String send(String method, String path, String body) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(restUrl().resolve(path)).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json");
            b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> resp = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            // A worker answers 409 while the group rebalances ("no known leader URL"); Connect's own clients ask again.
            for (int attempt = 1; resp.statusCode() == 409 && attempt <= 40; attempt++) {
                LOG.info("{} {} answered 409 during a rebalance, asking again ({}/40)", method, path, attempt);
                sleep(500);
                resp = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            }
            if (resp.statusCode() >= 300) {
                throw new IllegalStateException(method + " " + path + " answered " + resp.statusCode() + ": " + resp.body());
            }
            LOG.info("{} {} ({})", method, path, resp.statusCode());
            return resp.body();
        } catch (IOException e) {
            throw new IllegalStateException("Connect REST API unreachable: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the connector reports {@code state} (e.g. STOPPED). */
    public void awaitConnectorState(String name, String state, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = status(name);
            if (last != null && state.equals(last.path("connector").path("state").asText())) return;
            sleep(250);
        }
        throw new IllegalStateException("connector " + name + " not " + state + " after " + timeout + ": " + last);
    }

    /** {@code PUT /connectors/{name}/config}, as a user would; fails with the worker's own message on error. */
    public void putConnector(String name, Map<String, String> config) {
        try {
            String body = JSON.writeValueAsString(config);
            HttpRequest req = HttpRequest.newBuilder(restUrl().resolve("/connectors/" + name + "/config"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            for (int attempt = 1; resp.statusCode() == 409 && attempt <= 40; attempt++) {
                LOG.info("PUT /connectors/{}/config answered 409 during a rebalance, asking again ({}/40)", name, attempt);
                sleep(500);
                resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            }
            if (resp.statusCode() >= 300) {
                throw new IllegalStateException("PUT /connectors/" + name + "/config answered " + resp.statusCode()
                        + ": " + resp.body());
            }
            LOG.info("connector {} configured over REST ({})", name, resp.statusCode());
        } catch (IOException e) {
            throw new IllegalStateException("Connect REST API unreachable: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code PUT /connector-plugins/{class}/config/validate}, as a UI asks before it saves a connector: the worker's
     * answer (per setting: value, recommended values, visibility, errors), which the caller also checks for secrets.
     */
    public JsonNode validate(String connectorClass, Map<String, String> config) {
        String plugin = connectorClass.substring(connectorClass.lastIndexOf('.') + 1);
        try {
            String body = send("PUT", "/connector-plugins/" + plugin + "/config/validate",
                    JSON.writeValueAsString(config));
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the validation answer: " + e.getMessage(), e);
        }
    }

    /** {@code GET /connectors/{name}/status}, or null when the connector is unknown. */
    public JsonNode status(String name) {
        try {
            HttpRequest req = HttpRequest.newBuilder(restUrl().resolve("/connectors/" + name + "/status"))
                    .timeout(Duration.ofSeconds(30)).GET().build();
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            if (resp.statusCode() == 404) return null;
            return JSON.readTree(resp.body());
        } catch (IOException e) {
            throw new IllegalStateException("Connect REST API unreachable: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the connector and all of its tasks report RUNNING; fails at once with the trace of a FAILED task. */
    public void awaitRunning(String name, int tasks, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = status(name);
            if (last != null) {
                failIfFailed(name, last);
                boolean connectorUp = "RUNNING".equals(last.path("connector").path("state").asText());
                int running = 0;
                for (JsonNode t : last.path("tasks")) {
                    if ("RUNNING".equals(t.path("state").asText())) running++;
                }
                if (connectorUp && running >= tasks) return;
            }
            sleep(250);
        }
        throw new IllegalStateException("connector " + name + " not running after " + timeout + ": " + last);
    }

    /** Throws when the connector or a task has FAILED, with the worker's trace. */
    public void assertNotFailed(String name) {
        JsonNode s = status(name);
        if (s != null) failIfFailed(name, s);
    }

    private static void failIfFailed(String name, JsonNode s) {
        if ("FAILED".equals(s.path("connector").path("state").asText())) {
            throw new IllegalStateException("connector " + name + " FAILED: " + s.path("connector").path("trace").asText());
        }
        for (JsonNode t : s.path("tasks")) {
            if ("FAILED".equals(t.path("state").asText())) {
                throw new IllegalStateException("task " + name + "-" + t.path("id").asInt() + " FAILED: "
                        + t.path("trace").asText());
            }
        }
    }

    /**
     * Stops the only worker and starts a fresh one in the same group: tasks stop mid-stream and resume from the
     * offsets that were committed, as after a worker restart in production.
     */
    public void restartWorker() {
        if (forked != null) {
            forked.restart(false);
            return;
        }
        WorkerHandle old = cluster.workers().iterator().next();
        long t0 = System.nanoTime();
        cluster.removeWorker(old);
        cluster.addWorker();
        LOG.info("Connect worker restarted in {} ms; REST now at {}", (System.nanoTime() - t0) / 1_000_000, restUrl());
    }

    /**
     * Kills the worker process with SIGKILL (no task stop, no offset flush, no producer flush) and starts a new one:
     * only in forked mode.
     */
    public void killAndRestartWorker() {
        if (forked == null) throw new IllegalStateException("killing needs a forked worker (startWithForkedWorkers)");
        forked.restart(true);
    }

    /** Forked workers only: SIGKILLs worker {@code index} (0 = the oldest running) and leaves it dead. */
    public void killWorker(int index) {
        forkedOnly("killing a worker").stop(index, true);
    }

    /** Forked workers only: starts one more worker in the group. */
    public void addWorker() {
        forkedOnly("adding a worker").addWorker();
    }

    /** How many workers run. */
    public int workerCount() {
        return forked != null ? forked.workerCount() : cluster.workers().size();
    }

    /** Forked workers only: stops the broker, leaving the workers running without it. */
    public void stopBroker() {
        forkedOnly("stopping the broker").stopBroker();
    }

    /** Forked workers only: starts the stopped broker again on its port. */
    public void startBroker() {
        forkedOnly("starting the broker").startBroker();
    }

    /**
     * The numeric (and boolean, as 1 or 0) attributes of the MBeans matching the JMX pattern {@code pattern}, each
     * summed over the matching MBeans and the running workers, by attribute name; e.g. a sink connector's
     * {@code buffer-bytes} over its tasks. Forked workers are asked over their JMX port, an embedded one in this JVM.
     */
    public Map<String, Double> workerMetrics(String pattern) {
        Map<String, Double> out = new java.util.TreeMap<>();
        eachWorkersJmx(server -> {
            for (ObjectName n : server.queryNames(new ObjectName(pattern), null)) {
                for (MBeanAttributeInfo a : server.getMBeanInfo(n).getAttributes()) {
                    Object v;
                    try {
                        v = server.getAttribute(n, a.getName());
                    } catch (javax.management.JMException | RuntimeException e) {
                        continue; // an attribute the MBean cannot give now (Kafka's, Debezium's) is not a metric
                    }
                    if (v instanceof Number num) out.merge(a.getName(), num.doubleValue(), Double::sum);
                    else if (v instanceof Boolean b) out.merge(a.getName(), b ? 1.0 : 0.0, Double::sum);
                }
            }
        });
        return out;
    }

    /** {@code attribute} of every MBean matching {@code pattern} in the running worker(s). */
    public java.util.List<Object> workerAttributes(String pattern, String attribute) {
        java.util.List<Object> out = new java.util.ArrayList<>();
        eachWorkersJmx(server -> {
            for (ObjectName n : server.queryNames(new ObjectName(pattern), null)) {
                out.add(server.getAttribute(n, attribute));
            }
        });
        return out;
    }

    /** One readable attribute of an MBean of a worker, with its value as the MBean gave it. */
    public record WorkerAttribute(ObjectName mbean, String attribute, Object value) {
    }

    /**
     * Every attribute of the MBeans matching {@code pattern} in the running worker(s) whose value is a number, a
     * boolean or a string (what a JMX exporter reads), in the order the workers give them; an attribute the MBean
     * cannot give now is left out.
     */
    public java.util.List<WorkerAttribute> workerAttributeValues(String pattern) {
        java.util.List<WorkerAttribute> out = new java.util.ArrayList<>();
        eachWorkersJmx(server -> {
            for (ObjectName n : server.queryNames(new ObjectName(pattern), null)) {
                MBeanAttributeInfo[] attributes;
                try {
                    attributes = server.getMBeanInfo(n).getAttributes();
                } catch (javax.management.InstanceNotFoundException e) {
                    continue; // unregistered since the query
                }
                for (MBeanAttributeInfo a : attributes) {
                    if (!a.isReadable()) continue;
                    Object v;
                    try {
                        v = server.getAttribute(n, a.getName());
                    } catch (javax.management.JMException | RuntimeException e) {
                        continue;
                    }
                    if (v instanceof Number || v instanceof Boolean || v instanceof String) {
                        out.add(new WorkerAttribute(n, a.getName(), v));
                    }
                }
            }
        });
        return out;
    }

    /** The names of the MBeans matching {@code pattern} in the running worker(s). */
    public java.util.List<String> workerMBeans(String pattern) {
        java.util.List<String> out = new java.util.ArrayList<>();
        eachWorkersJmx(server -> {
            for (ObjectName n : server.queryNames(new ObjectName(pattern), null)) out.add(n.toString());
        });
        return out;
    }

    private void eachWorkersJmx(ForkedConnectWorker.JmxQuery query) {
        if (forked != null) {
            forked.eachWorkersJmx(query);
            return;
        }
        try {
            query.ask(ManagementFactory.getPlatformMBeanServer());
        } catch (IOException | javax.management.JMException e) {
            throw new IllegalStateException("cannot read the worker's JMX: " + e, e);
        }
    }

    private ForkedConnectWorker forkedOnly(String what) {
        if (forked == null) throw new IllegalStateException(what + " needs forked workers (startWithForkedWorkers)");
        return forked;
    }

    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (forked != null) forked.close();
        else cluster.stop();
    }
}
