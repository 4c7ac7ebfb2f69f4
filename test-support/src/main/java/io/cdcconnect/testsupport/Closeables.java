package io.cdcconnect.testsupport;

/** Closing what a test started, in order, whatever fails on the way. */
public final class Closeables {
    private Closeables() {
    }

    /**
     * Closes each non-null resource in the order given (e.g. pipeline, Connect cluster, database, registry), every
     * one even when an earlier one fails; the first failure is thrown at the end, the others added to it.
     */
    public static void closeAll(AutoCloseable... resources) {
        RuntimeException first = null;
        for (AutoCloseable r : resources) {
            if (r == null) continue;
            try {
                r.close();
            } catch (Exception e) {
                RuntimeException wrapped = e instanceof RuntimeException re ? re
                        : new IllegalStateException("closing " + r + " failed: " + e.getMessage(), e);
                if (first == null) first = wrapped;
                else first.addSuppressed(wrapped);
            }
        }
        if (first != null) throw first;
    }
}
