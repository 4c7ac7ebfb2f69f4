package io.cdcconnect.source.check;

import io.cdcconnect.codec.util.Redaction;

import io.cdcconnect.source.SourceFlavor;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * Checks at validation and start that the server can feed the connector: binlog on, ROW format, FULL row image, and
 * the privileges Debezium needs. Each problem comes with how to fix it. Debezium would find some of these only later,
 * with messages that do not say what to change.
 */
public final class StartupChecks {

    /** One problem and the setting it is reported against. */
    public record Problem(String setting, String message) {
    }

    private final SourceFlavor flavor;
    private final String host;
    private final int port;
    private final String user;
    private final Properties connectionProperties;
    private final boolean snapshotNeedsLocks;

    /** @param connectionProperties the driver properties, from {@link SourceConnections#properties} */
    public StartupChecks(SourceFlavor flavor, String host, int port, String user, Properties connectionProperties,
                         boolean snapshotNeedsLocks) {
        this.flavor = flavor;
        this.host = host;
        this.port = port;
        this.user = user;
        this.connectionProperties = connectionProperties;
        this.snapshotNeedsLocks = snapshotNeedsLocks;
    }

    /** Runs every check; an empty list means the server is ready. */
    public List<Problem> run() {
        List<Problem> problems = new ArrayList<>();
        String where = host + ":" + port;
        try (Connection c = flavor.connect(host, port, connectionProperties)) {
            serverVariables(c, where, problems);
            privileges(c, where, problems);
        } catch (SQLException e) {
            problems.add(new Problem("database.hostname", "cannot connect to " + where + " as '" + user + "': "
                    + masked(e.getMessage()) + ". Check database.hostname, database.port, database.user and database.password, "
                    + "that the user may connect from this host, and database.ssl.* if the server requires TLS."));
        }
        return problems;
    }

    /** A driver's message with every secret of the connection properties masked ({@link Redaction}). */
    private String masked(String message) {
        Map<String, String> settings = new java.util.HashMap<>();
        for (String k : connectionProperties.stringPropertyNames()) settings.put(k, connectionProperties.getProperty(k));
        return Redaction.scrub(message, null, Redaction.secretValues(settings));
    }

    private void serverVariables(Connection c, String where, List<Problem> problems) throws SQLException {
        String logBin = variable(c, "log_bin");
        if (logBin == null || !(logBin.equalsIgnoreCase("ON") || logBin.equals("1"))) {
            problems.add(new Problem("database.hostname", "binary logging is off on " + where + " (log_bin="
                    + logBin + "). Start the server with log-bin, a server-id, binlog_format=ROW and "
                    + "binlog_row_image=FULL, e.g. in my.cnf [mysqld]: log-bin=mysql-bin, server-id=1, "
                    + "binlog_format=ROW, binlog_row_image=FULL; then restart it."));
            return;
        }
        String format = variable(c, "binlog_format");
        if (format != null && !format.equalsIgnoreCase("ROW")) {
            problems.add(new Problem("database.hostname", "binlog_format is " + format + " on " + where
                    + "; row changes need ROW. Run SET GLOBAL binlog_format='ROW' and put binlog_format=ROW in my.cnf "
                    + "(sessions already open keep the old format until they reconnect)."));
        }
        String image = variable(c, "binlog_row_image");
        if (image != null && !image.equalsIgnoreCase("FULL")) {
            problems.add(new Problem("database.hostname", "binlog_row_image is " + image + " on " + where
                    + "; updates and deletes need every column. Run SET GLOBAL binlog_row_image='FULL' and put "
                    + "binlog_row_image=FULL in my.cnf."));
        }
        // MySQL 8 only (MariaDB has no such variable). Debezium skips PARTIAL_UPDATE_ROWS events without a word: every
        // UPDATE the server logs as a JSON diff would be lost, not just its JSON column (MySql8CaptureTest shows it).
        String valueOptions = variable(c, "binlog_row_value_options");
        if (valueOptions != null && valueOptions.toUpperCase(Locale.ROOT).contains("PARTIAL_JSON")) {
            problems.add(new Problem("database.hostname", "binlog_row_value_options is " + valueOptions + " on "
                    + where + "; the binlog then holds UPDATEs of JSON columns as diffs (PARTIAL_UPDATE_ROWS_EVENT), "
                    + "which the binlog reader skips, so those updates would be lost. Run SET GLOBAL "
                    + "binlog_row_value_options='' and remove binlog_row_value_options=PARTIAL_JSON from my.cnf; "
                    + "sessions must not set it either."));
        }
    }

    private static String variable(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW GLOBAL VARIABLES LIKE '" + name + "'")) {
            return rs.next() ? rs.getString(2) : null;
        }
    }

    private void privileges(Connection c, String where, List<Problem> problems) throws SQLException {
        Set<String> global = new HashSet<>();
        boolean anySelect = false;
        boolean roles = false;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW GRANTS")) {
            while (rs.next()) {
                String grant = rs.getString(1);
                String upper = grant.toUpperCase(Locale.ROOT);
                if (!upper.startsWith("GRANT ")) continue;
                int on = upper.indexOf(" ON ");
                if (on < 0) {
                    roles = true; // "GRANT role TO user": privileges come from roles we do not expand
                    continue;
                }
                String privs = upper.substring(6, on);
                String object = upper.substring(on + 4).trim();
                boolean isGlobal = object.startsWith("*.*");
                for (String p : privs.split(",")) {
                    String priv = p.trim();
                    int paren = priv.indexOf('(');
                    if (paren >= 0) priv = priv.substring(0, paren).trim();
                    if (isGlobal) global.add(priv);
                    if (priv.equals("SELECT") || priv.equals("ALL PRIVILEGES") || priv.equals("ALL")) anySelect = true;
                }
            }
        }
        if (global.contains("ALL PRIVILEGES") || global.contains("ALL")) return;
        List<String> missing = new ArrayList<>();
        if (!global.contains("REPLICATION SLAVE") && !global.contains("REPLICATION REPLICA")) {
            missing.add("REPLICATION SLAVE");
        }
        boolean canReadBinlogState = global.contains("REPLICATION CLIENT") || global.contains("BINLOG MONITOR")
                || global.contains("SUPER");
        if (!canReadBinlogState) {
            missing.add(flavor == SourceFlavor.MARIADB ? "BINLOG MONITOR" : "REPLICATION CLIENT");
        }
        if (!anySelect) missing.add("SELECT");
        if (snapshotNeedsLocks && !global.contains("RELOAD") && !global.contains("LOCK TABLES")) {
            missing.add("RELOAD");
        }
        if (missing.isEmpty()) return;
        String grant = "GRANT " + String.join(", ", missing) + " ON *.* TO '" + user + "'@'<host>'";
        problems.add(new Problem("database.user", "user '" + user + "' on " + where + " lacks " + String.join(", ", missing)
                + (roles ? " (roles granted to the user were not inspected)" : "") + ". Run as an administrator: "
                + grant + (missing.contains("SELECT") ? " (or SELECT on the captured databases only)" : "")
                + ", or set startup.checks.enabled=false if the privileges come from a role."));
    }
}
