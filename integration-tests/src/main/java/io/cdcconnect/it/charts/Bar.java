package io.cdcconnect.it.charts;

/** One bar: its label, its value, and the text printed at its end (e.g. "2.82×" or "12,345 rows/s"). */
public record Bar(String label, double value, String text) {
}
