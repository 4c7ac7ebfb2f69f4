package io.cdcconnect.sink.config;

import io.cdcconnect.codec.WireFormat;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sink's settings as the rest of the sink reads them: every key, and each value typed. A leaf of the sink's
 * packages: it knows no dialect, no validation and no pipeline stage. The definition of the settings (types, defaults,
 * validators, documentation) is {@code io.cdcconnect.sink.validate.SinkConfigDef}'s; the connector's configuration,
 * checked against the rules that span settings, is {@code io.cdcconnect.sink.CdcSinkConfig}.
 */
public abstract class SinkConfig extends AbstractConfig {

    public static final String CONNECTION_URL = "connection.url";
    public static final String CONNECTION_USER = "connection.user";
    public static final String CONNECTION_PASSWORD = "connection.password";
    public static final String CONNECTION_SSL_MODE = "connection.ssl.mode";
    /** The values of {@value #CONNECTION_SSL_MODE}, weakest first; each dialect maps them to its driver's. */
    public static final List<String> SSL_MODES = List.of("disabled", "preferred", "required", "verify-ca",
            "verify-identity");
    public static final String CONNECTION_DRIVER = "connection.driver";
    public static final String DIALECT = "dialect";
    public static final String TIMESTAMP_TIME_ZONE = "timestamp.time.zone";

    public static final String INPUT_FORMAT = "input.format";
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String SCHEMA_MAP = "schema.map";
    public static final String SCHEMA_INCLUDE = "schema.include";
    public static final String INPUT_CODEC_OPTIONS = "input.codec.options";
    public static final String INPUT_MAX_DECODED_BYTES = "input.max.decoded.bytes";
    public static final String INPUT_CLAIM_CHECK_MAX_RECORD_BYTES = "input.claim.check.max.record.bytes";
    public static final String INPUT_CLAIM_CHECK_MAX_RECORD_POINTERS = "input.claim.check.max.record.pointers";
    public static final String SCHEMA_REGISTRY_TRUSTSTORE = "schema.registry.ssl.truststore.location";
    public static final String SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    public static final String SCHEMA_REGISTRY_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";

    public static final String SAFE_MODE = "safe.mode";
    public static final String SAFE_MODE_REPLAY_MARGIN_MS = "safe.mode.replay.margin.ms";
    public static final String FOREIGN_KEY_CHECKS = "foreign.key.checks";
    public static final String WORKER_COUNT = "worker.count";
    public static final String DECODE_THREADS = "decode.threads";
    public static final String WARMUP_ENABLED = "warmup.enabled";
    public static final String DECODE_AHEAD_MAX_BYTES = "decode.ahead.max.bytes";
    public static final String MAX_TXN_ROWS = "max.txn.rows";
    public static final String BUFFER_MAX_BYTES = "buffer.max.bytes";
    public static final String BUFFER_MAX_WAIT_MS = "buffer.max.wait.ms";
    public static final String RETRY_MAX_ATTEMPTS = "retry.max.attempts";
    public static final String APPLY_DRAIN_TIMEOUT_MS = "apply.drain.timeout.ms";
    public static final String DDL_BARRIER_TIMEOUT_MS = "ddl.barrier.timeout.ms";
    public static final String DDL_UNCOUNTED_ACROSS_TASKS = "ddl.uncounted.across.tasks";
    /** {@link #DDL_UNCOUNTED_ACROSS_TASKS}: the task fails on such a statement. */
    public static final String UNCOUNTED_FAIL = "fail";
    /** {@link #DDL_UNCOUNTED_ACROSS_TASKS}: every topic has one partition, or is read by one task: run it. */
    public static final String UNCOUNTED_RUN = "run";
    public static final String DDL_CHECKPOINT_DATABASE = "ddl.checkpoint.database";
    public static final String DDL_UNSUPPORTED = "ddl.unsupported";
    public static final String DDL_APPLY = "ddl.apply";
    public static final String AUTO_CREATE = "auto.create";
    public static final String AUTO_EVOLVE = "auto.evolve";
    public static final String CONNECTION_SOCKET_TIMEOUT_MS = "connection.socket.timeout.ms";
    public static final String RETRY_BACKOFF_MS = "retry.backoff.ms";

    public static final String STATEMENT_CACHE_SIZE = "statement.cache.size";
    public static final String TASK_COUNT = "task.count";

    /** The values of {@value #DDL_UNSUPPORTED}. */
    public static final List<String> DDL_UNSUPPORTED_VALUES = List.of("fail", "skip");
    /** The values of {@value #SCHEMA_REGISTRY_TRUSTSTORE_TYPE}. */
    public static final List<String> TRUSTSTORE_TYPES = List.of("PKCS12", "JKS");

    /** The formats the sink reads: every format of the registry, {@link WireFormat}. */
    public static final List<String> INPUT_FORMATS = WireFormat.names(f -> true);

    protected SinkConfig(ConfigDef definition, Map<?, ?> props) {
        super(definition, props);
    }

    /** The JDBC URL, which may hold a password: show it only through DataSources.redact. */
    public String connectionUrl() {
        return getPassword(CONNECTION_URL).value();
    }

    public String connectionUser() {
        return getString(CONNECTION_USER);
    }

    /** {@value #CONNECTION_DRIVER}: auto or mysql-connector-j. */
    public String connectionDriver() {
        return getString(CONNECTION_DRIVER);
    }

    /** {@value #CONNECTION_SSL_MODE}: one of {@link #SSL_MODES}. */
    public String connectionSslMode() {
        return getString(CONNECTION_SSL_MODE);
    }

    /** The password, or null. Do not log it. */
    public String connectionPassword() {
        Password p = getPassword(CONNECTION_PASSWORD);
        return p == null ? null : p.value();
    }

    /** {@code ddl.unsupported=skip}. */
    public boolean ddlUnsupportedSkip() {
        return getString(DDL_UNSUPPORTED).equals("skip");
    }

    public boolean autoCreate() {
        return getBoolean(AUTO_CREATE);
    }

    public boolean autoEvolve() {
        return getBoolean(AUTO_EVOLVE);
    }

    public String dialect() {
        return getString(DIALECT);
    }

    public String timestampTimeZone() {
        return getString(TIMESTAMP_TIME_ZONE);
    }

    public String inputFormat() {
        return getString(INPUT_FORMAT);
    }

    /** {@link #inputFormat()} as the registry declares it. */
    public WireFormat inputWireFormat() {
        return WireFormat.named(inputFormat());
    }

    /** The registry URL, which may hold user:password@: do not log it. */
    public String schemaRegistryUrl() {
        return getPassword(SCHEMA_REGISTRY_URL).value();
    }

    /** Options for the codec's decoder, which may hold a password: do not log them. */
    public Map<String, String> inputCodecOptions() {
        return pairs(INPUT_CODEC_OPTIONS, List.of(getPassword(INPUT_CODEC_OPTIONS).value().split(",")),
                "key=value");
    }

    /** The codec options of schema.registry.ssl.truststore.*, or none when no trust store is set. */
    public Map<String, String> schemaRegistryTls() {
        if (getString(SCHEMA_REGISTRY_TRUSTSTORE).isBlank()) return Map.of();
        return Map.of("schema-registry-ssl-truststore-location", getString(SCHEMA_REGISTRY_TRUSTSTORE),
                "schema-registry-ssl-truststore-password", getPassword(SCHEMA_REGISTRY_TRUSTSTORE_PASSWORD).value(),
                "schema-registry-ssl-truststore-type", getString(SCHEMA_REGISTRY_TRUSTSTORE_TYPE));
    }

    public long inputMaxDecodedBytes() {
        return getLong(INPUT_MAX_DECODED_BYTES);
    }

    public long inputClaimCheckMaxRecordBytes() {
        return getLong(INPUT_CLAIM_CHECK_MAX_RECORD_BYTES);
    }

    public int inputClaimCheckMaxRecordPointers() {
        return getInt(INPUT_CLAIM_CHECK_MAX_RECORD_POINTERS);
    }

    /** source database -> target database. */
    public Map<String, String> schemaMap() {
        return pairs(SCHEMA_MAP, getList(SCHEMA_MAP), "source=target");
    }

    /** The databases written into under their own name ({@value #SCHEMA_INCLUDE}), blank entries dropped. */
    public List<String> schemaInclude() {
        return getList(SCHEMA_INCLUDE).stream().map(String::trim).filter(e -> !e.isEmpty()).toList();
    }

    private Map<String, String> pairs(String name, List<String> entries, String expected) {
        boolean secret = typeOf(name) == Type.PASSWORD;
        Map<String, String> m = new LinkedHashMap<>();
        for (String entry : entries) {
            String e = entry.trim();
            if (e.isEmpty()) continue;
            int eq = e.indexOf('=');
            if (eq <= 0 || eq == e.length() - 1) {
                // an entry of a password setting is not echoed: it may be half of a secret
                throw new ConfigException(name, secret ? "[hidden]" : entry, "expected " + expected);
            }
            m.put(e.substring(0, eq).trim(), e.substring(eq + 1).trim());
        }
        return Collections.unmodifiableMap(m);
    }

    /** {@code foreign.key.checks} as set (dialect.ForeignKeyChecks reads it: replica, off or server). */
    public String foreignKeyChecksSetting() {
        return getString(FOREIGN_KEY_CHECKS);
    }

    public int workerCount() {
        return getInt(WORKER_COUNT);
    }

    public long decodeAheadMaxBytes() {
        return getLong(DECODE_AHEAD_MAX_BYTES);
    }

    public int decodeThreads() {
        return getInt(DECODE_THREADS);
    }

    public boolean warmupEnabled() {
        return getBoolean(WARMUP_ENABLED);
    }

    public int maxTxnRows() {
        return getInt(MAX_TXN_ROWS);
    }

    public long bufferMaxBytes() {
        return getLong(BUFFER_MAX_BYTES);
    }

    public long bufferMaxWaitMs() {
        return getLong(BUFFER_MAX_WAIT_MS);
    }

    public long applyDrainTimeoutMs() {
        return getLong(APPLY_DRAIN_TIMEOUT_MS);
    }

    /** Whether a DDL statement without a count of its copies may run while the connector has several tasks. */
    public boolean uncountedDdlRunsAcrossTasks() {
        return UNCOUNTED_RUN.equals(getString(DDL_UNCOUNTED_ACROSS_TASKS)) || taskCount() == 1;
    }

    public long ddlBarrierTimeoutMs() {
        return getLong(DDL_BARRIER_TIMEOUT_MS);
    }

    public java.util.List<String> ddlApply() {
        return getList(DDL_APPLY);
    }

    public String ddlCheckpointDatabase() {
        return getString(DDL_CHECKPOINT_DATABASE);
    }

    public long connectionSocketTimeoutMs() {
        return getLong(CONNECTION_SOCKET_TIMEOUT_MS);
    }

    public int retryMaxAttempts() {
        return getInt(RETRY_MAX_ATTEMPTS);
    }

    public long retryBackoffMs() {
        return getLong(RETRY_BACKOFF_MS);
    }

    public int statementCacheSize() {
        return getInt(STATEMENT_CACHE_SIZE);
    }

    public int taskCount() {
        return getInt(TASK_COUNT);
    }
}
