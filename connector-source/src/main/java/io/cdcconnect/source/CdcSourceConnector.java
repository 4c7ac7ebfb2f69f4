package io.cdcconnect.source;

import io.cdcconnect.codec.ConverterRules;
import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.source.check.StartupChecks;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Source connector: MySQL/MariaDB binlog (read by Debezium's binlog connectors) into TiCDC-compatible topics
 * (Canal-JSON, Open-protocol, Avro). One task: a binlog is one ordered stream.
 */
public class CdcSourceConnector extends SourceConnector {
    private static final Logger LOG = LoggerFactory.getLogger(CdcSourceConnector.class);

    private Map<String, String> props;

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        CdcSourceConfig config;
        try {
            config = new CdcSourceConfig(props);
        } catch (ConfigException e) {
            throw new ConnectException("invalid source connector configuration: " + e.getMessage(), e);
        }
        if (config.startupChecks()) {
            checkServer(config);
        }
        if (props.containsKey(CdcSourceConfig.DEBEZIUM_MAX_BATCH_SIZE) && config.outputFormat().batchesRows()
                && !props.containsKey(CdcSourceConfig.OPEN_PROTOCOL_MAX_BATCH_SIZE)) {
            LOG.warn("{} is Debezium's setting (events per batch of its queue) and goes to Debezium; the rows per "
                    + "{} message are set by {} ({} now)", CdcSourceConfig.DEBEZIUM_MAX_BATCH_SIZE,
                    config.outputFormat(), CdcSourceConfig.OPEN_PROTOCOL_MAX_BATCH_SIZE, config.maxBatchSize());
        }
        this.props = new HashMap<>(props);
        LOG.info("Source connector {} started ({} flavour, {}:{})", props.getOrDefault("name", config.topicPrefix()),
                config.flavor().configName(), config.hostname(), config.port());
    }

    /** Throws a ConnectException listing every problem the start-up checks find, each with its fix. */
    static void checkServer(CdcSourceConfig config) {
        List<StartupChecks.Problem> problems = checks(config).run();
        if (!problems.isEmpty()) {
            throw new ConnectException("the source server is not ready for change capture: "
                    + problems.stream().map(StartupChecks.Problem::message).collect(Collectors.joining(" | ")));
        }
    }

    static StartupChecks checks(CdcSourceConfig config) {
        String mode = config.snapshotMode().trim().toLowerCase(Locale.ROOT);
        boolean snapshotNeedsLocks = !(mode.equals("no_data") || mode.equals("never") || mode.equals("schema_only")
                || mode.equals("recovery") || mode.equals("schema_only_recovery"));
        String locking = config.originalsStrings().getOrDefault("snapshot.locking.mode", "minimal");
        if (locking.equalsIgnoreCase("none")) snapshotNeedsLocks = false;
        return new StartupChecks(config.flavor(), config.hostname(), config.port(), config.user(),
                config.jdbcProperties(), snapshotNeedsLocks);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return CdcSourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(new HashMap<>(props));
    }

    @Override
    public void stop() {
        LOG.info("Source connector stopped");
    }

    @Override
    public ConfigDef config() {
        return CdcSourceConfig.configDef();
    }

    /**
     * Our settings, then Debezium's own rules for the settings it receives, then (when all are sound) the server
     * itself: connection, binlog, format, row image, privileges. Whatever those find, the converters the connector's
     * configuration names ({@link #converterProblems}).
     */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config config = validateSettings(connectorConfigs);
        List<ConfigValue> values = new ArrayList<>(config.configValues());
        for (ConverterRules.Problem p : converterProblems(connectorConfigs)) {
            ConfigValue v = new ConfigValue(p.setting());
            v.addErrorMessage(p.message());
            values.add(v);
        }
        return new Config(values);
    }

    /**
     * The converters the connector's configuration names must write the encoders' bytes unchanged
     * ({@link ConverterRules#forProducer}); one left to the worker's default is not visible here. Transformations
     * that may change the bytes are logged as a warning (Connect's validation has no warnings).
     */
    static List<ConverterRules.Problem> converterProblems(Map<String, String> props) {
        WireFormat format;
        try {
            format = WireFormat.encodable(props.getOrDefault(CdcSourceConfig.OUTPUT_FORMAT,
                    WireFormat.CANAL_JSON.configName()));
        } catch (IllegalArgumentException e) {
            format = WireFormat.CANAL_JSON; // the bad name is reported on output.format; every format is bytes
        }
        String warning = ConverterRules.transformWarning("source " + props.getOrDefault("name", "(validation)"),
                format, props);
        if (warning != null) LOG.warn(warning);
        return ConverterRules.forProducer(format, props);
    }

    private Config validateSettings(Map<String, String> connectorConfigs) {
        Config ours = super.validate(connectorConfigs);
        List<ConfigValue> values = new ArrayList<>(ours.configValues());
        Map<String, ConfigValue> byName = new HashMap<>();
        for (ConfigValue v : values) byName.put(v.name(), v);
        ExactlyOnce.problem(connectorConfigs).ifPresent(problem -> {
            ConfigValue v = new ConfigValue(ExactlyOnce.TRANSACTION_BOUNDARY_CONFIG);
            v.addErrorMessage(problem);
            values.add(v);
        });
        if (!allValid(values)) return new Config(values);
        CdcSourceConfig config;
        try {
            config = new CdcSourceConfig(connectorConfigs);
        } catch (ConfigException e) {
            String name = settingNamed(e.getMessage());
            ConfigValue v = byName.get(name);
            if (v == null) {
                v = new ConfigValue(name);
                values.add(v);
            }
            v.addErrorMessage(io.cdcconnect.codec.util.Redaction.scrub(e.getMessage(), null,
                    io.cdcconnect.codec.util.Redaction.secretValues(connectorConfigs)));
            return new Config(values);
        }
        for (Map.Entry<String, String> e : debeziumErrors(connectorConfigs, config.flavor()).entrySet()) {
            ConfigValue v = byName.get(e.getKey());
            if (v == null) {
                v = new ConfigValue(e.getKey());
                byName.put(e.getKey(), v);
                values.add(v);
            }
            v.addErrorMessage(e.getValue());
        }
        if (!allValid(values)) return new Config(values);
        if (config.startupChecks()) {
            for (StartupChecks.Problem p : checks(config).run()) {
                ConfigValue v = byName.get(p.setting());
                if (v != null) v.addErrorMessage(p.message());
            }
        }
        return new Config(values);
    }

    private static boolean allValid(List<ConfigValue> values) {
        return values.stream().allMatch(v -> v.errorMessages().isEmpty());
    }

    /** "Invalid value x for configuration NAME: ..." names the setting; our own checks use that form too. */
    private static String settingNamed(String message) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("for configuration (\\S+?):").matcher(
                message == null ? "" : message);
        return m.find() ? m.group(1) : CdcSourceConfig.DATABASE_HOSTNAME;
    }

    /** Debezium's validation of the settings it will receive (e.g. an unknown snapshot.mode), by setting name. */
    static Map<String, String> debeziumErrors(Map<String, String> props, SourceFlavor flavor) {
        Map<String, String> dbz = DebeziumSettings.forDebezium(props, flavor);
        io.debezium.config.Field.Set fields = flavor == SourceFlavor.MYSQL
                ? io.debezium.connector.mysql.MySqlConnectorConfig.ALL_FIELDS
                : io.debezium.connector.mariadb.MariaDbConnectorConfig.ALL_FIELDS;
        Map<String, String> errors = new java.util.LinkedHashMap<>();
        for (ConfigValue v : io.debezium.config.Configuration.from(dbz).validate(fields).values()) {
            if (!v.errorMessages().isEmpty()) {
                errors.put(v.name(), "Debezium: " + String.join("; ", v.errorMessages()));
            }
        }
        return errors;
    }

    /** Exactly-once (KIP-618) holds with poll or connector transaction boundaries ({@link ExactlyOnce}). */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnce.support(connectorConfig);
    }

    /** The task ends a transaction at the last record of each poll when {@code transaction.boundary=connector}. */
    @Override
    public org.apache.kafka.connect.source.ConnectorTransactionBoundaries canDefineTransactionBoundaries(
            Map<String, String> connectorConfig) {
        return ExactlyOnce.boundaries(connectorConfig);
    }
}
