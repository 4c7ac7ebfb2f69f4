package io.cdcconnect.sink.dialect;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Picks a dialect by name, or from the server's {@code SELECT VERSION()}. */
public final class Dialects {

    private static final Pattern MYSQL_VERSION = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    private Dialects() {
    }

    /** {@code configured} is auto, mariadb, mysql57, mysql8 or tidb; auto reads {@code serverVersion}. */
    public static SqlDialect choose(String configured, String serverVersion) {
        String name = configured == null ? "auto" : configured.toLowerCase(Locale.ROOT);
        return switch (name) {
            case "mariadb" -> new MariaDbDialect();
            case "mysql57" -> new MySql57Dialect();
            case "mysql8" -> new MySql8Dialect();
            case "tidb" -> new TiDbDialect();
            case "auto" -> fromVersion(serverVersion);
            default -> throw new IllegalArgumentException("unknown dialect '" + configured + "'");
        };
    }

    /** "10.11.19-MariaDB-0+deb12u1", "8.0.36", "5.7.44-log", "8.0.11-TiDB-v7.5.0". */
    public static SqlDialect fromVersion(String version) {
        String v = version == null ? "" : version;
        String lower = v.toLowerCase(Locale.ROOT);
        if (lower.contains("mariadb")) return new MariaDbDialect();
        if (lower.contains("tidb")) return new TiDbDialect();
        Matcher m = MYSQL_VERSION.matcher(v);
        if (m.find()) {
            int major = Integer.parseInt(m.group(1));
            int minor = Integer.parseInt(m.group(2));
            int patch = Integer.parseInt(m.group(3));
            if (major > 8 || (major == 8 && (minor > 0 || patch >= 20))) return new MySql8Dialect();
        }
        return new MySql57Dialect();
    }
}
