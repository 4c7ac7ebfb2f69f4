package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.metrics.JmxMeters;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transient errors provoked on the real MariaDB: a row lock held by another session (the sink's session sets
 * innodb_lock_wait_timeout=1, so it gets error 1205), and the sink's connection killed while it waits.
 */
class RetryTest {

    private TestDatabase source;
    private TestDatabase target;
    private TableInfo table;

    @BeforeEach
    void setUp() throws Exception {
        source = SinkTarget.database("retry_src");
        target = SinkTarget.database("retry_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO items VALUES (1, 'old')");
        table = Rows.idValue(source.name(), "items");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private TaskDriver driver(String taskId, int retries) {
        return driver(taskId, retries, 1);
    }

    private TaskDriver driver(String taskId, int retries, int lockWaitSeconds) {
        return new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(), "task.id", taskId,
                "safe.mode", "never",
                "connection.url", SinkTarget.url() + "?sessionVariables=innodb_lock_wait_timeout=" + lockWaitSeconds,
                "retry.max.attempts", Integer.toString(retries), "retry.backoff.ms", "100", "worker.count", "2"));
    }

    private Connection lockRow() throws Exception {
        Connection locker = target.connect();
        locker.setAutoCommit(false);
        try (Statement st = locker.createStatement()) {
            st.executeQuery("SELECT * FROM items WHERE id = 1 FOR UPDATE").close();
        }
        return locker;
    }

    @Test
    void lockWaitTimeoutIsRetriedUntilTheLockIsReleased() throws Exception {
        Connection locker = lockRow();
        try (TaskDriver driver = driver("lockwait", 10)) {
            driver.put(RowChange.update(table, new Object[]{1L, "old"}, new Object[]{1L, "new"}, Rows.ts(1000)));
            driver.task().put(List.of());
            Thread.sleep(2500);
            assertEquals(List.of(List.of("old")), target.query("SELECT v FROM items"));
            locker.commit();
            driver.awaitApplied();
            assertEquals(List.of(List.of("new")), target.query("SELECT v FROM items"));
            assertTrue(JmxMeters.read(SinkMetrics.RETRIES, "driver", "lockwait") >= 1);
        } finally {
            locker.close();
        }
    }

    @Test
    void aDeadlockVictimTransactionIsRetried() throws Exception {
        target.exec("INSERT INTO items VALUES (2, 'old')", "CREATE TABLE ballast (n INT PRIMARY KEY)");
        long deadlocksBefore = deadlocks();
        try (Connection other = target.connect(); TaskDriver driver = driver("deadlock", 10, 30)) {
            other.setAutoCommit(false);
            try (Statement st = other.createStatement()) {
                // the other transaction writes much more, so InnoDB picks the sink's as the deadlock victim
                for (int i = 0; i < 200; i++) st.execute("INSERT INTO ballast VALUES (" + i + ")");
                st.execute("UPDATE items SET v = 'other' WHERE id = 1");
            }
            // one source transaction: row 2, then row 1 (which waits for the other session)
            driver.put(RowChange.update(table, new Object[]{2L, "old"}, new Object[]{2L, "sink"}, Rows.ts(1000)),
                    RowChange.update(table, new Object[]{1L, "old"}, new Object[]{1L, "sink"}, Rows.ts(1000)));
            driver.task().put(List.of());
            // the sink's session executing its UPDATE for several samples in a row is blocked on row 1
            boolean waiting = false;
            int seen = 0;
            long deadline = System.currentTimeMillis() + 30_000;
            while (!waiting && System.currentTimeMillis() < deadline) {
                boolean executing = !target.query("SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND = "
                        + "'Execute' AND INFO LIKE '%UPDATE `" + target.name() + "`.`items`%'").isEmpty();
                seen = executing ? seen + 1 : 0;
                waiting = seen >= 5;
                Thread.sleep(50);
            }
            assertTrue(waiting, "the sink waits for the other session's lock");
            try (Statement st = other.createStatement()) {
                st.execute("UPDATE items SET v = 'other' WHERE id = 2"); // closes the cycle
            }
            other.commit();
            driver.awaitApplied();
            assertTrue(JmxMeters.read(SinkMetrics.RETRIES, "driver", "deadlock") >= 1);
        }
        assertEquals(List.of(List.of("1", "sink"), List.of("2", "sink")), target.query("SELECT id, v FROM items ORDER BY id"));
        assertTrue(deadlocks() > deadlocksBefore, "the server saw a deadlock");
    }

    private long deadlocks() throws Exception {
        return Long.parseLong(target.query("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'").get(0).get(1));
    }

    @Test
    void retriesRunOutAndTheTaskFailsNamingTheError() throws Exception {
        Connection locker = lockRow();
        try (TaskDriver driver = driver("giveup", 1)) {
            driver.put(RowChange.update(table, new Object[]{1L, "old"}, new Object[]{1L, "new"}, Rows.ts(1000)));
            ConnectException e = assertThrows(ConnectException.class, () -> {
                for (int i = 0; i < 300; i++) {
                    driver.task().put(List.of());
                    Thread.sleep(100);
                }
            });
            assertTrue(e.getMessage().contains("after 2 attempts"), e.getMessage());
            assertTrue(e.getMessage().contains("1205"), e.getMessage());
            assertTrue(e.getMessage().contains(TaskDriver.TOPIC + "-0"), e.getMessage());
            assertEquals(-1, driver.committable(), "nothing applied, nothing committed");
        } finally {
            locker.rollback();
            locker.close();
        }
    }

    @Test
    void aKilledConnectionIsReplacedAndTheTransactionRetried() throws Exception {
        Connection locker = lockRow();
        try (TaskDriver driver = driver("killed", 10)) {
            driver.put(RowChange.update(table, new Object[]{1L, "old"}, new Object[]{1L, "new"}, Rows.ts(1000)));
            driver.task().put(List.of());
            long victim = -1;
            for (int i = 0; i < 500 && victim < 0; i++) {
                try (Statement st = locker.createStatement(); ResultSet rs = st.executeQuery(
                        "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '%" + target.name()
                                + "`.`items`%' AND ID <> CONNECTION_ID()")) {
                    if (rs.next()) victim = rs.getLong(1);
                }
                if (victim < 0) Thread.sleep(20);
            }
            assertTrue(victim > 0, "the sink's statement waits for the lock");
            try (Connection killer = target.connect(); Statement st = killer.createStatement()) {
                st.execute("KILL " + victim);
            }
            Thread.sleep(300);
            locker.commit();
            driver.awaitApplied();
            assertEquals(List.of(List.of("new")), target.query("SELECT v FROM items"));
            assertTrue(JmxMeters.read(SinkMetrics.RETRIES, "driver", "killed") >= 1);
        } finally {
            locker.close();
        }
    }
}
