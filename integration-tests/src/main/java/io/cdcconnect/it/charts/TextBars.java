package io.cdcconnect.it.charts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Bars drawn with block characters, for a terminal: one line per bar, the longest bar {@code width} characters. */
public final class TextBars {
    private static final String[] EIGHTHS = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

    private TextBars() {
    }

    public static List<String> render(List<Bar> bars, int width) {
        double max = 0;
        int labelWidth = 0, textWidth = 0;
        for (Bar b : bars) {
            if (Double.isFinite(b.value())) max = Math.max(max, b.value());
            labelWidth = Math.max(labelWidth, b.label().length());
            textWidth = Math.max(textWidth, b.text().length());
        }
        List<String> out = new ArrayList<>();
        for (Bar b : bars) {
            double v = Double.isFinite(b.value()) && b.value() > 0 ? b.value() : 0;
            int eighths = max == 0 ? 0 : (int) Math.round(v / max * width * 8);
            String bar = "█".repeat(eighths / 8) + EIGHTHS[eighths % 8];
            out.add(String.format(Locale.ROOT, "%-" + labelWidth + "s  %" + textWidth + "s  %s", b.label(), b.text(), bar));
        }
        return out;
    }
}
