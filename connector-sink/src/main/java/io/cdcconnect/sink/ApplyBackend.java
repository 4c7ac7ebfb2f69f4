package io.cdcconnect.sink;

import io.cdcconnect.sink.apply.WorkItem;
import io.cdcconnect.sink.conflict.ConflictDetector;

/**
 * Where dispatched transactions are applied: they wait in the {@link ConflictDetector} until every earlier one they
 * share a key with is committed, then a worker commits them ({@link ApplyStage}: JDBC workers; the simulation of the
 * core: a model of the target, stepped by its scheduler).
 */
interface ApplyBackend extends AutoCloseable {

    ConflictDetector<WorkItem> detector();

    /** Waits until every dispatched transaction is applied; false when the timeout passed first. */
    boolean awaitIdle(long timeoutMillis);

    /** The first apply failure, thrown on the task thread. */
    void checkFailure();

    @Override
    void close();
}
