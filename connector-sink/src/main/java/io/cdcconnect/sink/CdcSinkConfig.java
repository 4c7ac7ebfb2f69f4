package io.cdcconnect.sink;

import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.dml.SafeMode;
import io.cdcconnect.sink.validate.ConfigProblem;
import io.cdcconnect.sink.validate.ConfigRules;
import io.cdcconnect.sink.validate.SinkConfigDef;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import java.util.List;
import java.util.Map;

/**
 * The sink connector's configuration: every setting, declared once ({@link SinkConfigDef}; docs/configuration.md is
 * generated from {@link #configDef()}), read as {@link SinkConfig} reads it, and checked against the rules that span
 * several settings ({@link ConfigRules}).
 */
public final class CdcSinkConfig extends SinkConfig {

    /** The settings, with the rules that span several of them ({@link ConfigRules}): the first broken one throws. */
    public CdcSinkConfig(Map<?, ?> props) {
        this(props, true);
    }

    private CdcSinkConfig(Map<?, ?> props, boolean rules) {
        super(SinkConfigDef.definition(), props);
        if (!rules) return;
        List<ConfigProblem> problems = ConfigRules.check(this);
        if (!problems.isEmpty()) {
            // the value is not echoed: several of these settings may hold a password
            throw new ConfigException("Invalid configuration " + problems.get(0).setting() + ": "
                    + problems.get(0).message());
        }
    }

    /** The settings, each valid on its own, without the rules that span them: for validation, which reports those. */
    public static CdcSinkConfig withoutRules(Map<?, ?> props) {
        return new CdcSinkConfig(props, false);
    }

    /** The sink's settings with types, defaults, validators and documentation. */
    public static ConfigDef configDef() {
        return SinkConfigDef.configDef();
    }

    /** {@value #SAFE_MODE}, as the DML's own type: read here, so that {@link SinkConfig} stays a leaf. */
    public SafeMode safeMode() {
        return SafeMode.parse(getString(SAFE_MODE));
    }

    /** {@code foreign.key.checks} as set; {@link io.cdcconnect.sink.dialect.ForeignKeyChecks#on} says what a target gives. */
    public io.cdcconnect.sink.dialect.ForeignKeyChecks foreignKeyChecks() {
        return io.cdcconnect.sink.dialect.ForeignKeyChecks.parse(foreignKeyChecksSetting());
    }
}
