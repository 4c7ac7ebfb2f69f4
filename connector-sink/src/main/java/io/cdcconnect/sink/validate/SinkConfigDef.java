package io.cdcconnect.sink.validate;

import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.dialect.mysql.MariaDbConnectorJ;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.dml.SafeMode;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

import java.util.Map;

import static io.cdcconnect.sink.config.SinkConfig.*;

/**
 * Every setting of the sink connector, declared once, with types, defaults, validators, recommenders and
 * documentation; docs/configuration.md is generated from it ({@code SinkConfigDef.configDef()}). The keys are
 * {@link io.cdcconnect.sink.config.SinkConfig}'s.
 */
public final class SinkConfigDef {

    private static final String GROUP_CONNECTION = "Connection";
    private static final String GROUP_INPUT = "Input";
    private static final String GROUP_APPLY = "Apply";
    private static final String GROUP_STATEMENTS = "Statements";

    private static final ConfigDef CONFIG_DEF = build();

    private SinkConfigDef() {
    }

    /** The definition itself, shared: for a configuration to be read against. Do not change it. */
    public static ConfigDef definition() {
        return CONFIG_DEF;
    }

    /** A copy of the sink's settings with types, defaults, validators and documentation. */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG_DEF);
    }

    /** The settings, each valid on its own, without the rules that span them ({@link ConfigRules}): for validation. */
    public static SinkConfig withoutRules(Map<?, ?> props) {
        return new Unchecked(props);
    }

    private static final class Unchecked extends SinkConfig {
        Unchecked(Map<?, ?> props) {
            super(CONFIG_DEF, props);
        }
    }

    private static ConfigDef build() {
        ConfigDef d = new ConfigDef();
        int o = 0;
        d.define(CONNECTION_URL, Type.PASSWORD, ConfigDef.NO_DEFAULT_VALUE, new JdbcUrlValidator(),
                Importance.HIGH, "JDBC URL of the target: jdbc:mysql://host:3306/ for a MySQL, MariaDB or TiDB "
                        + "server (MySQL Connector/J syntax; a database in the URL is not required), "
                        + "jdbc:postgresql://host:5432/database for PostgreSQL (PgJDBC syntax; databases of the "
                        + "stream become schemas of that database). The URL picks the dialect family. The sink adds "
                        + "the driver settings it needs (server-side prepared statements, UTF-8). "
                        + "A password type: a URL may carry one (user:password@ or password=), so the value is hidden "
                        + "in logs and validation answers; error messages show it with passwords masked.",
                GROUP_CONNECTION, ++o, Width.LONG, "JDBC URL");
        d.define(CONNECTION_USER, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "User the sink connects as (required: there is no default). Needs INSERT, UPDATE, "
                        + "DELETE, SELECT on the target tables, and the privileges of any DDL it replays.",
                GROUP_CONNECTION, ++o, Width.MEDIUM, "User");
        d.define(CONNECTION_PASSWORD, Type.PASSWORD, null, Importance.HIGH,
                "Password of connection.user. Never logged.", GROUP_CONNECTION, ++o, Width.MEDIUM, "Password");
        d.define(CONNECTION_SSL_MODE, Type.STRING, "preferred", ConfigDef.ValidString.in(
                        SSL_MODES.toArray(new String[0])), Importance.HIGH,
                "TLS to the target. disabled: none. preferred: TLS when the server offers it, its certificate not "
                        + "checked (the drivers' own default). required: TLS or no connection, certificate not "
                        + "checked. verify-ca: also the certificate must chain to a trusted CA (the JVM's trust "
                        + "store, or the URL's trustCertificateKeyStoreUrl / sslrootcert). verify-identity: also the "
                        + "host name must match the certificate; the setting for production, since anything less "
                        + "lets a server that is not the target learn the password. Sent as MySQL Connector/J's "
                        + "sslMode or PgJDBC's sslmode. A URL that chooses TLS itself (sslMode, useSSL or requireSSL; "
                        + "sslmode or ssl) wins over this setting. The task warns at start when a password goes over "
                        + "a connection that is not verified TLS.",
                GROUP_CONNECTION, ++o, Width.SHORT, "TLS mode");
        d.define(CONNECTION_DRIVER, Type.STRING, MariaDbConnectorJ.SETTING_AUTO, ConfigDef.ValidString.in(
                        MariaDbConnectorJ.SETTING_AUTO, MariaDbConnectorJ.SETTING_MYSQL), Importance.LOW,
                "JDBC driver for the MySQL family. auto: MariaDB Connector/J for a MariaDB server (measured to "
                        + "spend about half the client CPU per row), when every option of connection.url means the "
                        + "same to it (TLS options, allowPublicKeyRetrieval, connectTimeout, socketTimeout, "
                        + "tcpKeepAlive); otherwise, and for MySQL and TiDB, mysql-connector-j. "
                        + "mysql-connector-j: always mysql-connector-j. The task's start line names the driver "
                        + "and why.",
                GROUP_CONNECTION, ++o, Width.SHORT, "JDBC driver");
        d.define(DIALECT, Type.STRING, "auto",
                ConfigDef.ValidString.in(Dialects.names().toArray(new String[0])), Importance.LOW,
                "SQL dialect of the target, within the family connection.url names. auto reads the server's "
                        + "version: MariaDB and TiDB by name, MySQL 8.0.20 and later use a row alias in upserts, "
                        + "older MySQL uses VALUES(col); a jdbc:postgresql: URL is postgresql.",
                GROUP_CONNECTION, ++o, Width.SHORT, "Dialect");
        d.define(TIMESTAMP_TIME_ZONE, Type.STRING, "+00:00", new TimeZoneValidator(), Importance.MEDIUM,
                "Session time_zone of every sink connection. TIMESTAMP values arrive as text without a zone and are "
                        + "interpreted in this zone, so it must match the zone the producer wrote them in: +00:00 for "
                        + "cdc-connect's source; for a TiCDC changefeed, the time zone of the TiCDC server (its --tz, "
                        + "by default the host's zone). Offsets (+08:00) always work; named zones need the target's "
                        + "time zone tables.",
                GROUP_CONNECTION, ++o, Width.SHORT, "TIMESTAMP time zone");

        o = 0;
        d.define(INPUT_FORMAT, Type.STRING, WireFormat.CANAL_JSON.configName(),
                ConfigDef.ValidString.in(INPUT_FORMATS.toArray(new String[0])), Importance.HIGH,
                "Format of the records: " + WireFormat.describe(f -> true) + ". A format that needs a schema "
                        + "registry reads it from " + SCHEMA_REGISTRY_URL + ".",
                GROUP_INPUT, ++o, Width.MEDIUM, "Input format");
        d.define(SCHEMA_REGISTRY_URL, Type.PASSWORD, "", Importance.MEDIUM,
                "Schema registry base URL (Confluent-compatible API) for input.format=avro. A password type: it "
                        + "may carry user:password@ (sent as basic authentication), so it is hidden in logs and "
                        + "validation answers.",
                GROUP_INPUT, ++o, Width.LONG, "Schema registry URL");
        d.define(SCHEMA_REGISTRY_TRUSTSTORE, Type.STRING, "", Importance.LOW,
                "input.format=avro with an https registry: the trust store file its certificate is checked against "
                        + "(host names are verified); empty uses the JVM's default trust store.",
                GROUP_INPUT, ++o, Width.LONG, "Schema registry trust store");
        d.define(SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD, Type.PASSWORD, "", Importance.LOW,
                "Password of " + SCHEMA_REGISTRY_TRUSTSTORE + ", if it has one. Never logged.",
                GROUP_INPUT, ++o, Width.MEDIUM, "Schema registry trust store password");
        d.define(SCHEMA_REGISTRY_TRUSTSTORE_TYPE, Type.STRING, "PKCS12", ConfigDef.CaseInsensitiveValidString.in(
                TRUSTSTORE_TYPES.toArray(new String[0])), Importance.LOW,
                "Type of " + SCHEMA_REGISTRY_TRUSTSTORE + ": " + String.join(" or ", TRUSTSTORE_TYPES) + ".",
                GROUP_INPUT, ++o, Width.SHORT, "Schema registry trust store type");
        d.define(INPUT_CODEC_OPTIONS, Type.PASSWORD, "", Importance.LOW,
                "Comma-separated key=value options handed to the codec's decoder, named as TiCDC names them, e.g. "
                        + "large-message-handle-compression=snappy for compressed Canal-JSON/Open-protocol values, "
                        + "claim-check-storage-uri=file:///shared/claim-check to read back rows the producer stored "
                        + "by claim-check (with claim-check-raw-value=true if it stored raw values), or "
                        + "schema-registry-username=u,schema-registry-password=p for Avro. A password type, since it "
                        + "may carry one: hidden in logs and validation answers.",
                GROUP_INPUT, ++o, Width.LONG, "Codec options");
        d.define(INPUT_MAX_DECODED_BYTES, Type.LONG, 64L * 1024 * 1024, ConfigDef.Range.atLeast(1024),
                Importance.LOW, "Largest size one record value may reach once decompressed "
                        + "(large-message-handle-compression) or read back from the claim-check store. A record "
                        + "that declares or yields more is bad input, refused before it is held in memory: it goes "
                        + "to the dead-letter queue, or the task fails naming the limit. What a record decodes to "
                        + "counts against buffer.max.bytes.",
                GROUP_INPUT, ++o, Width.SHORT, "Max decoded bytes");
        d.define(INPUT_CLAIM_CHECK_MAX_RECORD_BYTES, Type.LONG, 256L * 1024 * 1024, ConfigDef.Range.atLeast(1024),
                Importance.LOW, "Most bytes one record may read back from the claim-check store through all its "
                        + "claim-check pointers together: each file's size, and what its value decompresses to. Each "
                        + "file's size is checked before it is read; a record that would go over is bad input (dead-"
                        + "letter queue, or the task fails naming the budget and the record's topic, partition and "
                        + "offset). The default holds two files at the input.max.decoded.bytes default that each "
                        + "decompress to as much again.",
                GROUP_INPUT, ++o, Width.SHORT, "Claim-check bytes per record");
        d.define(INPUT_CLAIM_CHECK_MAX_RECORD_POINTERS, Type.INT, 1000, ConfigDef.Range.atLeast(1),
                Importance.LOW, "Most claim-check pointers one record may hold; the next one is refused as bad "
                        + "input before its file is opened. TiCDC writes one pointer per Kafka message.",
                GROUP_INPUT, ++o, Width.SHORT, "Claim-check pointers per record");
        d.define(SCHEMA_MAP, Type.LIST, "", Importance.MEDIUM,
                "Comma-separated source=target database renames, e.g. shop=shop_replica,crm=crm_copy. Its targets "
                        + "and the databases of schema.include are the only ones a message may change: a row or DDL "
                        + "statement of a database neither renamed here nor listed there is refused. DDL runs after "
                        + "USE of the mapped database.",
                GROUP_INPUT, ++o, Width.LONG, "Database renames");
        d.define(SCHEMA_INCLUDE, Type.LIST, "", Importance.HIGH,
                "Comma-separated databases written into under their own name, e.g. shop,crm. Every row change and "
                        + "DDL statement must resolve, after schema.map, to a target of schema.map or a database "
                        + "listed here, written exactly as configured; any other database (one the message names, or "
                        + "a DDL statement qualifies a name with) is refused: the record goes to the dead-letter "
                        + "queue, or the task fails naming topic, partition, offset and the database. At least one "
                        + "of schema.map and schema.include must be set. Neither may name a system database (mysql, "
                        + "information_schema, performance_schema, sys; pg_catalog, pg_toast on PostgreSQL) or "
                        + "ddl.checkpoint.database, which no message may change.",
                GROUP_INPUT, ++o, Width.LONG, "Databases kept by name");

        o = 0;
        d.define(SAFE_MODE, Type.STRING, "auto", ConfigDef.ValidString.in(java.util.Arrays.stream(SafeMode.values())
                        .map(SafeMode::configName).toArray(String[]::new)),
                Importance.HIGH, "auto: idempotent writes (upsert/REPLACE, deletes by key) for the records an earlier "
                        + "task of the partition may have written, as the offsets stored in <ddl.checkpoint.database>"
                        + ".written_through say (every row when that setting is empty); plain INSERT/UPDATE/DELETE "
                        + "for the rest, where a duplicate key or an update matching no row is re-planned in safe "
                        + "mode. always: idempotent writes for every row. never: plain writes for every row, and a "
                        + "duplicate key fails the task.", GROUP_APPLY, ++o, Width.SHORT, "Safe mode");
        d.define(SAFE_MODE_REPLAY_MARGIN_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "No longer used (a warning says so when set): safe.mode=auto decides by stored offsets, not by "
                        + "comparing commit times with the worker's clock.", GROUP_APPLY, ++o, Width.SHORT,
                "Replay margin (unused)");
        d.define(FOREIGN_KEY_CHECKS, Type.STRING, "replica", ConfigDef.ValidString.in(java.util.Arrays.stream(
                        io.cdcconnect.sink.dialect.ForeignKeyChecks.values())
                        .map(io.cdcconnect.sink.dialect.ForeignKeyChecks::configName).toArray(String[]::new)),
                Importance.MEDIUM, "How the sink's sessions meet the target's foreign keys. The source checked every "
                        + "row it logged, but MySQL's and MariaDB's binlogs do not carry what a foreign key's ON DELETE "
                        + "or ON UPDATE action did. replica (on MariaDB targets): sessions run with "
                        + "foreign_key_checks=0, as a replica's applier does, so safe mode's REPLACE (a delete and an "
                        + "insert) fires no cascade of the target; DELETE and UPDATE statements switch the checks on "
                        + "for themselves (SET STATEMENT), so the target's ON DELETE and ON UPDATE actions do what the "
                        + "source's did. On other targets (MySQL, TiDB, PostgreSQL) replica is server. off: checks and "
                        + "actions off for every statement (MySQL family: foreign_key_checks=0; PostgreSQL: "
                        + "session_replication_role=replica, which needs a superuser or, from PostgreSQL 15, SET "
                        + "privilege on it), for streams that carry the effects of cascades as rows of their own (a "
                        + "TiDB upstream). server: the session's default, every statement checked. Whatever the "
                        + "setting, a child row is applied after the earlier changes of the parent row it references.",
                GROUP_APPLY, ++o, Width.SHORT, "Foreign key checks");
        d.define(WORKER_COUNT, Type.INT, 4, ConfigDef.Range.between(1, 256), Importance.HIGH,
                "Apply threads per task, each with its own pooled connection (pool size = worker.count + 3: one "
                        + "more for metadata and the control store, one for a DDL statement running beside the task, "
                        + "one that holds its run lock). "
                        + "Transactions touching disjoint keys run in parallel; conflicting ones keep source order.",
                GROUP_APPLY, ++o, Width.SHORT, "Workers");
        d.define(DECODE_THREADS, Type.INT, 2, ConfigDef.Range.between(0, 64), Importance.LOW,
                "Threads per task that decode the records of each put() ahead of the task thread, which takes "
                        + "them in their order (every partition keeps its order). 0 decodes on the task thread.",
                GROUP_APPLY, ++o, Width.SHORT, "Decode threads");
        d.define(WARMUP_ENABLED, Type.BOOLEAN, true, Importance.LOW,
                "Whether a new task compiles its hot paths (its DDL parser, the cipher of its TLS connections, "
                        + "decoding of input.format) on a thread of its own while it waits for its first partitions "
                        + "(a new consumer group waits the broker's group.initial.rebalance.delay.ms, 3 s by default). "
                        + "It touches no data and stops when the partitions are assigned.",
                GROUP_APPLY, ++o, Width.SHORT, "Cold-start warm-up");
        d.define(DECODE_AHEAD_MAX_BYTES, Type.LONG, 64L * 1024 * 1024, ConfigDef.Range.atLeast(1024),
                Importance.LOW, "Most bytes of decoded records the decode threads hold ahead of the task thread. A "
                        + "decode thread starts a record only while what it holds ahead plus the record's received "
                        + "size fits, and keeps the result only if its decoded size fits; the task thread decodes the "
                        + "rest itself, in order, as it reaches them. Once put() stops for a full buffer "
                        + "(buffer.max.wait.ms), the records it has not reached wait undecoded for a later put().",
                GROUP_APPLY, ++o, Width.SHORT, "Decode-ahead bytes");
        d.define(MAX_TXN_ROWS, Type.INT, 4096, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
                "Largest downstream transaction. A source transaction with more rows is split into parts of this "
                        + "size, each committed on its own (a reader may then see it half applied). Workers also "
                        + "commit several small, independent source transactions together, whole, up to this many "
                        + "rows; 1 makes every row its own statement and commit.",
                GROUP_APPLY, ++o, Width.SHORT, "Max rows per transaction");
        d.define(BUFFER_MAX_BYTES, Type.LONG, 64L * 1024 * 1024, ConfigDef.Range.atLeast(1024), Importance.MEDIUM,
                "Bytes of records held between Kafka and the target. When full, put() waits for workers to "
                        + "commit before taking more, which throttles consumption instead of exhausting memory.",
                GROUP_APPLY, ++o, Width.SHORT, "Buffer bytes");
        d.define(BUFFER_MAX_WAIT_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "Longest one put() waits for buffer room. Past it, the task pauses its partitions and returns, "
                        + "keeping the records already fetched, and takes them in later put() calls (resuming the "
                        + "partitions once they are taken). Keep it well below the consumer's max.poll.interval.ms.",
                GROUP_APPLY, ++o, Width.SHORT, "Buffer wait");
        d.define(APPLY_DRAIN_TIMEOUT_MS, Type.LONG, 120_000L, ConfigDef.Range.atLeast(1_000), Importance.LOW,
                "Longest the task waits for the transactions already handed to workers: before it runs a DDL "
                        + "statement, and when partitions are revoked. Past it the task fails, saying the target is "
                        + "not keeping up; a restart resumes from the committed offsets. Keep it below the consumer's "
                        + "max.poll.interval.ms (default 300000).",
                GROUP_APPLY, ++o, Width.SHORT, "Drain timeout");
        d.define(DDL_BARRIER_TIMEOUT_MS, Type.LONG, 600_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "How long a DDL statement may wait for the other partitions of its topic (and other tasks) to "
                        + "pass it before the sink warns, naming the partitions that did not, and counts it in "
                        + "ddl-wait-timeouts-total; the warning repeats each time this passes again. The statement keeps "
                        + "waiting: it runs only once every partition has delivered its copy (or, from TiCDC, an event "
                        + "after it), never because time passed (docs/ordering.md). Meanwhile the partitions that passed "
                        + "it are paused.",
                GROUP_APPLY, ++o, Width.SHORT, "DDL barrier timeout");
        d.define(DDL_UNCOUNTED_ACROSS_TASKS, Type.STRING, UNCOUNTED_FAIL,
                ConfigDef.ValidString.in(UNCOUNTED_FAIL, UNCOUNTED_RUN), Importance.LOW,
                "What a task does with a DDL statement whose producer did not count its copies (a TiCDC changefeed; "
                        + "a Debezium TRUNCATE) when the connector has more than one task. Tasks cannot agree when "
                        + "every partition of a topic has passed such a statement, so a row could land on the wrong "
                        + "side of it. fail: the task fails, naming the statement (run such topics with tasks.max=1). "
                        + "run: the task runs it once its own partitions have passed it; say so only when every topic "
                        + "with such statements has one partition or is read by one task (docs/ordering.md). "
                        + "Statements from cdc-connect's source carry their count and are agreed between tasks.",
                GROUP_APPLY, ++o, Width.SHORT, "Uncounted DDL across tasks");
        d.define(DDL_APPLY, Type.LIST, "all", new DdlApplyValidator(), Importance.MEDIUM,
                "Which DDL statements from the messages the sink runs: all, none, or a list of create-table, "
                        + "alter-table, drop-table, truncate-table, rename-table, create-index, drop-index, "
                        + "create-database, alter-database, drop-database. A statement of a kind left out is skipped "
                        + "(logged, counted in the sink metric ddl-skipped-total). Whatever this says, the text is "
                        + "parsed and the sink runs only the statement as it writes it out again: text that is not one "
                        + "statement of those kinds with allowed clauses and table options (GRANT, CREATE USER, SET, "
                        + "routines, views, a second statement, an executable comment, CREATE TABLE ... SELECT, DATA "
                        + "DIRECTORY, CONNECTION, ...) or that would change a database outside schema.map and "
                        + "schema.include is never run: the record goes to the dead-letter queue, or the task fails "
                        + "naming it.",
                GROUP_APPLY, ++o, Width.LONG, "DDL policy");
        d.define(DDL_CHECKPOINT_DATABASE, Type.STRING, "cdc_connect", Importance.LOW,
                "Database in the target where the sink records, when it runs a DDL statement, the offsets through "
                        + "which every record is applied (table ddl_checkpoint, one row per connector, topic and "
                        + "partition). After a crash before Connect committed those offsets, the re-delivered records "
                        + "from before the DDL are skipped instead of applied against the table the DDL changed. "
                        + "Tasks also coordinate there a DDL statement sent to several partitions (tables ddl_barrier "
                        + "and ddl_run), so that it runs once, after every partition passed it. Needs CREATE, SELECT, "
                        + "INSERT, UPDATE and DELETE there. Empty turns both off.",
                GROUP_APPLY, ++o, Width.MEDIUM, "DDL checkpoint database");
        d.define(DDL_UNSUPPORTED, Type.STRING, "fail",
                ConfigDef.ValidString.in(DDL_UNSUPPORTED_VALUES.toArray(new String[0])), Importance.LOW,
                "What a DDL statement does that the target has no translation for (PostgreSQL translates CREATE "
                        + "TABLE [LIKE], ADD/DROP/MODIFY/CHANGE COLUMN, generated columns, CHECK and FOREIGN KEY, "
                        + "expression defaults, PARTITION BY of columns, indexes, TRUNCATE, DROP TABLE, RENAME TABLE "
                        + "and databases as schemas; MySQL-family targets run every statement as the sink writes it): "
                        + "fail refuses the statement naming it and why, so it can be applied by hand (the dead-letter "
                        + "queue under errors.tolerance=all, else the task fails); skip logs a warning and counts it "
                        + "in the sink metric ddl-unsupported-total.",
                GROUP_APPLY, ++o, Width.SHORT, "Unsupported DDL");
        d.define(AUTO_CREATE, Type.BOOLEAN, false, Importance.MEDIUM,
                "Create a target table that does not exist from the columns a row carries (types, key), instead of "
                        + "failing on its first row. Off by default: with TiCDC's formats the stream's own DDL "
                        + "creates and changes tables. The table is created in the mapped database (schema.map), "
                        + "which must exist on MySQL-family targets; a row that cannot yield a valid table (ENUM/SET "
                        + "without elements, a bad name, a protected database) goes to the dead-letter queue or fails "
                        + "the task. Each table created is logged and counted. docs/sink.md lists the type rules.",
                GROUP_APPLY, ++o, Width.SHORT, "Create missing tables");
        d.define(AUTO_EVOLVE, Type.BOOLEAN, false, Importance.MEDIUM,
                "Add to a target table the columns a row carries that the table lacks (always NULL-able). Never "
                        + "drops, narrows or retypes a column and never changes a key. Off by default, like "
                        + "auto.create. Each column added is logged and counted.",
                GROUP_APPLY, ++o, Width.SHORT, "Add missing columns");
        d.define(CONNECTION_SOCKET_TIMEOUT_MS, Type.LONG, 600_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                "Longest the sink waits for the target to answer one statement before it treats the connection as "
                        + "lost (then retried). DDL statements run without this limit (an ALTER TABLE may take hours). "
                        + "0 waits forever.",
                GROUP_APPLY, ++o, Width.SHORT, "Socket timeout");
        d.define(RETRY_MAX_ATTEMPTS, Type.INT, 10, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
                "Retries of a transaction after a transient error, before the task fails naming the transaction "
                        + "and the error: deadlock (1213), lock wait timeout (1205), a lost connection, a server "
                        + "turned read-only during a failover (1290, 1792, 1836); on TiDB also write conflicts "
                        + "(9007), schema changes (8027, 8028) and TiKV/PD unavailability (9001-9005). Also the "
                        + "retries of a record whose decoding finds the schema registry or the claim-check store "
                        + "unavailable (unreachable, 5xx, 401/403); such a record never goes to the dead-letter queue, "
                        + "and when the retries are spent the task fails saying what is down. put() waits meanwhile: "
                        + "keep the retries' total wait below the worker's max.poll.interval.ms.",
                GROUP_APPLY, ++o, Width.SHORT, "Retries");
        d.define(RETRY_BACKOFF_MS, Type.LONG, 200L, ConfigDef.Range.atLeast(1), Importance.LOW,
                "First retry delay; doubled on each retry, at most 30 s.", GROUP_APPLY, ++o, Width.SHORT,
                "Retry backoff");

        o = 0;
        d.define(STATEMENT_CACHE_SIZE, Type.INT, 256, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
                "Most server-side prepared statements one connection keeps (least recently used closed first). "
                        + "The effective limit is also at most half the server's max_prepared_stmt_count divided by "
                        + "all connections of the connector (task.count x (worker.count + 1)). 0 sends every "
                        + "statement as text.", GROUP_STATEMENTS, ++o, Width.SHORT, "Statement cache size");
        d.define(TASK_COUNT, Type.INT, 1, ConfigDef.Range.atLeast(1), Importance.LOW,
                "Tasks of this connector sharing the target's statement budget. Set by the connector for each task "
                        + "from tasks.max; no need to set it.", GROUP_STATEMENTS, ++o, Width.SHORT, "Task count");
        return SinkRecommenders.attach(d);
    }

    /** A value for the session's time_zone: an offset, SYSTEM, or a zone name. */
    private static final class TimeZoneValidator implements ConfigDef.Validator {
        private static final java.util.regex.Pattern ZONE =
                java.util.regex.Pattern.compile("[+-]\\d{1,2}:\\d{2}|SYSTEM|[A-Za-z][A-Za-z0-9_+\\-/]*");

        @Override
        public void ensureValid(String name, Object value) {
            if (value == null || !ZONE.matcher(value.toString()).matches()) {
                throw new ConfigException(name, value, "expected an offset such as +00:00, SYSTEM, or a zone name");
            }
        }

        @Override
        public String toString() {
            return "+HH:MM, SYSTEM or a zone name";
        }
    }

    /** A URL one of the dialect families serves (the drivers the sink bundles). */
    private static final class JdbcUrlValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String url = value instanceof Password p ? p.value() : value == null ? "" : value.toString();
            url = url == null ? "" : url.trim();
            if (Dialects.familyOf(url) == null) {
                // the value is not echoed: a URL may hold a password
                throw new ConfigException(name + ": " + Dialects.describeUrls());
            }
        }

        @Override
        public String toString() {
            return "jdbc:mysql://host:port/[database][?options] or jdbc:postgresql://host:port/database[?options]";
        }
    }

    /** ddl.apply: all, none, or known kinds. */
    static final class DdlApplyValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                io.cdcconnect.sink.ddl.DdlPolicy.parse(value == null ? java.util.List.of()
                        : (java.util.List<String>) value, "");
            } catch (IllegalArgumentException e) {
                throw new org.apache.kafka.common.config.ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "all, none, or a list of DDL kinds";
        }
    }
}
