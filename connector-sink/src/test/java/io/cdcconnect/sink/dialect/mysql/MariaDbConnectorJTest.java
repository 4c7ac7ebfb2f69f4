package io.cdcconnect.sink.dialect.mysql;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which mysql-connector-j URLs MariaDB Connector/J may serve, and with what. Pure mapping: nothing connects (the hosts
 * and ports are made up), so no server is needed; {@code MariaDbDriverStatementCacheTest} connects through the driver.
 */
class MariaDbConnectorJTest {

    @Test
    void aPlainUrlSwitchesWithItsHostPortAndDatabase() {
        MariaDbConnectorJ.Plan p = MariaDbConnectorJ.plan("jdbc:mysql://replica.example:3307/shop");
        assertTrue(p.switches(), String.valueOf(p.why()));
        assertEquals("jdbc:mariadb://replica.example:3307/shop", p.url());
        assertEquals(Map.of(), p.options());
        assertNull(p.why());
        assertEquals("jdbc:mariadb://replica.example:" + MariaDbConnectorJ.DEFAULT_PORT + "/",
                MariaDbConnectorJ.plan("jdbc:mysql://replica.example/").url(), "a URL without a port means the default");
        assertEquals("jdbc:mariadb://[fd00::7]:4417/", MariaDbConnectorJ.plan("jdbc:mysql://[fd00::7]:4417/").url());
    }

    @Test
    void optionsOfTheSameMeaningGoAlongAndTlsOptionsAreReadAsTheMode() {
        MariaDbConnectorJ.Plan p = MariaDbConnectorJ.plan("jdbc:mysql://h:4417/?useSSL=false&allowPublicKeyRetrieval="
                + "true&connectTimeout=5000&characterEncoding=UTF-8&nullDatabaseMeansCurrent=true");
        assertTrue(p.switches(), String.valueOf(p.why()));
        assertEquals(Map.of("allowPublicKeyRetrieval", "true", "connectTimeout", "5000"), p.options());
        // the sink's own bounds win over the URL's, as mysql-connector-j lets them
        Properties props = MariaDbConnectorJ.properties(p, "disable", MariaDbConnectorJ.CHACHA20_SUITES, 60_000);
        assertEquals("30000", props.getProperty("connectTimeout"));
        assertEquals("60000", props.getProperty("socketTimeout"));
        assertEquals("true", props.getProperty("allowPublicKeyRetrieval"));
        assertEquals("disable", props.getProperty("sslMode"));
        assertEquals("true", props.getProperty("useServerPrepStmts"));
        assertEquals("false", props.getProperty("cachePrepStmts"));
        assertNull(props.getProperty("enabledSslCipherSuites"), "without TLS no cipher suites are named");
    }

    @Test
    void chaCha20IsOfferedAloneToAWolfSslServerAndNothingIsChosenForOthers() {
        assertEquals(MariaDbConnectorJ.CHACHA20_SUITES, MariaDbConnectorJ.cipherSuites("WolfSSL 5.7.6"));
        assertEquals(MariaDbConnectorJ.CHACHA20_SUITES, MariaDbConnectorJ.cipherSuites("wolfssl 4.8.1"));
        assertNull(MariaDbConnectorJ.cipherSuites("OpenSSL 3.0.19 27 Jan 2026"));
        assertNull(MariaDbConnectorJ.cipherSuites(""));
        assertNull(MariaDbConnectorJ.cipherSuites(null));
        for (String suite : MariaDbConnectorJ.CHACHA20_SUITES.split(",")) {
            assertTrue(suite.contains("CHACHA20_POLY1305"), suite);
        }
        MariaDbConnectorJ.Plan p = MariaDbConnectorJ.plan("jdbc:mysql://h:4417/");
        Properties tls = MariaDbConnectorJ.properties(p, "trust", MariaDbConnectorJ.CHACHA20_SUITES, 0);
        assertEquals(MariaDbConnectorJ.CHACHA20_SUITES, tls.getProperty("enabledSslCipherSuites"));
        assertNull(MariaDbConnectorJ.properties(p, "trust", null, 0).getProperty("enabledSslCipherSuites"),
                "null: the driver's own list");
    }

    @Test
    void whatOnlyMysqlConnectorJReadsKeepsIt() {
        for (String url : new String[]{
                "jdbc:mysql://h:4417/?trustCertificateKeyStoreUrl=file:/etc/ca.p12",
                "jdbc:mysql://h:4417/?connectionTimeZone=UTC",
                "jdbc:mysql://h:4417/?characterEncoding=latin1",
                "jdbc:mysql://h1:4417,h2:4417/",
                "jdbc:mysql://sink:secret@h:4417/",
                "jdbc:mysql://h:4417/?password=secret",
                "jdbc:mysql+srv://_mysql._tcp.example/",
                "jdbc:mysql:loadbalance://h1,h2/",
                "jdbc:mysql://h:4417/my%20db"}) {
            MariaDbConnectorJ.Plan p = MariaDbConnectorJ.plan(url);
            assertFalse(p.switches(), url);
            assertNull(p.url(), url);
            assertFalse(p.why().contains("secret"), p.why());
        }
        assertEquals("the URL option connectionTimeZone is mysql-connector-j's",
                MariaDbConnectorJ.plan("jdbc:mysql://h:4417/?connectionTimeZone=UTC").why());
    }

    @Test
    void tlsModesMapToMariaDbConnectorJsWithPreferredDecidedByTheProbe() {
        assertEquals("disable", MariaDbConnectorJ.sslMode("disabled", true));
        assertEquals("trust", MariaDbConnectorJ.sslMode("preferred", true));
        assertEquals("disable", MariaDbConnectorJ.sslMode("preferred", false));
        assertEquals("trust", MariaDbConnectorJ.sslMode(null, true));
        assertEquals("trust", MariaDbConnectorJ.sslMode("required", false));
        assertEquals("verify-ca", MariaDbConnectorJ.sslMode("verify-ca", false));
        assertEquals("verify-full", MariaDbConnectorJ.sslMode("verify-identity", false));
        assertThrows(IllegalArgumentException.class, () -> MariaDbConnectorJ.sslMode("sometimes", true));
    }

    @Test
    void theDialectSaysWhichDriverItUsesAndWhy() throws Exception {
        // a URL MariaDB Connector/J cannot take is decided before the probe is asked anything
        MariaDbDialect kept = (MariaDbDialect) new MariaDbDialect().chooseDriver(null, MariaDbConnectorJ.SETTING_AUTO,
                "jdbc:mysql://h:4417/?connectionTimeZone=UTC", "preferred");
        assertEquals("com.mysql.cj.jdbc.Driver", kept.driverClass());
        assertEquals("jdbc:mysql://h:4417/?connectionTimeZone=UTC",
                kept.driverUrl("jdbc:mysql://h:4417/?connectionTimeZone=UTC"));
        assertEquals("mysql-connector-j (not MariaDB Connector/J: the URL option connectionTimeZone is "
                + "mysql-connector-j's)", kept.describeDriver());
        MariaDbDialect asked = (MariaDbDialect) new MariaDbDialect().chooseDriver(null,
                MariaDbConnectorJ.SETTING_MYSQL, "jdbc:mysql://h:4417/", "preferred");
        assertEquals("mysql-connector-j (not MariaDB Connector/J: connection.driver=mysql-connector-j)",
                asked.describeDriver());
        // with TLS, the probe's server says which TLS library it has (TlsCipherChoiceTest asks a real one)
        MariaDbDialect verified = MariaDbDialect.chosen(MariaDbConnectorJ.plan("jdbc:mysql://h:4417/db"),
                MariaDbConnectorJ.sslMode("verify-identity", false), "OpenSSL 3.0.19 27 Jan 2026");
        assertEquals(MariaDbConnectorJ.DRIVER_CLASS, verified.driverClass());
        assertEquals("MariaDB Connector/J", verified.describeDriver());
        assertEquals("jdbc:mariadb://h:4417/db", verified.driverUrl("jdbc:mysql://h:4417/db"));
        Properties p = verified.driverProperties(0);
        verified.applySslMode(p, "jdbc:mysql://h:4417/db", "verify-identity");
        assertEquals("verify-full", p.getProperty("sslMode"));
        assertNull(p.getProperty("socketTimeout"));
        assertNull(p.getProperty("enabledSslCipherSuites"), "OpenSSL: the driver's own cipher list");
        // a URL that chooses TLS itself wins, as with mysql-connector-j
        assertEquals("verify-ca", MariaDbConnectorJ.sslMode(new MariaDbDialect().effectiveSslMode(
                "jdbc:mysql://h:4417/?sslMode=VERIFY_CA", "disabled"), false));
        MariaDbDialect fellBack = (MariaDbDialect) verified.fallbackDriver();
        assertEquals("com.mysql.cj.jdbc.Driver", fellBack.driverClass());
        assertEquals("mysql-connector-j (not MariaDB Connector/J: MariaDB Connector/J could not connect)",
                fellBack.describeDriver());
    }

    @Test
    void aWolfSslServersConnectionsOfferChaCha20AndFallBackToTheDriversListThenToMysqlConnectorJ() {
        MariaDbDialect wolf = MariaDbDialect.chosen(MariaDbConnectorJ.plan("jdbc:mysql://h:4417/"), "trust",
                "WolfSSL 5.7.6");
        assertEquals(MariaDbConnectorJ.CHACHA20_SUITES, wolf.driverProperties(0).getProperty("enabledSslCipherSuites"));
        assertEquals("MariaDB Connector/J, TLS with ChaCha20-Poly1305 (the server's WolfSSL 5.7.6 spends about four "
                + "times the CPU on AES-GCM)", wolf.describeDriver());
        assertEquals(io.cdcconnect.codec.util.TlsCipherWarmup.Suite.CHACHA20_POLY1305, wolf.tlsCipher());
        MariaDbDialect driversList = (MariaDbDialect) wolf.fallbackDriver();
        assertEquals(MariaDbConnectorJ.DRIVER_CLASS, driversList.driverClass());
        assertNull(driversList.driverProperties(0).getProperty("enabledSslCipherSuites"));
        assertEquals("MariaDB Connector/J", driversList.describeDriver());
        assertEquals(io.cdcconnect.codec.util.TlsCipherWarmup.Suite.AES_GCM, driversList.tlsCipher());
        assertEquals("com.mysql.cj.jdbc.Driver", driversList.fallbackDriver().driverClass());
        // without TLS no cipher is chosen, whatever the library
        MariaDbDialect plain = MariaDbDialect.chosen(MariaDbConnectorJ.plan("jdbc:mysql://h:4417/"), "disable",
                "WolfSSL 5.7.6");
        assertNull(plain.driverProperties(0).getProperty("enabledSslCipherSuites"));
        assertEquals("MariaDB Connector/J", plain.describeDriver());
    }
}
