package io.cdcconnect.it.charts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * SVG bar charts of a Markdown report's ratio columns: for every table with a column whose header says "vs …" (e.g.
 * "rows/s vs Debezium"), one chart of that column, bar per row, written beside the report as
 * {@code <report>-<section>.svg}, and an image link under the table. Running it again on its own output replaces
 * the charts and adds no second link. The end-to-end benchmark calls it on the report it writes; {@link #main}
 * regenerates the charts of an existing report.
 */
public final class RatioCharts {
    private RatioCharts() {
    }

    /** {@code args[0]}: the Markdown report, rewritten in place with its charts beside it. */
    public static void main(String[] args) throws IOException {
        Path report = Path.of(args[0]);
        String md = Files.readString(report, StandardCharsets.UTF_8);
        Files.writeString(report, addCharts(md, report), StandardCharsets.UTF_8);
    }

    /** Writes the charts of {@code markdown} (to be saved as {@code report}) and returns it with links to them. */
    public static String addCharts(String markdown, Path report) throws IOException {
        String base = report.getFileName().toString().replaceFirst("\\.md$", "");
        Path dir = report.toAbsolutePath().getParent();
        List<String> lines = new ArrayList<>(List.of(markdown.split("\n", -1)));
        String heading = "report";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#")) heading = line.replaceFirst("^#+\\s*", "").trim();
            if (!line.startsWith("|") || i + 1 >= lines.size() || !lines.get(i + 1).startsWith("|---")) continue;
            List<String> header = cells(line);
            int end = i + 2;
            while (end < lines.size() && lines.get(end).startsWith("|")) end++;
            int col = ratioColumn(header);
            if (col < 0) {
                i = end - 1;
                continue;
            }
            List<Bar> bars = new ArrayList<>();
            for (int r = i + 2; r < end; r++) {
                List<String> row = cells(lines.get(r));
                if (row.size() <= col) continue;
                double v = ratio(row.get(col));
                if (!Double.isNaN(v)) bars.add(new Bar(shortLabel(row.get(0)), v, row.get(col).replace("*", "")));
            }
            if (bars.isEmpty()) {
                i = end - 1;
                continue;
            }
            String file = base + "-" + slug(heading) + ".svg";
            String title = heading + ": " + header.get(col);
            Files.writeString(dir.resolve(file), SvgBarChart.render(title, bars, 1.0, "1× (baseline)"), StandardCharsets.UTF_8);
            String link = "![" + title + "](" + file + ")";
            int next = end;
            while (next < lines.size() && lines.get(next).isBlank()) next++;
            if (next < lines.size() && lines.get(next).startsWith("![") && lines.get(next).contains("(" + file + ")")) {
                lines.set(next, link);
            } else {
                lines.add(end, "");
                lines.add(end + 1, link);
                end += 2;
            }
            i = end - 1;
        }
        return String.join("\n", lines);
    }

    static List<String> cells(String row) {
        String r = row.trim();
        if (r.startsWith("|")) r = r.substring(1);
        if (r.endsWith("|")) r = r.substring(0, r.length() - 1);
        List<String> out = new ArrayList<>();
        for (String c : r.split("(?<!\\\\)\\|", -1)) out.add(c.trim());
        return out;
    }

    private static int ratioColumn(List<String> header) {
        for (int i = 1; i < header.size(); i++) {
            String h = header.get(i).toLowerCase(Locale.ROOT);
            if (h.startsWith("vs ") || h.contains(" vs ")) return i;
        }
        return -1;
    }

    /** "2.82×", "**14.10×**", "16.16x" → the number; anything else NaN. */
    static double ratio(String cell) {
        String c = cell.replace("*", "").replace("×", "").replaceAll("x$", "").replace(",", "").trim();
        try {
            return Double.parseDouble(c);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** A row's name without its explanation: "ours, batching off (max.txn.rows=1: …)" → "ours, batching off". */
    static String shortLabel(String label) {
        String l = label;
        int colon = l.indexOf(": ");
        if (colon > 0) l = l.substring(0, colon);
        int paren = l.indexOf(" (");
        if (paren > 0) l = l.substring(0, paren);
        return l.trim();
    }

    static String slug(String heading) {
        String s = heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
        return s.isEmpty() ? "chart" : s;
    }
}
