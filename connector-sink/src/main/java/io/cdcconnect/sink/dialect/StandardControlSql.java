package io.cdcconnect.sink.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The sink's own tables in SQL every family shares; a family says how it creates a schema, what its millisecond
 * timestamp type and table options are, how an insert ignores a row that is already there, and how a checkpoint is
 * raised.
 */
public abstract class StandardControlSql implements ControlSql {

    protected final SqlDialect dialect;
    protected final String schema;

    protected StandardControlSql(SqlDialect dialect, String schema) {
        this.dialect = dialect;
        this.schema = schema;
    }

    /** Creates the schema (a database on MySQL) if missing. */
    protected abstract String createSchema();

    /** A timestamp with milliseconds, defaulting to now. */
    protected abstract String timestampNow();

    /** What follows a CREATE TABLE's column list (a character set), or empty. */
    protected String tableOptions() {
        return "";
    }

    /** {@code INSERT INTO table (columns) VALUES (values)} that inserts nothing when the key is already there. */
    protected abstract String insertIgnoring(String table, String columns, String values);

    @Override
    public String table(String table) {
        return dialect.qualified(schema, table);
    }

    @Override
    public List<String> createControlSchema() {
        return List.of(createSchema(), "CREATE TABLE IF NOT EXISTS " + table("control_schema")
                + " (id SMALLINT NOT NULL, version INT NOT NULL, updated_at " + timestampNow() + ", PRIMARY KEY (id))"
                + tableOptions());
    }

    @Override
    public String selectControlSchemaVersion() {
        return "SELECT version FROM " + table("control_schema") + " WHERE id = 1";
    }

    @Override
    public String insertControlSchemaVersion() {
        return insertIgnoring(table("control_schema"), "id, version", "1, ?");
    }

    @Override
    public String raiseControlSchemaVersion() {
        return "UPDATE " + table("control_schema") + " SET version = ?, updated_at = CURRENT_TIMESTAMP(3)"
                + " WHERE id = 1 AND version = ?";
    }

    /**
     * Layout 1 is 0.1.0's tables as they were (the same columns, keys and types) with {@code control_schema} beside
     * them: no table changes. A later layout adds its case here, e.g. {@code case 2 -> "ddl_copy".equals(table) ?
     * List.of("ALTER TABLE " + table(table) + " ADD COLUMN ...") : List.of();}.
     */
    @Override
    public List<String> migrateTable(int version, String table) {
        return switch (version) {
            case 1 -> List.of();
            default -> throw new IllegalArgumentException("no layout version " + version + " of the control tables");
        };
    }

    @Override
    public boolean tableExists(Connection c, String table) throws SQLException {
        return dialect.tableExists(c, schema, table);
    }

    @Override
    public List<String> createCheckpoint() {
        return List.of(createSchema(), "CREATE TABLE IF NOT EXISTS " + table("ddl_checkpoint")
                + " (connector VARCHAR(255) NOT NULL, topic VARCHAR(255) NOT NULL, kafka_partition INT NOT NULL,"
                + " kafka_offset BIGINT NOT NULL, ddl_commit_ts BIGINT NOT NULL, updated_at " + timestampNow() + ","
                + " PRIMARY KEY (connector, topic, kafka_partition))" + tableOptions(),
                "CREATE TABLE IF NOT EXISTS " + table("ddl_checkpoint_record")
                + " (connector VARCHAR(255) NOT NULL, topic VARCHAR(255) NOT NULL, kafka_partition INT NOT NULL,"
                + " kafka_offset BIGINT NOT NULL, fingerprints VARCHAR(512) NOT NULL,"
                + " PRIMARY KEY (connector, topic, kafka_partition))" + tableOptions());
    }

    @Override
    public List<String> createWrittenThrough() {
        return List.of(createSchema(), "CREATE TABLE IF NOT EXISTS " + table("written_through")
                + " (connector VARCHAR(255) NOT NULL, topic VARCHAR(255) NOT NULL, kafka_partition INT NOT NULL,"
                + " kafka_offset BIGINT NOT NULL, PRIMARY KEY (connector, topic, kafka_partition))" + tableOptions());
    }

    @Override
    public String selectWrittenThrough() {
        return "SELECT kafka_offset FROM " + table("written_through")
                + " WHERE connector = ? AND topic = ? AND kafka_partition = ?";
    }

    @Override
    public String selectCheckpointRecord() {
        return "SELECT kafka_offset, fingerprints FROM " + table("ddl_checkpoint_record")
                + " WHERE connector = ? AND topic = ? AND kafka_partition = ?";
    }

    @Override
    public String deleteCheckpointRecord() {
        return "DELETE FROM " + table("ddl_checkpoint_record")
                + " WHERE connector = ? AND topic = ? AND kafka_partition = ?";
    }

    @Override
    public String selectCheckpoint() {
        return "SELECT kafka_offset, ddl_commit_ts FROM " + table("ddl_checkpoint")
                + " WHERE connector = ? AND topic = ? AND kafka_partition = ?";
    }

    @Override
    public String deleteCheckpoint() {
        return "DELETE FROM " + table("ddl_checkpoint") + " WHERE connector = ? AND topic = ? AND kafka_partition = ?";
    }

    @Override
    public String capCheckpoint() {
        return "UPDATE " + table("ddl_checkpoint") + " SET kafka_offset = ?"
                + " WHERE connector = ? AND topic = ? AND kafka_partition = ? AND kafka_offset > ?";
    }

    @Override
    public List<String> createCoordination() {
        return List.of(createSchema(),
                "CREATE TABLE IF NOT EXISTS " + table("ddl_barrier") + " (connector VARCHAR(255) NOT NULL,"
                        + " topic VARCHAR(255) NOT NULL, ddl_id CHAR(64) NOT NULL, kafka_partition INT NOT NULL,"
                        + " arrived_at " + timestampNow() + ","
                        + " PRIMARY KEY (connector, topic, ddl_id, kafka_partition))" + tableOptions(),
                "CREATE TABLE IF NOT EXISTS " + table("ddl_run") + " (connector VARCHAR(255) NOT NULL,"
                        + " topic VARCHAR(255) NOT NULL, ddl_id CHAR(64) NOT NULL, claimed_by VARCHAR(64) NOT NULL,"
                        + " claimed_partition INT NOT NULL, done SMALLINT NOT NULL, updated_at " + timestampNow() + ","
                        + " PRIMARY KEY (connector, topic, ddl_id))" + tableOptions(),
                "CREATE TABLE IF NOT EXISTS " + table("ddl_copy") + " (connector VARCHAR(255) NOT NULL,"
                        + " topic VARCHAR(255) NOT NULL, ddl_key CHAR(64) NOT NULL, kafka_partition INT NOT NULL,"
                        + " kafka_offset BIGINT NOT NULL, sending BIGINT NOT NULL, arrived_at " + timestampNow() + ","
                        + " PRIMARY KEY (connector, topic, ddl_key, kafka_partition, kafka_offset))" + tableOptions());
    }

    @Override
    public String insertCopy() {
        return insertIgnoring(table("ddl_copy"), "connector, topic, ddl_key, kafka_partition, kafka_offset, sending",
                "?, ?, ?, ?, ?, ?");
    }

    @Override
    public String shiftCopies() {
        return "UPDATE " + table("ddl_copy") + " SET kafka_offset = kafka_offset - ?"
                + " WHERE connector = ? AND topic = ? AND kafka_partition = ?";
    }

    @Override
    public String selectCopy() {
        return "SELECT sending FROM " + table("ddl_copy")
                + " WHERE connector = ? AND topic = ? AND ddl_key = ? AND kafka_partition = ? AND kafka_offset = ?";
    }

    @Override
    public String copiesBefore() {
        return "SELECT COUNT(*) FROM " + table("ddl_copy")
                + " WHERE connector = ? AND topic = ? AND ddl_key = ? AND kafka_partition = ? AND kafka_offset < ?"
                + " AND sending > 0";
    }

    @Override
    public String copiesAfter() {
        return "SELECT COUNT(*) FROM " + table("ddl_copy")
                + " WHERE connector = ? AND topic = ? AND ddl_key = ? AND kafka_partition = ? AND kafka_offset > ?"
                + " AND sending > 0";
    }

    @Override
    public String selectLateCopies() {
        return "SELECT kafka_offset FROM " + table("ddl_copy")
                + " WHERE connector = ? AND topic = ? AND ddl_key = ? AND kafka_partition = ? AND sending = 0";
    }

    /** MySQL's and MariaDB's named locks (names of up to 64 characters). */
    @Override
    public String tryRunLock(String name) {
        return "SELECT COALESCE(GET_LOCK('" + hexName(name) + "', 0), 0) = 1";
    }

    @Override
    public String releaseRunLock(String name) {
        return "SELECT RELEASE_LOCK('" + hexName(name) + "')";
    }

    /** A lock's name, checked: it is written into the statement. */
    protected static String hexName(String name) {
        if (!name.matches("[0-9a-f]{1,64}")) throw new IllegalArgumentException("not a lock name: " + name);
        return name;
    }

    @Override
    public String insertArrival() {
        return insertIgnoring(table("ddl_barrier"), "connector, topic, ddl_id, kafka_partition", "?, ?, ?, ?");
    }

    @Override
    public String selectArrivals() {
        return "SELECT kafka_partition FROM " + table("ddl_barrier") + " WHERE connector = ? AND topic = ? AND ddl_id = ?";
    }

    @Override
    public String countArrivals() {
        return "SELECT COUNT(*) FROM " + table("ddl_barrier") + " WHERE connector = ? AND topic = ? AND ddl_id = ?";
    }

    @Override
    public String selectRun() {
        return "SELECT claimed_by, claimed_partition, done FROM " + table("ddl_run")
                + " WHERE connector = ? AND topic = ? AND ddl_id = ?";
    }

    @Override
    public String copyCheckpointed() {
        return "SELECT c.kafka_offset FROM " + table("ddl_copy") + " c JOIN " + table("ddl_checkpoint") + " k"
                + " ON k.connector = c.connector AND k.topic = c.topic AND k.kafka_partition = c.kafka_partition"
                + " WHERE c.connector = ? AND c.topic = ? AND c.ddl_key = ? AND c.kafka_partition = ? AND c.sending = ?"
                + " AND c.kafka_offset >= 0 AND k.kafka_offset >= c.kafka_offset";
    }

    @Override
    public String insertRun() {
        return insertIgnoring(table("ddl_run"), "connector, topic, ddl_id, claimed_by, claimed_partition, done",
                "?, ?, ?, ?, ?, 0");
    }

    @Override
    public String takeOverRun() {
        return "UPDATE " + table("ddl_run") + " SET claimed_by = ?, updated_at = CURRENT_TIMESTAMP(3)"
                + " WHERE connector = ? AND topic = ? AND ddl_id = ? AND claimed_by = ? AND done = 0";
    }

    @Override
    public String finishRun() {
        return "UPDATE " + table("ddl_run") + " SET done = 1, updated_at = CURRENT_TIMESTAMP(3)"
                + " WHERE connector = ? AND topic = ? AND ddl_id = ?";
    }
}
