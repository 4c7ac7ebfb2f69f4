package io.cdcconnect.testsupport.servers.containers;

import io.cdcconnect.testsupport.db.DatabaseSpec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every image the containers provider starts, in one place. Each has a name; {@code -Dcdc.test.image.<name>=<image>}
 * replaces it (a mirror, another patch release). Databases are named by {@link DatabaseSpec#propertyKey()}
 * ({@code mysql-8.4}, {@code mariadb-11.4}, {@code tidb-8.5}); a database version without a default here gets the
 * family's image tagged with that version ({@code mysql:<v>}, {@code mariadb:<v>}, {@code pingcap/tidb:v<v>.0}).
 * No Testcontainers type appears here, so this class loads without Testcontainers.
 */
public final class ContainerImages {

    public static final String PROPERTY_PREFIX = "cdc.test.image.";

    public static final String MYSQL_8_0 = "mysql:8.0";
    public static final String MYSQL_8_4 = "mysql:8.4";
    public static final String MARIADB_10_11 = "mariadb:10.11";
    public static final String MARIADB_11_4 = "mariadb:11.4";
    /** TiDB, for a target (unistore, one container) and for a TiCDC upstream (on TiKV). */
    public static final String TIDB = "pingcap/tidb:v8.5.1";
    public static final String PD = "pingcap/pd:v8.5.1";
    public static final String TIKV = "pingcap/tikv:v8.5.1";
    public static final String TICDC = "pingcap/ticdc:v8.5.1";
    public static final String SCHEMA_REGISTRY = "confluentinc/cp-schema-registry:7.9.0";
    /**
     * Apache Kafka's own image, which Testcontainers' {@code org.testcontainers.kafka.KafkaContainer} runs (KRaft): the
     * release the build compiles and tests against (the root pom's {@code kafka.version}).
     */
    public static final String KAFKA = "apache/kafka:4.3.1";

    private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("mysql-8.0", MYSQL_8_0);
        DEFAULTS.put("mysql-8.4", MYSQL_8_4);
        DEFAULTS.put("mariadb-10.11", MARIADB_10_11);
        DEFAULTS.put("mariadb-11.4", MARIADB_11_4);
        DEFAULTS.put("tidb-8.5", TIDB);
        DEFAULTS.put("pd", PD);
        DEFAULTS.put("tikv", TIKV);
        DEFAULTS.put("ticdc", TICDC);
        DEFAULTS.put("schema-registry", SCHEMA_REGISTRY);
        DEFAULTS.put("kafka", KAFKA);
    }

    private ContainerImages() {
    }

    /** The names this class knows, with their default images. */
    public static Map<String, String> defaults() {
        return Map.copyOf(DEFAULTS);
    }

    /** The image for {@code name}: {@code -Dcdc.test.image.<name>} if set, else the default. */
    public static String image(String name) {
        String override = System.getProperty(PROPERTY_PREFIX + name);
        if (override != null && !override.isBlank()) return override.trim();
        String image = DEFAULTS.get(name);
        if (image == null) {
            throw new IllegalArgumentException("no image named '" + name + "' (known: " + DEFAULTS.keySet()
                    + "); set -D" + PROPERTY_PREFIX + name + "=<image>");
        }
        return image;
    }

    /** The image of the server {@code spec} asks for; {@code -Dcdc.test.image.<propertyKey>} overrides it. */
    public static String forDatabase(DatabaseSpec spec) {
        String name = spec.propertyKey();
        if (DEFAULTS.containsKey(name) || System.getProperty(PROPERTY_PREFIX + name) != null) return image(name);
        return switch (spec.flavor()) {
            case MYSQL -> "mysql:" + spec.version();
            case MARIADB -> "mariadb:" + spec.version();
            case TIDB -> "pingcap/tidb:v" + spec.version() + ".0";
            case POSTGRES -> "postgres:" + spec.version();
        };
    }
}
