package io.cdcconnect.sink.dml;

import java.util.Locale;

/**
 * {@code safe.mode}: ALWAYS writes every transaction idempotently (upsert/REPLACE, deletes by key); NEVER writes plain
 * INSERT/UPDATE/DELETE so that a duplicate key fails; AUTO is NEVER except in the replay window after a (re)start or
 * a partition assignment, where rows may already have been applied.
 */
public enum SafeMode {
    AUTO, ALWAYS, NEVER;

    public static SafeMode parse(String s) {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
