package io.cdcconnect.sink.ddl;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.metrics.JmxMeters;
import io.cdcconnect.sink.metrics.SinkMetrics;
import io.cdcconnect.sink.testutil.PostgresTarget;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.connect.StandInSinkTaskContext;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An error that may mean "already done" counts as done only when the statement's result is in the target
 * ({@link DdlEffect}); otherwise it is a refusal: the dead-letter queue under errors.tolerance=all, else a failed task.
 * Against a real MariaDB (the sink's default test target) and a real PostgreSQL.
 */
class DdlEffectTest {

    private static final AtomicLong TS = new AtomicLong(50_000);

    private static DdlChange ddl(String table, String sql) {
        return new DdlChange("src", table, sql, DdlChange.Kind.ALTER, Rows.ts(TS.incrementAndGet()));
    }

    private static Map<String, String> settings(TestDatabase target, String... extra) {
        Map<String, String> m = new HashMap<>(Map.of("schema.map", "src=" + target.name()));
        for (int i = 0; i < extra.length; i += 2) m.put(extra[i], extra[i + 1]);
        return m;
    }

    private static List<StandInSinkTaskContext.Report> reports(StandInSinkTaskContext context) {
        synchronized (context.reports) {
            return List.copyOf(context.reports);
        }
    }

    @Test
    void mariaDbRunsAnExpressionDefaultWithTheClockAsTheClock() throws Exception {
        try (TestDatabase target = SinkTarget.database("ddl_effect")) {
            try (TaskDriver driver = new TaskDriver(settings(target))) {
                driver.put(ddl("t", "CREATE TABLE t (id INT PRIMARY KEY)"),
                        ddl("t", "ALTER TABLE t ADD COLUMN due DATE DEFAULT (CURRENT_DATE + INTERVAL 30 DAY)"));
                driver.awaitApplied();
            }
            target.exec("INSERT INTO t (id) VALUES (1)");
            assertEquals(List.of(List.of("30")), target.query("SELECT DATEDIFF(due, CURRENT_DATE) FROM t"));
        }
    }

    @Test
    void aReplayWhoseResultIsInTheTargetIsDoneAndCountedAndAnyOtherSuchErrorIsRefused() throws Exception {
        try (TestDatabase target = SinkTarget.database("ddl_effect")) {
            StandInSinkTaskContext context = new StandInSinkTaskContext();
            try (TaskDriver driver = new TaskDriver(settings(target, "errors.tolerance", "all", "task.id",
                    "effect"), context)) {
                ChangeEvent[] first = {ddl("t", "CREATE TABLE t (id INT PRIMARY KEY, a INT, k INT)"),
                        ddl("t", "ALTER TABLE t ADD COLUMN due DATE, CHANGE a b BIGINT, ADD INDEX ik (k)"),
                        ddl("t", "ALTER TABLE t DROP COLUMN k")};
                driver.put(first);
                driver.awaitApplied();
                assertEquals(0.0, JmxMeters.read(SinkMetrics.DDL_NO_EFFECT, "driver", "effect"));
                // the same statements again (a source restart): each error is proved a replay
                driver.put(ddl("t", "CREATE TABLE t (id INT PRIMARY KEY, a INT, k INT)"),
                        ddl("t", "ALTER TABLE t ADD COLUMN due DATE"),
                        ddl("t", "ALTER TABLE t CHANGE a b BIGINT"),
                        ddl("t", "ALTER TABLE t DROP COLUMN k"));
                driver.awaitApplied();
                assertEquals(4.0, JmxMeters.read(SinkMetrics.DDL_NO_EFFECT, "driver", "effect"));
                assertEquals(List.of(), reports(context));
                // MariaDB's note for IF EXISTS of a table that is not there: did nothing, not applied
                driver.put(ddl("never", "DROP TABLE IF EXISTS never"));
                driver.awaitApplied();
                assertEquals(5.0, JmxMeters.read(SinkMetrics.DDL_NO_EFFECT, "driver", "effect"));
                // the same errors where the result is not in the target: refused, to the dead-letter queue
                driver.put(ddl("t", "ALTER TABLE t ADD COLUMN due INT"), // 1060, but due is a DATE
                        ddl("t", "ALTER TABLE t ADD COLUMN bad INT DEFAULT (nosuch + 1)"), // 1054, bad absent
                        ddl("t", "ALTER TABLE t CHANGE zz b BIGINT"), // 1054, but zz is gone and b is there: a replay
                        // 1054 for the expression, though b is there: its default is not what the statement says
                        ddl("t", "ALTER TABLE t MODIFY b BIGINT DEFAULT (nosuch + 1)"));
                driver.awaitApplied();
                List<StandInSinkTaskContext.Report> r = reports(context);
                assertEquals(3, r.size(), r.toString());
                assertTrue(r.get(2).error().getMessage().contains("1054"), r.get(2).error().getMessage());
                assertTrue(r.get(0).error().getMessage().contains("1060"), r.get(0).error().getMessage());
                assertTrue(r.get(1).error().getMessage().contains("1054"), r.get(1).error().getMessage());
                assertEquals(6.0, JmxMeters.read(SinkMetrics.DDL_NO_EFFECT, "driver", "effect"));
            }
            assertEquals(List.of(List.of("id"), List.of("b"), List.of("due")), target.query(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() "
                            + "AND table_name = 't' ORDER BY ordinal_position"));
            // without errors.tolerance=all the refusal fails the task, naming where it came from
            try (TaskDriver driver = new TaskDriver(settings(target))) {
                Throwable e = assertThrows(Throwable.class, () -> {
                    driver.put(ddl("t", "ALTER TABLE t ADD COLUMN bad INT DEFAULT (nosuch + 1)"));
                    driver.awaitApplied();
                });
                String all = e + " " + e.getCause();
                assertTrue(all.contains("1054") && all.contains("driver-topic-0@0"), all);
            }
        }
    }

    @Test
    void onPostgresAnErrorIsAReplayOnlyWhenTheResultIsThere() throws Exception {
        try (TestDatabase target = PostgresTarget.database("ddl_effect")) {
            StandInSinkTaskContext context = new StandInSinkTaskContext();
            try (TaskDriver driver = new TaskDriver(PostgresTarget.sinkSettings(target,
                    settings(target, "schema.map", "src=dst", "errors.tolerance", "all")), context)) {
                driver.put(ddl("t", "CREATE TABLE t (id INT PRIMARY KEY, k INT)"));
                driver.awaitApplied();
                // a column of another table's name: PostgreSQL refuses 42703 (one of its "already done" codes)
                driver.put(ddl("t", "ALTER TABLE t ADD COLUMN g INT AS (nosuch + 1) STORED"));
                driver.awaitApplied();
            }
            List<StandInSinkTaskContext.Report> r = reports(context);
            assertEquals(1, r.size(), r.toString());
            assertTrue(r.get(0).error().getMessage().contains("42703"), r.get(0).error().getMessage());
        }
    }
}
