package io.cdcconnect.testsupport.db;

import java.util.Locale;
import java.util.Objects;

/**
 * What a test asks for: a database family, a version (major.minor, e.g. {@code 11.4}, {@code 8.4}; TiDB's release
 * line, e.g. {@code 8.5}; PostgreSQL's major, e.g. {@code 17}) and whether the server must write a row-based binlog (to
 * be a source).
 */
public record DatabaseSpec(Flavor flavor, String version, boolean binlog) {

    public DatabaseSpec {
        Objects.requireNonNull(flavor, "flavor");
        Objects.requireNonNull(version, "version");
        if (flavor == Flavor.TIDB && binlog) {
            throw new IllegalArgumentException("TiDB has no binlog dump protocol: it is a target, or a TiCDC upstream");
        }
        if (flavor == Flavor.POSTGRES && binlog) {
            throw new IllegalArgumentException("PostgreSQL has no binlog: it is a target");
        }
    }

    public static DatabaseSpec mariadb(String version) {
        return new DatabaseSpec(Flavor.MARIADB, version, true);
    }

    public static DatabaseSpec mysql(String version) {
        return new DatabaseSpec(Flavor.MYSQL, version, true);
    }

    public static DatabaseSpec tidb(String version) {
        return new DatabaseSpec(Flavor.TIDB, version, false);
    }

    /** The PostgreSQL the embedded provider serves ({@value EmbeddedPostgreSql#MAJOR}): a sink target. */
    public static DatabaseSpec postgres() {
        return postgres(EmbeddedPostgreSql.MAJOR);
    }

    /** A PostgreSQL of major version {@code major}, e.g. {@code 17} (a sink target, no binlog). */
    public static DatabaseSpec postgres(String major) {
        return new DatabaseSpec(Flavor.POSTGRES, major, false);
    }

    /** The same server without a binlog (e.g. the server the source's start-up checks must refuse). */
    public DatabaseSpec withoutBinlog() {
        return new DatabaseSpec(flavor, version, false);
    }

    /**
     * The key of the properties that name an existing server for this spec instead of starting one:
     * {@code cdc.test.db.<key>.url}, {@code .user}, {@code .password}; e.g. {@code mariadb-10.11}, {@code postgres-17}
     * (for PostgreSQL {@code cdc.test.db.postgres.url} names a server of any version too: {@link ExternalDatabase}).
     */
    public String propertyKey() {
        return flavor.name().toLowerCase(Locale.ROOT) + "-" + version;
    }

    @Override
    public String toString() {
        return flavor.label() + " " + version + (binlog ? " with binlog" : "");
    }
}
