package io.cdcconnect.it.charts;

import java.util.List;
import java.util.Locale;

/**
 * A horizontal bar chart as a standalone SVG document (no dependency): a title, one bar per {@link Bar} with its label
 * on the left and its text at its end, and optionally a dashed line at a reference value (e.g. 1× for a ratio
 * against a baseline).
 */
public final class SvgBarChart {
    private static final int WIDTH = 760;
    private static final int BAR = 20;
    private static final int GAP = 8;
    private static final int TOP = 40;
    private static final double CHAR = 6.6; // average width of a 12px sans-serif character
    private static final int MAX_LABEL_CHARS = 48;

    private SvgBarChart() {
    }

    /** The SVG text; {@code reference} NaN for no reference line. */
    public static String render(String title, List<Bar> bars, double reference, String referenceText) {
        int labelChars = 0;
        double max = Double.isNaN(reference) ? 0 : reference;
        for (Bar b : bars) {
            labelChars = Math.max(labelChars, Math.min(MAX_LABEL_CHARS, b.label().length()));
            if (Double.isFinite(b.value())) max = Math.max(max, b.value());
        }
        int left = (int) Math.ceil(labelChars * CHAR) + 16;
        int plot = WIDTH - left - 90;
        int height = TOP + bars.size() * (BAR + GAP) + 30;
        double scale = max <= 0 ? 0 : plot / (max * 1.05);
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, height, WIDTH, height));
        s.append("  <title>").append(escape(title)).append("</title>\n");
        s.append(String.format(Locale.ROOT, "  <rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", WIDTH, height));
        s.append("  <text x=\"10\" y=\"22\" font-size=\"14\" font-weight=\"bold\">").append(escape(title)).append("</text>\n");
        int y = TOP;
        for (Bar b : bars) {
            double v = Double.isFinite(b.value()) && b.value() > 0 ? b.value() : 0;
            double w = v * scale;
            String label = b.label().length() > MAX_LABEL_CHARS ? b.label().substring(0, MAX_LABEL_CHARS - 1) + "…" : b.label();
            s.append(String.format(Locale.ROOT, "  <text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 8,
                    y + BAR - 6, escape(label)));
            s.append(String.format(Locale.ROOT, "  <rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#4e79a7\">"
                    + "<title>%s: %s</title></rect>\n", left, y, w, BAR, escape(b.label()), escape(b.text())));
            s.append(String.format(Locale.ROOT, "  <text x=\"%.1f\" y=\"%d\">%s</text>\n", left + w + 6, y + BAR - 6,
                    escape(b.text())));
            y += BAR + GAP;
        }
        if (!Double.isNaN(reference) && scale > 0) {
            double x = left + reference * scale;
            s.append(String.format(Locale.ROOT, "  <line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e15759\" "
                    + "stroke-dasharray=\"4 3\"/>\n", x, TOP - 6, x, y));
            s.append(String.format(Locale.ROOT, "  <text x=\"%.1f\" y=\"%d\" fill=\"#e15759\" text-anchor=\"middle\">%s</text>\n",
                    x, y + 14, escape(referenceText)));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    if (c < 0x20 && c != '\t' && c != '\n') b.append(' '); // not allowed in XML 1.0
                    else b.append(c);
                }
            }
        }
        return b.toString();
    }
}
