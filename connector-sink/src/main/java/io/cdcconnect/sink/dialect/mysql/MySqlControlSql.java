package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.dialect.ControlSql;

import java.util.List;

/** The sink's own tables in a MySQL, MariaDB or TiDB database. */
final class MySqlControlSql implements ControlSql {

    private final MySqlFamilyDialect dialect;
    private final String schema;

    MySqlControlSql(MySqlFamilyDialect dialect, String schema) {
        this.dialect = dialect;
        this.schema = schema;
    }

    @Override
    public String table(String table) {
        return dialect.qualified(schema, table);
    }

    private String createSchema() {
        return "CREATE DATABASE IF NOT EXISTS " + dialect.quote(schema);
    }

    @Override
    public List<String> createCheckpoint() {
        return List.of(createSchema(), "CREATE TABLE IF NOT EXISTS " + table("ddl_checkpoint")
                + " (connector VARCHAR(255) NOT NULL, topic VARCHAR(255) NOT NULL, kafka_partition INT NOT NULL,"
                + " kafka_offset BIGINT NOT NULL, ddl_commit_ts BIGINT NOT NULL,"
                + " updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),"
                + " PRIMARY KEY (connector, topic, kafka_partition)) DEFAULT CHARSET = utf8mb4");
    }

    @Override
    public String selectCheckpoint() {
        return "SELECT kafka_offset, ddl_commit_ts FROM " + table("ddl_checkpoint")
                + " WHERE connector = ? AND topic = ? AND kafka_partition = ?";
    }

    @Override
    public String raiseCheckpoint() {
        return "INSERT INTO " + table("ddl_checkpoint")
                + " (connector, topic, kafka_partition, kafka_offset, ddl_commit_ts) VALUES (?, ?, ?, ?, ?)"
                + " ON DUPLICATE KEY UPDATE kafka_offset = GREATEST(kafka_offset, VALUES(kafka_offset)),"
                + " ddl_commit_ts = GREATEST(ddl_commit_ts, VALUES(ddl_commit_ts)), updated_at = CURRENT_TIMESTAMP(3)";
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
                        + " arrived_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),"
                        + " PRIMARY KEY (connector, topic, ddl_id, kafka_partition)) DEFAULT CHARSET = utf8mb4",
                "CREATE TABLE IF NOT EXISTS " + table("ddl_run") + " (connector VARCHAR(255) NOT NULL,"
                        + " topic VARCHAR(255) NOT NULL, ddl_id CHAR(64) NOT NULL, claimed_by VARCHAR(64) NOT NULL,"
                        + " claimed_partition INT NOT NULL, done TINYINT NOT NULL,"
                        + " updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),"
                        + " PRIMARY KEY (connector, topic, ddl_id)) DEFAULT CHARSET = utf8mb4");
    }

    @Override
    public String insertArrival() {
        return "INSERT IGNORE INTO " + table("ddl_barrier") + " (connector, topic, ddl_id, kafka_partition)"
                + " VALUES (?, ?, ?, ?)";
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
    public String insertRun() {
        return "INSERT IGNORE INTO " + table("ddl_run")
                + " (connector, topic, ddl_id, claimed_by, claimed_partition, done) VALUES (?, ?, ?, ?, ?, 0)";
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
