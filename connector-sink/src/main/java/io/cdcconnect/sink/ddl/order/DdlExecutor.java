package io.cdcconnect.sink.ddl.order;

import io.cdcconnect.sink.ddl.DdlApplier;

import io.cdcconnect.codec.model.DdlChange;

import java.sql.SQLException;

/** Runs a DDL statement on the target ({@link DdlApplier}; the simulation's model of the target). */
public interface DdlExecutor {

    /**
     * @param renamed true when schema.map maps the statement's database to another name
     * @param origin  where the statement came from (topic, partition, offset), for messages
     * @return false when the statement was skipped
     */
    boolean run(DdlChange ddl, String targetSchema, boolean renamed, String origin) throws SQLException;

    /**
     * After a statement ran (here or by another task) or failed part way: what the workers cached for the tables it
     * changes goes, before the next row of those tables is applied.
     */
    default void evict(DdlChange ddl, String targetSchema) {
    }

    /** Where statements run: a thread of the task's own ({@link DdlRuns#onThread}). */
    default DdlRuns runs(String threadName) {
        return DdlRuns.onThread(threadName);
    }

    /** The JDBC executor: {@link DdlApplier} with the retry schedule, evicting the workers' cached statements. */
    static DdlExecutor of(DdlApplier applier, java.util.Map<String, String> schemaMap,
                          io.cdcconnect.sink.apply.RetryPolicy retry, Runnable onRetry) {
        return new DdlExecutor() {
            @Override
            public boolean run(DdlChange ddl, String targetSchema, boolean renamed, String origin) throws SQLException {
                return applier.applyWithRetry(ddl, targetSchema, renamed, schemaMap, origin, retry, onRetry);
            }

            @Override
            public void evict(DdlChange ddl, String targetSchema) {
                applier.evictStatements(ddl, targetSchema, schemaMap);
            }
        };
    }
}
