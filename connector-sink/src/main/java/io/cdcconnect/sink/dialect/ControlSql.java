package io.cdcconnect.sink.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The SQL of the sink's own tables in one schema of the target: {@code ddl_checkpoint} (where a DDL left each
 * partition), {@code ddl_barrier}, {@code ddl_run} and {@code ddl_copy} (a DDL coordinated across tasks). Parameters are listed with
 * each statement; every implementation keeps them in that order.
 */
public interface ControlSql {

    /** Creates the schema, {@code ddl_checkpoint} and {@code ddl_checkpoint_record} if missing. */
    List<String> createCheckpoint();

    /**
     * (connector, topic, partition) -> kafka_offset, fingerprints: the records a checkpoint was written at
     * ({@code RecordFingerprints.Window}).
     */
    String selectCheckpointRecord();

    /**
     * (connector, topic, partition, offset, fingerprints): inserts, or replaces the stored records when this offset is
     * at least the stored one.
     */
    String raiseCheckpointRecord();

    /** (connector, topic, partition). */
    String deleteCheckpointRecord();

    /** Creates the schema and {@code written_through} if missing. */
    List<String> createWrittenThrough();

    /** (connector, topic, partition) -> kafka_offset: no record of the partition above it was written to the target. */
    String selectWrittenThrough();

    /** (connector, topic, partition, offset): inserts, or raises the stored offset to at least this one. */
    String raiseWrittenThrough();

    /** (connector, topic, partition) -> kafka_offset, ddl_commit_ts. */
    String selectCheckpoint();

    /**
     * (connector, topic, partition, offset, ddl commit ts): inserts, or raises the stored offset and commit ts to at
     * least these.
     */
    String raiseCheckpoint();

    /** (connector, topic, partition). */
    String deleteCheckpoint();

    /** (offset, connector, topic, partition, offset): lowers a stored offset above {@code offset} to it. */
    String capCheckpoint();

    /** Creates the schema, {@code ddl_barrier}, {@code ddl_run} and {@code ddl_copy} if missing. */
    List<String> createCoordination();

    /**
     * (connector, topic, statement key, partition, offset, sending): records which sending of a statement a
     * partition's copy at an offset belongs to; a repeated one is ignored.
     */
    String insertCopy();

    /**
     * (shift, connector, topic, partition): moves a recreated topic's partition's copies {@code shift} lower, below
     * every offset of the new topic.
     */
    String shiftCopies();

    /** (connector, topic, statement key, partition, offset) -> the sending of that copy. */
    String selectCopy();

    /** (connector, topic, statement key, partition, offset) -> how many copies the partition delivered before it. */
    String copiesBefore();

    /**
     * (connector, topic, statement key, partition, offset) -> how many copies the partition delivered at higher
     * offsets: any, with none at the offset itself, means the partition went back below copies it had delivered (its
     * topic was recreated).
     */
    String copiesAfter();

    /**
     * A query whose one boolean column says whether this session now holds the server-side lock named {@code name}
     * (hex digits only), without waiting. A session's lock lasts until it is released or the session ends, so a
     * task that died leaves none behind: the lock says, as data, whether the task that claimed a statement still
     * runs it.
     */
    String tryRunLock(String name);

    /**
     * (connector, topic, statement key, partition) -> the offsets of the partition's late copies of an uncounted
     * statement that ran before they came (sending 0; offset -1: not come yet).
     */
    String selectLateCopies();

    /** Releases the lock {@link #tryRunLock} took. */
    String releaseRunLock(String name);

    /** (connector, topic, ddl id, partition): records an arrival; a repeated one is ignored. */
    String insertArrival();

    /** (connector, topic, ddl id) -> the partition of each arrival. */
    String selectArrivals();

    /** (connector, topic, ddl id) -> count of arrivals. */
    String countArrivals();

    /** (connector, topic, ddl id) -> claimed_by, claimed_partition, done. */
    String selectRun();

    /**
     * (connector, topic, statement key, partition, sending) -> the offset of the partition's copy of that sending, in a
     * row only when the partition's {@code ddl_checkpoint} is at or past it (a copy of a recreated topic's earlier
     * incarnation, moved below every offset, never is).
     */
    String copyCheckpointed();

    /** (connector, topic, ddl id, claimed_by, claimed partition): claims the statement; 0 rows when already claimed. */
    String insertRun();

    /** (new claimant, connector, topic, ddl id, old claimant): takes over an unfinished claim. */
    String takeOverRun();

    /** (connector, topic, ddl id): marks the statement run. */
    String finishRun();

    /**
     * Creates the schema and {@code control_schema} if missing: one row ({@code id} 1) holding the layout version of
     * this schema's control tables ({@code io.cdcconnect.sink.ddl.control.ControlSchema}).
     */
    List<String> createControlSchema();

    /** () -> version: the layout version recorded in {@code control_schema}, no row when none is. */
    String selectControlSchemaVersion();

    /** (version): records the layout version; a row already there is kept. */
    String insertControlSchemaVersion();

    /** (new version, old version): moves the recorded version on from {@code old version}; 0 rows when it is not that. */
    String raiseControlSchemaVersion();

    /**
     * The statements that bring {@code table}, as it was at layout version {@code version - 1}, to layout version
     * {@code version}; run only where the table exists (a missing one is created in the current layout). Empty when
     * that step leaves the table as it was.
     */
    List<String> migrateTable(int version, String table);

    /** Whether {@code table} exists in this schema. */
    boolean tableExists(Connection c, String table) throws SQLException;

    /** {@code table} in this schema, quoted. */
    String table(String table);

    /** (connector): forgets the last statement run on each table ({@code ddl_checkpoint} rows of topic table:...). */
    default String deleteTableStatements() {
        return "DELETE FROM " + table("ddl_checkpoint") + " WHERE connector = ? AND topic LIKE 'table:%'";
    }

    /** (connector): forgets what {@code table} holds of a connector. */
    default String deleteConnector(String table) {
        return "DELETE FROM " + table(table) + " WHERE connector = ?";
    }
}
