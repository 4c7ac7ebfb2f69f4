package io.cdcconnect.it;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Renders {@code docs/configuration.md} from the connectors' own {@link ConfigDef}s, loaded from the plugin archives
 * the build produced, so the reference is generated, never hand-kept.
 */
public final class ConfigReference {

    /** One connector: its title, plugin folder name and the class holding {@code public static ConfigDef configDef()}. */
    public record Section(String title, String pluginFolder, String configClass) {
    }

    public static final List<Section> SECTIONS = List.of(
            new Section("Source connector (`io.cdcconnect.source.CdcSourceConnector`)", "cdc-connect-source",
                    "io.cdcconnect.source.CdcSourceConfig"),
            new Section("Sink connector (`io.cdcconnect.sink.CdcSinkConnector`)", "cdc-connect-sink",
                    "io.cdcconnect.sink.CdcSinkConfig"));

    private ConfigReference() {
    }

    public static String render(Path pluginDir) {
        StringBuilder md = new StringBuilder();
        md.append("# Configuration reference\n\n")
                .append("Generated from the connectors' `ConfigDef`s by `ConfigReferenceTest`; do not edit by hand.\n")
                .append("Regenerate: `mvn -B install -DskipTests && mvn -B -pl integration-tests test -Dtest=ConfigReferenceTest -Dcdc.docs.write=true`.\n\n")
                .append("Besides these, every Kafka Connect connector setting applies (`tasks.max`, `topics`, `errors.*`, converters); ")
                .append("the source also passes every Debezium MySQL/MariaDB connector setting (`database.*`, `snapshot.*`, ")
                .append("`table.include.list`, `schema.history.internal.*`) through to Debezium.\n");
        md.append("\n## Formats (`output.format`, `input.format`)\n\n")
                .append("Generated from the format registry `io.cdcconnect.codec.WireFormat`, the one place formats are ")
                .append("declared; both connectors' settings, validators and the descriptions below read it.\n\n")
                .append(formats(pluginDir, SECTIONS.get(SECTIONS.size() - 1)));
        for (Section s : SECTIONS) {
            md.append("\n## ").append(s.title()).append("\n\n");
            ConfigDef def = load(pluginDir, s);
            md.append("| name | type | default | valid values | importance | description |\n");
            md.append("|---|---|---|---|---|---|\n");
            List<ConfigDef.ConfigKey> keys = new ArrayList<>(def.configKeys().values());
            for (ConfigDef.ConfigKey k : keys) {
                md.append("| `").append(k.name).append("` | ").append(k.type.toString().toLowerCase())
                        .append(" | ").append(defaultOf(k))
                        .append(" | ").append(k.validator == null ? "" : cell(k.validator.toString()))
                        .append(" | ").append(k.importance.toString().toLowerCase())
                        .append(" | ").append(cell(k.documentation == null ? "" : k.documentation)).append(" |\n");
            }
        }
        return md.toString();
    }

    private static String defaultOf(ConfigDef.ConfigKey k) {
        if (!k.hasDefault()) return "*(required)*";
        Object v = k.defaultValue;
        if (v == null) return "null";
        if (v instanceof Password) return "*(hidden)*";
        String s = ConfigDef.convertToString(v, k.type);
        return s == null || s.isEmpty() ? "\"\"" : "`" + cell(s) + "`";
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ").trim();
    }

    private static ConfigDef load(Path pluginDir, Section s) {
        return (ConfigDef) call(pluginDir, s.pluginFolder(), s.configClass(), "configDef");
    }

    /** The registry's table of formats, from the plugin that reads them all (the sink's). */
    private static String formats(Path pluginDir, Section s) {
        return (String) call(pluginDir, s.pluginFolder(), "io.cdcconnect.codec.WireFormat", "markdownTable");
    }

    private static Object call(Path pluginDir, String pluginFolder, String className, String staticMethod) {
        try {
            return pluginClass(pluginDir, pluginFolder, className).getMethod(staticMethod).invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + className + "." + staticMethod + "() from "
                    + pluginFolder + ": " + e, e);
        }
    }

    /** {@code className} loaded from the jars of plugin folder {@code pluginFolder}, as Connect would load it. */
    static Class<?> pluginClass(Path pluginDir, String pluginFolder, String className) {
        Path lib = ConnectPlugins.home(pluginDir, pluginFolder).resolve("lib");
        try (Stream<Path> jars = Files.list(lib)) {
            URL[] urls = jars.filter(p -> p.toString().endsWith(".jar")).map(ConfigReference::url).toArray(URL[]::new);
            // A child of this loader: Kafka's ConfigDef must be the same class on both sides.
            URLClassLoader loader = new URLClassLoader(urls, ConfigReference.class.getClassLoader());
            return Class.forName(className, true, loader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list plugin jars in " + lib, e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("no " + className + " in " + lib + ": " + e, e);
        }
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
