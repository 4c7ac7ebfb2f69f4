package io.cdcconnect.source;

import java.util.Locale;

/** The wire format of the output topics (TiCDC's {@code protocol}). */
public enum OutputFormat {
    CANAL_JSON("canal-json"), OPEN_PROTOCOL("open-protocol"), AVRO("avro");

    private final String configName;

    OutputFormat(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static OutputFormat parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (OutputFormat f : values()) {
            if (f.configName.equals(n)) return f;
        }
        throw new IllegalArgumentException("unknown output.format '" + name
                + "' (expected canal-json, open-protocol or avro)");
    }
}
