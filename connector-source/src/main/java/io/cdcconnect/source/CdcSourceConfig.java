package io.cdcconnect.source;

import io.cdcconnect.codec.CodecOptions;
import io.cdcconnect.codec.Compression;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.source.dispatch.PartitionRule;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Settings of {@link CdcSourceConnector}. Our own settings, plus the Debezium settings every deployment sets
 * (declared here so that they are validated and documented, and marked as Debezium's where they are defined); any
 * other Debezium setting passes through unchanged, except the few {@link io.cdcconnect.source.DebeziumSettings forced}
 * ones the conversion depends on. Which settings are ours follows from the {@link ConfigDef}: {@link #isOwnSetting}.
 */
public final class CdcSourceConfig extends AbstractConfig {

    // --- our settings ---
    public static final String SOURCE_FLAVOR = "source.flavor";
    public static final String OUTPUT_FORMAT = "output.format";
    public static final String ENABLE_TIDB_EXTENSION = "enable.tidb.extension";
    public static final String TOPIC_PATTERN = "topic.pattern";
    public static final String PARTITION_RULE = "partition.rule";
    public static final String PARTITION_COLUMNS = "partition.columns";
    public static final String TOPIC_PARTITIONS = "topic.partitions";
    public static final String WATERMARK_INTERVAL_MS = "watermark.interval.ms";
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    /**
     * Open-protocol's rows per message (TiCDC's max-batch-size). Not "max.batch.size": that is Debezium's own
     * setting, and passes to Debezium.
     */
    public static final String OPEN_PROTOCOL_MAX_BATCH_SIZE = "open.protocol.max.batch.size";
    /** Debezium's setting (events per batch of its queue), passed through; ours was once named so. */
    public static final String DEBEZIUM_MAX_BATCH_SIZE = "max.batch.size";
    public static final String STARTUP_CHECKS = "startup.checks.enabled";
    public static final String ENCODER_THREADS = "encoder.threads";
    public static final String CONVERT_AHEAD_BATCHES = "convert.ahead.batches";
    public static final String ENCODER_MAX_INFLIGHT_BYTES = "encoder.max.inflight.bytes";
    public static final String ENCODER_CHUNK_EVENTS = "encoder.chunk.events";
    public static final String LARGE_MESSAGE_HANDLE = "large.message.handle.option";
    public static final String COMPRESSION = "large.message.handle.compression";
    public static final String CLAIM_CHECK_STORAGE_URI = "claim.check.storage.uri";
    public static final String CLAIM_CHECK_RAW_VALUE = "claim.check.raw.value";
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String SCHEMA_REGISTRY_USERNAME = "schema.registry.username";
    public static final String SCHEMA_REGISTRY_PASSWORD = "schema.registry.password";
    public static final String SCHEMA_REGISTRY_TRUSTSTORE = "schema.registry.ssl.truststore.location";
    public static final String SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    public static final String SCHEMA_REGISTRY_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";
    public static final String AVRO_DECIMAL_HANDLING = "avro.decimal.handling.mode";
    public static final String AVRO_BIGINT_UNSIGNED_HANDLING = "avro.bigint.unsigned.handling.mode";
    /** TiCDC's dispatchers: per-table topic and partition rules, a JSON array. */
    public static final String DISPATCHERS = "dispatchers";
    /** TiCDC's output-raw-change-event (kafka-config): key updates are not split into delete + insert. */
    public static final String OUTPUT_RAW_CHANGE_EVENT = "output.raw.change.event";
    // TiCDC's row encoder options ([sink] and [sink.open] of a changefeed): see ENCODER_OPTIONS.
    public static final String ONLY_OUTPUT_UPDATED_COLUMNS = "only.output.updated.columns";
    public static final String DELETE_ONLY_OUTPUT_HANDLE_KEY_COLUMNS = "delete.only.output.handle.key.columns";
    public static final String CONTENT_COMPATIBLE = "content.compatible";
    public static final String OPEN_OUTPUT_OLD_VALUE = "open.output.old.value";

    // --- Debezium settings declared for validation and docs (passed through) ---
    public static final String DATABASE_HOSTNAME = "database.hostname";
    public static final String DATABASE_PORT = "database.port";
    public static final String DATABASE_USER = "database.user";
    public static final String DATABASE_PASSWORD = "database.password";
    public static final String DATABASE_SERVER_ID = "database.server.id";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String DATABASE_INCLUDE_LIST = "database.include.list";
    public static final String DATABASE_EXCLUDE_LIST = "database.exclude.list";
    public static final String TABLE_INCLUDE_LIST = "table.include.list";
    public static final String TABLE_EXCLUDE_LIST = "table.exclude.list";
    public static final String SNAPSHOT_MODE = "snapshot.mode";
    public static final String SCHEMA_HISTORY = "schema.history.internal";
    public static final String SCHEMA_HISTORY_BOOTSTRAP = "schema.history.internal.kafka.bootstrap.servers";
    public static final String SCHEMA_HISTORY_TOPIC = "schema.history.internal.kafka.topic";

    public static final String DEFAULT_TOPIC_PATTERN = "{prefix}.{schema}.{table}";
    public static final String KAFKA_SCHEMA_HISTORY = "io.debezium.storage.kafka.history.KafkaSchemaHistory";

    private static final String GROUP_SOURCE = "Source server";
    private static final String GROUP_OUTPUT = "Output";
    private static final String GROUP_DEBEZIUM = "Debezium";

    /**
     * TiCDC's row encoder options that are booleans of ours: our setting, the codec's (TiCDC's) option name, TiCDC's
     * default, and the formats whose encoder reads it (TiCDC ignores it for the others; we refuse a value other than
     * the default there, naming the setting). From tiflow's pkg/sink/codec/common/config.go and the encoders.
     */
    record EncoderOption(String setting, String codecName, boolean dflt, Set<WireFormat> formats) {
    }

    static final List<EncoderOption> ENCODER_OPTIONS = List.of(
            new EncoderOption(ONLY_OUTPUT_UPDATED_COLUMNS, CodecOptions.ONLY_OUTPUT_UPDATED_COLUMNS, false,
                    Set.of(WireFormat.CANAL_JSON, WireFormat.OPEN_PROTOCOL)),
            new EncoderOption(DELETE_ONLY_OUTPUT_HANDLE_KEY_COLUMNS, CodecOptions.DELETE_ONLY_HANDLE_KEY_COLUMNS, false,
                    Set.of(WireFormat.CANAL_JSON, WireFormat.OPEN_PROTOCOL)),
            new EncoderOption(CONTENT_COMPATIBLE, CodecOptions.CONTENT_COMPATIBLE, false, Set.of(WireFormat.CANAL_JSON)),
            new EncoderOption(OPEN_OUTPUT_OLD_VALUE, CodecOptions.OPEN_OUTPUT_OLD_VALUE, true,
                    Set.of(WireFormat.OPEN_PROTOCOL)));

    /** The Debezium settings our ConfigDef declares, marked by {@link #debezium} where each is defined. */
    private static final Set<String> DEBEZIUM_DECLARED = new LinkedHashSet<>();
    private static final ConfigDef CONFIG_DEF = buildConfigDef();

    public CdcSourceConfig(Map<String, ?> originals) {
        super(CONFIG_DEF, originals, false);
        validateCombinations();
    }

    /** Every setting of the source connector, with type, default, validator, importance and documentation. */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG_DEF);
    }

    private static ConfigDef buildConfigDef() {
        ConfigDef def = new ConfigDef();
        int o = 0;
        def.define(SOURCE_FLAVOR, Type.STRING, "mariadb", enumValidator("mariadb", "mysql"), Importance.HIGH,
                "Which Debezium binlog connector reads the server: 'mariadb' (Debezium's MariaDB connector, for MariaDB "
                        + "10.x/11.x) or 'mysql' (Debezium's MySQL connector, for MySQL 5.7/8.x and compatibles). "
                        + "GTID handling and privilege names differ between the two.",
                GROUP_SOURCE, ++o, Width.SHORT, "Source flavour");
        def.define(debezium(DATABASE_HOSTNAME), Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "Host name or address of the MySQL/MariaDB server (passed to Debezium).",
                GROUP_SOURCE, ++o, Width.MEDIUM, "Host");
        def.define(debezium(DATABASE_PORT), Type.INT, 3306, ConfigDef.Range.between(1, 65535), Importance.HIGH,
                "Port of the server (passed to Debezium).", GROUP_SOURCE, ++o, Width.SHORT, "Port");
        def.define(debezium(DATABASE_USER), Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "User that reads the binlog. Needs REPLICATION SLAVE, REPLICATION CLIENT (MariaDB: "
                        + "BINLOG MONITOR), SELECT, and RELOAD or LOCK TABLES for the snapshot (passed to Debezium).",
                GROUP_SOURCE, ++o, Width.MEDIUM, "User");
        def.define(debezium(DATABASE_PASSWORD), Type.PASSWORD, "", Importance.HIGH,
                "Password of database.user (passed to Debezium; never logged).", GROUP_SOURCE, ++o, Width.MEDIUM,
                "Password");
        def.define(debezium(DATABASE_SERVER_ID), Type.LONG, ConfigDef.NO_DEFAULT_VALUE, ConfigDef.Range.between(1, 4294967295L),
                Importance.HIGH, "Replication server id this connector uses when it reads the binlog; unique among "
                        + "all replicas of the server (passed to Debezium).",
                GROUP_SOURCE, ++o, Width.SHORT, "Server id");
        def.define(debezium(DATABASE_INCLUDE_LIST), Type.STRING, "", Importance.MEDIUM,
                "Comma-separated regular expressions of databases to capture; empty captures all (passed to Debezium).",
                GROUP_SOURCE, ++o, Width.LONG, "Databases");
        def.define(debezium(DATABASE_EXCLUDE_LIST), Type.STRING, "", Importance.LOW,
                "Comma-separated regular expressions of databases not to capture; not with database.include.list "
                        + "(passed to Debezium).", GROUP_SOURCE, ++o, Width.LONG, "Excluded databases");
        def.define(debezium(TABLE_INCLUDE_LIST), Type.STRING, "", Importance.MEDIUM,
                "Comma-separated regular expressions of tables ('db.table') to capture; empty captures all tables of "
                        + "the captured databases (passed to Debezium).", GROUP_SOURCE, ++o, Width.LONG, "Tables");
        def.define(debezium(TABLE_EXCLUDE_LIST), Type.STRING, "", Importance.LOW,
                "Comma-separated regular expressions of tables ('db.table') not to capture; not with "
                        + "table.include.list (passed to Debezium).", GROUP_SOURCE, ++o, Width.LONG, "Excluded tables");
        def.define(STARTUP_CHECKS, Type.BOOLEAN, true, Importance.LOW,
                "Check at validation and start that binlog is on, binlog_format=ROW, binlog_row_image=FULL and that "
                        + "database.user has the privileges it needs; fail with a message saying how to fix what is "
                        + "wrong. Turn off only for servers that hide these variables.",
                GROUP_SOURCE, ++o, Width.SHORT, "Start-up checks");

        o = 0;
        def.define(OUTPUT_FORMAT, Type.STRING, WireFormat.CANAL_JSON.configName(),
                enumValidator(WireFormat.names(WireFormat::encodable).toArray(new String[0])), Importance.HIGH,
                "Wire format of the messages: " + WireFormat.describe(WireFormat::encodable) + ". Key and value are "
                        + "bytes: use ByteArrayConverter for both.",
                GROUP_OUTPUT, ++o, Width.SHORT, "Output format");
        def.define(ENABLE_TIDB_EXTENSION, Type.BOOLEAN, false, Importance.MEDIUM,
                "Add TiCDC's TiDB extension (Canal-JSON '_tidb' with commitTs, and watermark messages; Avro "
                        + "'_tidb_*' fields). Off by default as in TiCDC: Flink's canal-json reader fails on "
                        + "watermark messages.", GROUP_OUTPUT, ++o, Width.SHORT, "TiDB extension");
        def.define(TOPIC_PATTERN, Type.STRING, DEFAULT_TOPIC_PATTERN, new TopicPatternValidator(), Importance.HIGH,
                "Topic of each table's messages. Placeholders: {prefix} (topic.prefix), {schema}, {table}. "
                        + "'{prefix}.{schema}.{table}' gives a topic per table, a pattern without placeholders one "
                        + "topic for all, '{schema}_{table}' and the like anything between. Characters Kafka does not "
                        + "allow in topic names become '_'.", GROUP_OUTPUT, ++o, Width.MEDIUM, "Topic pattern");
        def.define(PARTITION_RULE, Type.STRING, "table", enumValidator(PartitionRule.configNames()), Importance.HIGH,
                "How rows are spread over a topic's partitions, for tables no rule of " + DISPATCHERS + " matches. "
                        + "TiCDC's rules, hashed as TiCDC hashes them (a key lands on the partition a TiCDC "
                        + "changefeed puts it on): 'table' (all rows of a table on one partition), 'index-value' "
                        + "(hash of the handle-key values: the primary key, else the first NOT NULL unique key; "
                        + "tables without either as 'table'), 'ts' (commit ts: a transaction stays on one partition) "
                        + "or 'columns' (hash of the values of partition.columns). Ours: 'pk', 'index-value' with "
                        + "text keys compared case-insensitively and without trailing spaces, as most collations "
                        + "compare them, so keys equal to the database always share a partition (integer keys land "
                        + "as with 'index-value'). An update that moves a row to another partition is sent as a "
                        + "delete on the old partition and an insert on the new one.",
                GROUP_OUTPUT, ++o, Width.SHORT, "Partition rule");
        def.define(PARTITION_COLUMNS, Type.LIST, "", Importance.LOW,
                "Columns whose values choose the partition when partition.rule=columns; a table lacking any of them "
                        + "falls back to 'table' (logged once per table).", GROUP_OUTPUT, ++o, Width.LONG,
                "Partition columns");
        def.define(DISPATCHERS, Type.STRING, "", new DispatchersValidator(), Importance.MEDIUM,
                "TiCDC's dispatchers: per-table topic and partition rules, as a JSON array of objects with TiCDC's "
                        + "fields, e.g. [{\"matcher\": [\"shop.*\", \"!shop.tmp_*\"], \"topic\": "
                        + "\"{prefix}.shop\", \"partition\": \"index-value\"}, {\"matcher\": [\"*.events\"], "
                        + "\"partition\": \"columns\", \"columns\": [\"tenant_id\"]}]. The first rule whose "
                        + "matcher selects a table gives its topic (a topic.pattern; without 'topic', topic.pattern) "
                        + "and partition rule (as partition.rule; without 'partition', partition.rule and "
                        + "partition.columns); tables no rule matches follow topic.pattern and partition.rule. "
                        + "Matchers use TiCDC's table-filter syntax: 'db.table' patterns with * ? [a-z] [!a-z], "
                        + "names in backticks, '!' to exclude; the last pattern that matches decides; names compare "
                        + "case-insensitively. TiCDC's 'index' (index-value by a named index) is not supported: "
                        + "name the index's columns with 'columns', which TiCDC hashes the same way.",
                GROUP_OUTPUT, ++o, Width.LONG, "Dispatchers");
        def.define(OUTPUT_RAW_CHANGE_EVENT, Type.BOOLEAN, false, Importance.LOW,
                "TiCDC's output-raw-change-event. false (TiCDC's default): an update that changes a primary-key or "
                        + "unique-key value is sent as a delete of the old row and an insert of the new one. true: it "
                        + "stays one update, unless its old and new rows land on different partitions (then it is "
                        + "split in any case, so each partition keeps its keys' order). Needs the old row: with "
                        + "open-protocol, not with open.output.old.value=false.",
                GROUP_OUTPUT, ++o, Width.SHORT, "Raw change events");
        def.define(ONLY_OUTPUT_UPDATED_COLUMNS, Type.BOOLEAN, false, Importance.LOW,
                "TiCDC's only-output-updated-columns, for canal-json and open-protocol: an update's old image "
                        + "(Canal-JSON 'old', Open-protocol 'p') holds only the columns whose value changed.",
                GROUP_OUTPUT, ++o, Width.SHORT, "Only updated columns");
        def.define(DELETE_ONLY_OUTPUT_HANDLE_KEY_COLUMNS, Type.BOOLEAN, false, Importance.LOW,
                "TiCDC's delete-only-output-handle-key-columns, for canal-json and open-protocol: a delete carries "
                        + "only its handle-key columns (primary key, else the first NOT NULL unique key; every column "
                        + "of a table without either).", GROUP_OUTPUT, ++o, Width.SHORT, "Delete with key only");
        def.define(CONTENT_COMPATIBLE, Type.BOOLEAN, false, Importance.LOW,
                "TiCDC's content-compatible, for canal-json: messages as Canal itself writes them, 'mysqlType' with "
                        + "the full column type ('int(11)', 'decimal(10,4)') and 'old' with the changed columns only "
                        + "(implies " + ONLY_OUTPUT_UPDATED_COLUMNS + ").", GROUP_OUTPUT, ++o, Width.SHORT,
                "Canal-compatible content");
        def.define(OPEN_OUTPUT_OLD_VALUE, Type.BOOLEAN, true, Importance.LOW,
                "TiCDC's [sink.open] output-old-value, for open-protocol: an update carries its old row ('p'); "
                        + "false sends the new row only.", GROUP_OUTPUT, ++o, Width.SHORT, "Open-protocol old value");
        def.define(TOPIC_PARTITIONS, Type.INT, 1, ConfigDef.Range.atLeast(1), Importance.HIGH,
                "Number of partitions of every output topic. Must equal the topics' real partition count: set the "
                        + "worker's topic.creation.default.partitions to the same number, or create the topics "
                        + "beforehand. Watermarks and Open-protocol DDL go to every partition 0..n-1; Canal-JSON DDL goes where its table's rows go (under 'table' one partition, under the other rules every partition).",
                GROUP_OUTPUT, ++o, Width.SHORT, "Partitions per topic");
        def.define(WATERMARK_INTERVAL_MS, Type.LONG, 1000L, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
                "How often a watermark (resolved ts) goes to every partition of every topic written so far; 0 turns "
                        + "them off. Sent only where the format carries them: " + watermarkFormats() + ".",
                GROUP_OUTPUT, ++o, Width.SHORT,
                "Watermark interval");
        def.define(MAX_MESSAGE_BYTES, Type.INT, 10 * 1024 * 1024, ConfigDef.Range.atLeast(1024), Importance.MEDIUM,
                "Largest Kafka message the encoder produces (key + value + overhead); keep it at or below the "
                        + "topics' max.message.bytes and the producer's max.request.size.", GROUP_OUTPUT, ++o,
                Width.SHORT, "Max message bytes");
        def.define(OPEN_PROTOCOL_MAX_BATCH_SIZE, Type.INT, 16, ConfigDef.Range.between(1, 4096), Importance.LOW,
                "Open-protocol: most rows packed into one Kafka message (TiCDC's max-batch-size). Formerly named "
                        + DEBEZIUM_MAX_BATCH_SIZE + ", which is Debezium's own setting (events per batch of its "
                        + "queue, default 2048): that name now passes to Debezium unchanged, as every setting not "
                        + "ours does, and no longer sets this one.", GROUP_OUTPUT, ++o, Width.SHORT,
                "Open-protocol batch size");
        def.define(ENCODER_THREADS, Type.INT, 2, ConfigDef.Range.between(1, 64), Importance.MEDIUM,
                "Threads that encode messages (TiCDC's encoder group); output keeps the source order within each "
                        + "partition. 1 encodes on the task's own thread.", GROUP_OUTPUT, ++o, Width.SHORT,
                "Encoder threads");
        def.define(CONVERT_AHEAD_BATCHES, Type.INT, 1, ConfigDef.Range.between(0, 16), Importance.LOW,
                "Batches of Debezium's records a thread of the task converts and encodes ahead of Connect, while "
                        + "Connect sends the last batch it took (TiCDC's mounter runs ahead of its sink the same way). "
                        + "A batch converted ahead is dropped at a stop, before any of it is sent, so nothing is "
                        + "claimed twice. 0 converts on Connect's task thread inside poll().", GROUP_OUTPUT, ++o,
                Width.SHORT, "Batches converted ahead");
        def.define(ENCODER_MAX_INFLIGHT_BYTES, Type.LONG, 64L << 20, ConfigDef.Range.atLeast(1024), Importance.LOW,
                "Bound on the bytes of events being encoded at once (estimated, then the encoded size); the task "
                        + "waits for encoders when it is reached.", GROUP_OUTPUT, ++o, Width.SHORT,
                "Encoder memory bound");
        def.define(ENCODER_CHUNK_EVENTS, Type.INT, 256, ConfigDef.Range.between(1, 1 << 20), Importance.LOW,
                "Most events of one partition encoded as one unit of work, so that one busy table still uses "
                        + "every encoder thread. A unit's end closes an Open-protocol batch.", GROUP_OUTPUT, ++o,
                Width.SHORT, "Encoder unit size");
        def.define(LARGE_MESSAGE_HANDLE, Type.STRING, "none", enumValidator("none", "handle-key-only", "claim-check"),
                Importance.LOW, "Canal-JSON and Open-protocol: what to do with a row whose message exceeds "
                        + "max.message.bytes: 'none' fails the task naming the table, 'handle-key-only' sends only "
                        + "the key columns, marked so that a consumer reads the row back from the source, "
                        + "'claim-check' writes the whole message to " + CLAIM_CHECK_STORAGE_URI + " and sends the "
                        + "key columns with its location, so that a consumer with the same store (our sink, TiCDC's "
                        + "consumers) reads the whole row back. Canal-JSON needs enable.tidb.extension=true for "
                        + "either, as in TiCDC.", GROUP_OUTPUT, ++o, Width.SHORT, "Large message handling");
        def.define(CLAIM_CHECK_STORAGE_URI, Type.STRING, "", Importance.LOW,
                "With large.message.handle.option=claim-check: the directory that holds the oversize messages, as "
                        + "a file:// URI (file:///shared/claim-check); a shared mount when workers run on several "
                        + "machines. Consumers are given the same store. TiCDC's s3/gcs/azure stores are not "
                        + "supported.", GROUP_OUTPUT, ++o, Width.LONG, "Claim-check store");
        def.define(CLAIM_CHECK_RAW_VALUE, Type.BOOLEAN, false, Importance.LOW,
                "Canal-JSON with claim-check: store the message value as it is instead of TiCDC's JSON "
                        + "{\"key\":…,\"value\":base64}; consumers must be told the same (claim-check-raw-value).",
                GROUP_OUTPUT, ++o, Width.SHORT, "Claim-check raw value");
        def.define(COMPRESSION, Type.STRING, "none", enumValidator(Compression.configNames()), Importance.LOW,
                "Canal-JSON and Open-protocol: compression of message values (TiCDC's "
                        + "large-message-handle-compression); consumers must be told the same. Kafka's own producer "
                        + "compression is separate.", GROUP_OUTPUT, ++o, Width.SHORT, "Value compression");
        def.define(SCHEMA_REGISTRY_URL, Type.PASSWORD, "", Importance.HIGH,
                "Avro: URL of the Confluent-compatible schema registry, e.g. http://registry:8081 (Apicurio: "
                        + "http://host:8080/apis/ccompat/v7). Required with output.format=avro. A password type: it "
                        + "may carry user:password@, so it is hidden in logs and validation answers.",
                GROUP_OUTPUT, ++o, Width.LONG, "Schema registry");
        def.define(SCHEMA_REGISTRY_USERNAME, Type.STRING, "", Importance.LOW,
                "Avro: user for the schema registry's basic authentication; empty for none.", GROUP_OUTPUT, ++o,
                Width.MEDIUM, "Schema registry user");
        def.define(SCHEMA_REGISTRY_PASSWORD, Type.PASSWORD, "", Importance.LOW,
                "Avro: password for the schema registry's basic authentication (never logged).", GROUP_OUTPUT, ++o,
                Width.MEDIUM, "Schema registry password");
        def.define(SCHEMA_REGISTRY_TRUSTSTORE, Type.STRING, "", Importance.LOW,
                "Avro with an https registry: the trust store file its certificate is checked against (host names "
                        + "are verified); empty uses the JVM's default trust store.", GROUP_OUTPUT, ++o, Width.LONG,
                "Schema registry trust store");
        def.define(SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD, Type.PASSWORD, "", Importance.LOW,
                "Password of " + SCHEMA_REGISTRY_TRUSTSTORE + ", if it has one (never logged).", GROUP_OUTPUT, ++o,
                Width.MEDIUM, "Schema registry trust store password");
        def.define(SCHEMA_REGISTRY_TRUSTSTORE_TYPE, Type.STRING, "PKCS12", enumValidator("pkcs12", "jks"),
                Importance.LOW, "Type of " + SCHEMA_REGISTRY_TRUSTSTORE + ": PKCS12 or JKS.", GROUP_OUTPUT, ++o,
                Width.SHORT, "Schema registry trust store type");
        def.define(AVRO_DECIMAL_HANDLING, Type.STRING, "precise", enumValidator("precise", "string"),
                Importance.LOW, "Avro: DECIMAL as bytes with the decimal logical type ('precise') or as text "
                        + "('string').", GROUP_OUTPUT, ++o, Width.SHORT, "Avro decimals");
        def.define(AVRO_BIGINT_UNSIGNED_HANDLING, Type.STRING, "long", enumValidator("long", "string"),
                Importance.LOW, "Avro: BIGINT UNSIGNED as long (values above 2^63-1 wrap, as in TiCDC) or as text "
                        + "('string').", GROUP_OUTPUT, ++o, Width.SHORT, "Avro unsigned bigint");

        o = 0;
        def.define(debezium(TOPIC_PREFIX), Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "Logical name of the source server: Debezium's topic.prefix, the key of its offsets, "
                        + "and {prefix} in topic.pattern. Do not change it once the connector has run: the offsets "
                        + "are stored under it.", GROUP_DEBEZIUM, ++o, Width.MEDIUM, "Topic prefix");
        def.define(debezium(SNAPSHOT_MODE), Type.STRING, "initial", Importance.MEDIUM,
                "Debezium's snapshot.mode: 'initial' (existing rows, then the binlog), 'no_data' (binlog only, from "
                        + "now), 'when_needed', 'initial_only' and the others Debezium knows (passed to Debezium).",
                GROUP_DEBEZIUM, ++o, Width.SHORT, "Snapshot mode");
        def.define(debezium(SCHEMA_HISTORY), Type.STRING, KAFKA_SCHEMA_HISTORY, Importance.LOW,
                "Where Debezium keeps the schema history it needs after a restart (passed to Debezium).",
                GROUP_DEBEZIUM, ++o, Width.LONG, "Schema history");
        def.define(debezium(SCHEMA_HISTORY_BOOTSTRAP), Type.STRING, "", Importance.HIGH,
                "Kafka bootstrap servers of Debezium's schema-history topic; required with the Kafka schema history "
                        + "(passed to Debezium).", GROUP_DEBEZIUM, ++o, Width.LONG, "Schema history servers");
        def.define(debezium(SCHEMA_HISTORY_TOPIC), Type.STRING, "", Importance.MEDIUM,
                "Topic of Debezium's schema history (one partition, infinite retention); empty means "
                        + "'<topic.prefix>.schema-history' (passed to Debezium).", GROUP_DEBEZIUM, ++o, Width.LONG,
                "Schema history topic");
        return SourceRecommenders.attach(def);
    }

    private void validateCombinations() {
        WireFormat written = outputFormat();
        for (EncoderOption option : ENCODER_OPTIONS) {
            boolean value = getBoolean(option.setting());
            if (value != option.dflt() && !option.formats().contains(written)) {
                throw new ConfigException(option.setting(), value, option.setting() + " applies to output.format="
                        + option.formats().stream().map(WireFormat::configName).sorted()
                        .collect(java.util.stream.Collectors.joining(" or ")) + " only (TiCDC ignores it for "
                        + written.configName() + "): remove it, or set it to " + option.dflt());
            }
        }
        if (outputRawChangeEvent() && written == WireFormat.OPEN_PROTOCOL && !getBoolean(OPEN_OUTPUT_OLD_VALUE)) {
            throw new ConfigException(OUTPUT_RAW_CHANGE_EVENT, true, OUTPUT_RAW_CHANGE_EVENT + "=true needs the old "
                    + "row of an update that changes a key, which " + OPEN_OUTPUT_OLD_VALUE + "=false leaves out: a "
                    + "consumer could not delete the old key (TiCDC warns of the same inconsistency). Set one of them "
                    + "back to its default");
        }
        if (partitionRule() == PartitionRule.COLUMNS && getList(PARTITION_COLUMNS).isEmpty()) {
            throw new ConfigException(PARTITION_COLUMNS, "", "partition.rule=columns needs at least one column in "
                    + PARTITION_COLUMNS);
        }
        String creationPartitions = originalsStrings().get("topic.creation.default.partitions");
        if (creationPartitions != null && !creationPartitions.isBlank()
                && !creationPartitions.trim().equals("-1")
                && !creationPartitions.trim().equals(Integer.toString(topicPartitions()))) {
            throw new ConfigException(TOPIC_PARTITIONS, topicPartitions(), "topic.partitions (" + topicPartitions()
                    + ") must equal topic.creation.default.partitions (" + creationPartitions.trim()
                    + "): rows are dispatched over topic.partitions partitions of topics Connect creates with the "
                    + "other number");
        }
        WireFormat format = outputFormat();
        if (format.needsSchemaRegistry() && schemaRegistryUrl().isBlank()) {
            throw new ConfigException(SCHEMA_REGISTRY_URL, "", "output.format=" + format + " needs the schema "
                    + "registry's URL");
        }
        if (!format.largeMessageHandling() && (!largeMessageHandle().equals("none")
                || Compression.parse(getString(COMPRESSION)) != Compression.NONE)) {
            throw new ConfigException(LARGE_MESSAGE_HANDLE, getString(LARGE_MESSAGE_HANDLE), "output.format="
                    + format + " has no large-message handling or value compression: leave " + LARGE_MESSAGE_HANDLE
                    + " and " + COMPRESSION + " at none");
        }
        // Large-message handling, claim-check store and the rest of the codec's rules: checked by the codec itself,
        // on the options this config hands it, so the two cannot disagree. Its messages use TiCDC's option names,
        // which are ours with '-' for '.' (max-batch-size is open.protocol.max.batch.size).
        try {
            format.checkEncoderOptions(codecOptions());
        } catch (IllegalArgumentException e) {
            String message = e.getMessage().replace(CodecOptions.MAX_BATCH_SIZE, OPEN_PROTOCOL_MAX_BATCH_SIZE);
            for (String name : List.of(ENABLE_TIDB_EXTENSION, LARGE_MESSAGE_HANDLE, CLAIM_CHECK_STORAGE_URI,
                    CLAIM_CHECK_RAW_VALUE, MAX_MESSAGE_BYTES, COMPRESSION, ONLY_OUTPUT_UPDATED_COLUMNS,
                    DELETE_ONLY_OUTPUT_HANDLE_KEY_COLUMNS, CONTENT_COMPATIBLE, OPEN_OUTPUT_OLD_VALUE)) {
                message = message.replace(name.replace('.', '-'), name);
            }
            throw new ConfigException(LARGE_MESSAGE_HANDLE, "(see message)", message);
        }
        if (usesKafkaSchemaHistory() && getString(SCHEMA_HISTORY_BOOTSTRAP).isBlank()) {
            throw new ConfigException(SCHEMA_HISTORY_BOOTSTRAP, "", "the Kafka schema history needs bootstrap "
                    + "servers: set " + SCHEMA_HISTORY_BOOTSTRAP + " (usually the same as the worker's)");
        }
    }

    public SourceFlavor flavor() {
        return SourceFlavor.parse(getString(SOURCE_FLAVOR));
    }

    public WireFormat outputFormat() {
        return WireFormat.encodable(getString(OUTPUT_FORMAT));
    }

    public boolean tidbExtension() {
        return getBoolean(ENABLE_TIDB_EXTENSION);
    }

    public String topicPattern() {
        return getString(TOPIC_PATTERN);
    }

    public String topicPrefix() {
        return getString(TOPIC_PREFIX);
    }

    public PartitionRule partitionRule() {
        return PartitionRule.parse(getString(PARTITION_RULE));
    }

    public List<String> partitionColumns() {
        return getList(PARTITION_COLUMNS);
    }

    /** The dispatchers, first match wins (validated). */
    public List<io.cdcconnect.source.dispatch.DispatchRule> dispatchRules() {
        return io.cdcconnect.source.dispatch.DispatchRule.parseAll(getString(DISPATCHERS));
    }

    public boolean outputRawChangeEvent() {
        return getBoolean(OUTPUT_RAW_CHANGE_EVENT);
    }

    /** The dispatcher of this configuration: dispatchers first, then topic.pattern and partition.rule. */
    public io.cdcconnect.source.dispatch.Dispatcher dispatcher() {
        return new io.cdcconnect.source.dispatch.Dispatcher(
                new io.cdcconnect.source.dispatch.TopicNamer(topicPattern(), topicPrefix()), partitionRule(),
                partitionColumns(), topicPartitions(), dispatchRules(), outputRawChangeEvent());
    }

    public int topicPartitions() {
        return getInt(TOPIC_PARTITIONS);
    }

    public long watermarkIntervalMs() {
        return getLong(WATERMARK_INTERVAL_MS);
    }

    public int maxMessageBytes() {
        return getInt(MAX_MESSAGE_BYTES);
    }

    public int maxBatchSize() {
        return getInt(OPEN_PROTOCOL_MAX_BATCH_SIZE);
    }

    /** The codec's options, by TiCDC's names, for the configured format. */
    public Map<String, String> codecOptions() {
        Map<String, String> o = new java.util.HashMap<>();
        o.put("enable-tidb-extension", Boolean.toString(tidbExtension()));
        o.put("max-message-bytes", Integer.toString(maxMessageBytes()));
        WireFormat format = outputFormat();
        for (EncoderOption option : ENCODER_OPTIONS) {
            if (option.formats().contains(format)) {
                o.put(option.codecName(), Boolean.toString(getBoolean(option.setting())));
            }
        }
        if (format.batchesRows()) o.put(CodecOptions.MAX_BATCH_SIZE, Integer.toString(maxBatchSize()));
        if (format.needsSchemaRegistry()) {
            o.put("schema-registry", schemaRegistryUrl());
            if (!getString(SCHEMA_REGISTRY_USERNAME).isBlank()) {
                o.put("schema-registry-username", getString(SCHEMA_REGISTRY_USERNAME));
                o.put("schema-registry-password", getPassword(SCHEMA_REGISTRY_PASSWORD).value());
            }
            if (!getString(SCHEMA_REGISTRY_TRUSTSTORE).isBlank()) {
                o.put("schema-registry-ssl-truststore-location", getString(SCHEMA_REGISTRY_TRUSTSTORE));
                o.put("schema-registry-ssl-truststore-password", getPassword(SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD).value());
                o.put("schema-registry-ssl-truststore-type", getString(SCHEMA_REGISTRY_TRUSTSTORE_TYPE));
            }
            o.put("avro-decimal-handling-mode", getString(AVRO_DECIMAL_HANDLING));
            o.put("avro-bigint-unsigned-handling-mode", getString(AVRO_BIGINT_UNSIGNED_HANDLING));
        }
        if (format.largeMessageHandling()) {
            o.put("large-message-handle-option", largeMessageHandle());
            o.put("large-message-handle-compression", getString(COMPRESSION));
            if (largeMessageHandle().equals("claim-check")) {
                o.put("claim-check-storage-uri", getString(CLAIM_CHECK_STORAGE_URI));
                o.put("claim-check-raw-value", Boolean.toString(getBoolean(CLAIM_CHECK_RAW_VALUE)));
            }
        }
        return o;
    }

    /** The registry URL, which may hold user:password@: do not log it. */
    public String schemaRegistryUrl() {
        return getPassword(SCHEMA_REGISTRY_URL).value();
    }

    public int encoderThreads() {
        return getInt(ENCODER_THREADS);
    }

    public int convertAheadBatches() {
        return getInt(CONVERT_AHEAD_BATCHES);
    }

    public long encoderMaxInFlightBytes() {
        return getLong(ENCODER_MAX_INFLIGHT_BYTES);
    }

    public int encoderChunkEvents() {
        return getInt(ENCODER_CHUNK_EVENTS);
    }

    public boolean startupChecks() {
        return getBoolean(STARTUP_CHECKS);
    }

    public String hostname() {
        return getString(DATABASE_HOSTNAME);
    }

    public int port() {
        return getInt(DATABASE_PORT);
    }

    public String user() {
        return getString(DATABASE_USER);
    }

    public Password password() {
        return getPassword(DATABASE_PASSWORD);
    }

    /**
     * What the task warns about at start: the password over a connection that is not verified TLS, the registry's
     * credentials over plain http.
     */
    public List<String> transportWarnings() {
        List<String> out = new java.util.ArrayList<>();
        String tls = io.cdcconnect.source.check.SourceConnections.unverifiedTls(flavor(), originalsStrings(),
                password().value());
        if (tls != null) out.add(tls);
        if (outputFormat().needsSchemaRegistry()) {
            String registry = io.cdcconnect.codec.util.Transport.registryCredentialsInClear(schemaRegistryUrl(),
                    !getString(SCHEMA_REGISTRY_USERNAME).isBlank()
                            || !getPassword(SCHEMA_REGISTRY_PASSWORD).value().isEmpty(), SCHEMA_REGISTRY_URL);
            if (registry != null) out.add(registry);
        }
        return out;
    }

    /** Driver properties of our own connections to the source server: database.ssl.* and driver.* as Debezium's. */
    public java.util.Properties jdbcProperties() {
        return io.cdcconnect.source.check.SourceConnections.properties(flavor(), originalsStrings(), user(),
                password().value());
    }

    public String snapshotMode() {
        return getString(SNAPSHOT_MODE);
    }

    public boolean usesKafkaSchemaHistory() {
        return KAFKA_SCHEMA_HISTORY.equals(getString(SCHEMA_HISTORY).trim());
    }

    /**
     * Our own settings, consumed here and never handed to Debezium: every setting of our {@link ConfigDef} except
     * the Debezium settings it declares for validation and docs.
     */
    public static boolean isOwnSetting(String name) {
        return CONFIG_DEF.names().contains(name) && !DEBEZIUM_DECLARED.contains(name);
    }

    /** The Debezium settings our ConfigDef declares; they pass to Debezium. */
    public static Set<String> declaredDebeziumSettings() {
        return Collections.unmodifiableSet(DEBEZIUM_DECLARED);
    }

    /** Marks a setting being defined as Debezium's: it is validated and documented here, and passed through. */
    private static String debezium(String name) {
        DEBEZIUM_DECLARED.add(name);
        return name;
    }

    private static String watermarkFormats() {
        List<String> parts = new java.util.ArrayList<>();
        for (WireFormat f : WireFormat.values()) {
            if (!f.encodable()) continue;
            parts.add(f.title() + switch (f.watermarks()) {
                case ALWAYS -> " always";
                case WITH_TIDB_EXTENSION -> " with " + ENABLE_TIDB_EXTENSION + "=true";
                case NEVER -> " never";
            });
        }
        return String.join(", ", parts);
    }

    static ConfigDef.Validator enumValidator(String... allowed) {
        return new EnumValidator(List.of(allowed));
    }

    /** large.message.handle as its validator reads it: trimmed and lower-cased ("None" is none). */
    private String largeMessageHandle() {
        return getString(LARGE_MESSAGE_HANDLE).trim().toLowerCase(Locale.ROOT);
    }

    /** One of a few values, case-insensitive; the values are also what validation recommends (SourceRecommenders). */
    record EnumValidator(List<String> allowed) implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String v = value == null ? "" : value.toString().trim().toLowerCase(Locale.ROOT);
            for (String a : allowed) {
                if (a.equals(v)) return;
            }
            throw new ConfigException(name, value, "expected one of " + String.join(", ", allowed));
        }

        @Override
        public String toString() {
            return "[" + String.join(", ", allowed) + "]";
        }
    }

    /** A topic pattern may use only the placeholders we fill in, so a typo fails at validation, not per row. */
    static final class TopicPatternValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                io.cdcconnect.source.dispatch.TopicNamer.checkPattern(value == null ? "" : value.toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "text with {prefix}, {schema}, {table}";
        }
    }

    /** The dispatchers must parse: the message names the rule and what is wrong with it. */
    static final class DispatchersValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                io.cdcconnect.source.dispatch.DispatchRule.parseAll(value == null ? "" : value.toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "JSON array of {matcher, topic, partition, columns}";
        }
    }
}
