package io.cdcconnect.verify;

import java.util.List;

/**
 * One row that differs: missing downstream (only in the source), extra downstream (only in the target), or present on
 * both sides with different values in {@code columns} (each "name: upstream ≠ downstream").
 */
public record RowDifference(Kind kind, String key, List<String> columns) {

    public enum Kind {
        MISSING_DOWNSTREAM("missing downstream"), EXTRA_DOWNSTREAM("extra downstream"), DIFFERENT("different");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    @Override
    public String toString() {
        return kind.label() + ": " + key + (columns.isEmpty() ? "" : " (" + String.join("; ", columns) + ")");
    }
}
