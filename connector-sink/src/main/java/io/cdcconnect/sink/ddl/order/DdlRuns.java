package io.cdcconnect.sink.ddl.order;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Where a DDL statement runs: beside the task thread, so that {@code put()} keeps returning and the consumer keeps
 * polling (and keeps its group membership) while an ALTER of a large table runs for hours or waits for a metadata
 * lock. The partitions that passed the statement stay paused until it is done; the task thread learns it is done when
 * it next looks ({@link DdlSequencer#checkBarriers}), and does everything that follows there. One statement at a time.
 */
public interface DdlRuns {

    /** Starts {@code run}. */
    <T> Future<T> submit(Callable<T> run);

    /**
     * The task stops: {@code then} (releasing the run locks, closing the pool) runs once the statement running now, if
     * any, has returned, so that no other task takes a claim over while this one's statement still runs on the server.
     */
    void close(Runnable then);

    /** A thread of the task's own ({@code name}), started on the first statement. */
    static DdlRuns onThread(String name) {
        return new DdlRuns() {
            private ExecutorService executor;
            private Future<?> last;

            @Override
            public synchronized <T> Future<T> submit(Callable<T> run) {
                if (executor == null) {
                    executor = Executors.newSingleThreadExecutor(r -> {
                        Thread t = new Thread(r, name);
                        t.setDaemon(true);
                        return t;
                    });
                }
                Future<T> f = executor.submit(run);
                last = f;
                return f;
            }

            @Override
            public synchronized void close(Runnable then) {
                if (executor == null || last == null || last.isDone()) {
                    if (executor != null) executor.shutdown();
                    then.run();
                    return;
                }
                executor.submit(then);
                executor.shutdown();
            }
        };
    }
}
