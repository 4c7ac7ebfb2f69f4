package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.db.DatabaseSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServerArgsTest {

    @Test
    void aMysqlSourceWritesARowBinlogWithGtids() {
        List<String> a = ServerArgs.mysql(DatabaseSpec.mysql("8.4"), 123);
        for (String expected : List.of("--server-id=123", "--log-bin=mysql-bin", "--binlog-format=ROW",
                "--binlog-row-image=FULL", "--gtid-mode=ON", "--enforce-gtid-consistency=ON",
                "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci", "--default-time-zone=+00:00",
                "--max-allowed-packet=64M")) {
            assertTrue(a.contains(expected), expected + " missing from " + a);
        }
        assertFalse(a.contains("--skip-log-bin"), a.toString());
    }

    @Test
    void aMysqlTargetHasNoBinlog() {
        List<String> a = ServerArgs.mysql(DatabaseSpec.mysql("8.0").withoutBinlog(), 123);
        assertTrue(a.contains("--skip-log-bin"), a.toString());
        assertTrue(a.stream().noneMatch(s -> s.startsWith("--log-bin") || s.startsWith("--gtid") || s.startsWith("--server-id")),
                a.toString());
    }

    @Test
    void legacyEventPositionsOnlyWhereMariaDbHasTheOption() {
        assertTrue(ServerArgs.mariadb(DatabaseSpec.mariadb("11.4"), 7).contains("--binlog-legacy-event-pos=ON"));
        assertTrue(ServerArgs.mariadb(DatabaseSpec.mariadb("12.0"), 7).contains("--binlog-legacy-event-pos=ON"));
        List<String> old = ServerArgs.mariadb(DatabaseSpec.mariadb("10.11"), 7);
        assertFalse(old.contains("--binlog-legacy-event-pos=ON"), old.toString());
        assertTrue(old.containsAll(List.of("--server-id=7", "--log-bin=mariadb-bin", "--binlog-format=ROW",
                "--binlog-row-image=FULL")), old.toString());
        assertTrue(ServerArgs.mariadb(DatabaseSpec.mariadb("11.4").withoutBinlog(), 7).contains("--skip-log-bin"));
    }

    @Test
    void argumentsAreRefusedForAnotherFamily() {
        assertThrows(IllegalArgumentException.class, () -> ServerArgs.mysql(DatabaseSpec.mariadb("11.4"), 1));
        assertThrows(IllegalArgumentException.class, () -> ServerArgs.mariadb(DatabaseSpec.mysql("8.4"), 1));
        assertThrows(IllegalArgumentException.class, () -> ServerArgs.atLeast("eleven", 11, 4));
    }

    @Test
    void theTidbClusterNodesFindEachOtherByTheirNetworkNames() {
        ServerArgs.TidbCluster c = ServerArgs.TidbCluster.named("-u-3");
        assertEquals(List.of("--name=pd", "--data-dir=/data/pd", "--client-urls=http://0.0.0.0:2379",
                "--advertise-client-urls=http://pd-u-3:2379", "--peer-urls=http://0.0.0.0:2380",
                "--advertise-peer-urls=http://pd-u-3:2380", "--initial-cluster=pd=http://pd-u-3:2380"), c.pdArgs());
        assertTrue(c.tikvArgs().containsAll(List.of("--addr=0.0.0.0:20160", "--advertise-addr=tikv-u-3:20160",
                "--pd=pd-u-3:2379")), c.tikvArgs().toString());
        assertEquals(List.of("--store=tikv", "--path=pd-u-3:2379", "--advertise-address=tidb-u-3"), c.tidbArgs());
        List<String> cdc = c.ticdcArgs();
        assertEquals("server", cdc.get(0));
        assertTrue(cdc.containsAll(List.of("--pd=http://pd-u-3:2379", "--addr=0.0.0.0:8300",
                "--advertise-addr=ticdc-u-3:8300", "--tz=UTC")), cdc.toString());
    }
}
