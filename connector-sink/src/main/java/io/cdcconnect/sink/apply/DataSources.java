package io.cdcconnect.sink.apply;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.codec.util.Redaction;
import io.cdcconnect.sink.dialect.SqlDialect;

import java.util.regex.Pattern;

/**
 * Builds the task's HikariCP pool with the driver settings and session the dialect says the statement cache and type
 * fidelity depend on.
 */
public final class DataSources {

    private static final Pattern TIME_ZONE = Pattern.compile("[+-]\\d{1,2}:\\d{2}|SYSTEM|[A-Za-z][A-Za-z0-9_+\\-/]*");

    private DataSources() {
    }

    /** The JDBC URL with every secret it carries masked ({@link Redaction}), for messages and logs. */
    public static String redact(String url) {
        return Redaction.redactJdbcUrl(url);
    }

    /**
     * {@code text} (a driver's message, say) with the URL shown redacted and every secret of the URL and
     * {@code password} masked, raw or percent-encoded ({@link Redaction}).
     */
    public static String scrub(String text, String url, String password) {
        return Redaction.scrub(text, url, password == null ? java.util.List.of() : java.util.List.of(password));
    }

    /**
     * One connection outside any pool, with the dialect's driver settings and session, connecting and each answer
     * bounded by {@code timeoutMillis}: for a check that must answer quickly. The driver is loaded from the sink's own
     * class loader (under Connect's plugin loader DriverManager may not know it).
     */
    public static java.sql.Connection connect(SqlDialect dialect, String url, String user, String password,
                                              int timeoutMillis) throws java.sql.SQLException {
        return connect(dialect, url, user, password, null, timeoutMillis);
    }

    /** As above, with {@code connection.ssl.mode} {@code sslMode} (null: the driver's default). */
    public static java.sql.Connection connect(SqlDialect dialect, String url, String user, String password,
                                              String sslMode, int timeoutMillis) throws java.sql.SQLException {
        java.util.Properties p = dialect.driverProperties(timeoutMillis);
        dialect.applySslMode(p, url, sslMode);
        dialect.limitConnectTime(p, timeoutMillis);
        if (user != null) p.setProperty("user", user);
        if (password != null) p.setProperty("password", password);
        java.sql.Driver driver;
        try {
            driver = (java.sql.Driver) Class.forName(dialect.driverClass(), true, DataSources.class.getClassLoader())
                    .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new java.sql.SQLException("the JDBC driver " + dialect.driverClass() + " is not available: " + e);
        }
        java.sql.Connection c = driver.connect(dialect.driverUrl(url), p);
        if (c == null) throw new java.sql.SQLException("the driver " + dialect.driverClass() + " refuses the URL");
        // the sink's own session (its sql_mode above all), as on a pooled connection; in UTC: a check writes no time
        try (java.sql.Statement st = c.createStatement()) {
            st.execute(dialect.sessionInitSql("+00:00"));
        } catch (java.sql.SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /**
     * The pool for {@code dialect}'s database.
     *
     * @param poolSize            workers + 1 (the extra connection serves metadata lookups and DDL)
     * @param timeZone            the session time zone in which TIMESTAMP text is written ("+00:00")
     * @param socketTimeoutMillis bounds the wait for one answer of the server (0: none), so that a target that stops
     *                            answering counts as a lost connection and is retried instead of hanging a worker
     */
    public static HikariDataSource create(SqlDialect dialect, String url, String user, String password, int poolSize,
                                          String timeZone, String poolName, long socketTimeoutMillis) {
        return create(dialect, url, user, password, null, poolSize, timeZone, poolName, socketTimeoutMillis);
    }

    /** As above, with {@code connection.ssl.mode} {@code sslMode} (null: the driver's default). */
    public static HikariDataSource create(SqlDialect dialect, String url, String user, String password,
                                          String sslMode, int poolSize, String timeZone, String poolName,
                                          long socketTimeoutMillis) {
        return create(dialect, url, user, password, sslMode, poolSize, timeZone,
                io.cdcconnect.sink.dialect.ForeignKeyChecks.SERVER, poolName, socketTimeoutMillis);
    }

    /**
     * As above, each session with the target's foreign key checks as {@code foreignKeyChecks} says (already resolved
     * for the dialect by {@link io.cdcconnect.sink.dialect.ForeignKeyChecks#on}).
     */
    public static HikariDataSource create(SqlDialect dialect, String url, String user, String password,
                                          String sslMode, int poolSize, String timeZone,
                                          io.cdcconnect.sink.dialect.ForeignKeyChecks foreignKeyChecks,
                                          String poolName, long socketTimeoutMillis) {
        if (!TIME_ZONE.matcher(timeZone).matches()) {
            throw new IllegalArgumentException("invalid time zone '" + timeZone + "'");
        }
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(dialect.driverUrl(url));
        // name the driver: under Connect's plugin class loader, DriverManager may never have seen our driver jar
        hc.setDriverClassName(dialect.driverClass());
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setPoolName(poolName);
        // the pool's housekeeping threads carry the creating task's MDC (Connect's connector.context)
        hc.setThreadFactory(io.cdcconnect.codec.logging.TaskThreads.factory(poolName + "-"));
        hc.setMaximumPoolSize(poolSize);
        hc.setMinimumIdle(1);
        hc.setAutoCommit(false);
        hc.setConnectionTimeout(30_000);
        hc.setConnectionInitSql(dialect.sessionInitSql(timeZone, foreignKeyChecks));
        java.util.Properties driver = dialect.driverProperties(socketTimeoutMillis);
        dialect.applySslMode(driver, url, sslMode);
        hc.setDataSourceProperties(driver);
        return new HikariDataSource(hc);
    }
}
