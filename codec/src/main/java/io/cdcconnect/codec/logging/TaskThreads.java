package io.cdcconnect.codec.logging;

import org.slf4j.MDC;

import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a task starts, carrying the logging context (SLF4J's MDC) of the thread that made them: Connect sets
 * {@code connector.context} (e.g. {@code "[my-connector|task-0] "}) on its task threads, and a line logged from an
 * apply worker, a decode thread or an encoder should say which task it belongs to as well. The context is copied
 * when the factory (or the thread) is made, not when a pool happens to start a thread, so a thread started later
 * from some other thread still carries its task's.
 */
public final class TaskThreads {

    private TaskThreads() {
    }

    /**
     * Daemon threads named {@code <prefix><n>} (n from 1), each running with the MDC of the thread calling this now.
     */
    public static ThreadFactory factory(String prefix) {
        Map<String, String> context = MDC.getCopyOfContextMap();
        AtomicInteger n = new AtomicInteger();
        return r -> daemon(withContext(context, r), prefix + n.incrementAndGet());
    }

    /** A daemon thread named {@code name}, not started, that runs {@code r} with the calling thread's MDC. */
    public static Thread newThread(Runnable r, String name) {
        return daemon(withContext(MDC.getCopyOfContextMap(), r), name);
    }

    /** {@code r} run with the calling thread's MDC (as it is now), whichever thread runs it. */
    public static Runnable withCurrentContext(Runnable r) {
        return withContext(MDC.getCopyOfContextMap(), r);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static Runnable withContext(Map<String, String> context, Runnable r) {
        if (context == null || context.isEmpty()) return r;
        return () -> {
            Map<String, String> previous = MDC.getCopyOfContextMap();
            MDC.setContextMap(context);
            try {
                r.run();
            } finally {
                if (previous == null) MDC.clear();
                else MDC.setContextMap(previous);
            }
        };
    }
}
