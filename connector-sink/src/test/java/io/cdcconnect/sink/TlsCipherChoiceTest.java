package io.cdcconnect.sink;

import io.cdcconnect.codec.util.TlsCipherWarmup;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.testsupport.db.DatabaseSpec;
import io.cdcconnect.testsupport.db.EmbeddedMariaDb;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The TLS cipher the sink's connections to MariaDB 11.4 use, against real servers this test starts (MariaDB 11.4.5,
 * whose release binaries bring wolfSSL and turn TLS on by default): ChaCha20-Poly1305, chosen for the server's TLS
 * library (docs/sink.md, "TLS"), and the driver's own list, still through MariaDB Connector/J, from a server whose
 * {@code ssl_cipher} leaves ChaCha20 out.
 */
class TlsCipherChoiceTest {

    private static String status(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(2) : "";
        }
    }

    private static SinkPipeline start(EmbeddedMariaDb db) {
        CdcSinkConfig config = new CdcSinkConfig(Map.of("name", "tls-cipher", "ddl.checkpoint.database", "",
                "schema.include", "shop",
                CdcSinkConfig.CONNECTION_URL, "jdbc:mysql://" + db.host() + ":" + db.port() + "/",
                CdcSinkConfig.CONNECTION_USER, db.user(), CdcSinkConfig.CONNECTION_PASSWORD, db.password(),
                "worker.count", "1"));
        return SinkPipeline.start(config, SinkMetrics.inMemory("tls-cipher", "0"), "tls-cipher-0", "tls-cipher");
    }

    @Test
    void aWolfSslServerIsAskedForChaCha20AndOneThatRefusesItGetsTheDriversList() throws Exception {
        Path work = Path.of("target", "tls-cipher-db");
        try (EmbeddedMariaDb db = EmbeddedMariaDb.start(DatabaseSpec.mariadb("11.4").withoutBinlog(),
                work.resolve("chacha"), 7401)) {
            try (SinkPipeline p = start(db); Connection c = p.targetDataSource().getConnection()) {
                String library = status(c, "SHOW GLOBAL VARIABLES LIKE 'version_ssl_library'");
                assumeTrue(library.startsWith("WolfSSL"), "this MariaDB 11.4 build has " + library + ", not wolfSSL");
                assertEquals("TLS13-CHACHA20-POLY1305-SHA256", status(c, "SHOW SESSION STATUS LIKE 'Ssl_cipher'"));
                assertTrue(c.getMetaData().getDriverName().contains("MariaDB"), c.getMetaData().getDriverName());
                assertEquals(TlsCipherWarmup.Suite.CHACHA20_POLY1305, p.tlsCipher(), "the warm-up compiles it");
            }
        }
        // the server's own list leaves ChaCha20 out: the handshake that offers it alone fails, and the sink connects
        // again with the driver's list, through the same driver
        try (EmbeddedMariaDb db = EmbeddedMariaDb.start(DatabaseSpec.mariadb("11.4").withoutBinlog(),
                work.resolve("aes"), 7402, List.of("--ssl-cipher=TLS13-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384"));
             SinkPipeline p = start(db); Connection c = p.targetDataSource().getConnection()) {
            assertEquals("TLS13-AES256-GCM-SHA384", status(c, "SHOW SESSION STATUS LIKE 'Ssl_cipher'"));
            assertTrue(c.getMetaData().getDriverName().contains("MariaDB"), c.getMetaData().getDriverName());
            assertEquals(TlsCipherWarmup.Suite.AES_GCM, p.tlsCipher());
        }
    }
}
