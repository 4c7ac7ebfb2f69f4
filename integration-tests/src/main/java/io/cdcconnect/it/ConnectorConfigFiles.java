package io.cdcconnect.it;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the connector JSON files in {@code config/}: the body of {@code PUT /connectors/{name}/config}, with
 * {@code ${NAME}} placeholders for what differs per installation (hosts, ports, users, passwords).
 */
public final class ConnectorConfigFiles {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z0-9_]+)}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConnectorConfigFiles() {
    }

    public static Path configDir() {
        return Path.of(System.getProperty("cdc.config.dir", "config"));
    }

    /** Loads {@code config/<file>} and fills every placeholder from {@code values}; an unfilled one is an error. */
    public static Map<String, String> load(String file, Map<String, String> values) {
        Path path = configDir().resolve(file);
        try {
            Map<String, String> raw = JSON.readValue(Files.readString(path), new TypeReference<LinkedHashMap<String, String>>() {
            });
            Map<String, String> out = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : raw.entrySet()) {
                out.put(e.getKey(), fill(e.getValue(), values, path, e.getKey()));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read connector config " + path + ": " + e.getMessage(), e);
        }
    }

    static String fill(String value, Map<String, String> values, Path file, String key) {
        Matcher m = PLACEHOLDER.matcher(value);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException(file + ": setting '" + key + "' uses ${" + m.group(1)
                        + "} but no value was given for it");
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
