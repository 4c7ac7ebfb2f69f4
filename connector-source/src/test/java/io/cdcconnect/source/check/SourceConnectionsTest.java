package io.cdcconnect.source.check;

import io.cdcconnect.source.CdcSourceConfig;
import io.cdcconnect.source.SourceFlavor;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The source's own connections (start-up checks, key catalog) get the driver properties Debezium gives its own: TLS
 * from database.ssl.*, driver.* passed through, and no public-key retrieval unless asked for. Against a server that
 * requires TLS: {@code TlsEndToEndTest} in integration-tests.
 */
class SourceConnectionsTest {

    private static Map<String, String> settings() {
        Map<String, String> s = new HashMap<>();
        s.put("database.hostname", "db");
        s.put("database.user", "cdc");
        s.put("database.password", "pw");
        return s;
    }

    @Test
    void noPublicKeyRetrievalUnlessAskedFor() {
        for (SourceFlavor f : SourceFlavor.values()) {
            Properties p = SourceConnections.properties(f, settings(), "cdc", "pw");
            assertNull(p.getProperty("allowPublicKeyRetrieval"), f.name());
            assertEquals("cdc", p.getProperty("user"));
            assertEquals("pw", p.getProperty("password"));
            assertNull(p.getProperty("sslMode"), "unset: the driver's own default, as Debezium's");
        }
        Map<String, String> s = settings();
        s.put("driver.allowPublicKeyRetrieval", "true");
        assertEquals("true", SourceConnections.properties(SourceFlavor.MYSQL, s, "cdc", "pw")
                .getProperty("allowPublicKeyRetrieval"));
    }

    @Test
    void mariadbModesAndStores() {
        Map<String, String> s = settings();
        s.put("database.ssl.mode", "verify-full");
        s.put("database.ssl.truststore", "/etc/cdc/trust.p12");
        s.put("database.ssl.truststore.password", "tpw");
        s.put("database.ssl.keystore", "/etc/cdc/client.p12");
        s.put("database.ssl.keystore.password", "kpw");
        Properties p = SourceConnections.properties(SourceFlavor.MARIADB, s, "cdc", "pw");
        assertEquals("verify-full", p.getProperty("sslMode"));
        assertEquals("file:/etc/cdc/trust.p12", p.getProperty("trustStore"));
        assertEquals("tpw", p.getProperty("trustStorePassword"));
        assertEquals("file:/etc/cdc/client.p12", p.getProperty("keyStore"));
        assertEquals("kpw", p.getProperty("keyStorePassword"));
    }

    @Test
    void mysqlModesAndStores() {
        Map<String, String> s = settings();
        s.put("database.ssl.mode", "verify_ca");
        s.put("database.ssl.truststore", "/etc/cdc/trust.p12");
        s.put("database.ssl.truststore.password", "tpw");
        Properties p = SourceConnections.properties(SourceFlavor.MYSQL, s, "cdc", "pw");
        assertEquals("VERIFY_CA", p.getProperty("sslMode"));
        assertEquals("file:/etc/cdc/trust.p12", p.getProperty("trustCertificateKeyStoreUrl"));
        assertEquals("tpw", p.getProperty("trustCertificateKeyStorePassword"));
    }

    @Test
    void storesAreIgnoredWhenTlsIsOff() {
        Map<String, String> s = settings();
        s.put("database.ssl.mode", "disable");
        s.put("database.ssl.truststore", "/etc/cdc/trust.p12");
        Properties p = SourceConnections.properties(SourceFlavor.MARIADB, s, "cdc", "pw");
        assertEquals("disable", p.getProperty("sslMode"));
        assertFalse(p.containsKey("trustStore"));
    }

    @Test
    void theConfigHandsTheSettingsOver() {
        Map<String, String> s = settings();
        s.put("database.server.id", "1");
        s.put("topic.prefix", "shop");
        s.put("schema.history.internal.kafka.bootstrap.servers", "kafka:9092");
        s.put("database.ssl.mode", "trust");
        Properties p = new CdcSourceConfig(s).jdbcProperties();
        assertEquals("trust", p.getProperty("sslMode"));
        assertEquals("pw", p.getProperty("password"));
    }

    @Test
    void theRegistryUrlIsAPasswordSetting() {
        assertEquals(ConfigDef.Type.PASSWORD, CdcSourceConfig.configDef().configKeys().get("schema.registry.url").type);
    }
}
