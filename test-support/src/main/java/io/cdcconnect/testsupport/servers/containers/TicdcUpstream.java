package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.db.DatabaseServer;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real TiDB cluster with TiCDC, one container each, on the containers' network: PD, TiKV, TiDB (on TiKV) and a TiCDC
 * server, configured as tiflow's docker-compose integration tests configure them. {@link #tidb()} is the upstream
 * database (mapped port 4000); {@link #createChangefeed(ChangefeedSpec)} runs {@code cdc cli changefeed create} inside
 * the TiCDC container, whose Kafka sink writes to a Kafka container on the same network.
 */
public final class TicdcUpstream implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TicdcUpstream.class);
    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"([a-z_]+)\"");

    private final ServerArgs.TidbCluster names;
    private final List<GenericContainer<?>> started = new ArrayList<>();
    private GenericContainer<?> ticdc;
    private DatabaseServer tidb;

    private TicdcUpstream(ServerArgs.TidbCluster names) {
        this.names = names;
    }

    /** Starts PD, TiKV, TiDB and TiCDC, in that order, each once the one before answers. */
    public static TicdcUpstream start() {
        TicdcUpstream u = new TicdcUpstream(ServerArgs.TidbCluster.named("-" + Containers.uniqueName("u")));
        long t0 = System.nanoTime();
        try {
            u.startAll();
        } catch (RuntimeException e) {
            u.close();
            throw e;
        }
        LOG.info("TiDB cluster with TiCDC up in {} ms: {}", (System.nanoTime() - t0) / 1_000_000, u.describe());
        return u;
    }

    private void startAll() {
        DatabaseSpec tidbSpec = DatabaseSpec.tidb("8.5");
        String tidbImage = ContainerImages.forDatabase(tidbSpec);

        GenericContainer<?> pd = node(ContainerImages.image("pd"), names.pd(), "/pd-server", names.pdArgs());
        pd.withExposedPorts(ServerArgs.PD_CLIENT_PORT)
                .waitingFor(Wait.forHttp("/pd/api/v1/version").forPort(ServerArgs.PD_CLIENT_PORT).forStatusCode(200)
                        .withStartupTimeout(Containers.STARTUP_TIMEOUT));
        startNode(pd, "PD");

        GenericContainer<?> tikv = node(ContainerImages.image("tikv"), names.tikv(), "/tikv-server", names.tikvArgs());
        Containers.manyOpenFiles(tikv);
        // any HTTP answer on the status port means TiKV is up; TiDB's start below waits for it to join PD
        tikv.withExposedPorts(ServerArgs.TIKV_STATUS_PORT)
                .waitingFor(Wait.forHttp("/status").forPort(ServerArgs.TIKV_STATUS_PORT)
                        .forStatusCodeMatching(code -> code >= 200 && code < 500)
                        .withStartupTimeout(Containers.STARTUP_TIMEOUT));
        startNode(tikv, "TiKV");

        GenericContainer<?> db = node(tidbImage, names.tidb(), "/tidb-server", names.tidbArgs());
        db.withExposedPorts(ServerArgs.TIDB_PORT, ServerArgs.TIDB_STATUS_PORT)
                .waitingFor(Wait.forHttp("/status").forPort(ServerArgs.TIDB_STATUS_PORT).forStatusCode(200)
                        .withStartupTimeout(Containers.STARTUP_TIMEOUT));
        startNode(db, "TiDB (on TiKV)");
        tidb = ContainerDatabase.prepare(tidbSpec, db, tidbImage, ServerArgs.TIDB_PORT, "root", "", false);

        GenericContainer<?> cdc = node(ContainerImages.image("ticdc"), names.ticdc(), "/cdc", names.ticdcArgs());
        cdc.withExposedPorts(ServerArgs.TICDC_PORT)
                .waitingFor(Wait.forHttp("/status").forPort(ServerArgs.TICDC_PORT).forStatusCode(200)
                        .withStartupTimeout(Containers.STARTUP_TIMEOUT));
        startNode(cdc, "TiCDC");
        ticdc = cdc;
    }

    private static GenericContainer<?> node(String image, String name, String binary, List<String> args) {
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image));
        Containers.entrypoint(c, binary);
        c.withCommand(args.toArray(String[]::new))
                .withNetwork(Containers.network())
                .withNetworkAliases(name);
        return c;
    }

    private void startNode(GenericContainer<?> c, String what) {
        Containers.start(c, what);
        started.add(c);
    }

    /** The upstream TiDB (user with every privilege); it stops with the cluster, its close() does nothing. */
    public DatabaseServer tidb() {
        return tidb;
    }

    public String describe() {
        return "PD " + names.pd() + ", TiKV " + names.tikv() + ", TiDB " + names.tidb() + " at " + tidb.host() + ":"
                + tidb.port() + ", TiCDC " + names.ticdc() + " (images " + ContainerImages.image("pd") + ", "
                + ContainerImages.image("tikv") + ", " + ContainerImages.forDatabase(DatabaseSpec.tidb("8.5")) + ", "
                + ContainerImages.image("ticdc") + ")";
    }

    /**
     * Copies the changefeed's config into the TiCDC container and creates it there with {@code cdc cli}; retried while
     * TiCDC has no owner yet. Returns once the changefeed reports state {@code normal}.
     */
    public void createChangefeed(ChangefeedSpec spec) {
        ticdc.copyFileToContainer(Transferable.of(spec.configToml()), spec.configPath());
        List<String> cmd = spec.createCommand();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        Container.ExecResult r = exec(cmd);
        while (r.getExitCode() != 0) {
            String out = r.getStdout() + r.getStderr();
            if (out.contains("already exists") || System.nanoTime() > deadline) {
                throw new IllegalStateException("TiCDC did not create changefeed " + spec.id() + ": " + String.join(" ", cmd)
                        + " exited with " + r.getExitCode() + "\nstdout: " + r.getStdout() + "\nstderr: " + r.getStderr()
                        + "\nTiCDC's last lines:\n" + Containers.tail(ticdc, 30));
            }
            Containers.sleep(2000);
            r = exec(cmd);
        }
        LOG.info("changefeed {} created: sink {}", spec.id(), spec.sinkUri());
        awaitNormal(spec.id());
    }

    /** {@code cdc cli changefeed query -s}: the changefeed's state, checkpoint and error, as TiCDC prints them. */
    public String query(String changefeedId) {
        Container.ExecResult r = exec(List.of("/cdc", "cli", "changefeed", "query", "-s",
                "--server=http://127.0.0.1:" + ServerArgs.TICDC_PORT, "--changefeed-id=" + changefeedId));
        return r.getStdout() + r.getStderr();
    }

    private void awaitNormal(String id) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            last = query(id);
            Matcher m = STATE.matcher(last);
            String state = m.find() ? m.group(1) : "";
            if (state.equals("normal")) return;
            if (state.equals("failed") || state.equals("error") || state.equals("removed")) break;
            Containers.sleep(1000);
        }
        throw new IllegalStateException("changefeed " + id + " is not running normally: " + last
                + "\nTiCDC's last lines:\n" + Containers.tail(ticdc, 30));
    }

    /** Removes the changefeed (its topics stay). */
    public void removeChangefeed(ChangefeedSpec spec) {
        Container.ExecResult r = exec(spec.removeCommand());
        if (r.getExitCode() != 0) {
            throw new IllegalStateException("cdc cli changefeed remove " + spec.id() + " exited with " + r.getExitCode()
                    + ": " + r.getStdout() + r.getStderr());
        }
    }

    private Container.ExecResult exec(List<String> cmd) {
        try {
            return ticdc.execInContainer(cmd.toArray(String[]::new));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd + " in the TiCDC container: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops TiCDC, TiDB, TiKV and PD. */
    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).stop();
            } catch (RuntimeException e) {
                LOG.warn("stopping {} failed: {}", started.get(i).getDockerImageName(), e.getMessage());
            }
        }
        started.clear();
    }
}
