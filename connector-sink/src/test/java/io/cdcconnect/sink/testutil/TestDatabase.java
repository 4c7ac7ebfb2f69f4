package io.cdcconnect.sink.testutil;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A uniquely named database on the real MariaDB 10.11 at 127.0.0.1:3306 (root, no password), dropped on close.
 */
public final class TestDatabase implements AutoCloseable {

    public static final String HOST_URL = System.getProperty("sink.test.url", "jdbc:mysql://127.0.0.1:3306/");

    private final String name;

    public TestDatabase(String prefix) throws SQLException {
        this.name = (prefix + "_" + UUID.randomUUID().toString().substring(0, 8)).replace('-', '_');
        exec("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
    }

    public String name() {
        return name;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(HOST_URL + name + "?characterEncoding=UTF-8", "root", "");
    }

    public void exec(String... sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(HOST_URL + "?characterEncoding=UTF-8", "root", "");
             Statement st = c.createStatement()) {
            if (name != null && !sql[0].startsWith("CREATE DATABASE")) st.execute("USE `" + name + "`");
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
        exec("DROP DATABASE IF EXISTS `" + name + "`");
    }
}
