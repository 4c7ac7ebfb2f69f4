package io.cdcconnect.it;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongConsumer;

/**
 * A small shop: customers, orders and order lines, with the common column types (integers signed and unsigned,
 * VARCHAR, DECIMAL, DATETIME with and without fraction, NULL). Writes a seeded, repeatable mix of single-row and
 * multi-row transactions: inserts, updates (also of a primary-key column), deletes.
 */
public final class Workload {
    public static final List<String> TABLES = List.of("customers", "orders", "order_lines");

    public static final List<String> DDL = List.of(
            "CREATE TABLE IF NOT EXISTS customers (id INT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL,"
                    + " city VARCHAR(64) NULL, balance DECIMAL(12,2) NOT NULL, vip TINYINT NOT NULL,"
                    + " created_at DATETIME NOT NULL, updated_at DATETIME(3) NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
            "CREATE TABLE IF NOT EXISTS orders (id BIGINT NOT NULL PRIMARY KEY, customer_id INT NOT NULL,"
                    + " amount DECIMAL(10,2) NULL, status VARCHAR(16) NOT NULL, qty SMALLINT UNSIGNED NOT NULL,"
                    + " placed_at DATETIME(6) NOT NULL, note VARCHAR(200) NULL, KEY idx_customer (customer_id))"
                    + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
            "CREATE TABLE IF NOT EXISTS order_lines (order_id BIGINT NOT NULL, line INT NOT NULL,"
                    + " sku VARCHAR(32) NOT NULL, qty INT NOT NULL, price DECIMAL(10,2) NOT NULL,"
                    + " PRIMARY KEY (order_id, line)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");

    private static final String[] CITIES = {"Lisbon", "Porto", "Berlin", "Zürich", "Kraków", "Québec", "Tōkyō", null};
    private static final String[] STATUS = {"new", "paid", "shipped", "returned", "closed"};

    private final Random random;
    private final List<Integer> customers = new ArrayList<>();
    private final List<Long> orders = new ArrayList<>();
    private int nextCustomer = 1;
    private long nextOrder = 1;
    private long rowChanges;

    public Workload(long seed) {
        this.random = new Random(seed);
    }

    /** Creates the tables in the database the connection points at. */
    public static void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String ddl : DDL) s.execute(ddl);
        }
    }

    /** Row changes written so far (inserted, updated and deleted rows). */
    public long rowChanges() {
        return rowChanges;
    }

    /** Inserts {@code customers} customers with two orders each, in transactions of 50 rows. */
    public void preload(Connection c, int customerCount) throws SQLException {
        c.setAutoCommit(false);
        for (int i = 0; i < customerCount; i++) {
            insertCustomer(c);
            newOrder(c);
            newOrder(c);
            if (i % 10 == 9) c.commit();
        }
        c.commit();
    }

    /**
     * Runs {@code transactions} transactions. {@code progress} hears the running count of row changes after each
     * commit; {@code pauseMicros} spaces the transactions (0 = as fast as the server takes them).
     */
    public void run(Connection c, int transactions, long pauseMicros, LongConsumer progress) throws SQLException {
        c.setAutoCommit(false);
        for (int i = 0; i < transactions; i++) {
            int pick = random.nextInt(100);
            if (pick < 15 || orders.isEmpty()) insertCustomer(c);
            else if (pick < 40) newOrder(c);
            else if (pick < 55) updateOrderStatus(c);
            else if (pick < 70) updateBalances(c);
            else if (pick < 78) renumberLines(c);
            else if (pick < 86) clearOrSetNotes(c);
            else if (pick < 94) deleteOrder(c);
            else deleteCustomerWithoutOrders(c);
            c.commit();
            if (progress != null) progress.accept(rowChanges);
            if (pauseMicros > 0) {
                try {
                    Thread.sleep(pauseMicros / 1000, (int) (pauseMicros % 1000) * 1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void insertCustomer(Connection c) throws SQLException {
        int id = nextCustomer++;
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO customers (id, name, city, balance, vip, created_at, updated_at) VALUES (?,?,?,?,?,?,?)")) {
            ps.setInt(1, id);
            ps.setString(2, "customer " + id + (id % 7 == 0 ? " 😀" : ""));
            ps.setString(3, CITIES[random.nextInt(CITIES.length)]);
            ps.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(10_000_000), 2).negate().add(BigDecimal.valueOf(50_000)));
            ps.setInt(5, random.nextInt(2));
            ps.setTimestamp(6, Timestamp.valueOf(LocalDateTime.of(2024, 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60))));
            ps.setTimestamp(7, random.nextBoolean() ? null : Timestamp.valueOf(LocalDateTime.of(2025, 6, 1, 12, 0, 0,
                    random.nextInt(1000) * 1_000_000)));
            ps.executeUpdate();
        }
        customers.add(id);
        rowChanges++;
    }

    private void newOrder(Connection c) throws SQLException {
        if (customers.isEmpty()) insertCustomer(c);
        long id = nextOrder++;
        int customer = customers.get(random.nextInt(customers.size()));
        int lines = 1 + random.nextInt(5);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (id, customer_id, amount, status, qty,"
                + " placed_at, note) VALUES (?,?,?,?,?,?,?)")) {
            ps.setLong(1, id);
            ps.setInt(2, customer);
            ps.setBigDecimal(3, random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(100_000_00), 2));
            ps.setString(4, STATUS[0]);
            ps.setInt(5, 30_000 + random.nextInt(35_000));
            ps.setTimestamp(6, Timestamp.valueOf(LocalDateTime.of(2025, 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000) * 1000)));
            ps.setString(7, random.nextInt(4) == 0 ? "" : null);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO order_lines (order_id, line, sku, qty, price) VALUES (?,?,?,?,?)")) {
            for (int l = 1; l <= lines; l++) {
                ps.setLong(1, id);
                ps.setInt(2, l);
                ps.setString(3, "SKU-" + random.nextInt(1000));
                ps.setInt(4, 1 + random.nextInt(9));
                ps.setBigDecimal(5, BigDecimal.valueOf(random.nextInt(100_000), 2));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        orders.add(id);
        rowChanges += 1 + lines;
    }

    private long someOrder() {
        return orders.get(random.nextInt(orders.size()));
    }

    private void updateOrderStatus(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE orders SET status = ?, amount = amount + 1.25 WHERE id = ?")) {
            ps.setString(1, STATUS[random.nextInt(STATUS.length)]);
            ps.setLong(2, someOrder());
            rowChanges += ps.executeUpdate();
        }
    }

    private void updateBalances(Connection c) throws SQLException {
        if (customers.isEmpty()) return;
        int first = customers.get(random.nextInt(customers.size()));
        try (PreparedStatement ps = c.prepareStatement("UPDATE customers SET balance = balance - 10.5,"
                + " updated_at = ? WHERE id BETWEEN ? AND ?")) {
            ps.setTimestamp(1, Timestamp.valueOf(LocalDateTime.of(2026, 2, 3, 4, 5, 6, random.nextInt(1000) * 1_000_000)));
            ps.setInt(2, first);
            ps.setInt(3, first + 1 + random.nextInt(8));
            rowChanges += ps.executeUpdate();
        }
    }

    /** Changes a primary-key column: downstream this must delete the old key and write the new one. */
    private void renumberLines(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE order_lines SET line = line + 100 WHERE order_id = ? ORDER BY line DESC")) {
            ps.setLong(1, someOrder());
            rowChanges += ps.executeUpdate();
        }
    }

    private void clearOrSetNotes(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET note = ? WHERE id = ?")) {
            int k = random.nextInt(3);
            ps.setString(1, k == 0 ? null : k == 1 ? "" : "gift wrap, leave at door <&> \"quoted\"");
            ps.setLong(2, someOrder());
            rowChanges += ps.executeUpdate();
        }
    }

    private void deleteOrder(Connection c) throws SQLException {
        long id = orders.remove(random.nextInt(orders.size()));
        try (PreparedStatement lines = c.prepareStatement("DELETE FROM order_lines WHERE order_id = ?");
             PreparedStatement order = c.prepareStatement("DELETE FROM orders WHERE id = ?")) {
            lines.setLong(1, id);
            rowChanges += lines.executeUpdate();
            order.setLong(1, id);
            rowChanges += order.executeUpdate();
        }
    }

    private void deleteCustomerWithoutOrders(Connection c) throws SQLException {
        if (customers.size() < 2) return;
        int idx = random.nextInt(customers.size());
        int id = customers.get(idx);
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM customers WHERE id = ?"
                + " AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = customers.id)")) {
            ps.setInt(1, id);
            int n = ps.executeUpdate();
            if (n > 0) customers.remove(idx);
            rowChanges += n;
        }
    }
}
