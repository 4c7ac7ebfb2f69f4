package io.cdcconnect.sink.validate;

import io.cdcconnect.codec.WireFormat;
import io.cdcconnect.sink.config.SinkConfig;
import io.cdcconnect.sink.apply.SchemaAllowList;
import io.cdcconnect.sink.decode.RecordDecoders;
import io.cdcconnect.sink.dialect.registry.Dialects;
import org.apache.kafka.common.config.ConfigException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The sink's rules that span settings, each reported on the setting it concerns: what a task would otherwise find only
 * when it starts. {@link SinkConfig}'s constructor throws the first; the connector's {@code validate()} reports them
 * all. Settings that each are valid on their own are the ConfigDef's business, not this class's.
 */
public final class ConfigRules {

    private ConfigRules() {
    }

    /** Every problem of {@code config}, in the order of the settings. */
    public static List<ConfigProblem> check(SinkConfig config) {
        List<ConfigProblem> out = new ArrayList<>();
        String mismatch = Dialects.mismatch(config.connectionUrl(), config.dialect());
        if (mismatch != null) out.add(new ConfigProblem(SinkConfig.DIALECT, mismatch));
        WireFormat format = config.inputWireFormat();
        Map<String, String> options = null;
        try {
            options = config.inputCodecOptions();
            format.checkDecoderOptions(options);
        } catch (ConfigException | IllegalArgumentException e) {
            out.add(new ConfigProblem(SinkConfig.INPUT_CODEC_OPTIONS, "input.format=" + format + ": "
                    + e.getMessage()));
        }
        if (format.needsSchemaRegistry()) {
            if (options != null && !RecordDecoders.hasSchemaRegistry(config)) {
                out.add(new ConfigProblem(SinkConfig.SCHEMA_REGISTRY_URL, "input.format=" + format + " needs the "
                        + "schema registry's URL: set " + SinkConfig.SCHEMA_REGISTRY_URL + " (e.g. "
                        + "http://registry:8081, or Apicurio's http://host:8080/apis/ccompat/v7)"));
            }
            try {
                format.checkDecoderOptions(config.schemaRegistryTls());
            } catch (IllegalArgumentException e) {
                out.add(new ConfigProblem(SinkConfig.SCHEMA_REGISTRY_TRUSTSTORE, e.getMessage()));
            }
        }
        out.addAll(schemaMap(config));
        ConfigProblem store = controlStore(config);
        if (store != null) out.add(store);
        return out;
    }

    /**
     * Several tasks that apply DDL need the control store to agree which of them runs a statement sent to several
     * partitions: without it each would run it once its own partitions passed it (a TRUNCATE a second time, after
     * rows written since).
     */
    static ConfigProblem controlStore(SinkConfig config) {
        if (config.taskCount() <= 1 || !config.ddlCheckpointDatabase().isBlank()) return null;
        if (io.cdcconnect.sink.ddl.DdlPolicy.parse(config.ddlApply(), "").allowed().isEmpty()) return null;
        return new ConfigProblem(SinkConfig.DDL_CHECKPOINT_DATABASE, SinkConfig.DDL_CHECKPOINT_DATABASE
                + " is empty and tasks.max is " + config.taskCount() + ": the tasks could not agree which of them "
                + "runs a DDL statement sent to several partitions, and each would run it (a TRUNCATE once per task, "
                + "the second after rows written since). Set " + SinkConfig.DDL_CHECKPOINT_DATABASE + " (e.g. "
                + "cdc_connect), or tasks.max=1, or " + SinkConfig.DDL_APPLY + "=none");
    }

    /**
     * {@code schema.map} and {@code schema.include}: entries {@code source=target}, each source once; no database
     * that the sink must never write into (the target's system databases and the DDL checkpoint database); at least
     * one database permitted ({@link SchemaAllowList}).
     */
    static List<ConfigProblem> schemaMap(SinkConfig config) {
        List<ConfigProblem> out = new ArrayList<>();
        Map<String, String> map;
        try {
            map = config.schemaMap();
        } catch (ConfigException e) {
            out.add(new ConfigProblem(SinkConfig.SCHEMA_MAP, e.getMessage() + " (write source=target pairs "
                    + "separated by commas, e.g. shop=shop_replica,crm=crm_copy)"));
            return out;
        }
        Set<String> seen = new HashSet<>();
        for (String entry : config.getList(SinkConfig.SCHEMA_MAP)) {
            int eq = entry.indexOf('=');
            String source = eq < 0 ? entry.trim() : entry.substring(0, eq).trim();
            if (!source.isEmpty() && !seen.add(source)) {
                out.add(new ConfigProblem(SinkConfig.SCHEMA_MAP, "database '" + source + "' is mapped more than "
                        + "once; keep one " + source + "=target entry"));
            }
        }
        SchemaAllowList allowList = new SchemaAllowList(List.of(),
                Dialects.forUrl(config.connectionUrl()).systemSchemas(), config.ddlCheckpointDatabase());
        for (Map.Entry<String, String> e : map.entrySet()) {
            if (allowList.isProtected(e.getValue())) {
                out.add(new ConfigProblem(SinkConfig.SCHEMA_MAP, "'" + e.getKey() + "=" + e.getValue()
                        + "' maps into '" + e.getValue() + "', a system database or a sink's control database ("
                        + SinkConfig.DDL_CHECKPOINT_DATABASE + ", this sink's or the default "
                        + SchemaAllowList.DEFAULT_CONTROL_DATABASE + "): map it to a database of your data"));
            }
        }
        for (String schema : config.schemaInclude()) {
            if (schema.indexOf('=') >= 0) {
                out.add(new ConfigProblem(SinkConfig.SCHEMA_INCLUDE, "'" + schema + "' is a rename: list it in "
                        + SinkConfig.SCHEMA_MAP + "; " + SinkConfig.SCHEMA_INCLUDE + " lists databases kept "
                        + "by name"));
            } else if (allowList.isProtected(schema)) {
                out.add(new ConfigProblem(SinkConfig.SCHEMA_INCLUDE, "'" + schema + "' is a system database or "
                        + "a sink's control database (" + SinkConfig.DDL_CHECKPOINT_DATABASE + ", this sink's or the "
                        + "default " + SchemaAllowList.DEFAULT_CONTROL_DATABASE + "), which no message may change: "
                        + "list the databases of your data"));
            }
        }
        if (map.isEmpty() && config.schemaInclude().isEmpty()) {
            out.add(new ConfigProblem(SinkConfig.SCHEMA_INCLUDE, "no database may be changed: set "
                    + SinkConfig.SCHEMA_INCLUDE + " to the databases written into under their own name (e.g. "
                    + "shop,crm), or " + SinkConfig.SCHEMA_MAP + " to source=target renames, or both. A message "
                    + "may change only the databases these name (docs/security.md)"));
        }
        return out;
    }

    /**
     * The databases rows and DDL go to that the configuration names: the targets of {@code schema.map} and
     * {@code schema.include} ({@link SchemaAllowList#configured}).
     */
    public static Set<String> mappedSchemas(SinkConfig config) {
        return SchemaAllowList.configured(config);
    }
}
