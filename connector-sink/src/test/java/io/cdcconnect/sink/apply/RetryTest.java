package io.cdcconnect.sink.apply;

import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.metrics.JmxMeters;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.TestDatabase;
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
        source = new TestDatabase("retry_src");
        target = new TestDatabase("retry_dst");
        target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO items VALUES (1, 'old')");
        table = Rows.idValue(source.name(), "items");
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        target.close();
    }

    private TaskDriver driver(String taskId, int retries) {
        return new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(), "task.id", taskId,
                "connection.url", TestDatabase.HOST_URL + "?sessionVariables=innodb_lock_wait_timeout=1",
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
            assertTrue(JmxMeters.read("cdcSinkRetries", "driver", "lockwait") >= 1);
        } finally {
            locker.close();
        }
    }

    @Test
    void retriesRunOutAndTheTaskFailsNamingTheError() throws Exception {
        Connection locker = lockRow();
        try (TaskDriver driver = driver("giveup", 1)) {
            driver.put(RowChange.update(table, new Object[]{1L, "old"}, new Object[]{1L, "new"}, Rows.ts(1000)));
            ConnectException e = assertThrows(ConnectException.class, () -> {
                for (int i = 0; i < 100; i++) {
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
            for (int i = 0; i < 50 && victim < 0; i++) {
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
            assertTrue(JmxMeters.read("cdcSinkRetries", "driver", "killed") >= 1);
        } finally {
            locker.close();
        }
    }
}
