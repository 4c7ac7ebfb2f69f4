package io.cdcconnect.testsupport;

import java.util.LinkedHashMap;
import java.util.Map;

/** System properties set (or cleared) for one test and restored on close. */
public final class TemporaryProperties implements AutoCloseable {
    private final Map<String, String> previous = new LinkedHashMap<>();

    public TemporaryProperties set(String key, String value) {
        previous.putIfAbsent(key, System.getProperty(key));
        if (value == null) System.clearProperty(key);
        else System.setProperty(key, value);
        return this;
    }

    public TemporaryProperties clear(String... keys) {
        for (String k : keys) set(k, null);
        return this;
    }

    @Override
    public void close() {
        previous.forEach((k, v) -> {
            if (v == null) System.clearProperty(k);
            else System.setProperty(k, v);
        });
        previous.clear();
    }
}
