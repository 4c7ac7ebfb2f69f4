package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.Flavor;

import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of the containers' servers, as plain lists so that they are checked without a Docker engine.
 * Databases get the settings the embedded MariaDB gets (utf8mb4, UTC, and with a binlog ROW format with FULL row
 * images); the TiDB cluster gets the settings of tiflow's docker-compose integration tests.
 */
public final class ServerArgs {

    public static final int MYSQL_PORT = 3306;
    public static final int TIDB_PORT = 4000;
    public static final int TIDB_STATUS_PORT = 10080;
    public static final int PD_CLIENT_PORT = 2379;
    public static final int PD_PEER_PORT = 2380;
    public static final int TIKV_PORT = 20160;
    public static final int TIKV_STATUS_PORT = 20180;
    public static final int TICDC_PORT = 8300;

    private ServerArgs() {
    }

    /**
     * mysqld options for MySQL 8.x. They also undo the small-memory settings of Testcontainers' default my.cnf that
     * would break the tests (max_allowed_packet 1M stops a multi-row statement with a 70,000-character text; a table
     * cache of 4 makes every statement reopen tables).
     */
    public static List<String> mysql(DatabaseSpec spec, int serverId) {
        requireFlavor(spec, Flavor.MYSQL);
        List<String> args = new ArrayList<>(common());
        args.add("--table-open-cache=2000");
        args.add("--innodb-buffer-pool-size=128M");
        if (spec.binlog()) {
            args.add("--server-id=" + serverId);
            args.add("--log-bin=mysql-bin");
            args.add("--binlog-format=ROW");
            args.add("--binlog-row-image=FULL");
            args.add("--gtid-mode=ON");
            args.add("--enforce-gtid-consistency=ON");
        } else {
            args.add("--skip-log-bin");
        }
        return args;
    }

    /** mariadbd options; {@code --binlog-legacy-event-pos} only where the server has it (11.4 and later). */
    public static List<String> mariadb(DatabaseSpec spec, int serverId) {
        requireFlavor(spec, Flavor.MARIADB);
        List<String> args = new ArrayList<>(common());
        if (spec.binlog()) {
            args.add("--server-id=" + serverId);
            args.add("--log-bin=mariadb-bin");
            args.add("--binlog-format=ROW");
            args.add("--binlog-row-image=FULL");
            if (atLeast(spec.version(), 11, 4)) args.add("--binlog-legacy-event-pos=ON");
        } else {
            args.add("--skip-log-bin");
        }
        return args;
    }

    /**
     * A single TiDB with its embedded store (unistore, the mocktikv successor): a target only. The path is the image's
     * own default folder inside the container, gone with it.
     */
    public static List<String> tidbStandalone() {
        return List.of("--store=unistore", "--path=/tmp/tidb");
    }

    private static List<String> common() {
        return List.of("--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci",
                "--default-time-zone=+00:00", "--max-connections=300", "--max-allowed-packet=64M");
    }

    private static void requireFlavor(DatabaseSpec spec, Flavor flavor) {
        if (spec.flavor() != flavor) throw new IllegalArgumentException("not a " + flavor.label() + " spec: " + spec);
    }

    /** Whether {@code version} ("11.4", "10.11", "11.4.5") is at least {@code major.minor}. */
    static boolean atLeast(String version, int major, int minor) {
        String[] parts = version.split("\\.");
        try {
            int ma = Integer.parseInt(parts[0]);
            int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return ma > major || (ma == major && mi >= minor);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a major.minor version: " + version, e);
        }
    }

    /** The network names of one TiDB cluster (PD, TiKV, TiDB, TiCDC) and their command lines. */
    public record TidbCluster(String pd, String tikv, String tidb, String ticdc) {

        /** Names with a suffix, so that two clusters can share one Docker network. */
        public static TidbCluster named(String suffix) {
            return new TidbCluster("pd" + suffix, "tikv" + suffix, "tidb" + suffix, "ticdc" + suffix);
        }

        public List<String> pdArgs() {
            return List.of("--name=pd", "--data-dir=/data/pd",
                    "--client-urls=http://0.0.0.0:" + PD_CLIENT_PORT,
                    "--advertise-client-urls=http://" + pd + ":" + PD_CLIENT_PORT,
                    "--peer-urls=http://0.0.0.0:" + PD_PEER_PORT,
                    "--advertise-peer-urls=http://" + pd + ":" + PD_PEER_PORT,
                    "--initial-cluster=pd=http://" + pd + ":" + PD_PEER_PORT);
        }

        public List<String> tikvArgs() {
            return List.of("--addr=0.0.0.0:" + TIKV_PORT, "--advertise-addr=" + tikv + ":" + TIKV_PORT,
                    "--status-addr=0.0.0.0:" + TIKV_STATUS_PORT,
                    "--advertise-status-addr=" + tikv + ":" + TIKV_STATUS_PORT,
                    "--pd=" + pd + ":" + PD_CLIENT_PORT, "--data-dir=/data/tikv");
        }

        public List<String> tidbArgs() {
            return List.of("--store=tikv", "--path=" + pd + ":" + PD_CLIENT_PORT, "--advertise-address=" + tidb);
        }

        /**
         * {@code cdc server ...} without the binary. {@code --tz=UTC}: TiCDC writes TIMESTAMP values as text in its
         * own time zone, and the sink reads them in {@code timestamp.time.zone} (default +00:00).
         */
        public List<String> ticdcArgs() {
            return List.of("server", "--pd=http://" + pd + ":" + PD_CLIENT_PORT, "--addr=0.0.0.0:" + TICDC_PORT,
                    "--advertise-addr=" + ticdc + ":" + TICDC_PORT, "--tz=UTC", "--data-dir=/tmp/cdc_data");
        }
    }
}
