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

    public MariaDbDialect() {
        this(null, null);
    }

    private MariaDbDialect(MariaDbConnectorJ.Plan plan, String sslMode) {
        this.plan = plan;
        this.sslMode = sslMode;
    }

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    protected String insertedValue(String quotedColumn) {
        return "VALUES(" + quotedColumn + ")";
    }

    /**
     * MariaDB Connector/J unless {@code connection.driver} is mysql-connector-j or the URL carries what only
     * mysql-connector-j reads. The TLS mode is the one the probe connection had: with "preferred" (which MariaDB
     * Connector/J lacks) TLS is asked for exactly when the probe found it.
     */
    @Override
    public SqlDialect chooseDriver(Connection probe, String setting, String url, String mode) throws SQLException {
        if (MariaDbConnectorJ.SETTING_MYSQL.equals(setting)) return new MariaDbDialect();
        MariaDbConnectorJ.Plan p = MariaDbConnectorJ.plan(url);
        if (!p.switches()) return new MariaDbDialect(p, null);
        String effective = effectiveSslMode(url, mode);
        boolean tls = false;
        if (effective == null || effective.equalsIgnoreCase("preferred")) {
            try (Statement st = probe.createStatement();
                 ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
                tls = rs.next() && rs.getString(2) != null && !rs.getString(2).isEmpty();
            }
        }
        return new MariaDbDialect(p, MariaDbConnectorJ.sslMode(effective, tls));
    }

    /** mysql-connector-j, as when MariaDB Connector/J could not connect where it could. */
    @Override
    public SqlDialect firstDriver() {
        return new MariaDbDialect(new MariaDbConnectorJ.Plan(null, java.util.Map.of(),
                MariaDbConnectorJ.NAME + " could not connect"), null);
    }

    /** "MariaDB Connector/J", or "mysql-connector-j (not MariaDB Connector/J: why)". */
    @Override
    public String describeDriver() {
        if (mariaDbDriver()) return driverName();
        return driverName() + " (not " + MariaDbConnectorJ.NAME + ": "
                + (plan == null ? "connection.driver=" + MariaDbConnectorJ.SETTING_MYSQL : plan.why()) + ")";
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
        return mariaDbDriver() ? MariaDbConnectorJ.properties(plan, sslMode, socketTimeoutMillis)
                : super.driverProperties(socketTimeoutMillis);
    }

    /** With MariaDB Connector/J the mode was chosen with the driver: the URL it gets carries none. */
    @Override
    public void applySslMode(Properties driverProperties, String url, String mode) {
        if (!mariaDbDriver()) super.applySslMode(driverProperties, url, mode);
    }
}
