package io.cdcconnect.sink;

import io.cdcconnect.codec.model.ChangeEvent;
import io.cdcconnect.codec.model.RowChange;
import io.cdcconnect.codec.model.TableInfo;
import io.cdcconnect.sink.apply.ApplyWorker;
import io.cdcconnect.sink.testutil.Rows;
import io.cdcconnect.sink.testutil.SinkTarget;
import io.cdcconnect.sink.testutil.TaskDriver;
import io.cdcconnect.testsupport.db.TestDatabase;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Connect sets {@code connector.context} in the MDC of a task's thread; a line an apply worker logs (its own thread,
 * started by the task) carries the same, as written by reload4j, the binding a worker of these tests logs through.
 */
class TaskThreadsMdcTest {

    /** What a worker logs, with the thread and the MDC value as reload4j saw them when the line was logged. */
    record Logged(String thread, Object context, String message) {
    }

    @Test
    void anApplyWorkersLogLinesCarryTheMdcOfTheThreadThatStartedTheTask() throws Exception {
        List<Logged> logged = new CopyOnWriteArrayList<>();
        AppenderSkeleton capture = new AppenderSkeleton() {
            @Override
            protected void append(LoggingEvent e) {
                logged.add(new Logged(e.getThreadName(), e.getMDC("connector.context"), e.getRenderedMessage()));
            }

            @Override
            public void close() {
            }

            @Override
            public boolean requiresLayout() {
                return false;
            }
        };
        Logger workerLog = Logger.getLogger(ApplyWorker.class);
        workerLog.addAppender(capture);
        try (TestDatabase source = SinkTarget.database("mdc_src"); TestDatabase target = SinkTarget.database("mdc_dst");
             TestDatabase control = SinkTarget.database("mdc_ck")) {
            // a second unique key: written plainly where no task wrote before (SafeModeDecision)
            target.exec("CREATE TABLE items (id BIGINT PRIMARY KEY, v VARCHAR(20), UNIQUE KEY items_v (v))");
            TableInfo t = Rows.idValue(source.name(), "items");
            // a partition no task wrote before (written_through in the control database): applied as a plain UPDATE,
            // which finds no row, and the worker logs that it applies the transaction again in safe mode
            long later = System.currentTimeMillis() + 60_000;
            ChangeEvent update = RowChange.update(t, new Object[]{1L, "a"}, new Object[]{1L, "b"}, Rows.ts(later));
            String[] taskThread = new String[1];
            TaskDriver[] driver = new TaskDriver[1];
            Thread connectTaskThread = new Thread(() -> {
                MDC.put("connector.context", "[mdc-connector|task-3] ");
                try {
                    taskThread[0] = Thread.currentThread().getName();
                    driver[0] = new TaskDriver(Map.of("schema.map", source.name() + "=" + target.name(),
                            "name", "mdc-" + target.name(), "ddl.checkpoint.database", control.name(),
                            "worker.count", "2"));
                } finally {
                    MDC.clear();
                }
            }, "task-thread-mdc-connector-3");
            connectTaskThread.start();
            connectTaskThread.join();
            try (TaskDriver d = driver[0]) {
                // put from a thread without that MDC: the worker's context comes from the thread that started it
                d.put(update);
                d.awaitApplied();
            }
            List<Logged> replanned = logged.stream().filter(l -> l.message().contains("a row the target lacks"))
                    .toList();
            assertFalse(replanned.isEmpty(), "the apply worker logged the replanned update: " + logged);
            for (Logged l : replanned) {
                assertNotEquals(taskThread[0], l.thread(), "logged on a worker's thread, not the task's");
                assertNotEquals(Thread.currentThread().getName(), l.thread());
                assertEquals("[mdc-connector|task-3] ", l.context(), l.toString());
            }
            assertEquals(List.of(List.of("1", "b")), target.query("SELECT id, v FROM items"));
        } finally {
            workerLog.removeAppender(capture);
        }
    }
}
