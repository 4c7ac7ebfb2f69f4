package io.cdcconnect.sink.apply;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.util.regex.Pattern;

/** Builds the task's HikariCP pool with the driver settings the statement cache and type fidelity depend on. */
public final class DataSources {

    private static final Pattern TIME_ZONE = Pattern.compile("[+-]\\d{1,2}:\\d{2}|SYSTEM|[A-Za-z][A-Za-z0-9_+\\-/]*");

    private static final Pattern SECRET_PARAM = Pattern.compile("(?i)([?&;](?:password|password1|password2|"
            + "password3|trustCertificateKeyStorePassword|clientCertificateKeyStorePassword)=)[^&;]*");
    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*:)[^/@]*@");

    private DataSources() {
    }

    /** The JDBC URL with any password in it masked, for messages and logs. */
    public static String redact(String url) {
        if (url == null) return null;
        String out = SECRET_PARAM.matcher(url).replaceAll("$1***");
        return USER_INFO.matcher(out).replaceAll("$1***@");
    }

    /**
     * @param poolSize     workers + 1 (the extra connection serves metadata lookups and DDL)
     * @param timeZone     the session {@code time_zone} in which TIMESTAMP text is written ("+00:00")
     */
    public static HikariDataSource create(String url, String user, String password, int poolSize, String timeZone,
                                          String poolName) {
        return create(url, user, password, poolSize, timeZone, poolName, 0, java.util.List.of());
    }

    /**
     * As above; {@code sessionSettings} (the dialect's, {@code name = value}) are set on every connection;
     * {@code socketTimeoutMillis} bounds the wait for one answer of the server (0: none), so that a target
     * that stops answering counts as a lost connection and is retried instead of hanging a worker forever.
     */
    public static HikariDataSource create(String url, String user, String password, int poolSize, String timeZone,
                                          String poolName, long socketTimeoutMillis,
                                          java.util.List<String> sessionSettings) {
        if (!TIME_ZONE.matcher(timeZone).matches()) {
            throw new IllegalArgumentException("invalid time zone '" + timeZone + "'");
        }
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        // name the driver: under Connect's plugin class loader, DriverManager may never have seen our driver jar
        hc.setDriverClassName("com.mysql.cj.jdbc.Driver");
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setPoolName(poolName);
        hc.setMaximumPoolSize(poolSize);
        hc.setMinimumIdle(1);
        hc.setAutoCommit(false);
        hc.setConnectionTimeout(30_000);
        // the source accepted zero dates ('0000-00-00', '2024-00-00') under its own sql_mode: so must we
        hc.setConnectionInitSql("SET SESSION time_zone = '" + timeZone + "', SESSION sql_mode = "
                + "REPLACE(REPLACE(@@SESSION.sql_mode, 'NO_ZERO_IN_DATE', ''), 'NO_ZERO_DATE', '')"
                + sessionSettings.stream().map(v -> ", SESSION " + v).collect(java.util.stream.Collectors.joining()));
        // server-side statements, cached by the sink's own bounded cache, never by the driver
        hc.addDataSourceProperty("useServerPrepStmts", "true");
        hc.addDataSourceProperty("cachePrepStmts", "false");
        // report a failed prepare instead of silently emulating it, so the fallback is counted
        hc.addDataSourceProperty("emulateUnsupportedPstmts", "false");
        hc.addDataSourceProperty("characterEncoding", "UTF-8");
        hc.addDataSourceProperty("rewriteBatchedStatements", "false");
        hc.addDataSourceProperty("nullDatabaseMeansCurrent", "true");
        hc.addDataSourceProperty("useLocalSessionState", "true");
        hc.addDataSourceProperty("tcpKeepAlive", "true");
        hc.addDataSourceProperty("connectTimeout", "30000");
        if (socketTimeoutMillis > 0) hc.addDataSourceProperty("socketTimeout", Long.toString(socketTimeoutMillis));
        return new HikariDataSource(hc);
    }
}
