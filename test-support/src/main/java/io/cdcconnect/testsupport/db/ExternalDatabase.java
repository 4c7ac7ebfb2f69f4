package io.cdcconnect.testsupport.db;

import java.net.URI;

/**
 * A server that is already running, used only because a property names it: {@code cdc.test.db.<key>.url} (a
 * {@code jdbc:mysql://host:port/} URL), {@code .user} (default root) and {@code .password} (default empty), where
 * {@code <key>} is {@link DatabaseSpec#propertyKey()}, e.g. {@code -Dcdc.test.db.mariadb-10.11.url=jdbc:mysql://127.0.0.1:3306/}.
 * It is never closed by the tests: they drop only the databases they created.
 */
public final class ExternalDatabase implements DatabaseServer {

    private final DatabaseSpec spec;
    private final String host;
    private final int port;
    private final String user;
    private final String password;

    ExternalDatabase(DatabaseSpec spec, String url, String user, String password) {
        if (!url.startsWith("jdbc:mysql://") && !url.startsWith("jdbc:mariadb://")) {
            throw new IllegalArgumentException("cdc.test.db." + spec.propertyKey() + ".url must be a jdbc:mysql:// URL: " + url);
        }
        URI uri = URI.create(url.substring("jdbc:".length()));
        this.spec = spec;
        this.host = uri.getHost();
        this.port = uri.getPort() < 0 ? 3306 : uri.getPort();
        this.user = user;
        this.password = password;
    }

    /** The server the properties name for {@code spec}, or null when none does. */
    public static ExternalDatabase fromProperties(DatabaseSpec spec) {
        String prefix = "cdc.test.db." + spec.propertyKey() + ".";
        String url = System.getProperty(prefix + "url");
        if (url == null || url.isBlank()) return null;
        return new ExternalDatabase(spec, url.trim(), System.getProperty(prefix + "user", "root"),
                System.getProperty(prefix + "password", ""));
    }

    @Override
    public DatabaseSpec spec() {
        return spec;
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public String provenance() {
        return "existing server named by -Dcdc.test.db." + spec.propertyKey() + ".url";
    }

    @Override
    public void close() {
        // not ours to stop
    }
}
