package io.cdcconnect.sink;

import io.cdcconnect.codec.model.DdlChange;
import io.cdcconnect.sink.ddl.order.DdlExecutor;
import io.cdcconnect.sink.ddl.order.DdlRuns;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * Where {@link CallPathScenario}'s statements run: on the model of the target ({@link SimTarget.Backend#run}), on a
 * thread of their own as {@link DdlRuns#onThread} runs them, but done by the time {@link #submit} returns (a statement
 * that takes no time), so that the task thread finds it done at its first look, in every run. The simulation's own
 * {@code runs} runs the statement on the calling thread (the task thread), which the call-path measurement
 * ({@link DdlCallPathTest}) would then follow as if the task ran it.
 */
final class CallPathDdlRuns implements DdlExecutor, DdlRuns {

    private final SimTarget.Backend model;
    private final Object world;

    CallPathDdlRuns(SimTarget.Backend model, Object world) {
        this.model = model;
        this.world = world;
    }

    @Override
    public boolean run(DdlChange ddl, String targetSchema, boolean renamed, String origin) {
        synchronized (world) {
            return model.run(ddl, targetSchema, renamed, origin);
        }
    }

    @Override
    public DdlRuns runs(String threadName) {
        return this;
    }

    @Override
    public <T> Future<T> submit(Callable<T> run) {
        CompletableFuture<T> outcome = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                outcome.complete(run.call());
            } catch (Throwable e) {
                outcome.completeExceptionally(e);
            }
        }, "callpath-ddl");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return outcome;
    }

    @Override
    public void close(Runnable then) {
        then.run();
    }
}
