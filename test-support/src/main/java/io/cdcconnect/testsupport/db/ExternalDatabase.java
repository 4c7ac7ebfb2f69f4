package io.cdcconnect.testsupport.db;

import java.net.URI;

/**
 * A server that is already running, used only because a property names it: {@code cdc.test.db.<key>.url} (a
 * {@code jdbc:mysql://host:port/} URL), {@code .user} (default root) and {@code .password} (default empty), where
 * {@code <key>} is {@link DatabaseSpec#propertyKey()}, e.g. {@code -Dcdc.test.db.mariadb-10.11.url=jdbc:mysql://127.0.0.1:3306/}.
 * A PostgreSQL is named by {@code cdc.test.db.postgres-<major>.url} or, for any version, {@code cdc.test.db.postgres.url}
 * (the first wins): a {@code jdbc:postgresql://host:port/database} URL whose database (default {@code postgres}) is the
 * one the tests connect to in order to create theirs (user default {@code postgres}, port default 5432; the URL's
 * parameters, e.g. {@code sslmode}, are kept). It is never closed by the tests: they drop only the databases they created.
 */
public final class ExternalDatabase implements DatabaseServer {

    private final DatabaseSpec spec;
    private final String property;
    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final String maintenanceDatabase;
    private final String urlParameters;

    ExternalDatabase(DatabaseSpec spec, String url, String user, String password) {
        this(spec, "cdc.test.db." + spec.propertyKey() + ".url", url, user, password);
    }

    private ExternalDatabase(DatabaseSpec spec, String property, String url, String user, String password) {
        boolean postgres = spec.flavor() == Flavor.POSTGRES;
        if (postgres ? !url.startsWith("jdbc:postgresql://")
                : !url.startsWith("jdbc:mysql://") && !url.startsWith("jdbc:mariadb://")) {
            throw new IllegalArgumentException(property + " must be a " + (postgres ? "jdbc:postgresql://" : "jdbc:mysql://")
                    + " URL: " + url);
        }
        URI uri = URI.create(url.substring("jdbc:".length()));
        if (uri.getHost() == null) {
            throw new IllegalArgumentException(property + " must name one host: " + url);
        }
        this.spec = spec;
        this.property = property;
        this.host = uri.getHost();
        this.port = uri.getPort() >= 0 ? uri.getPort() : postgres ? 5432 : 3306;
        this.user = user;
        this.password = password;
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        this.maintenanceDatabase = postgres ? (path.isEmpty() ? "postgres" : path) : null;
        this.urlParameters = postgres && uri.getRawQuery() != null ? uri.getRawQuery() : "";
    }

    /** The server the properties name for {@code spec}, or null when none does. */
    public static ExternalDatabase fromProperties(DatabaseSpec spec) {
        ExternalDatabase db = fromProperties(spec, spec.propertyKey());
        if (db == null && spec.flavor() == Flavor.POSTGRES) {
            db = fromProperties(spec, "postgres");
        }
        return db;
    }

    private static ExternalDatabase fromProperties(DatabaseSpec spec, String key) {
        String prefix = "cdc.test.db." + key + ".";
        String url = System.getProperty(prefix + "url");
        if (url == null || url.isBlank()) return null;
        String defaultUser = spec.flavor() == Flavor.POSTGRES ? "postgres" : "root";
        return new ExternalDatabase(spec, prefix + "url", url.trim(), System.getProperty(prefix + "user", defaultUser),
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
    public String maintenanceDatabase() {
        return maintenanceDatabase;
    }

    @Override
    public String jdbcUrl(String database) {
        String url = DatabaseServer.super.jdbcUrl(database);
        return urlParameters.isEmpty() ? url : url + "?" + urlParameters;
    }

    @Override
    public String provenance() {
        return "existing server named by -D" + property;
    }

    @Override
    public void close() {
        // not ours to stop
    }
}
