package io.cdcconnect.testsupport.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A uniquely named database on a {@link DatabaseServer}, dropped on close. On PostgreSQL it is a database of its own
 * (from {@code template1}, UTF-8, its tables in schema {@code public}), named in lower case so that SQL may name it
 * with or without quotes, and dropped {@code WITH (FORCE)}: connections a connector left open do not keep it.
 */
public final class TestDatabase implements AutoCloseable {

    private final DatabaseServer server;
    private final String name;

    public TestDatabase(DatabaseServer server, String prefix) throws SQLException {
        this.server = server;
        String unique = (prefix + "_" + UUID.randomUUID().toString().substring(0, 8)).replace('-', '_');
        if (flavor().mysqlProtocol()) {
            this.name = unique;
            server.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
        } else {
            this.name = unique.toLowerCase(Locale.ROOT);
            // copying template1's files is twice as fast as WAL-logging them (the default since 15) with fsync off
            server.execute("CREATE DATABASE " + quote(name)
                    + (server instanceof EmbeddedPostgreSql ? " STRATEGY = FILE_COPY" : ""));
        }
    }

    private Flavor flavor() {
        return server.spec().flavor();
    }

    /** {@code identifier} quoted for this server's SQL ({@link Flavor#quote}). */
    public String quote(String identifier) {
        return flavor().quote(identifier);
    }

    /** The JDBC URL of this database ({@link DatabaseServer#jdbcUrl}), e.g. for a connector's configuration. */
    public String jdbcUrl() {
        return server.jdbcUrl(name);
    }

    public DatabaseServer server() {
        return server;
    }

    public String name() {
        return name;
    }

    public Connection connect() throws SQLException {
        return server.connect(name);
    }

    /** Runs the statements in this database, in order, on one connection. */
    public void exec(String... sql) throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            for (String s : sql) st.execute(s);
        }
    }

    /** Rows of a query as lists of strings (getString), for comparisons. */
    public List<List<String>> query(String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) row.add(rs.getString(i));
                rows.add(row);
            }
        }
        return rows;
    }

    public long count(String table) throws SQLException {
        return Long.parseLong(query("SELECT COUNT(*) FROM " + quote(table)).get(0).get(0));
    }

    @Override
    public void close() throws SQLException {
        server.execute("DROP DATABASE IF EXISTS " + quote(name) + (flavor().mysqlProtocol() ? "" : " WITH (FORCE)"));
    }
}
