package io.cdcconnect.sink.dialect.postgres;

import io.cdcconnect.sink.dialect.postgres.ddl.PostgresDdl;
import io.cdcconnect.sink.dialect.StandardControlSql;

/** The sink's own tables in a PostgreSQL schema. */
final class PostgresControlSql extends StandardControlSql {

    PostgresControlSql(PostgresDialect dialect, String schema) {
        super(dialect, schema);
    }

    @Override
    protected String createSchema() {
        return PostgresDdl.createSchemaIfMissing(schema);
    }

    /** PostgreSQL's session advisory locks take a 64-bit key: the name's first 16 hex digits. */
    @Override
    public String tryRunLock(String name) {
        return "SELECT pg_try_advisory_lock(" + advisoryKey(name) + ")";
    }

    @Override
    public String releaseRunLock(String name) {
        return "SELECT pg_advisory_unlock(" + advisoryKey(name) + ")";
    }

    private static long advisoryKey(String name) {
        String hex = hexName(name);
        return Long.parseUnsignedLong(hex.substring(0, Math.min(16, hex.length())), 16);
    }

    @Override
    protected String timestampNow() {
        return "TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)";
    }

    @Override
    protected String insertIgnoring(String table, String columns, String values) {
        return "INSERT INTO " + table + " (" + columns + ") VALUES (" + values + ") ON CONFLICT DO NOTHING";
    }

    @Override
    public String raiseCheckpoint() {
        return "INSERT INTO " + table("ddl_checkpoint") + " AS c"
                + " (connector, topic, kafka_partition, kafka_offset, ddl_commit_ts) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (connector, topic, kafka_partition) DO UPDATE SET"
                + " kafka_offset = GREATEST(c.kafka_offset, EXCLUDED.kafka_offset),"
                + " ddl_commit_ts = GREATEST(c.ddl_commit_ts, EXCLUDED.ddl_commit_ts), updated_at = CURRENT_TIMESTAMP(3)";
    }

    @Override
    public String raiseCheckpointRecord() {
        return "INSERT INTO " + table("ddl_checkpoint_record") + " AS c"
                + " (connector, topic, kafka_partition, kafka_offset, fingerprints) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (connector, topic, kafka_partition) DO UPDATE SET"
                + " kafka_offset = EXCLUDED.kafka_offset, fingerprints = EXCLUDED.fingerprints"
                + " WHERE EXCLUDED.kafka_offset >= c.kafka_offset";
    }

    @Override
    public String raiseWrittenThrough() {
        return "INSERT INTO " + table("written_through") + " AS w (connector, topic, kafka_partition, kafka_offset)"
                + " VALUES (?, ?, ?, ?) ON CONFLICT (connector, topic, kafka_partition) DO UPDATE SET"
                + " kafka_offset = GREATEST(w.kafka_offset, EXCLUDED.kafka_offset)";
    }
}
