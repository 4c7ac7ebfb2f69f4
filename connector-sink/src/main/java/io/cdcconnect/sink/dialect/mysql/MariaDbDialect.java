package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.dialect.SqlDialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * MariaDB (all supported versions): {@code VALUES(col)} in the update clause, as MariaDB has no row alias. Its
 * connections go through MariaDB Connector/J when the URL allows ({@link MariaDbConnectorJ}), else mysql-connector-j.
 */
public final class MariaDbDialect extends MySqlFamilyDialect {

    /** How MariaDB Connector/J serves the URL, or null: mysql-connector-j. */
    private final MariaDbConnectorJ.Plan plan;
    /** MariaDB Connector/J's sslMode (with {@link #plan}). */
    private final String sslMode;
    /**
     * The server's TLS library when it calls for cipher suites of its own ({@link MariaDbConnectorJ#cipherSuites}),
     * or null: the driver's list.
     */
    private final String sslLibrary;

    public MariaDbDialect() {
        this(null, null, null);
    }

    private MariaDbDialect(MariaDbConnectorJ.Plan plan, String sslMode, String sslLibrary) {
        this.plan = plan;
        this.sslMode = sslMode;
        this.sslLibrary = sslLibrary;
    }

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return "VALUES(" + quotedColumn + ")";
    }

    /** MariaDB 10.1+: {@code SET STATEMENT var = value FOR stmt} sets a variable for one statement, prepared or not. */
    @Override
    public String withForeignKeyChecks(String dml) {
        return "SET STATEMENT foreign_key_checks = 1 FOR " + dml;
    }

    /**
     * MariaDB Connector/J unless {@code connection.driver} is mysql-connector-j or the URL carries what only
     * mysql-connector-j reads. The TLS mode is the one the probe connection had: with "preferred" (which MariaDB
     * Connector/J lacks) TLS is asked for exactly when the probe found it. With TLS, the cipher suites offered follow
     * the server's TLS library ({@link MariaDbConnectorJ#cipherSuites}).
     */
    @Override
    public SqlDialect chooseDriver(Connection probe, String setting, String url, String mode) throws SQLException {
        if (MariaDbConnectorJ.SETTING_MYSQL.equals(setting)) return new MariaDbDialect();
        MariaDbConnectorJ.Plan p = MariaDbConnectorJ.plan(url);
        if (!p.switches()) return new MariaDbDialect(p, null, null);
        String effective = effectiveSslMode(url, mode);
        boolean tls = false;
        if (effective == null || effective.equalsIgnoreCase("preferred")) {
            try (Statement st = probe.createStatement();
                 ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
                tls = rs.next() && rs.getString(2) != null && !rs.getString(2).isEmpty();
            }
        }
        String driverSslMode = MariaDbConnectorJ.sslMode(effective, tls);
        String library = null;
        if (!driverSslMode.equals("disable")) {
            try (Statement st = probe.createStatement();
                 ResultSet rs = st.executeQuery("SHOW GLOBAL VARIABLES LIKE 'version_ssl_library'")) {
                if (rs.next()) library = rs.getString(2);
            }
        }
        return chosen(p, driverSslMode, library);
    }

    /**
     * MariaDB Connector/J serving {@code plan} with its {@code sslMode}, offering the cipher suites the server's TLS
     * library {@code sslLibrary} calls for (null: none known).
     */
    static MariaDbDialect chosen(MariaDbConnectorJ.Plan plan, String sslMode, String sslLibrary) {
        boolean own = !sslMode.equals("disable") && MariaDbConnectorJ.cipherSuites(sslLibrary) != null;
        return new MariaDbDialect(plan, sslMode, own ? sslLibrary : null);
    }

    /** mysql-connector-j, as when MariaDB Connector/J could not connect where it could. */
    @Override
    public SqlDialect firstDriver() {
        return new MariaDbDialect(new MariaDbConnectorJ.Plan(null, java.util.Map.of(),
                MariaDbConnectorJ.NAME + " could not connect"), null, null);
    }

    /**
     * With the cipher suites chosen for the server's TLS library, the driver's own list (a server that refuses
     * ChaCha20-Poly1305); without, mysql-connector-j.
     */
    @Override
    public SqlDialect fallbackDriver() {
        if (sslLibrary != null) return new MariaDbDialect(plan, sslMode, null);
        return firstDriver();
    }

    /**
     * "MariaDB Connector/J", with the cipher suites when chosen for the server's TLS library, or
     * "mysql-connector-j (not MariaDB Connector/J: why)".
     */
    @Override
    public String describeDriver() {
        if (mariaDbDriver()) {
            return sslLibrary == null ? driverName() : driverName() + ", TLS with ChaCha20-Poly1305 (the server's "
                    + sslLibrary + " spends about four times the CPU on AES-GCM)";
        }
        return driverName() + " (not " + MariaDbConnectorJ.NAME + ": "
                + (plan == null ? "connection.driver=" + MariaDbConnectorJ.SETTING_MYSQL : plan.why()) + ")";
    }

    @Override
    public io.cdcconnect.codec.util.TlsCipherWarmup.Suite tlsCipher() {
        return sslLibrary == null ? io.cdcconnect.codec.util.TlsCipherWarmup.Suite.AES_GCM
                : io.cdcconnect.codec.util.TlsCipherWarmup.Suite.CHACHA20_POLY1305;
    }

    private boolean mariaDbDriver() {
        return plan != null && plan.switches();
    }

    @Override
    public String driverName() {
        return mariaDbDriver() ? MariaDbConnectorJ.NAME : super.driverName();
    }

    @Override
    public String driverClass() {
        return mariaDbDriver() ? MariaDbConnectorJ.DRIVER_CLASS : super.driverClass();
    }

    @Override
    public String driverUrl(String url) {
        return mariaDbDriver() ? plan.url() : url;
    }

    @Override
    public Properties driverProperties(long socketTimeoutMillis) {
        return mariaDbDriver() ? MariaDbConnectorJ.properties(plan, sslMode,
                MariaDbConnectorJ.cipherSuites(sslLibrary), socketTimeoutMillis)
                : super.driverProperties(socketTimeoutMillis);
    }

    /** With MariaDB Connector/J the mode was chosen with the driver: the URL it gets carries none. */
    @Override
    public void applySslMode(Properties driverProperties, String url, String mode) {
        if (!mariaDbDriver()) super.applySslMode(driverProperties, url, mode);
    }
}
