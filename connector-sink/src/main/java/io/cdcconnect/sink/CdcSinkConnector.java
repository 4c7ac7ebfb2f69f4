package io.cdcconnect.sink;

import com.zaxxer.hikari.HikariDataSource;
import io.cdcconnect.sink.apply.DataSources;
import io.cdcconnect.sink.ddl.control.DdlCheckpoint;
import io.cdcconnect.sink.dialect.registry.Dialects;
import io.cdcconnect.sink.dialect.SqlDialect;
import io.cdcconnect.sink.txn.SourcePartition;
import io.cdcconnect.sink.validate.ConfigProblem;
import io.cdcconnect.sink.validate.JdbcSinkSettings;
import io.cdcconnect.sink.validate.SinkValidation;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Applies TiCDC-compatible change topics (and Debezium envelopes) to MySQL, MariaDB, TiDB or PostgreSQL. */
public final class CdcSinkConnector extends SinkConnector {

    private static final Logger LOG = LoggerFactory.getLogger(CdcSinkConnector.class);

    private Map<String, String> props;

    @Override
    public void start(Map<String, String> props) {
        // validates now, so a bad configuration fails the connector rather than each task
        CdcSinkConfig config = new CdcSinkConfig(props);
        this.props = Map.copyOf(props);
        LOG.info("Starting cdc-connect sink: input.format={}, safe.mode={}, worker.count={}", config.inputFormat(),
                config.safeMode().configName(), config.workerCount());
        // validation refuses the JDBC sinks' settings; a connector configured before it did still starts, warned
        String name = "sink " + props.getOrDefault("name", "cdc-sink");
        for (ConfigProblem p : JdbcSinkSettings.refusals(props)) {
            LOG.warn("{}: {} (ignored; validating this configuration again refuses it)", name, p.message());
        }
        for (ConfigProblem w : JdbcSinkSettings.warnings(name, props)) LOG.warn(w.message());
    }

    @Override
    public Class<? extends Task> taskClass() {
        return CdcSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>(maxTasks);
        for (int i = 0; i < maxTasks; i++) {
            Map<String, String> c = new HashMap<>(props);
            c.put(CdcSinkConfig.TASK_COUNT, Integer.toString(maxTasks));
            configs.add(c);
        }
        return configs;
    }

    @Override
    public void stop() {
        LOG.info("Stopped cdc-connect sink");
    }

    /**
     * Offsets altered or reset over Connect's REST API ({@code PATCH/DELETE /connectors/{name}/offsets}): the records
     * from the new offsets on are to be applied again, so the DDL checkpoint must no longer skip them.
     */
    @Override
    public boolean alterOffsets(Map<String, String> connectorConfig, Map<TopicPartition, Long> offsets) {
        CdcSinkConfig config = new CdcSinkConfig(connectorConfig);
        if (config.ddlCheckpointDatabase().isBlank() || offsets.isEmpty()) return true;
        String connector = connectorConfig.getOrDefault("name", "cdc-sink");
        Map<SourcePartition, Long> next = new HashMap<>();
        offsets.forEach((tp, o) -> next.put(new SourcePartition(tp.topic(), tp.partition()), o));
        SqlDialect dialect = Dialects.forUrl(config.connectionUrl());
        try (HikariDataSource ds = DataSources.create(dialect, config.connectionUrl(), config.connectionUser(),
                config.connectionPassword(), config.connectionSslMode(), 1, config.timestampTimeZone(),
                "cdc-sink-" + connector + "-offsets", 0)) {
            DdlCheckpoint.rewind(ds, dialect, config.ddlCheckpointDatabase(), connector, next);
        } catch (java.sql.SQLException | RuntimeException e) {
            throw new ConnectException("cannot rewind the DDL checkpoint of " + connector + " in "
                    + DataSources.redact(config.connectionUrl()) + ": " + DataSources.scrub(e.getMessage(),
                    config.connectionUrl(), config.connectionPassword()), e);
        }
        return true;
    }

    /**
     * Each setting, the rules that span settings (the converters the configuration names among them), and a live
     * check of the target (reachable, dialect, privileges, prepared-statement budget), every finding on the setting it
     * concerns: {@link SinkValidation}.
     */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        return SinkValidation.validate(connectorConfigs);
    }

    @Override
    public ConfigDef config() {
        return CdcSinkConfig.configDef();
    }

    @Override
    public String version() {
        return Version.get();
    }
}
