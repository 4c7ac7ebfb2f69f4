package io.cdcconnect.sink;

import io.cdcconnect.sink.apply.WorkItem;
import io.cdcconnect.sink.conflict.ConflictDetector;
import io.cdcconnect.sink.txn.Transaction;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The apply side of {@link CallPathScenario}'s pipeline: one worker thread commits ready transactions to the model of
 * the target ({@link SimWorld}), as {@link ApplyStage}'s workers commit them to the target, so that the task thread
 * does on it what it does on {@link ApplyStage}: {@code ready::add} from the {@link ConflictDetector},
 * {@link #awaitIdle} through {@link ConflictDetector#awaitIdle}, {@link #checkFailure}. (The simulation's own backend,
 * {@link SimTarget.Backend}, commits on the thread that steps it: inside {@code awaitIdle} on the task thread, which the
 * call-path measurement ({@link DdlCallPathTest}) would then follow as if it were the task's own work.)
 */
final class CallPathWorkers implements ApplyBackend {

    private final LinkedBlockingQueue<ConflictDetector.Node<WorkItem>> ready = new LinkedBlockingQueue<>();
    private final ConflictDetector<WorkItem> detector = new ConflictDetector<>(ready::add);
    /** As ApplyStage's: completions that left the detector and have not marked their offset yet. */
    private final AtomicInteger settling = new AtomicInteger();
    private final SimWorld world;
    /** A row that met its table on the wrong side of a statement. */
    final List<String> violations = new CopyOnWriteArrayList<>();
    private volatile SinkPipeline pipeline;
    private volatile RuntimeException failure;
    private final Thread worker;

    CallPathWorkers(SimWorld world) {
        this.world = world;
        this.worker = new Thread(this::work, "callpath-worker");
        worker.setDaemon(true);
        worker.start();
    }

    void attach(SinkPipeline pipeline) {
        this.pipeline = pipeline;
    }

    private void work() {
        try {
            while (true) {
                ConflictDetector.Node<WorkItem> node = ready.take();
                try {
                    commit(node);
                } catch (RuntimeException e) {
                    failure = e;
                    pipeline.wake();
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    private void commit(ConflictDetector.Node<WorkItem> node) {
        WorkItem item = node.payload();
        Transaction txn = item.transaction();
        synchronized (world) {
            for (int i = 0; i < txn.rows().size(); i++) {
                String wrong = world.apply(txn.rows().get(i), item.shapes()[i].columns());
                if (wrong != null) violations.add(txn.partition() + "@" + txn.firstOffset() + ": " + wrong);
            }
        }
        settling.incrementAndGet();
        try {
            pipeline.release(txn.bytes());
            detector.done(node);
            item.ticket().markDone();
        } finally {
            settling.decrementAndGet();
        }
    }

    @Override
    public ConflictDetector<WorkItem> detector() {
        return detector;
    }

    /** As ApplyStage's, in one wait on the detector (ApplyStage's waits are 200 ms slices of the same). */
    @Override
    public boolean awaitIdle(long timeoutMillis) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        checkFailure();
        try {
            if (detector.awaitIdle(timeoutMillis)) {
                while (settling.get() > 0 && System.currentTimeMillis() < deadline) Thread.onSpinWait();
                checkFailure();
                return settling.get() == 0;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        checkFailure();
        return false;
    }

    @Override
    public void checkFailure() {
        RuntimeException f = failure;
        if (f != null) throw f;
    }

    @Override
    public void close() {
        worker.interrupt();
    }
}
