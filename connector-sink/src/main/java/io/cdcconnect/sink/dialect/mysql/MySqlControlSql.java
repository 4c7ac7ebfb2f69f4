package io.cdcconnect.sink.dialect.mysql;

import io.cdcconnect.sink.dialect.StandardControlSql;

/** The sink's own tables in a MySQL, MariaDB or TiDB database. */
final class MySqlControlSql extends StandardControlSql {

    MySqlControlSql(MySqlFamilyDialect dialect, String schema) {
        super(dialect, schema);
    }

    @Override
    protected String createSchema() {
        return "CREATE DATABASE IF NOT EXISTS " + dialect.quote(schema);
    }

    @Override
    protected String timestampNow() {
        return "TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)";
    }

    @Override
    protected String tableOptions() {
        return " DEFAULT CHARSET = utf8mb4";
    }

    @Override
    protected String insertIgnoring(String table, String columns, String values) {
        return "INSERT IGNORE INTO " + table + " (" + columns + ") VALUES (" + values + ")";
    }

    @Override
    public String raiseCheckpoint() {
        return "INSERT INTO " + table("ddl_checkpoint")
                + " (connector, topic, kafka_partition, kafka_offset, ddl_commit_ts) VALUES (?, ?, ?, ?, ?)"
                + " ON DUPLICATE KEY UPDATE kafka_offset = GREATEST(kafka_offset, VALUES(kafka_offset)),"
                + " ddl_commit_ts = GREATEST(ddl_commit_ts, VALUES(ddl_commit_ts)), updated_at = CURRENT_TIMESTAMP(3)";
    }

    @Override
    public String raiseCheckpointRecord() {
        // assignments run left to right: the fingerprint is compared with the stored offset before it is raised
        return "INSERT INTO " + table("ddl_checkpoint_record")
                + " (connector, topic, kafka_partition, kafka_offset, fingerprints) VALUES (?, ?, ?, ?, ?)"
                + " ON DUPLICATE KEY UPDATE"
                + " fingerprints = IF(VALUES(kafka_offset) >= kafka_offset, VALUES(fingerprints), fingerprints),"
                + " kafka_offset = GREATEST(kafka_offset, VALUES(kafka_offset))";
    }

    @Override
    public String shiftCopies() {
        // lowest first: each row moves to a place the rows below it have left
        return super.shiftCopies() + " ORDER BY kafka_offset";
    }

    @Override
    public String raiseWrittenThrough() {
        return "INSERT INTO " + table("written_through") + " (connector, topic, kafka_partition, kafka_offset)"
                + " VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE kafka_offset = GREATEST(kafka_offset, VALUES(kafka_offset))";
    }
}
