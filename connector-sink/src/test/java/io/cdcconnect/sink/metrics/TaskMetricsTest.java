package io.cdcconnect.sink.metrics;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The task's meters over JMX after it applied rows to the real MariaDB. */
class TaskMetricsTest {

    @Test
    void appliedRowsStatementsAndCheckpointLagAreVisibleOverJmx() throws Exception {
        try (TestDatabase source = SinkTarget.database("metrics_src"); TestDatabase target = SinkTarget.database("metrics_dst")) {
            target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20))");
            TableInfo t = Rows.idValue(source.name(), "items");
            long committedAt = System.currentTimeMillis() - 10_000;
            List<ChangeEvent> rows = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                rows.add(RowChange.insert(t, new Object[]{(long) i, "v"}, Rows.ts(committedAt)));
            }
            try (TaskDriver driver = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(),
                    "task.id", "meters"))) {
                driver.put(rows.toArray(new ChangeEvent[0]));
                driver.awaitApplied();
                assertEquals(20.0, JmxMeters.read(SinkMetrics.ROWS_APPLIED, "driver", "meters"));
                // one transaction of 20 rows: a 8-row statement twice and four single rows
                assertEquals(6.0, JmxMeters.read(SinkMetrics.STATEMENTS_EXECUTED, "driver", "meters"));
                assertEquals(1.0, JmxMeters.read(SinkMetrics.TXN_FLUSH_COUNT, "driver", "meters"));
                double lag = JmxMeters.read(SinkMetrics.LAG, "driver", "meters");
                assertTrue(lag >= 10_000 && lag < 120_000, "checkpoint lag " + lag);
                assertEquals(0.0, JmxMeters.read(SinkMetrics.BUFFER_BYTES, "driver", "meters"), "all applied, nothing held");
                assertEquals(0.0, JmxMeters.read(SinkMetrics.TXN_IN_FLIGHT, "driver", "meters"));
            }
        }
    }
}
