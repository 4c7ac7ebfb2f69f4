package io.cdcconnect.sink;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Applies TiCDC-compatible change topics (and Debezium envelopes) to MySQL, MariaDB or TiDB. */
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

    @Override
    public ConfigDef config() {
        return CdcSinkConfig.configDef();
    }

    @Override
    public String version() {
        return Version.get();
    }
}
