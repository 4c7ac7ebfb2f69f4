package io.cdcconnect.sink.apply;

/**
 * How often and how patiently transient errors (deadlock, lock wait timeout, lost connection) are retried:
 * exponential backoff from {@code baseMillis}, capped at {@code maxBackoffMillis}.
 */
public record RetryPolicy(int maxRetries, long baseMillis, long maxBackoffMillis) {

    public long backoffMillis(int attempt) {
        long b = baseMillis << Math.min(attempt, 20);
        return Math.min(b, maxBackoffMillis);
    }
}
