package io.cdcconnect.verify;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One row that differs: missing downstream (only in the source), extra downstream (only in the target), or present on
 * both sides with different values in {@code columns}.
 */
public record RowDifference(Kind kind, String key, List<Column> columns) {

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

    /** A column whose values differ, each value as shown (quoted text, bare numbers, {@code 0x} bytes, NULL). */
    public record Column(String name, String upstream, String downstream) {
        @Override
        public String toString() {
            return name + ": " + upstream + " ≠ " + downstream;
        }
    }

    @Override
    public String toString() {
        return kind.label() + ": " + key + (columns.isEmpty() ? ""
                : " (" + columns.stream().map(Column::toString).collect(Collectors.joining("; ")) + ")");
    }
}
