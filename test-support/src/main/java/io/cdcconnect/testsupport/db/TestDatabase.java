package io.cdcconnect.testsupport.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** A uniquely named database on a {@link DatabaseServer}, dropped on close. */
public final class TestDatabase implements AutoCloseable {

    private final DatabaseServer server;
    private final String name;

    public TestDatabase(DatabaseServer server, String prefix) throws SQLException {
        this.server = server;
        this.name = (prefix + "_" + UUID.randomUUID().toString().substring(0, 8)).replace('-', '_');
        server.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
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
        return Long.parseLong(query("SELECT COUNT(*) FROM `" + table + "`").get(0).get(0));
    }

    @Override
    public void close() throws SQLException {
        server.execute("DROP DATABASE IF EXISTS `" + name + "`");
    }
}
