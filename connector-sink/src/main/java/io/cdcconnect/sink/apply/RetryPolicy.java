package io.cdcconnect.sink.apply;

import io.cdcconnect.sink.dialect.SqlDialect;

import java.sql.SQLException;
import java.util.function.Predicate;

/**
 * How often and how patiently transient errors are retried: exponential backoff from {@code baseMillis}, capped at
 * {@code maxBackoffMillis}, at most {@code maxRetries} times. The one retry loop of the sink ({@link #run}).
 *
 * @param transientError which errors are worth retrying (the dialect's {@link SqlDialect#retryable})
 */
public record RetryPolicy(int maxRetries, long baseMillis, long maxBackoffMillis,
                          Predicate<SQLException> transientError) {

    /** One call against the target that may fail. */
    @FunctionalInterface
    public interface SqlCall<T> {
        T call() throws SQLException;
    }

    /** Longest wait between two retries, whatever {@code retry.backoff.ms} says. */
    public static final long MAX_BACKOFF_MS = 30_000L;

    /**
     * The policy of {@code retry.max.attempts} and {@code retry.backoff.ms}: used for the target's transient errors
     * and for the outages of what decoding needs (schema registry, claim-check store).
     */
    public static RetryPolicy fromSettings(int maxAttempts, long backoffMs, Predicate<SQLException> transientError) {
        return new RetryPolicy(maxAttempts, backoffMs, MAX_BACKOFF_MS, transientError);
    }

    /** Whether {@code e} is worth another attempt (the retries left aside). */
    public boolean retryable(SQLException e) {
        return transientError.test(e);
    }

    /** Total time the retries may wait, at most. */
    public long maxTotalBackoffMillis() {
        long total = 0;
        for (int i = 0; i < maxRetries; i++) total += backoffMillis(i);
        return total;
    }

    /** No retries (for tests and single attempts). */
    public static final RetryPolicy NONE = new RetryPolicy(0, 1, 1, e -> false);

    public long backoffMillis(int attempt) {
        long b = baseMillis << Math.min(attempt, 20);
        return Math.min(b, maxBackoffMillis);
    }

    /**
     * Runs {@code call}, retrying what {@link #transientError} says is transient, with backoff; anything else, or
     * the last failure once the retries are spent, is thrown. {@code onRetry} runs before each retry (metrics).
     */
    public <T> T run(SqlCall<T> call, Runnable onRetry) throws SQLException {
        for (int attempt = 0; ; attempt++) {
            try {
                return call.call();
            } catch (SQLException e) {
                if (!transientError.test(e) || attempt >= maxRetries) throw e;
                onRetry.run();
                try {
                    Thread.sleep(backoffMillis(attempt));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
