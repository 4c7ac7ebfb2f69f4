package io.cdcconnect.testsupport.connect;

import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A real Kafka broker (in this JVM, or a container's) and one or more distributed Connect workers
 * ({@code ConnectDistributed}) of one group, each in a child JVM on the same classpath. A child can be killed with
 * SIGKILL: no graceful task stop, no final offset commit, no producer flush, exactly what a crash leaves behind. Each
 * worker's output goes to {@code worker-N.log} in the work folder, and each serves JMX on a port of its own so that a
 * test can read the connectors' meters.
 */
final class ForkedConnectWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ForkedConnectWorker.class);

    /** JVM options added to every worker's command line (space-separated), for profiling; none by default. */
    static final String WORKER_JVM_OPTIONS = "cdc.worker.jvm.options";

    /** How long a graceful stop may take before the worker is killed. */
    static final long GRACEFUL_STOP_SECONDS = 60;

    /** One worker process. */
    private record Worker(Process process, int restPort, int jmxPort, Path log) {
        URI restUrl() {
            return URI.create("http://127.0.0.1:" + restPort + "/");
        }
    }

    private final String bootstrapServers;
    private final AutoCloseable broker;
    /** The broker when it runs in this JVM (it can then be stopped and started again), else null. */
    private final EmbeddedKafkaCluster kafka;
    private final Path pluginDir;
    private final Path workDir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Thread reaper;
    private final List<Worker> workers = new ArrayList<>();
    /** Settings every worker gets on top of the shared ones. */
    private final Map<String, String> extraProps;
    /** What a worker runs on: this JVM's classpath (null), or another Kafka release's Connect runtime. */
    private final WorkerRuntime runtime;
    private int generation;

    /**
     * A worker's classpath and extra JVM options: e.g. the jars of an older Kafka release's Connect runtime, to run our
     * plugins on that release's worker.
     */
    record WorkerRuntime(List<Path> classpath, List<String> jvmOptions) {
        WorkerRuntime {
            classpath = List.copyOf(classpath);
            jvmOptions = List.copyOf(jvmOptions);
        }

        String classpathString() {
            return String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList());
        }
    }

    private ForkedConnectWorker(String bootstrapServers, AutoCloseable broker, EmbeddedKafkaCluster kafka,
                                Path pluginDir, Path workDir, Map<String, String> extraProps, WorkerRuntime runtime) {
        this.extraProps = Map.copyOf(extraProps);
        this.runtime = runtime;
        this.bootstrapServers = bootstrapServers;
        this.broker = broker;
        this.kafka = kafka;
        this.pluginDir = pluginDir;
        this.workDir = workDir;
        this.reaper = new Thread(this::destroyNow, "forked-connect-worker-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /** A broker in this JVM and {@code count} workers, each with {@code extraProps} on top of the shared settings. */
    static ForkedConnectWorker start(Path pluginDir, Path workDir, Properties brokerProps, int count,
                                     Map<String, String> extraProps) {
        long t0 = System.nanoTime();
        EmbeddedKafkaCluster kafka = new EmbeddedKafkaCluster(1, brokerProps);
        kafka.start();
        return start(pluginDir, workDir, kafka.bootstrapServers(), kafka::stop, kafka, count, extraProps, null, t0);
    }

    /**
     * A broker in this JVM and one worker on {@code runtime} (its own classpath: another Kafka release's Connect
     * runtime), with {@code extraProps} on top of the shared settings.
     */
    static ForkedConnectWorker start(Path pluginDir, Path workDir, Properties brokerProps, WorkerRuntime runtime,
                                     Map<String, String> extraProps) {
        long t0 = System.nanoTime();
        EmbeddedKafkaCluster kafka = new EmbeddedKafkaCluster(1, brokerProps);
        kafka.start();
        return start(pluginDir, workDir, kafka.bootstrapServers(), kafka::stop, kafka, 1, extraProps, runtime, t0);
    }

    /** {@code count} workers on a broker that runs in another process; {@code broker} is closed with the workers. */
    static ForkedConnectWorker start(Path pluginDir, Path workDir, String bootstrapServers, AutoCloseable broker,
                                     int count, Map<String, String> extraProps) {
        return start(pluginDir, workDir, bootstrapServers, broker, null, count, extraProps, null, System.nanoTime());
    }

    /** A worker on a broker that runs elsewhere (e.g. a container); {@code broker} is closed with the worker. */
    static ForkedConnectWorker start(Path pluginDir, Path workDir, String bootstrapServers, AutoCloseable broker, long t0) {
        return start(pluginDir, workDir, bootstrapServers, broker, null, 1, Map.of(), null, t0);
    }

    private static ForkedConnectWorker start(Path pluginDir, Path workDir, String bootstrapServers, AutoCloseable broker,
                                             EmbeddedKafkaCluster kafka, int count, Map<String, String> extraProps,
                                             WorkerRuntime runtime, long t0) {
        ForkedConnectWorker w = new ForkedConnectWorker(bootstrapServers, broker, kafka, pluginDir, workDir,
                extraProps, runtime);
        try {
            for (int i = 0; i < count; i++) w.launch();
        } catch (RuntimeException e) {
            w.close();
            throw e;
        }
        LOG.info("Kafka broker at {} and {} forked Connect worker(s) at {} started in {} ms", bootstrapServers, count,
                w.restUrl(), (System.nanoTime() - t0) / 1_000_000);
        return w;
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    /** The operating-system process ids of the running workers (for CPU accounting by a benchmark). */
    public List<Long> pids() {
        List<Long> out = new ArrayList<>();
        for (Worker w : workers) out.add(w.process().pid());
        return out;
    }

    /** The REST address of the oldest running worker. */
    URI restUrl() {
        if (workers.isEmpty()) throw new IllegalStateException("no Connect worker is running");
        return workers.get(0).restUrl();
    }

    int workerCount() {
        return workers.size();
    }

    /** Stops every worker (SIGKILL when {@code kill}, else SIGTERM and a graceful shutdown) and starts as many anew. */
    void restart(boolean kill) {
        long t0 = System.nanoTime();
        int count = workers.size();
        while (!workers.isEmpty()) stop(0, kill);
        for (int i = 0; i < count; i++) launch();
        LOG.info("new Connect worker(s) up at {} {} ms after the old ones went down", restUrl(),
                (System.nanoTime() - t0) / 1_000_000);
    }

    /** Starts one more worker in the group. */
    void addWorker() {
        launch();
    }

    /** Stops worker {@code index} (0 = oldest): SIGKILL when {@code kill}, else a graceful shutdown. */
    void stop(int index, boolean kill) {
        Worker w = workers.remove(index);
        if (kill) {
            w.process().destroyForcibly();
        } else {
            w.process().destroy();
        }
        try {
            // a graceful stop that hangs (Jetty's and Connect's shutdown hooks have been seen to) ends in SIGKILL
            if (!w.process().waitFor(GRACEFUL_STOP_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
                LOG.warn("Connect worker at {} (pid {}) did not stop within {} s: killing it", w.restUrl(),
                        w.process().pid(), GRACEFUL_STOP_SECONDS);
                w.process().destroyForcibly();
                w.process().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            w.process().destroyForcibly();
            throw new IllegalStateException(e);
        }
        LOG.info("Connect worker at {} {} (pid {})", w.restUrl(), kill ? "killed with SIGKILL" : "stopped",
                w.process().pid());
    }

    /** Stops the broker (in this JVM only), leaving the workers running. */
    void stopBroker() {
        if (kafka == null) throw new IllegalStateException("the broker does not run in this JVM");
        kafka.stopOnlyBrokers();
        LOG.info("Kafka broker stopped");
    }

    /** Starts the stopped broker again on the same port. */
    void startBroker() {
        if (kafka == null) throw new IllegalStateException("the broker does not run in this JVM");
        kafka.restartOnlyBrokers();
        LOG.info("Kafka broker started again at {}", kafka.bootstrapServers());
    }

    /** One question to a worker's MBean server. */
    @FunctionalInterface
    interface JmxQuery {
        void ask(MBeanServerConnection server) throws IOException, javax.management.JMException;
    }

    /** Asks {@code query} of every running worker's MBean server. */
    void eachWorkersJmx(JmxQuery query) {
        for (Worker w : workers) {
            try (JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(
                    "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + w.jmxPort() + "/jmxrmi"))) {
                query.ask(c.getMBeanServerConnection());
            } catch (IOException | javax.management.JMException e) {
                throw new IllegalStateException("cannot read JMX of the worker at " + w.restUrl() + ": " + e, e);
            }
        }
    }

    private void launch() {
        try {
            int restPort = EmbeddedMariaDb.freePort();
            int jmxPort = EmbeddedMariaDb.freePort();
            generation++;
            Files.createDirectories(workDir);
            Map<String, String> props = ConnectCluster.workerProps(pluginDir);
            props.put("bootstrap.servers", bootstrapServers);
            props.put("group.id", "cdc-connect-forked");
            props.put("config.storage.topic", "connect-configs");
            props.put("offset.storage.topic", "connect-offsets");
            props.put("status.storage.topic", "connect-status");
            props.put("config.storage.replication.factor", "1");
            props.put("offset.storage.replication.factor", "1");
            props.put("status.storage.replication.factor", "1");
            props.put("listeners", "http://127.0.0.1:" + restPort);
            props.put("rest.advertised.host.name", "127.0.0.1");
            props.put("rest.advertised.port", String.valueOf(restPort));
            props.put("scheduled.rebalance.max.delay.ms", "1000");
            props.putAll(extraProps);
            Path propsFile = workDir.resolve("worker-" + generation + ".properties");
            StringBuilder sb = new StringBuilder();
            props.forEach((k, v) -> sb.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
            Files.writeString(propsFile, sb);
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx1g");
            // e.g. -Dcdc.worker.jvm.options="-XX:StartFlightRecording=filename=/tmp/worker.jfr" to profile a worker
            String extraJvm = System.getProperty(WORKER_JVM_OPTIONS, "").trim();
            if (!extraJvm.isEmpty()) cmd.addAll(List.of(extraJvm.split("\\s+")));
            if (runtime != null) cmd.addAll(runtime.jvmOptions());
            cmd.add("-Dcom.sun.management.jmxremote.port=" + jmxPort);
            cmd.add("-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort);
            cmd.add("-Dcom.sun.management.jmxremote.authenticate=false");
            cmd.add("-Dcom.sun.management.jmxremote.ssl=false");
            cmd.add("-Dcom.sun.management.jmxremote.local.only=true");
            cmd.add("-Djava.rmi.server.hostname=127.0.0.1");
            cmd.add("-cp");
            cmd.add(runtime != null ? runtime.classpathString() : System.getProperty("java.class.path"));
            cmd.add("org.apache.kafka.connect.cli.ConnectDistributed");
            cmd.add(propsFile.toString());
            Path log = workDir.resolve("worker-" + generation + ".log");
            Process process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Worker w = new Worker(process, restPort, jmxPort, log);
            workers.add(w);
            awaitHealthy(w);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a Connect worker process: " + e.getMessage(), e);
        }
    }

    private void awaitHealthy(Worker w) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!w.process().isAlive()) {
                throw new IllegalStateException("Connect worker process exited with " + w.process().exitValue()
                        + "; see " + w.log());
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(w.restUrl().resolve("/health"))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) return;
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            ConnectCluster.sleep(250);
        }
        throw new IllegalStateException("Connect worker not healthy after 120 s; see " + w.log());
    }

    private void destroyNow() {
        for (Worker w : workers) {
            if (w.process().isAlive()) w.process().destroyForcibly();
        }
    }

    @Override
    public void close() {
        for (Worker w : workers) {
            if (!w.process().isAlive()) continue;
            w.process().destroy();
            try {
                if (!w.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) w.process().destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                w.process().destroyForcibly();
            }
        }
        workers.clear();
        try {
            broker.close();
        } catch (Exception e) {
            LOG.warn("stopping the Kafka broker failed: {}", e.getMessage());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException e) {
            // already shutting down
        }
    }
}
