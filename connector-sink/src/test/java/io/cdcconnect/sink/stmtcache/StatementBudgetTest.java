package io.cdcconnect.sink.stmtcache;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.metrics.JmxMeters;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's own count of prepared statements (SHOW GLOBAL STATUS Prepared_stmt_count), sampled while the task
 * writes many tables, stays within the sink's budget. The server is shared with other tests, so a small slack is
 * allowed for statements other clients hold; an unbounded cache would exceed it many times over.
 */
class StatementBudgetTest {

    private static final int TABLES = 30;
    private static final int SLACK = 25;

    private static long preparedOnServer(Connection c) throws Exception {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'")) {
            rs.next();
            return rs.getLong(2);
        }
    }

    @Test
    void peakPreparedStatementsStayWithinTheBudget() throws Exception {
        try (TestDatabase source = SinkTarget.database("budget_src"); TestDatabase target = SinkTarget.database("budget_dst");
             Connection monitor = target.connect()) {
            for (int t = 0; t < TABLES; t++) target.exec("CREATE TABLE t" + t + " (id BIGINT PRIMARY KEY, v VARCHAR(20))");
            List<ChangeEvent> events = new ArrayList<>();
            long ts = 1000;
            for (int round = 0; round < 3; round++) {
                for (int t = 0; t < TABLES; t++) {
                    TableInfo table = Rows.idValue(source.name(), "t" + t);
                    ts++;
                    // 9 rows in one transaction: an 8-row and a 1-row upsert, two texts per table
                    for (int i = 0; i < 9; i++) {
                        long id = round * 100L + i;
                        events.add(RowChange.insert(table, new Object[]{id, "r" + round}, Rows.ts(ts)));
                    }
                }
            }
            long baseline = preparedOnServer(monitor);
            AtomicLong peak = new AtomicLong(baseline);
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                try (Connection c = target.connect()) {
                    while (sampling.get()) {
                        peak.accumulateAndGet(preparedOnServer(c), Math::max);
                        Thread.sleep(1);
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            sampler.start();
            // 2 workers + 1 = 3 connections, at most 4 statements each
            try (TaskDriver driver = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(),
                    "worker.count", "2", "statement.cache.size", "4", "safe.mode", "always", "task.id", "budget"))) {
                driver.put(events.toArray(new ChangeEvent[0]));
                driver.awaitApplied();
                assertTrue(JmxMeters.read(SinkMetrics.CACHE_EVICTIONS, "driver", "budget") > 0);
                assertTrue(JmxMeters.read(SinkMetrics.STATEMENTS_PREPARED, "driver", "budget") > 12);
                assertEquals(0.0, JmxMeters.read(SinkMetrics.STATEMENTS_TEXT_FALLBACK, "driver", "budget"));
                assertTrue(JmxMeters.read(SinkMetrics.CACHE_SIZE, "driver", "budget") <= 12);
                // the gauge an alert divides the size by: 3 connections x 4 statements
                assertEquals(12.0, JmxMeters.read(SinkMetrics.CACHE_LIMIT, "driver", "budget"));
            }
            sampling.set(false);
            sampler.join();
            long used = peak.get() - baseline;
            assertTrue(used <= 12 + SLACK, "peak " + used + " prepared statements above the baseline");
            for (int t = 0; t < TABLES; t++) assertEquals(27, target.count("t" + t));
        }
    }
}
