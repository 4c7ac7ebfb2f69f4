package io.cdcconnect.verify;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * One side of a comparison: a JDBC URL, a user and a password. The password is only handed to the driver: it is not
 * part of {@link #toString()}, of {@link #displayUrl()} (a password in the URL is masked), or of an error message
 * ({@link #scrub(String)}).
 */
public final class Endpoint implements ConnectionSource {
    private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(password=)[^&;]*");
    private static final Pattern URL_USERINFO = Pattern.compile("//([^/@:]+):[^/@]*@");

    private final String url;
    private final String user;
    private final String password;

    public Endpoint(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    public String url() {
        return url;
    }

    /** The user, or null. */
    public String user() {
        return user;
    }

    /** The URL without any password it carries. */
    public String displayUrl() {
        return URL_USERINFO.matcher(URL_PASSWORD.matcher(url).replaceAll("$1***")).replaceAll("//$1:***@");
    }

    /**
     * A connection. MySQL-family sessions are put in UTC unless the URL chooses a time zone (TIMESTAMP columns then
     * read as UTC, as PostgreSQL's timestamptz is read), and read TINYINT(1) and YEAR as numbers.
     */
    @Override
    public Connection open() throws SQLException {
        Properties p = new Properties();
        if (user != null) p.setProperty("user", user);
        if (password != null) p.setProperty("password", password);
        if (SqlFamily.ofUrl(url) == SqlFamily.MYSQL) {
            String lower = url.toLowerCase(java.util.Locale.ROOT);
            if (!lower.contains("connectiontimezone") && !lower.contains("servertimezone")) {
                p.setProperty("connectionTimeZone", "UTC");
                p.setProperty("forceConnectionTimeZoneToSession", "true");
            }
            if (!lower.contains("tinyint1isbit")) p.setProperty("tinyInt1isBit", "false");
            if (!lower.contains("yearisdatetype")) p.setProperty("yearIsDateType", "false");
        }
        try {
            return DriverManager.getConnection(url, p);
        } catch (SQLException e) {
            throw new SQLException("cannot connect to " + displayUrl() + (user == null ? "" : " as " + user) + ": "
                    + scrub(e.getMessage()), e.getSQLState(), e.getErrorCode());
        }
    }

    /** {@code text} with this endpoint's password (if any) replaced by ***. */
    public String scrub(String text) {
        if (text == null || password == null || password.isEmpty()) return text;
        return text.replace(password, "***");
    }

    @Override
    public String toString() {
        return displayUrl() + (user == null ? "" : " as " + user);
    }
}
